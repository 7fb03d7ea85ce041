import type { Db } from '../platform/db.js';
import type { CvStatus } from '../configuration-versions/machine.js';
import { usableForRuns } from '../configuration-versions/machine.js';
import { firesRunTriggers, RUN_TRIGGER_SOURCE, triggeredRunMessage } from './rules.js';
import { enqueueAllAfterCommit, jobs } from '../platform/queues.js';
import { isRunTriggerSource, sourceNames, subscribersOf } from './repo.js';
import type { RunRow } from '../runs/repo.js';
import type { FollowUp, RunLifecycle, RunMoves, RunTransition } from '../runs/lifecycle.js';
import { insertPendingRun } from '../runs/index.js';

/**
 * When a run is applied, queues a run in every workspace that names its workspace as a run trigger
 * source, in the transaction of the move to `applied`: the new runs commit with it or not at all,
 * and a run whose queue step is lost after the commit is still `pending`, which the reconciler
 * queues. A workspace that runs locally, or has no uploaded current configuration version, gets
 * no run. Returns the work of queueing their first steps once committed.
 */
async function queueTriggeredRuns(m: RunMoves, change: RunTransition): Promise<FollowUp | undefined> {
  if (!firesRunTriggers(change)) return undefined;
  const source = change.run;
  const subscribers = await subscribersOf(m.tx, source.workspace_id);
  if (!subscribers.length) return undefined;
  const sourceWorkspace = await sourceNames(m.tx, source.workspace_id);
  const queued: RunRow[] = [];
  for (const s of subscribers) {
    if (s.execution_mode === 'local' || !s.cv_id || !usableForRuns(s.cv_status as CvStatus, s.cv_source!)) continue;
    // The target's row keeps only the foreign key's share lock: two workspaces that trigger each
    // other, applied at once, then never wait for each other's workspace.
    const run = await insertPendingRun(
      m,
      {
        workspace_id: s.workspace_id,
        configuration_version_id: s.cv_id,
        source: RUN_TRIGGER_SOURCE,
        message: triggeredRunMessage(source.id, sourceWorkspace.name),
        auto_apply: s.auto_apply_run_trigger,
        created_by_id: null,
      },
      { lockWorkspace: false },
    );
    queued.push(run);
  }
  if (!queued.length) return undefined;
  const organization = sourceWorkspace.organization_name;
  return {
    key: `run-triggers:${source.id}`,
    run: (ctx) =>
      enqueueAllAfterCommit(
        ctx.queues,
        queued.map((r) => jobs.runStep(r.id, 'queue', organization)),
        ctx.logger,
      ),
  };
}

/** Whether a move may fire run triggers: a move to `applied` of a run whose workspace is some trigger's source. */
const interest = (db: Db, move: { to: string }, row: string) =>
  firesRunTriggers(move) ? isRunTriggerSource(db, row) : null;

/** Wires run triggers into a run lifecycle. */
export function registerRunTriggers(lifecycle: RunLifecycle): void {
  lifecycle.onRunTransition((_tx, change, moves) => queueTriggeredRuns(moves, change), interest);
}
