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
] as const;
