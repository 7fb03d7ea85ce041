import type { Knex } from 'knex';
import type { Db } from '../platform/db.js';
import { FINAL_RUN_STATUSES, type RunStatus } from './machine.js';
import { blockingRuns, CANDIDATE, type RunRow } from './repo.js';

/*
 * The SQL of the run commands that take, hold and release a workspace (queueing, user actions,
 * force-execute, cancel requests, abandoned runs): the locks they serialise on and the
 * conditions their compare-and-set moves ask.
 */

/** Locks the workspace row: every move that takes or releases a workspace serialises on it. */
export const lockWorkspace = (tx: Db, workspaceId: string | Knex.QueryBuilder) =>
  tx('workspaces').where('id', workspaceId).forUpdate().first('id');

/** The workspace id of a run, as a subquery (e.g. for lockWorkspace). */
export const workspaceIdOfRun = (db: Db, runId: string) => db('runs').where({ id: runId }).select('workspace_id');

/** A run's row locked for a move that leaves its key alone: a transaction inserting rows that refer to the run (a state version) does not wait for it. */
export const lockRunForMove = (tx: Db, runId: string) =>
  tx<RunRow>('runs').where({ id: runId }).forNoKeyUpdate().first();

/** A run's row locked for update. */
export const lockRun = (tx: Db, runId: string) => tx<RunRow>('runs').where({ id: runId }).forUpdate().first();

/** The oldest pending runs of a workspace, at most `limit`. */
export const oldestPendingRunIds = async (db: Db, workspaceId: string, limit: number): Promise<string[]> =>
  (await db('runs')
    .where({ workspace_id: workspaceId, status: 'pending' })
    .orderBy('created_at')
    .limit(limit)
    .pluck('id')) as string[];

/** What keeps `run` waiting (see blockingRuns), its creation time read from its row (a Date would lose the microseconds). */
const blockersOf = (db: Db, run: RunRow) =>
  blockingRuns(db, {
    id: run.id,
    workspace_id: run.workspace_id,
    created_at: db('runs').where({ id: run.id }).select('created_at'),
  });

/** Whether another run keeps `run` from taking its workspace, as an SQL boolean; always false for a plan-only run, which never waits. */
export const workspaceBlockedFor = (db: Db, run: RunRow): Knex.Raw =>
  run.plan_only ? db.raw('false') : db.raw('exists (?)', [blockersOf(db, run)]);

/** The column `blocked` (whether another run keeps `run` from its workspace), for a plan-only run none. */
export const blockedColumns = (db: Db, run: RunRow): Knex.Raw[] =>
  run.plan_only ? [] : [db.raw('exists (?) as blocked', [blockersOf(db, run)])];

/** Neither of two SQL booleans holds. */
export const neither = (db: Db, a: Knex.Raw, b: Knex.Raw): Knex.Raw => db.raw('not (?) and not (?)', [a, b]);

/** Whether another run keeps `run` from taking its workspace (the caller holds the workspace lock). */
export async function workspaceHeld(tx: Db, run: RunRow): Promise<boolean> {
  const { rows } = await tx.raw('select exists (?) as held', [blockersOf(tx, run)]);
  return rows[0].held === true;
}

/**
 * The condition under which the row named CANDIDATE is queued at its insert: its workspace is free
 * (unless the run is plan-only) and none of `concerns` (whether a listener or hook is concerned) holds.
 */
export function queuedAtCreationCondition(db: Db, planOnly: boolean | undefined, concerns: Knex.Raw[]): Knex.Raw {
  const busy = planOnly
    ? db.raw('false')
    : db.raw('exists (?) or exists (?)', [
        db('runs as o')
          .whereRaw('o.workspace_id = ??.workspace_id', [CANDIDATE])
          .where('o.plan_only', false)
          .whereNotIn('o.status', FINAL_RUN_STATUSES)
          .select(db.raw('1')),
        db('workspaces as lw')
          .whereRaw('lw.id = ??.workspace_id', [CANDIDATE])
          .where('lw.locked', true)
          .select(db.raw('1')),
      ]);
  return db.raw('not (?) and not ((?) or (?) or (?))', [busy, ...concerns]);
}

/** The id of the row named CANDIDATE, as SQL. */
export const candidateId = (db: Db): Knex.Raw => db.raw('??.id', [CANDIDATE]);

/** Whether the workspace is locked (by a person or an interrupted apply). */
export const isWorkspaceLocked = async (tx: Db, workspaceId: string): Promise<boolean> =>
  Boolean((await tx('workspaces').where({ id: workspaceId }).first('locked'))?.locked);

/** The run that holds a workspace (a non-speculative run past pending and not finished), locked for its move. */
export const lockWorkspaceHolder = (tx: Db, workspaceId: string) =>
  tx<RunRow>('runs')
    .where({ workspace_id: workspaceId, plan_only: false })
    .whereNotIn('status', ['pending', ...FINAL_RUN_STATUSES])
    .forNoKeyUpdate()
    .first();

/** The non-speculative runs of a workspace pending since before `createdAt`, locked for their moves. */
export const lockPendingRunsBefore = (tx: Db, workspaceId: string, createdAt: Date) =>
  tx<RunRow>('runs')
    .where({ workspace_id: workspaceId, plan_only: false, status: 'pending' })
    .where('created_at', '<', createdAt)
    .forNoKeyUpdate();

/** SQL for the moment `seconds` from now. */
export const secondsFromNow = (db: Db, seconds: number): Knex.Raw =>
  db.raw(`now() + (? || ' seconds')::interval`, [String(seconds)]);

/**
 * Asks a run executing Terraform to stop: the request's time and when force-cancel becomes
 * available (`coolOffSeconds` later) are kept from a first request. How many runs were asked (0 or 1).
 */
export const requestRunCancel = (
  db: Db,
  runId: string,
  executing: readonly RunStatus[],
  coolOffSeconds: number,
): Promise<number> =>
  db('runs')
    .where({ id: runId })
    .whereIn('status', executing as RunStatus[])
    .update({
      cancel_requested_at: db.raw('coalesce(cancel_requested_at, now())'),
      force_cancel_available_at: db.raw(`coalesce(force_cancel_available_at, now() + (? || ' seconds')::interval)`, [
        String(coolOffSeconds),
      ]),
    });
