import type { Writes } from '../db.js';
import type { Knex } from 'knex';
import { runMachine, type RunEvent } from '../domain/run.js';
import { insertPendingRunRow, moveRunRow, type MoveOptions, type NewRun, type RunRow } from '../repos/runs.js';
import type { RunMoves } from '../run-lifecycle.js';

/*
 * The two ways a run changes status, each telling the areas that listen to run moves (run tasks,
 * policy checks, notifications) inside the transaction that makes it (`m.tx`; what the listeners
 * leave for after its commit stays in `m`). The statement making the move also asks whether it
 * concerns each listener (see Interest in run-lifecycle.ts), so a move that concerns nobody costs
 * no further round trip.
 */

/** Inserts a run in `pending` (see insertPendingRunRow) and tells the listeners of its creation. */
export async function insertPendingRun(m: RunMoves, attrs: NewRun): Promise<RunRow> {
  const { tx, lifecycle } = m;
  const selected = await insertPendingRunRow(tx, attrs, lifecycle.interestColumns(tx, { event: 'create', to: 'pending' }, 'run'));
  const { run, answers } = lifecycle.readInterests(selected);
  await lifecycle.publishRunTransition(m, { run, from: null, to: 'pending', event: 'create', actorId: attrs.created_by_id ?? null }, answers);
  return run;
}

/**
 * Moves a run by `event` with compare-and-set from its current status (see moveRunRow) and tells
 * the listeners the move concerns. Returns the moved run, or undefined when someone else moved it
 * first or `onlyIf` did not hold. Throws IllegalTransition on an illegal move.
 */
export async function transitionRun(m: RunMoves, run: Pick<RunRow, 'id' | 'status'>, event: RunEvent, opts: MoveOptions & { with?: Writes } = {}): Promise<RunRow | undefined> {
  const { tx, lifecycle } = m;
  const to = runMachine.transition(run.status, event);
  const alongside: Knex.Raw[] = lifecycle.interestColumns(tx, { event, to }, 'moved');
  const selected = await moveRunRow(tx, run, event, to, { ...opts, alongside });
  if (!selected) return undefined;
  const { run: moved, answers } = lifecycle.readInterests(selected);
  await lifecycle.publishRunTransition(m, { run: moved, from: run.status, to, event, actorId: opts.actorId ?? null }, answers);
  return moved;
}
