import type { Job } from 'bullmq';
import type { WorkerDeps } from './context.js';
import { reconcile } from '../shared/reconciler.js';

/** The periodic sweep: restores jobs for every row that is due or stuck. */
export async function runReconciler(_job: Job<unknown>, deps: WorkerDeps): Promise<void> {
  await reconcile(deps.db, deps.queues, deps.logger);
}
