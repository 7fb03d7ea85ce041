import type { WorkerDeps } from './context.js';
import {
  RECONCILE_BATCH,
  type ReconcileSource,
  reconcileSources,
  restoreSource,
  tryWithSweepLock,
} from '../shared/sweep/index.js';
import { sweepAutoDestroy } from '../shared/auto-destroy/index.js';
import { sweepAssessments } from '../shared/assessments/engine.js';
import { sweepSignIn } from '../shared/identity/index.js';
import { deleteEndedSignInRequests } from '../shared/sso/index.js';
import { sweepDataRetention } from '../shared/retention/index.js';
import { handOnAbandonedRuns } from '../shared/runs/index.js';
import { settleAnsweredTaskDispatches } from '../shared/run-tasks/index.js';
import { removeAbandonedWorkdirs } from '../shared/runs/engine.js';

/**
 * An upload still unfinished this long was cut off by a crash (the web server gives a request
 * body at most its request timeout, five minutes by default).
 */
const UNFINISHED_OBJECT_SECONDS = 3600;

/** One step of the sweep, run whatever the others do (see runSteps). */
interface SweepStep {
  name: string;
  run(deps: WorkerDeps): Promise<void>;
}

/** The job of every due row of `source` that lost it (see restoreSource), counted. */
const restoreStep = (source: ReconcileSource): SweepStep => ({
  name: `jobs:${source.name}`,
  async run(deps) {
    const n = await restoreSource(deps.db, deps.queues, deps.logger, source);
    if (n) deps.metrics.reconcilerRequeues.inc({ source: source.name }, n);
  },
});

/**
 * The sweep's steps, in order: due auto-destroy reminders and assessments, ended sign-in rows,
 * runs whose worker disappeared handed on, run task requests answered by a callback after their
 * sender died closed, a job for every row that is due or stuck and lost its own, then the data
 * retention policies when their turn has come.
 */
const SWEEP_STEPS: readonly SweepStep[] = [
  {
    name: 'unfinished-objects',
    async run(deps) {
      const removed = await deps.store.removeUnfinished(UNFINISHED_OBJECT_SECONDS);
      if (removed) deps.logger.info('removed objects whose upload was cut off', { count: removed });
    },
  },
  { name: 'auto-destroy', run: (deps) => sweepAutoDestroy(deps) },
  { name: 'assessments', run: (deps) => sweepAssessments(deps) },
  { name: 'sign-in', run: async (deps) => void (await sweepSignIn(deps)) },
  { name: 'provider-sign-ins', run: async (deps) => void (await deleteEndedSignInRequests(deps.db)) },
  {
    name: 'abandoned-runs',
    async run(deps) {
      const n = await handOnAbandonedRuns(deps, RECONCILE_BATCH);
      if (n) deps.logger.info('handed on runs whose worker stopped', { count: n });
    },
  },
  {
    name: 'answered-task-requests',
    async run(deps) {
      let n = 0;
      let settled: number;
      do {
        settled = await settleAnsweredTaskDispatches(deps.db, RECONCILE_BATCH);
        n += settled;
      } while (settled === RECONCILE_BATCH);
      if (n)
        deps.logger.info('closed run task requests whose sender stopped after the integration called back', {
          count: n,
        });
    },
  },
  ...reconcileSources.map(restoreStep),
  { name: 'data-retention', run: async (deps) => void (await sweepDataRetention(deps)) },
];

/** What this deployment's processes on this host that died left: cgroups of their sandboxes, and their run directories (see removeAbandonedWorkdirs). */
const LEFTOVERS: SweepStep = {
  name: 'leftovers',
  async run(deps) {
    const cgroups = await deps.sandbox.removeLeftovers();
    if (cgroups.removed) deps.logger.info('removed cgroups of processes that died', { count: cgroups.removed });
    // Tried again on the next sweep; the run directories' clean-up below goes on.
    for (const f of cgroups.failed)
      deps.logger.warn('a cgroup of a sandbox could not be removed yet', { path: f.path, error: f.error });
    const { removed, kept, failed } = await removeAbandonedWorkdirs(
      deps.config.stateRecoveryDir,
      deps.terraform.workRoot,
    );
    if (removed) deps.logger.info('removed working directories of processes that died', { count: removed });
    for (const path of kept)
      deps.logger.warn(
        "a dead process's run directory held a state file; it was kept for an operator to push (terraform state push)",
        { path },
      );
    if (failed.length) {
      for (const f of failed)
        deps.logger.error("a dead process's run directory was left: its state file could not be kept", {
          path: f.path,
          error: f.error,
        });
      throw new Error(
        `${failed.length} run directories of dead processes could not be cleaned up (STATE_RECOVERY_DIR: ${deps.config.stateRecoveryDir})`,
      );
    }
  },
};

/**
 * Runs each step whatever the ones before did: a step that fails is logged and counted
 * (rls_sweep_step_failures_total), and the next goes on, so one broken piece (a full disk, a
 * table a migration has not reached) never stops the work the others hand on.
 */
async function runSteps(deps: WorkerDeps, steps: readonly SweepStep[]): Promise<void> {
  for (const step of steps) {
    try {
      await step.run(deps);
    } catch (err) {
      deps.metrics.sweepFailures.inc({ step: step.name });
      deps.logger.error('a sweep step failed; the others go on', { step: step.name, error: String(err) });
    }
  }
}

/** The periodic sweep of the rows (see SWEEP_STEPS). */
export async function sweep(deps: WorkerDeps): Promise<void> {
  const started = performance.now();
  await runSteps(deps, SWEEP_STEPS);
  deps.logger.debug('swept', { ms: Math.round(performance.now() - started) });
}

/**
 * Sweeps every RECONCILE_INTERVAL_MS from a timer in this process, and once at start, after
 * removing what processes of this host that died left in the temporary directory. Every
 * worker process runs one; a PostgreSQL advisory lock lets one sweep at a time across them, so
 * the sweeps go on whatever Redis loses (a flush, a restart without persistence): nothing of the
 * schedule lives there. A sweep that cannot start (Postgres away) is logged and the next tick
 * tries again; ticks never overlap.
 */
export function startSweeper(deps: WorkerDeps): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    // Each host's processes clean that host's leftovers; the rows are swept by one process at a time.
    running = runSteps(deps, [LEFTOVERS])
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
