import type { QueueJob, WorkerDeps } from './context.js';
import { idFrom, organizationFrom } from './context.js';
import { inFairSlot } from './organization-slots.js';
import { dispatchTaskResult } from '../shared/run-tasks/index.js';

/**
 * One delivery attempt of a run task request, in one of its organization's slots of this process
 * (see dispatchTaskResult). A job that waits for its organization's share has claimed nothing, so
 * the wait is not an attempt.
 */
export async function dispatchTaskRequest(
  job: QueueJob<'run-task-dispatch', 'dispatch'>,
  deps: WorkerDeps,
  token?: string,
): Promise<void> {
  const id = idFrom(job.data, 'taskResultId');
  const organization = organizationFrom(job.data);
  await inFairSlot(deps.outboundSlots['run-task-dispatch'], organization, job, token, () =>
    dispatchTaskResult(deps, id),
  );
}
