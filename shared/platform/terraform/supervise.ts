import { randomBytes } from 'node:crypto';
import type { Db } from '../db.js';
import { leaseUntil } from '../leases.js';
import type { Logger } from '../logger.js';
import type { TerraformProcess } from './runner.js';

/** Why a supervised process was stopped; null while it runs on its own. */
export type Stop = 'canceled' | 'force-canceled' | 'timeout' | null;

export interface SupervisorDeps {
  db: Db;
  logger: Logger;
  config: { runLeaseSeconds: number };
}

const TICK_MS = 500;

/** A row a worker executes under a lease (`lease_owner`, `lease_until`). */
type LeasedRow = { table: 'runs' | 'test_runs'; id: string };

/** The holder of one execution's lease: a worker process may execute several rows at once, each under its own. */
export const leaseOwner = (workerId: string): string => `${workerId}/${randomBytes(6).toString('hex')}`;

/**
 * Renews `owner`'s lease on a row every third of the lease until stopped: the whole time the
 * execution has work to record, not only while its Terraform process runs. A renewal that fails
 * is logged; the next one tries again.
 */
export function keepLease(deps: SupervisorDeps, row: LeasedRow, owner: string): { stop(): void } {
  const renew = () =>
    deps
      .db(row.table)
      .where({ id: row.id, lease_owner: owner })
      .update({ lease_until: leaseUntil(deps.db, deps) })
      .catch((err: unknown) =>
        deps.logger.warn('lease renewal failed', { table: row.table, id: row.id, error: String(err) }),
      );
  const timer = setInterval(renew, (deps.config.runLeaseSeconds * 1000) / 3);
  return { stop: () => clearInterval(timer) };
}

/**
 * Watches a Terraform process that executes a row (a run or a test run) in status `executing`:
 * interrupts the process when a cancel is requested, kills it when the row was moved away
 * meanwhile (force-cancel), and, with a deadline, interrupts it there and kills it `graceMs`
 * later. The lease is kept by keepLease.
 */
export function superviseProcess(
  deps: SupervisorDeps,
  row: LeasedRow & { executing: string },
  proc: TerraformProcess,
  limit?: { deadline: number; graceMs: number },
) {
  const state: { stop: Stop } = { stop: null };
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
  };
  const timer = setInterval(
    () =>
      tick().catch((err) =>
        deps.logger.warn('supervision failed', { table: row.table, id: row.id, error: String(err) }),
      ),
    TICK_MS,
  );
  return {
    state,
    stop: () => {
      watching = false;
      clearInterval(timer);
    },
  };
}
