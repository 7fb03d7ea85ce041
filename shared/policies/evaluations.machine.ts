import { defineMachine } from '../platform/machine.js';

/*
 * Policy evaluations: how OPA policy sets, and Sentinel sets that are agent-enabled, report on a
 * run (in its post-plan task stage), as current TFE reports them. Legacy Sentinel sets keep
 * reporting through policy checks (see policy-check.ts).
 */

export type PolicyEvaluationStatus =
  'pending' | 'queued' | 'running' | 'passed' | 'failed' | 'errored' | 'overridden' | 'canceled' | 'unreachable';
export type PolicyEvaluationEvent = 'queue' | 'pass' | 'fail' | 'error' | 'override' | 'cancel' | 'skip';

/** Statuses in which an evaluation has no verdict yet (a client keeps polling). */
export const OPEN_EVALUATION: readonly PolicyEvaluationStatus[] = ['pending', 'queued', 'running'];

export const policyEvaluationMachine = defineMachine<PolicyEvaluationStatus, PolicyEvaluationEvent>(
  'policy evaluation',
  {
    queue: { from: ['pending'], to: 'queued' },
    pass: { from: ['queued', 'running'], to: 'passed' },
    fail: { from: ['queued', 'running'], to: 'failed' },
    error: { from: ['queued', 'running'], to: 'errored' },
    override: { from: ['failed'], to: 'overridden' },
    cancel: { from: ['queued', 'running'], to: 'canceled' },
    skip: { from: ['pending'], to: 'unreachable' },
  },
);

/** How a set of policies reports: evaluations in the task stage, or a legacy policy check. */
export const reportsThroughEvaluation = (set: { kind: string; agent_enabled: boolean }): boolean =>
  set.kind === 'opa' || set.agent_enabled;

/** The `result-count` of an evaluation or a set outcome. */
export interface PolicyResultCount {
  'advisory-failed': number;
  'mandatory-failed': number;
  passed: number;
  errored: number;
}

/** Counts outcomes as TFE's result-count does: errors apart, failures by whether they were advisory. */
export function resultCount(outcomes: readonly { status: string; enforcementLevel: string }[]): PolicyResultCount {
  const failed = outcomes.filter((o) => o.status === 'failed');
  return {
    'advisory-failed': failed.filter((o) => o.enforcementLevel === 'advisory').length,
    'mandatory-failed': failed.filter((o) => o.enforcementLevel !== 'advisory').length,
    passed: outcomes.filter((o) => o.status === 'passed').length,
    errored: outcomes.filter((o) => o.status === 'errored').length,
  };
}

/** An evaluation's verdict from its check-like summary: a soft failure can be overridden, a hard one cannot; an error never. */
export function evaluationVerdict(summary: 'passed' | 'soft_failed' | 'hard_failed' | 'errored'): {
  event: 'pass' | 'fail' | 'error';
  overridable: boolean;
} {
  switch (summary) {
    case 'passed':
      return { event: 'pass', overridable: false };
    case 'soft_failed':
      return { event: 'fail', overridable: true };
    case 'hard_failed':
      return { event: 'fail', overridable: false };
    case 'errored':
      return { event: 'error', overridable: false };
  }
}

/**
 * Whether a stage can be overridden now: it waits for an override and its run waits for the
 * decision. The override action and the stage's `is-overridable` both follow this.
 */
export const stageOverridableNow = (stageStatus: string, runStatus: string): boolean =>
  stageStatus === 'awaiting_override' && runStatus === 'post_plan_awaiting_decision';
