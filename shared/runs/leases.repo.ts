import type { Knex } from 'knex';
import type { Db } from '../platform/db.js';
import type { RunRow } from './repo.js';

/*
 * The SQL of a run's lease as its phase ends or its worker disappears: the conditions a move asks
 * of the lease and the release of it.
 */

/** The run's lease is held by `owner`. */
export const leaseHeldBy = (db: Db, owner: string): Knex.Raw => db.raw('lease_owner = ?', [owner]);

/** The run's lease is held by `owner` and no cancel was requested. */
export const leaseHeldUnasked = (db: Db, owner: string): Knex.Raw =>
  db.raw('lease_owner = ? and cancel_requested_at is null', [owner]);

/** The moved run's lease ran out (or it has none), by the database's clock. */
export const leaseRanOut = (db: Db): Knex.Raw => db.raw('(lease_until is null or lease_until < now())');

/** Writes `released` to a run still `executing` for which `held` holds (compare-and-set); the run as written, or undefined. */
export async function releaseRunLease(
  tx: Db,
  runId: string,
  executing: RunRow['status'],
  held: Knex.Raw,
  released: Partial<RunRow>,
): Promise<RunRow | undefined> {
  const [current] = await tx<RunRow>('runs')
    .where({ id: runId, status: executing })
    .andWhere(held)
    .update(released)
    .returning('*');
  return current;
}
