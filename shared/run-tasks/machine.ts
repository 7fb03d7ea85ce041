import { defineMachine } from '../platform/machine.js';
import { OPEN_EVALUATION } from '../policies/evaluations.machine.js';

export const TASK_STAGES = ['pre_plan', 'post_plan', 'pre_apply', 'post_apply'] as const;
export type TaskStageName = (typeof TASK_STAGES)[number];

export type TaskResultStatus = 'pending' | 'running' | 'passed' | 'failed' | 'errored' | 'canceled' | 'unreachable';
export type TaskResultEvent = 'report_running' | 'pass' | 'fail' | 'expire' | 'cancel' | 'skip';

/** Run task results: callbacks move them; the deadline errors them. */
export const taskResultMachine = defineMachine<TaskResultStatus, TaskResultEvent>('task result', {
  report_running: { from: ['pending', 'running'], to: 'running' },
  pass: { from: ['pending', 'running'], to: 'passed' },
  fail: { from: ['pending', 'running'], to: 'failed' },
  expire: { from: ['pending', 'running'], to: 'errored' },
  cancel: { from: ['pending', 'running'], to: 'canceled' },
  skip: { from: ['pending'], to: 'unreachable' },
});

export const FINAL_RESULT: readonly TaskResultStatus[] = ['passed', 'failed', 'errored', 'canceled', 'unreachable'];

export type TaskStageStatus = 'pending' | 'running' | 'passed' | 'failed' | 'awaiting_override' | 'canceled' | 'errored' | 'unreachable';

/**
 * A stage's status from its task results and policy evaluations: running until every one has a
 * verdict; failed when a mandatory task failed or errored, or an evaluation errored (or was
 * canceled) or failed in a way that cannot be overridden; awaiting an override when an
 * evaluation failed in a way that can; passed otherwise (advisory failures are warnings, an
 * overridden evaluation counts as passed).
 */
export function stageOutcome(
  results: { status: TaskResultStatus; enforcement_level: string }[],
  evaluations: { status: string; is_overridable: boolean }[] = [],
): 'running' | 'passed' | 'failed' | 'awaiting_override' {
  if (results.some((r) => !FINAL_RESULT.includes(r.status))) return 'running';
  if (evaluations.some((e) => (OPEN_EVALUATION as readonly string[]).includes(e.status))) return 'running';
  const mandatoryFailed = results.some((r) => r.enforcement_level === 'mandatory' && (r.status === 'failed' || r.status === 'errored'));
  const evaluationStops = evaluations.some((e) => ['errored', 'canceled', 'unreachable'].includes(e.status) || (e.status === 'failed' && !e.is_overridable));
  if (mandatoryFailed || evaluationStops) return 'failed';
  return evaluations.some((e) => e.status === 'failed') ? 'awaiting_override' : 'passed';
}

/** Seconds before each delivery attempt (the first is immediate). */
export const DISPATCH_SCHEDULE = [0, 5, 15, 45, 120, 240];

/**
 * When to try delivering again after `attempts` tries, with ±20% jitter, or null when the next
 * attempt could not start before the deadline.
 */
export function nextDispatchAt(attempts: number, now: Date, deadline: Date, random = Math.random): Date | null {
  const base = DISPATCH_SCHEDULE[Math.min(attempts, DISPATCH_SCHEDULE.length - 1)];
  const at = new Date(now.getTime() + base * 1000 * (0.8 + 0.4 * random()));
  return at < deadline ? at : null;
}
