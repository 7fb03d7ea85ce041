import type { Knex } from 'knex';
import type { Db } from './db.js';
import type { RunStatus } from './domain/run.js';
import type { RunRow } from './repos/runs.js';

/** One move of a run, as subscribers see it (inside the transaction that made it). */
export interface RunTransition {
  run: RunRow;
  from: RunStatus | null;
  to: RunStatus;
  event: string;
  actorId: string | null;
}

export type RunTransitionListener = (tx: Db, change: RunTransition) => Promise<void>;

/**
 * Whether a move may concern a listener: an SQL boolean over the moved run's row (`row` is that
 * row's name in the statement that makes the move), or null when the move cannot concern it.
 * Asked in that statement, so a move that concerns nobody costs no round trip for its listeners.
 */
export type Interest = (db: Db, move: { event: string; to: RunStatus }, row: string) => Knex.Raw | null;

const subscribers: { listener: RunTransitionListener; interest?: Interest }[] = [];

/**
 * Subscribes to every run transition. Listeners run inside the transaction that moves the run,
 * so whatever they write (a notification delivery, a task stage) commits atomically with it.
 * With `interest`, the listener is called only for moves its interest holds for. Register at
 * start-up; the run engine itself knows no subscriber.
 */
export function onRunTransition(listener: RunTransitionListener, interest?: Interest): void {
  subscribers.push({ listener, interest });
}

const column = (i: number) => `concerns_${i}`;

/** The columns a statement making `move` selects beside the moved row (named `row`), one per listener with an interest. */
export function interestColumns(db: Db, move: { event: string; to: RunStatus }, row: string): Knex.Raw[] {
  return subscribers.flatMap(({ interest }, i) => {
    if (!interest) return [];
    return [db.raw('(?) as ??', [interest(db, move, row) ?? db.raw('false'), column(i)])];
  });
}

/**
 * Whether a move may concern any listener, as one SQL boolean over the row named `row`; null when
 * a listener has no interest (every move concerns it).
 */
export function concernsAny(db: Db, move: { event: string; to: RunStatus }, row: string): Knex.Raw | null {
  if (subscribers.some(({ interest }) => !interest)) return null;
  const conditions = subscribers.map(({ interest }) => interest!(db, move, row)).filter((c): c is Knex.Raw => c !== null);
  return conditions.length ? db.raw(conditions.map(() => '(?)').join(' or '), conditions) : db.raw('false');
}

/** Splits what such a statement returned into the run's row and the listeners' answers. */
export function readInterests(selected: Record<string, unknown>): { run: RunRow; answers: Record<string, unknown> } {
  const run = { ...selected };
  const answers: Record<string, unknown> = {};
  for (const i of subscribers.keys()) {
    if (!(column(i) in run)) continue;
    answers[column(i)] = run[column(i)];
    delete run[column(i)];
  }
  return { run: run as unknown as RunRow, answers };
}

/** Calls the listeners a move concerns (every listener when `answers` is missing). */
export async function publishRunTransition(tx: Db, change: RunTransition, answers?: Record<string, unknown>): Promise<void> {
  for (const [i, { listener, interest }] of subscribers.entries()) {
    if (interest && answers && answers[column(i)] === false) continue;
    await listener(tx, change);
  }
}
