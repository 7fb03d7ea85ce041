import { UnrecoverableError, type Job } from 'bullmq';
import { idFrom, type WorkerDeps } from './context.js';
import { executeTestRun } from '../shared/usecases/test-execution.js';

/** Executes one module test run (`terraform test`); the row decides whether anything is due. */
export async function runTestRun(job: Job<unknown>, deps: WorkerDeps): Promise<void> {
  let id: string;
  try {
    id = idFrom(job.data, 'testRunId');
  } catch (err) {
    throw new UnrecoverableError(String(err));
  }
  await executeTestRun(deps, id);
}
