// The public face of the runs feature (their requests, moves, execution and comments; workspace locks and accepted uploads, which let runs go), which server, workers and other features call.
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
  afterMove,
  insertRun,
  nextStep,
} from './commands.js';
export { findComment } from './comments.repo.js';
export { isFinal, runActions } from './machine.js';
export {
  findPlan,
  findRun,
  type RunRow,
  redactedObjectOf,
  setPlanRedacted,
  type PlanRow,
  planOfRun,
  runsDue,
} from './repo.js';
export { createRequestedRun, type RunRequest } from './requests.js';
export { stateReadableByRun } from './tokens.js';
export { lockWorkspace, unlockWorkspace } from './workspace-locks.js';
export { acceptUpload, type FetchedFrom } from './uploads.js';
export { transitionRun, insertPendingRun } from './moves.js';
export { lockRun } from './holding.repo.js';
export { continueAfterPlan, END_EVENT, resumeAfterStage, stagesAfterStage } from './progress.js';
// The logs runs' phases (and module test runs) write, read back a piece at a time.
export { readLog } from '../platform/logs.js';
