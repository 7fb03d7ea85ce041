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

const listeners: RunTransitionListener[] = [];

/**
 * Subscribes to every run transition. Listeners run inside the transaction that moves the run,
 * so whatever they write (a notification delivery, a task stage) commits atomically with it.
 * Register at start-up; the run engine itself knows no subscriber.
 */
export function onRunTransition(listener: RunTransitionListener): void {
  listeners.push(listener);
}

export async function publishRunTransition(tx: Db, change: RunTransition): Promise<void> {
  for (const listener of listeners) await listener(tx, change);
}
