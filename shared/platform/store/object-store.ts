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
  put(
    tx: Db,
    data: Buffer | AsyncIterable<Buffer>,
    opts?: { contentType?: string; prefix?: string },
  ): Promise<StoredObject>;
  /**
   * Like put, but the store may return the object's writes for a larger statement of the
   * caller's (see Writes) instead of writing at once; then the object exists once they ran. The
   * writes are named by `prefix`: one statement carries objects of distinct prefixes.
   */
  putAlong(
    tx: Db,
    data: Buffer,
    opts?: { contentType?: string; prefix?: string },
  ): Promise<{ object: StoredObject; writes: Writes }>;
  /**
   * A stream of the object's bytes, or null when it does not exist. The id may be a query that
   * selects it (one row, one column), so a caller need not wait for the id before the bytes.
   */
  get(id: string | Knex.QueryBuilder): Promise<Readable | null>;
  stat(id: string): Promise<StoredObject | null>;
  exists(id: string | Knex.QueryBuilder): Promise<boolean>;
  delete(tx: Db, id: string): Promise<void>;
  /**
   * Starts an object written piece by piece outside any transaction, so a long upload holds no
   * connection between its pieces. It stays unfinished (invisible to a reader that checks, and
   * removed by `removeUnfinished`) until `finish`.
   */
  create(opts?: { contentType?: string; prefix?: string }): Promise<ObjectWriter>;
  /** Removes objects left unfinished for longer than `olderThanSeconds` (uploads cut off by a crash); how many. */
  removeUnfinished(olderThanSeconds: number): Promise<number>;
}

/** An object being written (see ObjectStore.create). */
export interface ObjectWriter {
  readonly id: string;
  /** Appends bytes; the store keeps at most one chunk of them in memory. */
  write(piece: Buffer): Promise<void>;
  /** Writes what is left and marks the object finished, in `tx` when given (so it is finished when that commits). */
  finish(tx?: Db): Promise<StoredObject>;
  /** Removes the object and whatever of it was written. */
  discard(): Promise<void>;
}
