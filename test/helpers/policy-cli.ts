import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRunInput, type RunInputSource } from '../../shared/policies/run-input.js';
import type { EvaluationInput, PolicyToEvaluate, RunInputDocument } from '../../shared/policies/types.js';
import { runTerraform, terraformEnv } from '../../shared/platform/terraform/runner.js';
import { terraformAvailable } from './terraform.js';

/** Whether a binary runs (`<bin> version`), for tests that need a real policy runtime. */
export function binaryRuns(bin: string): boolean {
  try {
    execFileSync(bin, ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `terraform show -json` of a real plan of `files`, parsed (built-in resources only: no provider downloads). */
export async function realPlanJson(files: Record<string, string>): Promise<unknown> {
  const dir = await mkdtemp(join(tmpdir(), 'rls-test-plan-'));
  try {
    for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
    const settings = { bin: 'terraform', cliConfigFile: null };
    const env = terraformEnv(settings, dir);
    for (const args of [
      ['init', '-input=false', '-no-color'],
      ['plan', '-input=false', '-no-color', '-out=plan.tfplan'],
    ]) {
      const r = await runTerraform(settings, args, dir, env);
      if (r.code !== 0) throw new Error(`terraform ${args[0]} failed: ${r.output}`);
    }
    const show = await runTerraform(settings, ['show', '-json', 'plan.tfplan'], dir, env);
    if (show.code !== 0) throw new Error(`terraform show failed: ${show.output}`);
    return JSON.parse(show.output);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What the stand-in runtime saw in one call: its arguments, directory, environment and files. */
export interface RecordedCall {
  args: string[];
  cwd: string;
  env: Record<string, string>;
  files: Record<string, string>;
}

/**
 * A stand-in for a policy runtime's binary (a shell script): `version` prints the given text;
 * any other call records what it saw, then prints the canned stdout/stderr and exits with the
 * canned code. It stands in for a third-party program the machine does not have, as nock stands
 * in for third-party HTTP; it lets tests check what the engines write and how they read answers.
 */
export class StandInCli {
  private constructor(
    readonly dir: string,
    readonly bin: string,
  ) {}

  static async create(versionText: string): Promise<StandInCli> {
    const dir = await mkdtemp(join(tmpdir(), 'rls-test-cli-'));
    const bin = join(dir, 'runtime');
    await writeFile(join(dir, 'version'), versionText);
    await writeFile(
      bin,
      `#!/bin/sh
CAP='${dir}'
if [ "$1" = "version" ]; then cat "$CAP/version"; exit 0; fi
N=$(ls "$CAP/calls" 2>/dev/null | wc -l)
CALL="$CAP/calls/$N"
mkdir -p "$CALL/files"
printf '%s\\n' "$@" > "$CALL/args"
pwd > "$CALL/cwd"
env > "$CALL/env"
for f in ./*; do if [ -f "$f" ]; then cp "$f" "$CALL/files/"; fi; done
if [ -f "$CAP/sleep" ]; then sleep "$(cat "$CAP/sleep")"; fi
if [ -f "$CAP/flood" ]; then yes flood; fi
if [ -f "$CAP/stdout" ]; then cat "$CAP/stdout"; fi
if [ -f "$CAP/stderr" ]; then cat "$CAP/stderr" >&2; fi
if [ -f "$CAP/code" ]; then exit "$(cat "$CAP/code")"; fi
exit 0
`,
    );
    await chmod(bin, 0o755);
    return new StandInCli(dir, bin);
  }

  /** The answer every following call gives. */
  async answer(a: {
    stdout?: string;
    stderr?: string;
    code?: number;
    sleepSeconds?: number;
    flood?: boolean;
  }): Promise<void> {
    for (const f of ['stdout', 'stderr', 'code', 'sleep', 'flood']) await rm(join(this.dir, f), { force: true });
    if (a.stdout !== undefined) await writeFile(join(this.dir, 'stdout'), a.stdout);
    if (a.stderr !== undefined) await writeFile(join(this.dir, 'stderr'), a.stderr);
    if (a.code !== undefined) await writeFile(join(this.dir, 'code'), String(a.code));
    if (a.sleepSeconds !== undefined) await writeFile(join(this.dir, 'sleep'), String(a.sleepSeconds));
    if (a.flood) await writeFile(join(this.dir, 'flood'), '');
  }

  /** Every recorded call so far, oldest first. */
  async calls(): Promise<RecordedCall[]> {
    const root = join(this.dir, 'calls');
    const count = (await readdir(root).catch(() => [] as string[])).length;
    return Promise.all(
      Array.from({ length: count }, async (_, id) => {
        const at = join(root, String(id));
        const names = await readdir(join(at, 'files'));
        const files = Object.fromEntries(
          await Promise.all(names.map(async (n) => [n, await readFile(join(at, 'files', n), 'utf8')] as const)),
        );
        const env = Object.fromEntries(
          (await readFile(join(at, 'env'), 'utf8'))
            .split('\n')
            .filter(Boolean)
            .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
        );
        const args = (await readFile(join(at, 'args'), 'utf8')).split('\n').slice(0, -1);
        return { args, cwd: (await readFile(join(at, 'cwd'), 'utf8')).trim(), env, files };
      }),
    );
  }

  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** A configuration of built-in resources: one tagged, one public bucket-like map, one untagged. */
export const POLICY_PLAN_FILES = {
  'main.tf': `variable "environment" {
  type    = string
  default = "dev"
}

resource "terraform_data" "tagged" {
  input = { acl = "private", tags = { owner = "platform" } }
}

resource "terraform_data" "public_bucket" {
  input = { acl = "public-read", tags = { owner = "web" } }
}

resource "terraform_data" "untagged" {
  input = { acl = "private" }
}

output "environment" {
  value = var.environment
}
`,
};

/** A plan-only run in workspace acme/networking, with one run variable and two workspace variables. */
export const policyRunSource = (): RunInputSource => ({
  run: {
    id: 'run-Ab3dEfGhJkLmNpQr',
    created_at: new Date('2026-03-01T10:00:00.000Z'),
    message: 'Queued manually via the API',
    is_destroy: false,
    refresh: true,
    refresh_only: false,
    replace_addrs: ['terraform_data.tagged'],
    target_addrs: [],
    plan_only: true,
    variables: [{ key: 'environment', value: '"prod"' }],
  },
  workspace: {
    id: 'ws-Zx9yWv8uTs7rQp6n',
    name: 'networking',
    created_at: new Date('2026-01-15T08:30:00.000Z'),
    description: '',
    execution_mode: 'remote',
    auto_apply: false,
    working_directory: 'envs/dev',
    vcs_repo: null,
  },
  organizationName: 'acme',
  createdBy: 'alice',
  variables: [
    { key: 'db_password', category: 'terraform', sensitive: true },
    { key: 'AWS_REGION', category: 'env', sensitive: false },
  ],
});

/** A policy to evaluate, in set `baseline` unless overridden. */
export const policyToEvaluate = (
  p: Partial<PolicyToEvaluate> & Pick<PolicyToEvaluate, 'kind' | 'name'>,
): PolicyToEvaluate => ({
  id: `pol-${p.name}`,
  enforcementLevel: p.kind === 'opa' ? 'mandatory' : 'soft-mandatory',
  code: null,
  query: null,
  policySetName: 'baseline',
  ...p,
});

/** The run document policyRunSource() must give policies. */
export const POLICY_RUN_DOCUMENT: RunInputDocument = {
  id: 'run-Ab3dEfGhJkLmNpQr',
  created_at: '2026-03-01T10:00:00.000Z',
  created_by: 'alice',
  message: 'Queued manually via the API',
  commit_sha: null,
  is_destroy: false,
  refresh: true,
  refresh_only: false,
  replace_addrs: ['terraform_data.tagged'],
  speculative: true,
  target_addrs: [],
  variables: {
    AWS_REGION: { category: 'env', sensitive: false },
    db_password: { category: 'terraform', sensitive: true },
    environment: { category: 'terraform', sensitive: false },
  },
  organization: { name: 'acme' },
  workspace: {
    id: 'ws-Zx9yWv8uTs7rQp6n',
    name: 'networking',
    created_at: '2026-01-15T08:30:00.000Z',
    description: null,
    execution_mode: 'remote',
    auto_apply: false,
    tags: [],
    working_directory: 'envs/dev',
    vcs_repo: null,
  },
};

/**
 * Plans POLICY_PLAN_FILES with the real terraform once for the enclosing suite (skipping it when
 * terraform is missing); the plan and the evaluation input are filled in before the tests run.
 */
export function realPlanForSuite(): { plan: unknown; input: EvaluationInput } {
  const suite = {} as { plan: unknown; input: EvaluationInput };
  before(async function () {
    this.timeout(60_000);
    if (!terraformAvailable()) this.skip();
    suite.plan = await realPlanJson(POLICY_PLAN_FILES);
    suite.input = { plan: suite.plan, run: buildRunInput(policyRunSource()) };
  });
  return suite;
}

/** A fresh stand-in runtime for each test of the enclosing suite. */
export function standInPerTest(versionText: string): { cli: StandInCli } {
  const holder = {} as { cli: StandInCli };
  beforeEach(async () => {
    holder.cli = await StandInCli.create(versionText);
  });
  afterEach(() => holder.cli.remove());
  return holder;
}
