import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { Db, Writes } from '../db.js';

export interface StoredObject {
  id: string;
  size: number;
  sha256: string;
  contentType: string;
}

/**
 * Where archives, plans, logs and policy code live. Writes take the caller's transaction so a
 * blob and the row that points at it commit together.
 */
export interface ObjectStore {
  put(tx: Db, data: Buffer | AsyncIterable<Buffer>, opts?: { contentType?: string; prefix?: string }): Promise<StoredObject>;
  /**
   * Like put, but the store may return the object's writes for a larger statement of the
   * caller's (see Writes) instead of writing at once; then the object exists once they ran.
   */
  putAlong(tx: Db, data: Buffer, opts?: { contentType?: string; prefix?: string }): Promise<{ object: StoredObject; writes: Writes }>;
  /**
   * A stream of the object's bytes, or null when it does not exist. The id may be a query that
   * selects it (one row, one column), so a caller need not wait for the id before the bytes.
   */
  get(id: string | Knex.QueryBuilder): Promise<Readable | null>;
  stat(id: string): Promise<StoredObject | null>;
  exists(id: string | Knex.QueryBuilder): Promise<boolean>;
  delete(tx: Db, id: string): Promise<void>;
}
