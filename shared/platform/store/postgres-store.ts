import { createHash } from 'node:crypto';
import { openBytes, sealBytes } from '../crypto.js';
import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { RELAXED_COMMIT, rowsOf, writeAsOneStatement, type Db, type Writes } from '../db.js';
import { newId } from '../ids.js';
import type { ObjectStore, ObjectWriter, StoredObject } from './object-store.js';

const CHUNK = 1024 * 1024;

/** The digest column of an object still being written (a finished object's is 64 hex digits, even when empty). */
const UNFINISHED = '';

async function* chunksOf(data: Buffer | AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  if (Buffer.isBuffer(data)) {
    for (let i = 0; i < data.length; i += CHUNK) yield data.subarray(i, i + CHUNK);
    return;
  }
  let pending: Buffer[] = [];
  let size = 0;
  for await (const piece of data) {
    pending.push(piece);
    size += piece.length;
    while (size >= CHUNK) {
      const all = Buffer.concat(pending);
      yield all.subarray(0, CHUNK);
      pending = [all.subarray(CHUNK)];
      size = pending[0].length;
    }
  }
  if (size) yield Buffer.concat(pending);
}

/**
 * A chunk is sealed under the service's encryption key with its object's id and its place in it
 * as context, so a chunk cannot be moved to another object or place unnoticed.
 */
const chunkContext = (objectId: string, seq: number) => `${objectId}:${seq}`;

type ChunkRow = { object_id: string; seq: number; data: Buffer; sealed: boolean };

/** Lets the statement's own transaction commit without waiting for the log to reach the disk (see create). */
const RELAXED = `with ${RELAXED_COMMIT}`;

/** An unfinished object's row (id, content type), on its own (see create). */
const UNFINISHED_ROW_RELAXED = `${RELAXED} insert into objects (id, size, sha256, content_type) select ?, 0, '${UNFINISHED}', ? from relaxed`;

/** A chunk of an unfinished object (object id, seq, data, sealed), on its own (see create). */
const CHUNK_RELAXED = `${RELAXED} insert into object_chunks (object_id, seq, data, sealed) select ?, ?, ?, ? from relaxed`;

/**
 * The default store: objects in Postgres, 1 MiB chunks, shared by every machine with no extra
 * service. Chunks are encrypted at rest (configurations, states and plans carry secrets); the
 * size and digest in an object's row are those of its plain bytes.
 */
export class PostgresObjectStore implements ObjectStore {
  constructor(
    private readonly db: Db,
    private readonly key: Buffer,
  ) {}

  /** A chunk's row, its bytes sealed. */
  private chunk(objectId: string, seq: number, plain: Buffer) {
    return { object_id: objectId, seq, data: sealBytes(this.key, chunkContext(objectId, seq), plain), sealed: true };
  }

  async put(
    tx: Db,
    data: Buffer | AsyncIterable<Buffer>,
    opts: { contentType?: string; prefix?: string } = {},
  ): Promise<StoredObject> {
    if (Buffer.isBuffer(data) && data.length <= CHUNK) {
      const { object, writes } = this.smallObject(tx, data, opts);
      await writeAsOneStatement(tx, writes);
      return object;
    }
    const id = newId(opts.prefix ?? 'obj');
    const contentType = opts.contentType ?? 'application/octet-stream';
    await tx('objects').insert({ id, size: 0, sha256: UNFINISHED, content_type: contentType });
    const hash = createHash('sha256');
    let size = 0;
    let seq = 0;
    for await (const chunk of chunksOf(data)) {
      hash.update(chunk);
      size += chunk.length;
      await tx('object_chunks').insert(this.chunk(id, seq++, chunk));
    }
    const sha256 = hash.digest('hex');
    await tx('objects').where({ id }).update({ size, sha256 });
    return { id, size, sha256, contentType };
  }

  async putAlong(
    tx: Db,
    data: Buffer,
    opts: { contentType?: string; prefix?: string } = {},
  ): Promise<{ object: StoredObject; writes: Writes }> {
    return data.length <= CHUNK
      ? this.smallObject(tx, data, opts)
      : { object: await this.put(tx, data, opts), writes: [] };
  }

  /**
   * An object of one chunk at most, size and digest known: its row and its chunk as writes of one
   * statement, named by the object's prefix, not its id, so the statement's text stays prepared
   * (docs/design-for-speed.md, "Batched run writes"). A statement carries objects of distinct prefixes.
   */
  private smallObject(
    tx: Db,
    data: Buffer,
    opts: { contentType?: string; prefix?: string },
  ): { object: StoredObject; writes: Writes } {
    const prefix = opts.prefix ?? 'obj';
    const id = newId(prefix);
    const object = {
      id,
      size: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
      contentType: opts.contentType ?? 'application/octet-stream',
    };
    const writes: Writes = [
      [
        `${prefix}:row`,
        tx('objects').insert({ id, size: object.size, sha256: object.sha256, content_type: object.contentType }),
      ],
    ];
    if (data.length) writes.push([`${prefix}:chunk`, tx('object_chunks').insert(this.chunk(id, 0, data))]);
    return { object, writes };
  }

