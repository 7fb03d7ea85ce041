import type { Knex } from 'knex';
import type { Config } from './config.js';
import type { Db } from './db.js';

/**
 * What a lease claim takes: rows of `table` by id, with a compare-and-set on their status. A row
 * in one of `from` is claimed (once due, when `dueColumn` is named); a row already in `to` is
 * taken over when `takeOver` is set and its lease is missing or has run out, by the database's
 * clock. The claimed row moves to `to` under a lease of `leaseSeconds` (held by `owner` when given).
 */
export interface LeaseClaim {
  table: string;
  id: string | readonly string[];
  from: readonly string[];
  to: string;
  leaseSeconds: number;
  /** Whether a row in `to` whose lease is missing or has run out is taken over (its holder is presumed dead). */
  takeOver?: boolean;
  /** Written to `lease_owner` when given. */
  owner?: string;
  /** A timestamp column a row in `from` waits for (claimed once it is past). */
  dueColumn?: string;
  /** Column names, when the table's differ: `status` and `lease_until` by default. */
  statusColumn?: string;
  leaseColumn?: string;
  /** Further conditions every claimed row meets. */
  where?: Record<string, unknown>;
  /** Further changes made with the claim (e.g. an attempt counter). */
  set?: Record<string, unknown>;
}

/** The end of a lease of `seconds` from now, by the database's clock. */
export const leaseEnd = (db: Db, seconds: number): Knex.Raw => db.raw('now() + make_interval(secs => ?)', [seconds]);

/** The claim as one `update … returning *` statement, not yet run (it may be a CTE of a larger statement). */
export function leaseClaimQuery(db: Db, c: LeaseClaim): Knex.QueryBuilder {
  const status = c.statusColumn ?? 'status';
  const lease = c.leaseColumn ?? 'lease_until';
  const query = db(c.table);
  if (typeof c.id === 'string') query.where('id', c.id);
  // One array parameter rather than one placeholder per id: the statement's text is the same
  // however many rows it claims, so it is prepared once per connection (shared/platform/db/prepared.ts).
  else query.whereRaw('id = any(?::text[])', [c.id as string[]]);
  if (c.where) query.where(c.where);
  query.andWhere((q) => {
    q.where((fresh) => {
      fresh.whereIn(status, c.from as string[]);
      if (c.dueColumn) fresh.andWhere(c.dueColumn, '<=', db.fn.now());
    });
    if (c.takeOver)
      q.orWhere((stale) =>
        stale.where(status, c.to).andWhere((l) => l.whereNull(lease).orWhere(lease, '<', db.fn.now())),
      );
  });
  return query
    .update({
      ...c.set,
      [status]: c.to,
      [lease]: leaseEnd(db, c.leaseSeconds),
      ...(c.owner !== undefined ? { lease_owner: c.owner } : {}),
    })
    .returning('*');
}

/** Claims rows under a lease (compare-and-set); the rows claimed, none when every one is settled, not due or leased elsewhere. */
export async function claimLease<T>(db: Db, c: LeaseClaim): Promise<T[]> {
  return (await leaseClaimQuery(db, c)) as T[];
}

/**
 * The lease a worker takes on a row it executes, by the database's clock (the one every expiry
 * is judged by): past it, the work counts as abandoned.
 */
export const leaseUntil = (db: Db, deps: { config: Pick<Config, 'runLeaseSeconds'> }): Knex.Raw =>
  db.raw('now() + make_interval(secs => ?)', [deps.config.runLeaseSeconds]);

/** A select column: whether a row's lease has expired (or there is none), by the database's clock. */
export const leaseExpired = (db: Db): Knex.Raw =>
  db.raw('(lease_until is null or lease_until < now()) as lease_expired');
