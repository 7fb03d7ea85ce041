import type { Runtime } from '../runtime.js';
import { pageAfter, type Db } from '../platform/db.js';
import { findRun, runsAbandoned, updatePhase, type RunRow } from './repo.js';
import { workspaceIdOfRun } from './holding.repo.js';
import { leaseRanOut } from './leases.repo.js';
import { setLock } from '../workspaces/index.js';
import type { RunMoves } from './lifecycle.js';
import { transitionRun } from './moves.js';
import { afterMove, lockWorkspace } from './commands.js';

/** Why a run whose apply's worker disappeared was errored (its error message, and the lock's reason). */
export const APPLY_ABANDONED =
  'The worker applying this run stopped unexpectedly, or lost the database for longer than its lease, before the apply was recorded. The apply was not started again, to avoid applying twice; check the workspace state before queuing a new run.';

/**
 * Locks a run's workspace by the run after its apply was cut off (its worker died, or stopped it
 * at shutdown), with `message` and how to unlock as the reason: Terraform may have changed what it
 * never recorded, so the workspace's queued runs wait until a person has checked the state and
 * force-unlocks it. A lock someone holds already stays as it is.
 */
export async function lockForStateCheck(
  tx: Db,
  run: Pick<RunRow, 'id' | 'workspace_id'>,
  message: string,
): Promise<void> {
  await setLock(
    tx,
    run.workspace_id,
    { type: 'runs', id: run.id },
    `${message} Unlock the workspace (force-unlock) once its state is checked.`,
  );
}

/** Errors a run whose apply's worker disappeared, never applying it again, and locks its workspace (see lockForStateCheck). */
export async function errorAbandonedApply(m: RunMoves, run: RunRow): Promise<RunRow | undefined> {
  const moved = await transitionRun(m, run, 'error', {
    description: APPLY_ABANDONED,
    changes: { error_message: APPLY_ABANDONED, lease_owner: null, lease_until: null },
    onlyIf: leaseRanOut(m.tx),
  });
  if (moved) {
    await lockForStateCheck(m.tx, moved, APPLY_ABANDONED);
    // The apply's own row ends with its run, so neither reads as running.
    await updatePhase(m.tx, 'applies', { run_id: moved.id }, { status: 'errored' });
  }
  return moved;
}

const PLAN_REQUEUED =
  'The worker planning this run stopped before the plan ended; the plan was queued again for another worker.';

/**
 * Hands on one run whose worker's lease ran out: an apply is errored (errorAbandonedApply), a plan
 * goes back to plan_queued. Under the workspace's lock, taken first as every move that may lock
 * the workspace does, and with a compare-and-set on the lease, so a worker that renewed it in time
 * keeps its run.
 */
async function handOn(rt: Runtime, runId: string): Promise<boolean> {
  const [moved, followUps] = await rt.lifecycle.transaction(rt.db, async (m) => {
    await lockWorkspace(m.tx, workspaceIdOfRun(m.tx, runId));
    const run = await findRun(m.tx, runId);
    if (run?.status === 'applying') return errorAbandonedApply(m, run);
    if (run?.status !== 'planning') return undefined;
    return transitionRun(m, run, 'requeue_plan', {
      description: PLAN_REQUEUED,
      changes: { lease_owner: null, lease_until: null },
      onlyIf: leaseRanOut(m.tx),
    });
  });
  if (moved) await afterMove(rt, moved, followUps);
  return moved !== undefined;
}

/**
 * Hands on every run planning or applying whose worker's lease ran out (it died, or gave a plan
 * back at shutdown), from the sweep: a run-pipeline job would first wait for a Terraform slot,
 * which busy workers may not free for minutes, while this needs none. Walks them a page of `batch`
 * at a time; returns how many it handed on.
 */
export async function handOnAbandonedRuns(rt: Runtime, batch: number): Promise<number> {
  let handed = 0;
  let after: string | null = null;
  for (;;) {
    const page = (await pageAfter(rt.db, runsAbandoned(rt.db), after, batch)) as { key: string; id: string }[];
    for (const { id } of page) {
      // One run whose move fails is logged and left for the next sweep; the others are still handed on.
      try {
        if (await handOn(rt, id)) handed++;
      } catch (err) {
        rt.logger.error('could not hand on an abandoned run', { runId: id, error: String(err) });
      }
    }
    if (page.length < batch) return handed;
    after = page[page.length - 1].key;
  }
}
