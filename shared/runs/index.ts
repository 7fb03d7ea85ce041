// The public face of the runs feature (their requests, moves, execution and comments), which server and workers call.
export { handOnAbandonedRuns } from './abandoned.js';
export {
  cancelRun,
  commentOnRun,
  confirmRun,
  discardRun,
  forceCancelRun,
  forceExecuteRun,
  organizationOfRunId,
  organizationOfWorkspace,
  startPendingRun,
} from './commands.js';
export { findComment } from './comments.repo.js';
export { isFinal, runActions } from './machine.js';
export { findPlan, findRun, type RunRow } from './repo.js';
export { createRequestedRun, type RunRequest } from './requests.js';
export { stateReadableByRun } from './tokens.js';
