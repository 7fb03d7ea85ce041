import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnWorkers, workersReady, type WorkerProcess } from './processes.js';
import { terraformAvailable } from './terraform.js';

/** Whether `bin version` runs (a real policy runtime is installed). */
export function runtimeInstalled(bin: string): boolean {
  try {
    execFileSync(bin, ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/*
 * Stand-ins for the sentinel and opa binaries, for machines that have neither (they are
 * third-party programs the package registries here do not carry). Each understands a small subset
 * of its real language, so the policies the flow tests upload are valid for the real runtimes
 * too, and the flows run against the real binaries where they are installed:
 * - Sentinel: `main = rule { true }` or `main = rule { false }`, plus `print("...")` lines; a
 *   `// slow` comment line makes the stand-in take a few seconds (to catch a check in progress).
 * - OPA: a rule `deny := [ ...JSON strings... ]` on one line, or go-tfe's one-line
 *   `package example rule["message"] { true|false }`; `opa eval` answers its value.
 */
const SENTINEL = `#!/bin/sh
if [ "$1" = "version" ]; then echo "Sentinel v0.26.3"; exit 0; fi
f=policy.sentinel
if grep -q '^// slow' "$f"; then sleep 4; fi
if grep -q 'main = rule { true }' "$f"; then code=0; echo "Pass - policy.sentinel"
elif grep -q 'main = rule { false }' "$f"; then code=1; echo "Fail - policy.sentinel"
else echo "policy.sentinel: only main = rule { true|false } is understood here" >&2; exit 3; fi
msgs=$(sed -n 's/^print("\\(.*\\)")$/\\1/p' "$f")
if [ -n "$msgs" ]; then printf '\\nPrint messages:\\n\\n%s\\n' "$msgs"; fi
exit $code
`;

const OPA = `#!/bin/sh
if [ "$1" = "version" ]; then echo "Version: 0.70.0"; exit 0; fi
for last; do :; done
value=$(sed -n 's/^deny := \\(\\[.*\\]\\)$/\\1/p' policy.rego)
# go-tfe's one-line policies: package example rule["message"] { true|false }
if [ -z "$value" ]; then
  msg=$(sed -n 's/.*\\["\\(.*\\)"\\] { true }.*/\\1/p' policy.rego)
  if [ -n "$msg" ]; then value="[\\"$msg\\"]"; elif grep -q '\\] { false }' policy.rego; then value='[]'; fi
fi
if [ -z "$value" ]; then echo '{"errors":[{"message":"only deny := [...] is understood here","code":"rego_parse_error"}]}'; exit 1; fi
printf '{"result":[{"expressions":[{"value":%s,"text":"%s","location":{"row":1,"col":1}}]}]}\\n' "$value" "$last"
`;

/**
 * The runtime binaries the workers should use: the real ones when installed, else stand-ins
 * written to a temporary directory. Returns the environment for spawnWorkers.
 */
export async function policyRuntimeEnv(): Promise<{ SENTINEL_PATH: string; OPA_PATH: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'rls-policy-runtimes-'));
  // Workers run policy runtimes in a sandbox as users of their own: the stand-ins' directory must be open to them.
  await chmod(dir, 0o755);
  const pick = async (bin: string, script: string) => {
    if (runtimeInstalled(bin)) return bin;
    const path = join(dir, bin);
    await writeFile(path, script);
    await chmod(path, 0o755);
    return path;
  };
  return { SENTINEL_PATH: await pick('sentinel', SENTINEL), OPA_PATH: await pick('opa', OPA) };
}

/** Sentinel policy text that passes or fails, printing `message`. */
export const sentinelPolicy = (pass: boolean, message: string) => `print("${message}")\n\nmain = rule { ${pass} }\n`;

/** Rego text whose `deny` rule yields `messages` (empty: pass). */
export const regoPolicy = (pkg: string, messages: string[]) =>
  `package ${pkg}\n\ndeny := ${JSON.stringify(messages)}\n`;

/** A run-pipeline worker whose policy checks run the stand-in runtimes (see policyRuntimeEnv). */
export async function startPolicyWorker(): Promise<WorkerProcess> {
  const worker = spawnWorkers(['run-pipeline', 'deadline-expiry'], {
    RECONCILE_INTERVAL_MS: '2000',
    ...(await policyRuntimeEnv()),
  });
  await workersReady(worker);
  return worker;
}

/** Hooks of a suite that plans with real terraform and checks policies: a policy worker for the suite (skipped without terraform). */
export function policyWorkers(): void {
  let worker: WorkerProcess | undefined;
  before(async function () {
    if (!terraformAvailable()) this.skip();
    worker = await startPolicyWorker();
  });
  after(async () => {
    await worker?.stop();
  });
}