  async stat(id: string): Promise<StoredObject | null> {
    const row = await this.db('objects').where({ id }).first();
    return row ? { id: row.id, size: Number(row.size), sha256: row.sha256, contentType: row.content_type } : null;
  }

  async exists(id: string | Knex.QueryBuilder): Promise<boolean> {
    return Boolean(await this.db('objects').where('id', id).first('id'));
  }

  async get(id: string | Knex.QueryBuilder): Promise<Readable | null> {
    const { db, key } = this;
    // Four chunks a query; only an object with no chunks at all needs a look at its row.
    const batch = async (from: number) => {
      const rows: ChunkRow[] = await db('object_chunks')
        .where('object_id', id)
        .whereBetween('seq', [from, from + 3])
        .orderBy('seq')
        .select('object_id', 'seq', 'data', 'sealed');
      return rows.map((r) => (r.sealed ? openBytes(key, chunkContext(r.object_id, r.seq), r.data) : r.data));
    };
    const first = await batch(0);
    if (!first.length && !(await this.exists(id))) return null;
    async function* read(): AsyncGenerator<Buffer> {
      let rows = first;
      for (let seq = 0; ;) {
        yield* rows;
        if (rows.length < 4) return;
        seq += 4;
        rows = await batch(seq);
      }
    }
    return Readable.from(read());
  }

  async delete(tx: Db, id: string): Promise<void> {
    await tx('objects').where({ id }).del();
  }

  /**
   * An unfinished object's row has an empty digest until `finish` writes the real one. The row,
   * and the chunks written before `finish`, are each written on their own with a relaxed commit,
   * as nothing reads an unfinished object and its finish commits durably (docs/design-for-speed.md,
   * "Relaxed commits for claims"). A crash before then leaves at most an unfinished object, which
   * the sweep removes.
   */
  async create(opts: { contentType?: string; prefix?: string } = {}): Promise<ObjectWriter> {
    const { db } = this;
    const id = newId(opts.prefix ?? 'obj');
    const contentType = opts.contentType ?? 'application/octet-stream';
    await rowsOf(db, UNFINISHED_ROW_RELAXED, [id, contentType]);
    const hash = createHash('sha256');
    let pending: Buffer[] = [];
    let pendingSize = 0;
    let size = 0;
    let seq = 0;
    // One chunk's insert may be under way while the next bytes arrive (the writer waits for it
    // before it starts another), so receiving and storing overlap with at most one chunk held
    // besides the one filling. Its failure surfaces at the next write or at finish.
    let inFlight: Promise<unknown> = Promise.resolve();
    const flush = async (upTo: number, into: Db = db) => {
      const all = pending.length === 1 ? pending[0] : Buffer.concat(pending);
      pending = [];
      pendingSize = 0;
      for (let at = 0; at < all.length; at += CHUNK) {
        const chunk = all.subarray(at, at + CHUNK);
        if (chunk.length < upTo) {
          pending = [chunk];
          pendingSize = chunk.length;
          return;
        }
        hash.update(chunk);
        size += chunk.length;
        const row = this.chunk(id, seq++, chunk);
        await inFlight;
        // (A query builder runs each time it is awaited: made a promise once.)
        inFlight = (
          into === db
            ? rowsOf(db, CHUNK_RELAXED, [row.object_id, row.seq, row.data, row.sealed])
            : into('object_chunks').insert(row)
        ).then(() => undefined);
        inFlight.catch(() => undefined);
      }
    };
    return {
      id,
      async write(piece: Buffer) {
        pending.push(piece);
        pendingSize += piece.length;
        // Whole chunks go out as they fill; the remainder waits for more bytes.
        if (pendingSize >= CHUNK) await flush(CHUNK);
      },
      async finish(tx: Db = db) {
        if (pendingSize) await flush(1, tx);
        await inFlight;
        const sha256 = hash.digest('hex');
        await tx('objects').where({ id }).update({ size, sha256 });
        return { id, size, sha256, contentType };
      },
      async discard() {
        await inFlight.catch(() => undefined);
        await db('objects').where({ id }).del();
      },
    };
  }

  async removeUnfinished(olderThanSeconds: number): Promise<number> {
    return this.db('objects')
      .where('sha256', UNFINISHED)
      .where('created_at', '<', this.db.raw(`now() - make_interval(secs => ?)`, [olderThanSeconds]))
      .del();
  }
}

/** Reads a whole object into memory (small objects only). */
export async function readAll(store: ObjectStore, id: string): Promise<Buffer | null> {
  const stream = await store.get(id);
  if (!stream) return null;
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}
