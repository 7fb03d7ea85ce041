import type { Writes } from '../platform/db.js';
import type { Knex } from 'knex';
import { runMachine, type RunEvent } from './machine.js';
import { insertPendingRunRow, moveRunRow, type MoveOptions, type NewRun, type RunHop, type RunRow } from './repo.js';
import type { RunMoves } from './lifecycle.js';

/*
 * The two ways a run changes status, each telling the areas that listen to run moves (run tasks,
 * policy checks, notifications) inside the transaction that makes it (`m.tx`; what the listeners
 * leave for after its commit stays in `m`). The statement making the move also asks whether it
 * concerns each listener (docs/design-for-speed.md, "Stage interest in the move statement").
 */

/** Inserts a run in `pending` (see insertPendingRunRow, and its `lockWorkspace`) and tells the listeners of its creation. */
export async function insertPendingRun(
  m: RunMoves,
  attrs: NewRun,
  opts: { lockWorkspace?: boolean } = {},
): Promise<RunRow> {
  const { tx, lifecycle } = m;
  const selected = await insertPendingRunRow(
    tx,
    attrs,
    lifecycle.interestColumns(tx, { event: 'create', to: 'pending' }, 'run'),
    opts,
  );
  const { run, answers } = lifecycle.readInterests(selected);
  await lifecycle.publishRunTransition(
    m,
    { run, from: null, to: 'pending', event: 'create', actorId: attrs.created_by_id ?? null },
    answers,
  );
  return run;
}

/**
 * Moves a run by `event` with compare-and-set from its current status (see moveRunRow) and tells
 * the listeners the move concerns. Returns the moved run, or undefined when someone else moved it
 * first or `onlyIf` did not hold. Throws IllegalTransition on an illegal move.
 */
export async function transitionRun(
  m: RunMoves,
  run: Pick<RunRow, 'id' | 'status'>,
  event: RunEvent,
  opts: MoveOptions & { with?: Writes } = {},
): Promise<RunRow | undefined> {
  const { with: writes, onlyIf, ...move } = opts;
  return transitionRunThrough(m, run, [{ ...move, event }], { with: writes, onlyIf });
}

/**
 * Moves a run by each of `steps` in turn, in one statement (compare-and-set from its current
 * status; see moveRunRow), then tells the listeners of each move it concerns, in order: for a move
 * before the last, the run as it was after that move (its status then; its other columns as the
 * statement left them). Returns the run where the steps end, or undefined when someone else moved
 * it first or `onlyIf` did not hold. Throws IllegalTransition, before writing anything, when a step
 * is illegal from where the one before leads.
 */
export async function transitionRunThrough(
  m: RunMoves,
  run: Pick<RunRow, 'id' | 'status'>,
  steps: readonly (Omit<MoveOptions, 'onlyIf'> & { event: RunEvent })[],
  opts: { with?: Writes; onlyIf?: MoveOptions['onlyIf'] } = {},
): Promise<RunRow | undefined> {
  const { tx, lifecycle } = m;
  const hops: RunHop[] = [];
  for (const step of steps)
    hops.push({ ...step, to: runMachine.transition(hops.length ? hops[hops.length - 1].to : run.status, step.event) });
  const alongside: Knex.Raw[] = hops.flatMap((h, hop) => lifecycle.interestColumns(tx, h, 'moved', hop));
  const selected = await moveRunRow(tx, run, hops, { ...opts, alongside });
  if (!selected) return undefined;
  const { run: moved, answers } = lifecycle.readInterests(selected);
  for (const [hop, h] of hops.entries()) {
    const from = hop ? hops[hop - 1].to : run.status;
    const seen = hop === hops.length - 1 ? moved : { ...moved, status: h.to };
    await lifecycle.publishRunTransition(
      m,
      { run: seen, from, to: h.to, event: h.event, actorId: h.actorId ?? null },
      answers,
      hop,
    );
  }
  return moved;
}
