import { defineMachine } from '../platform/machine.js';

export const POLICY_CHECK_STATUSES = [
  'pending',
  'queued',
  'passed',
  'soft_failed',
  'hard_failed',
  'overridden',
  'errored',
  'canceled',
  'unreachable',
] as const;
export type PolicyCheckStatus = (typeof POLICY_CHECK_STATUSES)[number];
export type PolicyCheckScope = 'organization' | 'workspace';
/** What an evaluation concludes for one check. */
export type CheckVerdict = 'passed' | 'soft_failed' | 'hard_failed' | 'errored';
export type PolicyCheckEvent = 'queue' | 'pass' | 'soft_fail' | 'hard_fail' | 'error' | 'override' | 'cancel' | 'skip';

const WAITING: PolicyCheckStatus[] = ['pending', 'queued'];

/**
 * Policy check states. A check is `pending` from the plan's end while post-plan tasks run (clients
 * read a run's checks once, when its plan ends), and `queued` once the run reaches the check.
 */
export const policyCheckMachine = defineMachine<PolicyCheckStatus, PolicyCheckEvent>('policy check', {
  queue: { from: ['pending'], to: 'queued' },
  pass: { from: WAITING, to: 'passed' },
  soft_fail: { from: WAITING, to: 'soft_failed' },
  hard_fail: { from: WAITING, to: 'hard_failed' },
  error: { from: WAITING, to: 'errored' },
  override: { from: ['soft_failed'], to: 'overridden' },
  cancel: { from: WAITING, to: 'canceled' },
  skip: { from: WAITING, to: 'unreachable' },
});

export const VERDICT_EVENT: Record<CheckVerdict, PolicyCheckEvent> = {
  passed: 'pass',
  soft_failed: 'soft_fail',
  hard_failed: 'hard_fail',
  errored: 'error',
};

/**
 * Whether a check can be overridden now: it soft failed in a way that may be overridden, and its
 * run waits for the override (`policy_override`). Once the run was discarded, ended
 * `policy_soft_failed` (plan-only) or went on, the check stays soft failed but nothing can be
 * overridden. The override action and the `is-overridable` flag both follow this.
 */
export function overridableNow(
  check: { status: PolicyCheckStatus; is_overridable: boolean },
  runStatus: string,
): boolean {
  return check.status === 'soft_failed' && check.is_overridable && runStatus === 'policy_override';
}

/**
 * How a run goes on once all its checks are evaluated: any hard failure or error stops it; a
 * soft failure waits for an override (or, for a plan-only run, ends it `policy_soft_failed`);
 * otherwise it continues. Overridden checks count as passed.
 */
export function runPolicyOutcome(statuses: readonly PolicyCheckStatus[]): 'waiting' | 'pass' | 'override' | 'fail' {
  if (statuses.some((s) => WAITING.includes(s))) return 'waiting';
  if (statuses.some((s) => s === 'hard_failed' || s === 'errored' || s === 'canceled' || s === 'unreachable'))
    return 'fail';
  if (statuses.includes('soft_failed')) return 'override';
  return 'pass';
}
