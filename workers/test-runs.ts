import { idFrom, type QueueJob, type WorkerDeps } from './context.js';
import { executeTestRun } from '../shared/module-tests/engine.js';
import { organizationOfTestRunId } from '../shared/module-tests/index.js';
import { inFairSlot } from './organization-slots.js';

/** Executes one module test run (`terraform test`); the row decides whether anything is due. */
export async function runTestRun(
  job: QueueJob<'test-run-execution', 'test-run'>,
  deps: WorkerDeps,
  token?: string,
): Promise<void> {
  const id = idFrom(job.data, 'testRunId');
  await inFairSlot(deps.slots, await organizationOfTestRunId(deps.db, id), job, token, () => executeTestRun(deps, id));
}
