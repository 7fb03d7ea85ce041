import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CliPolicyEngine, errored, runPolicyCli, stoppedVerdict, tail, type Verdict } from './cli.js';
import type { EvaluationInput, PolicyEngine, PolicyOutcome, PolicyToEvaluate } from './types.js';

interface OpaError {
  message?: unknown;
  code?: unknown;
  location?: { file?: unknown; row?: unknown; col?: unknown };
}

const describeError = (e: OpaError): string => {
  const where =
    e.location && typeof e.location.row === 'number'
      ? ` (${String(e.location.file || 'query')}:${e.location.row}:${String(e.location.col ?? 0)})`
      : '';
  return `${typeof e.code === 'string' ? `${e.code}: ` : ''}${String(e.message ?? 'unknown error')}${where}`;
};

/** An element of the query's array as a message: strings as they are, anything else as JSON. */
const asMessage = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * Maps the output of `opa eval --format json` to a verdict, as TFE reads a query: it must yield
 * an array; empty passes, non-empty fails with one message per element. An undefined result, a
 * value that is not an array, or errors (compile or runtime) are errored.
 */
export function parseOpaEvalOutput(query: string, exitCode: number | null, stdout: string, stderr = ''): Verdict {
  let doc: { result?: { expressions?: { value?: unknown }[] }[]; errors?: OpaError[] };
  try {
    doc = JSON.parse(stdout);
  } catch {
    return errored(
      `opa eval exited with code ${exitCode} without a JSON result: ${tail(stderr || stdout) || 'no output'}`,
    );
  }
  if (Array.isArray(doc.errors) && doc.errors.length) {
    return errored(`opa eval failed: ${doc.errors.map(describeError).join('; ')}`);
  }
  if (exitCode !== 0) return errored(`opa eval exited with code ${exitCode}: ${tail(stderr || stdout) || 'no output'}`);
  const results = Array.isArray(doc.result) ? doc.result : [];
  if (!results.length)
    return errored(`the query ${query} is undefined: it must yield an array (check the package and rule names)`);
  const expressions = results[0].expressions ?? [];
  if (results.length > 1 || expressions.length !== 1) {
    return errored(
      `the query ${query} must yield a single array, but it yielded ${results.length} results of ${expressions.length} expressions`,
    );
  }
  const value = expressions[0].value;
  if (!Array.isArray(value)) {
    const got = value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
    return errored(`the query ${query} must yield an array, but it yielded ${got}`);
  }
  return value.length ? { status: 'failed', messages: value.map(asMessage) } : { status: 'passed', messages: [] };
}

/** The files one OPA evaluation reads, written into `dir`. */
export async function writeOpaFiles(dir: string, code: string, input: EvaluationInput): Promise<void> {
  await writeFile(join(dir, 'policy.rego'), code);
  await writeFile(join(dir, 'input.json'), JSON.stringify({ plan: input.plan, run: input.run }));
}

/**
 * OPA policies evaluated with the `opa` CLI, one `opa eval` per policy. A REST engine (an OPA
 * server answering queries through its Data API) can implement PolicyEngine alongside this one.
 */
export class OpaCliEngine extends CliPolicyEngine implements PolicyEngine {
  readonly kind = 'opa' as const;
  protected readonly tool = 'opa';
  protected readonly runtime = 'OPA';
  protected readonly versionPattern = /^Version:\s*(\S+)/m;
  protected readonly missingAdvice = "install the opa binary on the workers' PATH or set OPA_PATH";

  evaluate(policies: PolicyToEvaluate[], input: EvaluationInput, signal?: AbortSignal): Promise<PolicyOutcome[]> {
    return this.evaluateWith(policies, async (policy, dir) => {
      if (policy.code === null) return errored('the policy has no uploaded code');
      const query = policy.query?.trim();
      if (!query)
        return errored('the policy has no query (an OPA policy needs one, e.g. data.terraform.policies.<name>.deny)');
      await writeOpaFiles(dir, policy.code, input);
      // `--` ends the flags, so a query can never be read as one.
      const run = await runPolicyCli(
        this.settings,
        ['eval', '--format', 'json', '--data', 'policy.rego', '--input', 'input.json', '--', query],
        dir,
        signal,
      );
      return stoppedVerdict(run, this.settings, 'opa') ?? parseOpaEvalOutput(query, run.code, run.stdout, run.stderr);
    });
  }
}
