/** Run statuses after which nothing more happens to a run (the live page stops polling). */
export const FINAL_RUN = new Set([
  'applied',
  'planned_and_finished',
  'errored',
  'canceled',
  'force_canceled',
  'discarded',
  'policy_soft_failed',
]);
export const FINAL_PHASE = new Set(['finished', 'errored', 'canceled', 'unreachable', 'force_canceled']);
export const FINAL_RESULT = new Set(['passed', 'failed', 'errored', 'canceled', 'unreachable', 'skipped']);

/** Terminal control sequences and the STX/ETX markers terraform puts around its log. */
export const CONTROL = /\u001b\[[0-9;]*[A-Za-z]|[\u0002\u0003]/g;
