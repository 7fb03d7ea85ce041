import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBounded, type BoundedRun } from '../platform/subprocess.js';
import { SANDBOX_PATH, type Sandbox } from '../platform/sandbox/sandbox.js';
import type { PolicyKind, PolicyOutcome, PolicyStatus, PolicyToEvaluate } from './types.js';

/** How a policy runtime's binary is run. */
export interface PolicyCliSettings {
  /** A name looked up on PATH, or a path. */
  bin: string;
  timeoutSeconds: number;
  /** stdout and stderr together; a policy that prints more is errored. */
  maxOutputBytes?: number;
  /** Where the runtime runs: with no network, nothing of the worker visible (absent: directly, as in unit tests). */
  sandbox?: Sandbox;
}

export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/** What evaluating one policy produced, before timing and identity are added. */
export interface Verdict {
  status: PolicyStatus;
  messages: string[];
  error?: string;
}

export const errored = (error: string, messages: string[] = []): Verdict => ({ status: 'errored', messages, error });

/** The tail of a program's output, enough to explain an error without flooding the check's output. */
export const tail = (text: string, max = 2000) => {
  const t = text.trim();
  return t.length > max ? `…${t.slice(-max)}` : t;
};

/**
 * Runs the runtime in `dir` with nothing of the service's environment: only PATH and a HOME
 * inside `dir`, so no database URL, key or token can reach a policy. With a sandbox, the
 * runtime runs in one with no network at all (OPA's http.send and Sentinel's imports reach
 * nothing), `dir` its only writable place, under the sandbox's memory and process limits.
 */
export async function runPolicyCli(
  settings: PolicyCliSettings,
  args: string[],
  dir: string,
  signal?: AbortSignal,
): Promise<BoundedRun> {
  const home = join(dir, '.home');
  await mkdir(home, { recursive: true });
  const sandbox = settings.sandbox?.settings.mode === 'bwrap' ? settings.sandbox : undefined;
  const env = {
    PATH: sandbox ? SANDBOX_PATH : (process.env.PATH ?? SANDBOX_PATH),
    HOME: home,
    CHECKPOINT_DISABLE: '1',
  };
  const user = sandbox?.user();
  if (sandbox && user) await sandbox.own(dir, user);
  return runBounded(settings.bin, args, {
    cwd: dir,
    env,
    timeoutMs: settings.timeoutSeconds * 1000,
    maxOutputBytes: settings.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    signal,
    start:
      sandbox && user
        ? (sinks) =>
            sandbox.spawn({
              bin: settings.bin,
              args,
              dir,
              cwd: dir,
              env,
              user,
              network: 'isolated',
              group: true,
              ...sinks,
            })
        : undefined,
  });
}

/** The verdict for a run the service stopped or could not start; null when it ran to its own end. */
export function stoppedVerdict(run: BoundedRun, settings: PolicyCliSettings, tool: string): Verdict | null {
  switch (run.stopped) {
    case null:
      return null;
    case 'timeout':
      return errored(
        `${tool} did not finish within ${settings.timeoutSeconds} s (POLICY_EVAL_TIMEOUT_SECONDS) and was stopped`,
      );
    case 'output-limit':
      return errored(
        `${tool} wrote more than ${settings.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES} bytes of output and was stopped`,
      );
    case 'aborted':
      return errored('the policy check was canceled before this policy finished');
    case 'not-started':
      return errored(`${tool} could not be started (${settings.bin}): ${run.startError ?? 'unknown error'}`);
  }
}

/** Runs `<bin> version` and picks the version out of its output; null when the binary does not run. */
export async function probeVersion(settings: PolicyCliSettings, pattern: RegExp): Promise<string | null> {
  const dir = await mkdtemp(join(tmpdir(), 'rls-policy-'));
  try {
    const run = await runPolicyCli(
      { ...settings, timeoutSeconds: Math.min(settings.timeoutSeconds, 15) },
      ['version'],
      dir,
    );
    if (run.stopped || run.code !== 0) return null;
    return pattern.exec(run.stdout + run.stderr)?.[1] ?? 'unknown version';
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const outcome = (p: PolicyToEvaluate, kind: PolicyKind, v: Verdict, durationMs: number): PolicyOutcome => ({
  policyId: p.id,
  name: p.name,
  kind,
  policySetName: p.policySetName,
  enforcementLevel: p.enforcementLevel,
  status: v.status,
  messages: v.messages,
  ...(v.error !== undefined ? { error: v.error } : {}),
  durationMs,
});

/** Every policy errored with the same reason (e.g. no runtime is configured). */
export const erroredOutcomes = (policies: PolicyToEvaluate[], kind: PolicyKind, error: string) =>
  policies.map((p) => outcome(p, kind, errored(error), 0));

/**
 * Evaluates the policies one after another, each in a fresh temporary directory that is removed
 * afterwards. Policies of another kind, and anything `one` throws, come back errored.
 */
export async function evaluateEach(
  policies: PolicyToEvaluate[],
  kind: PolicyKind,
  one: (policy: PolicyToEvaluate, dir: string) => Promise<Verdict>,
): Promise<PolicyOutcome[]> {
  const outcomes: PolicyOutcome[] = [];
  for (const policy of policies) {
    const started = performance.now();
    let verdict: Verdict;
    if (policy.kind !== kind) {
      verdict = errored(`a ${policy.kind} policy cannot be evaluated by the ${kind} engine`);
    } else {
      const dir = await mkdtemp(join(tmpdir(), `rls-policy-${kind}-`));
      try {
        verdict = await one(policy, dir);
      } catch (err) {
        verdict = errored(`the policy could not be evaluated: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    outcomes.push(outcome(policy, kind, verdict, Math.round(performance.now() - started)));
  }
  return outcomes;
}

/**
 * What an engine that runs a CLI shares: the version probe behind `available()`, a description
 * that says what was found, and the errored outcomes when the binary is missing.
 */
export abstract class CliPolicyEngine {
  abstract readonly kind: PolicyKind;
  /** The binary's usual name ("opa") and the runtime's name in messages ("OPA"). */
  protected abstract readonly tool: string;
  protected abstract readonly runtime: string;
  protected abstract readonly versionPattern: RegExp;
  /** Tells the operator how to make the runtime available. */
  protected abstract readonly missingAdvice: string;
  private found: string | null | undefined;

  constructor(protected readonly settings: PolicyCliSettings) {}

  get description(): string {
    if (this.found === undefined) return `${this.tool} (CLI at ${this.settings.bin}, not checked yet)`;
    if (this.found === null) return this.missingMessage();
    return `${this.tool} ${this.found} (CLI)`;
  }

  async available(): Promise<boolean> {
    this.found = await probeVersion(this.settings, this.versionPattern);
    return this.found !== null;
  }

  protected missingMessage(): string {
    return `no ${this.runtime} runtime is configured (${this.settings.bin} could not be run): ${this.missingAdvice}`;
  }

  /** Evaluates with `one` when the runtime runs; otherwise every policy is errored saying what is missing. */
  protected async evaluateWith(
    policies: PolicyToEvaluate[],
    one: (policy: PolicyToEvaluate, dir: string) => Promise<Verdict>,
  ): Promise<PolicyOutcome[]> {
    if (!policies.length) return [];
    if (!(await this.available())) return erroredOutcomes(policies, this.kind, this.missingMessage());
    return evaluateEach(policies, this.kind, one);
  }
}
