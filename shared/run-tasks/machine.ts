import { defineMachine } from '../platform/machine.js';

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

export type TaskStageStatus =
  'pending' | 'running' | 'passed' | 'failed' | 'awaiting_override' | 'canceled' | 'errored' | 'unreachable';

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
