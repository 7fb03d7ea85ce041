import type { Db } from '../db.js';
import type { Logger } from '../logger.js';
import type { TerraformProcess } from './runner.js';

/** Why a supervised process was stopped; null while it runs on its own. */
export type Stop = 'canceled' | 'force-canceled' | 'timeout' | null;

export interface SupervisorDeps {
  db: Db;
  logger: Logger;
  workerId: string;
  config: { runLeaseSeconds: number };
}

const TICK_MS = 500;

/** The lease a worker holds on a row it executes: past it, the work counts as abandoned. */
export const leaseUntil = (deps: Pick<SupervisorDeps, 'config'>) => new Date(Date.now() + deps.config.runLeaseSeconds * 1000);

/**
 * Watches a Terraform process that executes a row (a run or a test run) in status `executing`:
 * renews the worker's lease on the row, interrupts the process when a cancel is requested, kills
 * it when the row was moved away meanwhile (force-cancel), and, with a deadline, interrupts it
 * there and kills it `graceMs` later.
 */
export function superviseProcess(
  deps: SupervisorDeps,
  row: { table: 'runs' | 'test_runs'; id: string; executing: string },
  proc: TerraformProcess,
  limit?: { deadline: number; graceMs: number },
) {
  const state: { stop: Stop } = { stop: null };
  let lastRenew = Date.now();
  let watching = true;
  const tick = async () => {
    const current = await deps.db(row.table).where({ id: row.id }).first('status', 'cancel_requested_at');
    // A tick whose read was under way when watching stopped signals nothing (the process may be on to its next step).
    if (!watching) return;
    if (!current || current.status !== row.executing) {
      state.stop = 'force-canceled';
      proc.kill();
    } else if (current.cancel_requested_at && !state.stop) {
      state.stop = 'canceled';
      proc.interrupt();
    } else if (limit && Date.now() > limit.deadline && state.stop !== 'timeout') {
      state.stop = 'timeout';
      proc.interrupt();
      setTimeout(() => proc.kill(), limit.graceMs).unref();
    }
    if (Date.now() - lastRenew > (deps.config.runLeaseSeconds * 1000) / 3) {
      lastRenew = Date.now();
      await deps.db(row.table).where({ id: row.id, lease_owner: deps.workerId }).update({ lease_until: leaseUntil(deps) });
    }
  };
  const timer = setInterval(() => tick().catch((err) => deps.logger.warn('supervision failed', { table: row.table, id: row.id, error: String(err) })), TICK_MS);
  return {
    state,
    stop: () => {
      watching = false;
      clearInterval(timer);
    },
  };
}
