import type { Job } from 'bullmq';
import { idFrom, type WorkerDeps } from './context.js';
import { executeTestRun } from '../shared/usecases/test-execution.js';

/** Executes one module test run (`terraform test`); the row decides whether anything is due. */
export async function runTestRun(job: Job<unknown>, deps: WorkerDeps): Promise<void> {
  const id = idFrom(job.data, 'testRunId');
  await executeTestRun(deps, id);
}
