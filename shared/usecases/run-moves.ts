import type { Db, Writes } from '../db.js';
import type { Knex } from 'knex';
import { runMachine, type RunEvent } from '../domain/run.js';
import { insertPendingRunRow, moveRunRow, type MoveOptions, type NewRun, type RunRow } from '../repos/runs.js';
import { interestColumns, publishRunTransition, readInterests } from '../run-events.js';

/*
 * The two ways a run changes status, each telling the areas that listen to run moves (run tasks,
 * policy checks, notifications) inside the transaction that makes it. The statement making the
 * move also asks whether it concerns each listener (see Interest in run-events.ts), so a move that
 * concerns nobody costs no further round trip.
 */

/** Inserts a run in `pending` (see insertPendingRunRow) and tells the listeners of its creation. */
export async function insertPendingRun(db: Db, attrs: NewRun): Promise<RunRow> {
  const selected = await insertPendingRunRow(db, attrs, interestColumns(db, { event: 'create', to: 'pending' }, 'run'));
  const { run, answers } = readInterests(selected);
  await publishRunTransition(db, { run, from: null, to: 'pending', event: 'create', actorId: attrs.created_by_id ?? null }, answers);
  return run;
}

/**
 * Moves a run by `event` with compare-and-set from its current status (see moveRunRow) and tells
 * the listeners the move concerns. Returns the moved run, or undefined when someone else moved it
 * first or `onlyIf` did not hold. Throws IllegalTransition on an illegal move.
 */
export async function transitionRun(db: Db, run: Pick<RunRow, 'id' | 'status'>, event: RunEvent, opts: MoveOptions & { with?: Writes } = {}): Promise<RunRow | undefined> {
  const to = runMachine.transition(run.status, event);
  const alongside: Knex.Raw[] = interestColumns(db, { event, to }, 'moved');
  const selected = await moveRunRow(db, run, event, to, { ...opts, alongside });
  if (!selected) return undefined;
  const { run: moved, answers } = readInterests(selected);
  await publishRunTransition(db, { run: moved, from: run.status, to, event, actorId: opts.actorId ?? null }, answers);
  return moved;
}
