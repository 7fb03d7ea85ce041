import type { EnforcementLevel, PolicyKind } from './rules.js';

export type { EnforcementLevel, PolicyKind };

/** One policy as a policy set brings it to a run, with its uploaded code. */
export interface PolicyToEvaluate {
  id: string;
  name: string;
  kind: PolicyKind;
  enforcementLevel: EnforcementLevel;
  /** The uploaded policy text; null when nothing was uploaded yet. */
  code: string | null;
  /** The OPA query (e.g. `data.terraform.policies.public_buckets.deny`); null for Sentinel. */
  query: string | null;
  policySetName: string;
}

export type PolicyStatus = 'passed' | 'failed' | 'errored';

/** What one policy's evaluation found. */
export interface PolicyOutcome {
  policyId: string;
  name: string;
  kind: PolicyKind;
  policySetName: string;
  enforcementLevel: EnforcementLevel;
  status: PolicyStatus;
  /** OPA: the query's elements; Sentinel: the policy's print output. */
  messages: string[];
  /** Why the policy could not be evaluated (status `errored`). */
  error?: string;
  durationMs: number;
}

/** A variable as policies see it: its name, category and sensitivity, never its value. */
export interface RunVariableInfo {
  category: string;
  sensitive: boolean;
}

/** The `run` document TFE gives OPA policies as `input.run` (Sentinel: the `tfrun` import). */
export interface RunInputDocument {
  id: string;
  created_at: string;
  created_by: string | null;
  message: string;
  commit_sha: string | null;
  is_destroy: boolean;
  refresh: boolean;
  refresh_only: boolean;
  replace_addrs: string[];
  speculative: boolean;
  target_addrs: string[];
  variables: Record<string, RunVariableInfo>;
  organization: { name: string };
  workspace: {
    id: string;
    name: string;
    created_at: string;
    description: string | null;
    execution_mode: string;
    auto_apply: boolean;
    tags: string[];
    working_directory: string;
    vcs_repo: {
      identifier: string | null;
      display_identifier: string | null;
      branch: string | null;
      ingress_submodules: boolean;
    } | null;
  };
}

/** Everything a policy can look at. */
export interface EvaluationInput {
  /** `terraform show -json` of the run's plan. */
  plan: unknown;
  run: RunInputDocument;
}

/**
 * A policy runtime. An engine never throws for a policy's sake: a policy it cannot evaluate
 * (missing runtime, bad code, timeout) comes back `errored`, never silently passed.
 */
export interface PolicyEngine {
  readonly kind: PolicyKind;
  /** E.g. "opa 0.70.0 (CLI)", or why the runtime is unavailable. */
  readonly description: string;
  available(): Promise<boolean>;
  /** One outcome per policy, in the order given. */
  evaluate(policies: PolicyToEvaluate[], input: EvaluationInput, signal?: AbortSignal): Promise<PolicyOutcome[]>;
}
