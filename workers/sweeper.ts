import type { WorkerDeps } from './context.js';
import { reconcile } from '../shared/reconciler.js';
import { sweepAutoDestroy } from '../shared/usecases/auto-destroy.js';
import { sweepAssessments } from '../shared/usecases/assessments.js';
import { sweepSignIn } from '../shared/usecases/sign-in.js';
import { sweepDataRetention } from '../shared/usecases/data-retention.js';
import { tryWithSweepLock } from '../shared/repos/locks.js';
import { removeAbandonedWorkdirs } from '../shared/terraform/runner.js';

/**
 * An upload still unfinished this long was cut off by a crash (the web server gives a request
 * body at most its request timeout, five minutes by default).
 */
const UNFINISHED_OBJECT_SECONDS = 3600;

/** The periodic sweep: due auto-destroy reminders and assessments, ended sign-in rows, a job for every row that is due or stuck, then the data retention policies when due. */
export async function sweep(deps: WorkerDeps): Promise<void> {
  const removed = await deps.store.removeUnfinished(UNFINISHED_OBJECT_SECONDS);
  if (removed) deps.logger.info('removed objects whose upload was cut off', { count: removed });
  await sweepAutoDestroy(deps);
  await sweepAssessments(deps);
  await sweepSignIn(deps);
  const restored = await reconcile(deps.db, deps.queues, deps.logger);
  for (const [source, n] of Object.entries(restored)) if (n) deps.metrics.reconcilerRequeues.inc({ source }, n);
  await sweepDataRetention(deps);
}

/** Working directories that processes of this host left when they died (see removeAbandonedWorkdirs). */
async function removeLeftovers(deps: WorkerDeps): Promise<void> {
  const { removed, kept } = await removeAbandonedWorkdirs(deps.config.stateRecoveryDir);
  if (removed) deps.logger.info('removed working directories of processes that died', { count: removed });
  for (const path of kept) deps.logger.warn('a dead process\'s run directory held a state file; it was kept for an operator to push (terraform state push)', { path });
}

/**
 * Sweeps every RECONCILE_INTERVAL_MS from a timer in this process, and once at start, after
 * removing what processes of this host that died left in the temporary directory. Every
 * worker process runs one; a PostgreSQL advisory lock lets one sweep at a time across them, so
 * the sweeps go on whatever Redis loses (a flush, a restart without persistence): nothing of the
 * schedule lives there. A sweep that fails (Redis or Postgres away) is logged and the next tick
 * tries again; ticks never overlap.
 */
export function startSweeper(deps: WorkerDeps): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    // Each host's processes clean that host's leftovers; the rows are swept by one process at a time.
    running = removeLeftovers(deps)
      .then(() => tryWithSweepLock(deps.db, () => sweep(deps)))
      .then(
        () => undefined,
        (err: unknown) => void deps.logger.warn('sweep failed', { error: String(err) }),
      )
      .finally(() => (running = null));
  };
  const timer = setInterval(tick, deps.config.reconcileIntervalMs);
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
