// The public face of the run-tasks feature (run tasks, their workspace attachments, stages and callbacks), which server and workers call.
export {
  attachTask,
  authenticateCallback,
  changeAttachment,
  changeTask,
  createTask,
  detachTask,
  expireTaskResult,
  removeTask,
  reportTaskResult,
  type TaskInput,
} from './commands.js';
export { dispatchTaskResult, settleAnsweredTaskDispatches } from './dispatch.js';
export {
  findTask,
  findTaskResult,
  findWorkspaceTask,
  type TaskResultRow,
  type TaskRow,
  type TaskStageRow,
  setStageStatus,
  taskRequestsDue,
  taskResultsPastDeadline,
} from './repo.js';
export { completeStageIfDone } from './stages.js';
export { lockStage } from './stages.repo.js';
export { registerRunTasks, type StageEvaluations } from './stages.js';
