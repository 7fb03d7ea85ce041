import { defineMachine } from '../platform/machine.js';

export const TEST_RUN_STATUSES = ['pending', 'queued', 'running', 'errored', 'canceled', 'finished'] as const;
export type TestRunStatus = (typeof TEST_RUN_STATUSES)[number];
export const FINAL_TEST_RUN_STATUSES: readonly TestRunStatus[] = ['errored', 'canceled', 'finished'];

export type TestRunEvent = 'queue' | 'start' | 'finish' | 'error' | 'cancel' | 'force_cancel';

/**
 * Test run states. A cancel is a request recorded on the row while the
 * run stays `running`: the worker interrupts Terraform, which tears down what it created, and
 * then moves the run to `canceled`. A force-cancel ends it at once.
 */
export const testRunMachine = defineMachine<TestRunStatus, TestRunEvent>('test run', {
  queue: { from: ['pending'], to: 'queued' },
  start: { from: ['queued'], to: 'running' },
  finish: { from: ['running'], to: 'finished' },
  error: { from: ['pending', 'queued', 'running'], to: 'errored' },
  cancel: { from: ['running'], to: 'canceled' },
  force_cancel: { from: ['running'], to: 'canceled' },
});

export const TEST_SOURCES = ['terraform', 'tfe-api', 'tfe-configuration-version'] as const;
export type TestSource = (typeof TEST_SOURCES)[number];

/** Why a cancel or force-cancel is refused (409), or null when it is accepted. */
export function cancelRefusal(
  kind: 'cancel' | 'force_cancel',
  run: { status: TestRunStatus; cancelRequested: boolean },
): string | null {
  if (run.status !== 'running') return `the test run is ${run.status}, not running`;
  if (kind === 'force_cancel' && !run.cancelRequested)
    return 'the test run must be canceled before it can be force-canceled';
  return null;
}

/** The counts of `terraform test -json`'s summary line. */
export interface TestSummary {
  status: string;
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
}

/** The test-status values the terraform CLI understands (any other value makes it panic). */
const TEST_STATUSES = ['pending', 'skip', 'pass', 'fail', 'error'];

/**
 * Reads one line of `terraform test -json` output; returns the summary when the line is the
 * `test_summary` message, otherwise null.
 */
export function summaryOf(line: string): TestSummary | null {
  if (!line.includes('"test_summary"')) return null;
  let msg: { type?: string; test_summary?: Partial<TestSummary> };
  try {
    msg = JSON.parse(line);
  } catch {
    return null;
  }
  const s = msg.type === 'test_summary' ? msg.test_summary : undefined;
  if (!s) return null;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    status: typeof s.status === 'string' && TEST_STATUSES.includes(s.status) ? s.status : 'error',
    passed: n(s.passed),
    failed: n(s.failed),
    errored: n(s.errored),
    skipped: n(s.skipped),
  };
}
