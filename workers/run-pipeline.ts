import { UnrecoverableError, type Job } from 'bullmq';
import type { WorkerDeps } from './context.js';
import { idFrom } from './context.js';
import { startPendingRun } from '../shared/usecases/runs.js';
import { executeApply, executePlan } from '../shared/usecases/run-execution.js';

/** One step of a run: `queue` (take the workspace), `plan` or `apply`. The row decides whether anything is due. */
export async function runStep(job: Job<unknown>, deps: WorkerDeps): Promise<void> {
  let runId: string;
  try {
    runId = idFrom(job.data, 'runId');
  } catch (err) {
    throw new UnrecoverableError(String(err));
  }
  const step = (job.data as { step?: unknown }).step;
  switch (step) {
    case 'queue':
      await startPendingRun(deps, runId);
      return;
    case 'plan':
      await executePlan(deps, runId);
      return;
    case 'apply':
      await executeApply(deps, runId);
      return;
    default:
      throw new UnrecoverableError(`unknown run step ${String(step)}`);
  }
}
