import type { Config } from '../platform/config.js';
import type { Sandbox } from '../platform/sandbox/sandbox.js';
import { erroredOutcomes } from './cli.js';
import { OpaCliEngine } from './opa-cli.js';
import { SentinelCliEngine } from './sentinel-cli.js';
import type { EvaluationInput, PolicyEngine, PolicyKind, PolicyOutcome, PolicyToEvaluate } from './types.js';

export type PolicyEngines = Partial<Record<PolicyKind, PolicyEngine>>;

/** The CLI engines the configuration names (OPA_PATH, SENTINEL_PATH, POLICY_EVAL_TIMEOUT_SECONDS), running in `sandbox` when given. */
export function cliEngines(
  config: Pick<Config, 'opaPath' | 'sentinelPath' | 'policyEvalTimeoutSeconds'>,
  sandbox?: Sandbox,
): PolicyEngines {
  return {
    opa: new OpaCliEngine({ bin: config.opaPath, timeoutSeconds: config.policyEvalTimeoutSeconds, sandbox }),
    sentinel: new SentinelCliEngine({
      bin: config.sentinelPath,
      timeoutSeconds: config.policyEvalTimeoutSeconds,
      sandbox,
    }),
  };
}

/** Evaluates each policy with the engine of its kind; outcomes come back in the order given. */
export async function evaluatePolicies(
  engines: PolicyEngines,
  policies: PolicyToEvaluate[],
  input: EvaluationInput,
  signal?: AbortSignal,
): Promise<PolicyOutcome[]> {
  const outcomes: PolicyOutcome[] = new Array(policies.length);
  for (const kind of ['sentinel', 'opa'] as const) {
    // A policy may come twice (from two policy sets), so positions, not ids, place the outcomes.
    const at = policies.flatMap((p, i) => (p.kind === kind ? [i] : []));
    if (!at.length) continue;
    const ofKind = at.map((i) => policies[i]);
    const engine = engines[kind];
    const found = engine
      ? await engine.evaluate(ofKind, input, signal)
      : erroredOutcomes(ofKind, kind, `no ${kind} engine is configured`);
    at.forEach((i, n) => (outcomes[i] = found[n]));
  }
  return outcomes;
}
