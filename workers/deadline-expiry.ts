import type { QueueJob, WorkerDeps } from './context.js';
import { idFrom } from './context.js';
import { expireTaskResult as expire } from '../shared/run-tasks/index.js';
import { tryWithSweepLock } from '../shared/sweep/index.js';
import { sweep } from './sweeper.js';
import { collectOldVersions } from '../shared/configuration-versions/index.js';
import { pruneOldRecords } from '../shared/retention/index.js';

/** A sweep asked for through the queue (a scheduler of earlier versions); the timer of startSweeper is the usual way. */
export async function runReconciler(_job: QueueJob<'deadline-expiry', 'reconcile'>, deps: WorkerDeps): Promise<void> {
  await tryWithSweepLock(deps.db, () => sweep(deps));
}

/**
 * Hourly housekeeping: archives old API-created configuration versions (CV_GC_AFTER_DAYS) and
 * prunes what is past retention (RETENTION_DAYS: see pruneOldRecords).
 */
export async function runMaintenance(
  _job: QueueJob<'deadline-expiry', 'maintenance'>,
  deps: WorkerDeps,
): Promise<void> {
  if (deps.config.cvGcAfterDays > 0) {
    const archived = await collectOldVersions(deps, deps.config.cvGcAfterDays);
    if (archived.length) deps.logger.info('archived old configuration versions', { count: archived.length });
  }
  if (deps.config.retentionDays > 0) await pruneOldRecords(deps, deps.config.retentionDays);
}

/** A task result's deadline: errored unless a final callback came first (compare-and-set). */
export async function expireTaskResult(
  job: QueueJob<'deadline-expiry', 'task-deadline'>,
  deps: WorkerDeps,
): Promise<void> {
  await expire(deps, idFrom(job.data, 'taskResultId'));
}
