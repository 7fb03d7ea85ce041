import { CONFIRMABLE, type RunStatus } from '../runs/machine.js';
import { defineMachine } from '../platform/machine.js';

/** Trigger values exactly as TFE spells them, plus the go-tfe spelling of the reminder. */
export const TRIGGERS = [
  'run:created',
  'run:planning',
  'run:needs_attention',
  'run:applying',
  'run:completed',
  'run:errored',
  'assessment:drifted',
  'assessment:check_failure',
  'assessment:failed',
  'workspace:auto_destro_reminder',
  'workspace:auto_destroy_reminder',
  'workspace:auto_destroy_run_results',
] as const;
export type Trigger = (typeof TRIGGERS)[number];

export const DESTINATION_TYPES = ['generic', 'email', 'slack', 'microsoft-teams'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

export const MAX_CONFIGURATIONS_PER_WORKSPACE = 20;

/**
 * The run trigger a move fires, if any: created on creation, planning when the plan starts,
 * needs_attention when a plan with changes waits for a user, applying, completed on applied or
 * planned_and_finished, errored when the run errors or is canceled. Speculative runs never notify.
 */
export function runTrigger(
  move: { to: RunStatus; event: string },
  run: { plan_only: boolean; auto_apply: boolean; has_changes: boolean | null },
): Trigger | null {
  if (run.plan_only) return null;
  if (move.event === 'create') return 'run:created';
  if (move.to === 'planning' && move.event === 'start_plan') return 'run:planning';
  if (move.to === 'applying') return 'run:applying';
  if (move.to === 'applied' || move.to === 'planned_and_finished') return 'run:completed';
  if (move.to === 'errored' || move.to === 'canceled' || move.to === 'force_canceled') return 'run:errored';
  const waits = CONFIRMABLE.includes(move.to) && move.to !== 'planned_and_saved' && move.event !== 'start_policy_check';
  if (waits && !run.auto_apply && run.has_changes !== false) return 'run:needs_attention';
  if (move.to === 'policy_override' || move.to === 'post_plan_awaiting_decision') return 'run:needs_attention';
  return null;
}

/** The sentence a run notification carries for its trigger. */
export const TRIGGER_MESSAGES: Record<string, string> = {
  'run:created': 'Run Created',
  'run:planning': 'Run Planning',
  'run:needs_attention': 'Run Needs Attention',
  'run:applying': 'Run Applying',
  'run:completed': 'Run Completed',
  'run:errored': 'Run Errored',
};

export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed' | 'dropped';

/** Notification deliveries: claimed under a lease, then delivered, retried, failed or dropped. */
export const deliveryMachine = defineMachine<
  DeliveryStatus,
  'claim' | 'deliver' | 'retry' | 'fail' | 'drop' | 'resend'
>('notification delivery', {
  claim: { from: ['pending', 'sending'], to: 'sending' },
  deliver: { from: ['sending'], to: 'delivered' },
  retry: { from: ['sending'], to: 'pending' },
  fail: { from: ['sending'], to: 'failed' },
  drop: { from: ['pending', 'sending'], to: 'dropped' },
  resend: { from: ['delivered', 'failed', 'dropped'], to: 'pending' },
});

/** Seconds before each attempt after the first (configurable in principle; these are the defaults). */
export const RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

/**
 * When to try again after `attempts` failed tries, with ±20% jitter and at least what the
 * receiver asked for in Retry-After; null when the schedule is exhausted.
 */
export function nextRetryAt(
  attempts: number,
  now: Date,
  retryAfterSeconds: number | null,
  random = Math.random,
): Date | null {
  if (attempts > RETRY_SCHEDULE.length) return null;
  const base = RETRY_SCHEDULE[attempts - 1] * (0.8 + 0.4 * random());
  return new Date(now.getTime() + Math.max(base, retryAfterSeconds ?? 0) * 1000);
}

/** Retry-After as seconds: either a number of seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.round((at - now) / 1000));
}
