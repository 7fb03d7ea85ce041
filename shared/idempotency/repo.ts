import type { Db } from '../platform/db.js';

/** The tables whose creations take an Idempotency-Key (see shared/idempotency/commands.ts). */
export type IdempotentTable = 'runs' | 'configuration_versions';

/** What a created row carries of the key it was created under. */
export interface IdempotencyColumns {
  idempotency_key: string;
  idempotency_request: string;
}

/** The name of the unique index that holds one row per key. */
export const idempotencyIndex = (table: IdempotentTable) => `${table}_idempotency_key`;

const within = (db: Db, hours: number) => db.raw(`now() - make_interval(hours => ?)`, [hours]);

/** The row created under `key` in the last `hours`, with the digest of the request that created it. */
export function createdUnder(
  db: Db,
  table: IdempotentTable,
  key: string,
  hours: number,
): Promise<{ id: string; idempotency_request: string } | undefined> {
  return db(table)
    .where({ idempotency_key: key })
    .andWhere('created_at', '>', within(db, hours))
    .first('id', 'idempotency_request');
}

/** Frees `key` from a row created under it longer than `hours` ago, so the key may be used again. */
export async function releaseExpired(db: Db, table: IdempotentTable, key: string, hours: number): Promise<void> {
  await db(table)
    .where({ idempotency_key: key })
    .andWhere('created_at', '<=', within(db, hours))
    .update({ idempotency_key: null, idempotency_request: null });
}
