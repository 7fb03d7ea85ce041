import { defineMachine } from '../platform/machine.js';

export const RUN_STATUSES = [
  'pending',
  'pre_plan_running',
  'pre_plan_completed',
  'plan_queued',
  'planning',
  'planned',
  'post_plan_running',
  'post_plan_completed',
  'post_plan_awaiting_decision',
  'policy_checking',
  'policy_override',
  'policy_soft_failed',
  'policy_checked',
  'planned_and_finished',
  'planned_and_saved',
  'confirmed',
  'pre_apply_running',
  'pre_apply_completed',
  'apply_queued',
  'applying',
  'post_apply_running',
  'post_apply_completed',
  'applied',
  'discarded',
  'errored',
  'canceled',
  'force_canceled',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Run statuses after which a run no longer holds its workspace or its configuration version. */
export const FINAL_RUN_STATUSES = [
  'applied',
  'planned_and_finished',
  'planned_and_saved',
  'discarded',
  'errored',
  'canceled',
  'force_canceled',
  'policy_soft_failed',
] as const satisfies readonly RunStatus[];

/** Where a plan with changes waits for a user: confirmation (apply) or discard. */
export const CONFIRMABLE: readonly RunStatus[] = [
  'planned',
  'post_plan_completed',
  'policy_checked',
  'planned_and_saved',
];
/**
 * Waiting for a user: to confirm, or to override a soft-failed policy check or the failed policy
 * evaluations of the post-plan stage (neither is confirmable until then).
 */
export const AWAITING_USER: readonly RunStatus[] = [...CONFIRMABLE, 'policy_override', 'post_plan_awaiting_decision'];
/** Statuses in which Terraform runs in a worker (cancel interrupts the process). */
export const EXECUTING: readonly RunStatus[] = ['planning', 'applying'];
const ACTIVE = RUN_STATUSES.filter((s) => !(FINAL_RUN_STATUSES as readonly string[]).includes(s));
// A run waiting for a user is discarded, not canceled.
const CANCELABLE = ACTIVE.filter((s) => !AWAITING_USER.includes(s));

export type RunEvent =
  | 'start_pre_plan'
  | 'complete_pre_plan'
  | 'queue_plan'
  | 'start_plan'
  | 'requeue_plan'
  | 'plan_needs_confirmation'
  | 'plan_saved'
  | 'finish_plan'
  | 'start_post_plan'
  | 'complete_post_plan'
  | 'await_post_plan_decision'
  | 'override_post_plan'
  | 'start_policy_check'
  | 'pass_policy_check'
  | 'soft_fail_policy_check'
  | 'await_policy_override'
  | 'override_policy'
  | 'confirm'
  | 'start_pre_apply'
  | 'complete_pre_apply'
  | 'queue_apply'
  | 'start_apply'
  | 'start_post_apply'
  | 'complete_post_apply'
  | 'finish_apply'
  | 'discard'
  | 'cancel'
  | 'force_cancel'
  | 'error';

/**
 * The run lifecycle. Stage hooks (run tasks, policy checks) move a run through the *_running,
 * *_completed and policy_* statuses; with none configured the pipeline passes straight through.
 */
export const runMachine = defineMachine<RunStatus, RunEvent>('run', {
  start_pre_plan: { from: ['pending'], to: 'pre_plan_running' },
  complete_pre_plan: { from: ['pre_plan_running'], to: 'pre_plan_completed' },
  queue_plan: { from: ['pending', 'pre_plan_completed'], to: 'plan_queued' },
  start_plan: { from: ['plan_queued'], to: 'planning' },
  // A plan whose worker stopped (its lease ran out) goes back to the queue for another worker.
  requeue_plan: { from: ['planning'], to: 'plan_queued' },
  start_post_plan: { from: ['planning'], to: 'post_plan_running' },
  complete_post_plan: { from: ['post_plan_running'], to: 'post_plan_completed' },
  // Policy evaluations in the post-plan stage failed in a way a user may override.
  await_post_plan_decision: { from: ['post_plan_running'], to: 'post_plan_awaiting_decision' },
  override_post_plan: { from: ['post_plan_awaiting_decision'], to: 'post_plan_completed' },
  start_policy_check: { from: ['planning', 'post_plan_completed'], to: 'policy_checking' },
  pass_policy_check: { from: ['policy_checking'], to: 'policy_checked' },
  soft_fail_policy_check: { from: ['policy_checking'], to: 'policy_soft_failed' },
  await_policy_override: { from: ['policy_checking'], to: 'policy_override' },
  override_policy: { from: ['policy_override'], to: 'policy_checked' },
  plan_needs_confirmation: { from: ['planning'], to: 'planned' },
  plan_saved: { from: ['planning', 'post_plan_completed', 'policy_checked'], to: 'planned_and_saved' },
  finish_plan: { from: ['planning', 'post_plan_completed', 'policy_checked'], to: 'planned_and_finished' },
  confirm: { from: [...CONFIRMABLE], to: 'confirmed' },
  start_pre_apply: { from: ['confirmed'], to: 'pre_apply_running' },
  complete_pre_apply: { from: ['pre_apply_running'], to: 'pre_apply_completed' },
  queue_apply: { from: ['confirmed', 'pre_apply_completed'], to: 'apply_queued' },
  start_apply: { from: ['apply_queued'], to: 'applying' },
  start_post_apply: { from: ['applying'], to: 'post_apply_running' },
  complete_post_apply: { from: ['post_apply_running'], to: 'post_apply_completed' },
  finish_apply: { from: ['applying', 'post_apply_completed'], to: 'applied' },
  discard: { from: [...AWAITING_USER, 'policy_soft_failed'], to: 'discarded' },
  cancel: { from: CANCELABLE, to: 'canceled' },
  force_cancel: { from: CANCELABLE, to: 'force_canceled' },
  error: { from: ACTIVE, to: 'errored' },
});

/** A run whose plan leaves nothing to apply: plan-only, or no changes and no empty apply asked for. */
export const nothingToApply = (run: {
  plan_only: boolean;
  has_changes: boolean | null;
  allow_empty_apply: boolean;
}): boolean => run.plan_only || (run.has_changes === false && !run.allow_empty_apply);

export const isFinal = (s: string): boolean => (FINAL_RUN_STATUSES as readonly string[]).includes(s);

/** The `actions` object clients read (terraform dereferences it without a nil check). */
export function runActions(
  run: {
    status: RunStatus;
    has_changes: boolean | null;
    cancel_requested_at: Date | null;
    force_cancel_available_at: Date | null;
  },
  now = new Date(),
) {
  const confirmable = runMachine.can(run.status, 'confirm') && run.has_changes !== false;
  return {
    'is-cancelable': runMachine.can(run.status, 'cancel'),
    'is-confirmable': confirmable,
    'is-discardable': runMachine.can(run.status, 'discard'),
    'is-force-cancelable':
      runMachine.can(run.status, 'force_cancel') &&
      run.cancel_requested_at !== null &&
      run.force_cancel_available_at !== null &&
      run.force_cancel_available_at <= now,
  };
}

/** The status-timestamps key of a status, e.g. plan_queued -> plan-queued-at. */
export const timestampKey = (status: string) => `${status.replace(/_/g, '-')}-at`;
