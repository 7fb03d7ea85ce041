import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { createDb, writeAsOneStatement as runWrites } from '../../shared/platform/db.js';
import { PostgresObjectStore, readAll } from '../../shared/platform/store/postgres-store.js';
import { harness } from '../helpers/harness.js';

type ChunkRow = { object_id: string; seq: number; data: Buffer; sealed: boolean };

describe('object store: chunks encrypted at rest', function () {
  this.timeout(30_000);
  const db = () => harness().rt.db;
  const store = () => harness().rt.store;
  const chunksOf = (id: string): Promise<ChunkRow[]> => db()('object_chunks').where({ object_id: id }).orderBy('seq');
  /** Bytes with a recognisable marker every 64 KiB, so plain text in a chunk would show. */
  const payload = (size: number) => {
    const data = randomBytes(size);
    for (let at = 0; at + 16 <= size; at += 64 * 1024) data.write('PLAIN-TEXT-MARK!', at);
    return data;
  };

  it('writes an object piece by piece with every chunk sealed, and leaves its connection committing synchronously afterwards', async () => {
    // One connection, so the statements that wrote the unfinished object's row and chunks without
    // waiting for the log ran on the connection asked afterwards.
    const one = createDb(harness().rt.config.databaseUrl, 1, 16);
    try {
      const own = new PostgresObjectStore(one, harness().rt.config.encryptionKey);
      const plain = payload(2 * 1024 * 1024 + 4321);
      const writer = await own.create({ prefix: 'obj' });
      for (let at = 0; at < plain.length; at += 64 * 1024) await writer.write(plain.subarray(at, at + 64 * 1024));
      const unfinished = await one('objects').where({ id: writer.id }).first();
      expect(unfinished.sha256).to.equal('');
      const stored = await one.transaction((tx) => writer.finish(tx));
      const rows = await chunksOf(stored.id);
      expect(rows.map((r) => r.seq)).to.deep.equal([0, 1, 2]);
      expect(rows.every((r) => r.sealed && !r.data.includes('PLAIN-TEXT-MARK!'))).to.equal(true);
      expect((await readAll(own, stored.id))!.equals(plain)).to.equal(true);
      expect(await own.stat(stored.id)).to.deep.include({
        size: plain.length,
        sha256: createHash('sha256').update(plain).digest('hex'),
      });
      const shown = (await one.raw('show synchronous_commit')) as { rows: { synchronous_commit: string }[] };
      expect(shown.rows[0].synchronous_commit).to.equal('on');
    } finally {
      await one.destroy();
    }
  });

  it("stores every chunk sealed, without its plain bytes, and reads the object back whole; size and digest are the plain bytes'", async () => {
    const small = payload(70 * 1024);
    const large = payload(2 * 1024 * 1024 + 12345);
    const [a, b] = await db().transaction(async (tx) => [
      await store().put(tx, small),
      await store().put(
        tx,
        (async function* () {
          yield large.subarray(0, 1000);
          yield large.subarray(1000);
        })(),
      ),
    ]);
    const along = await db().transaction(async (tx) => {
      const { object, writes } = await store().putAlong(tx, Buffer.from('{"secret":"PLAIN-TEXT-MARK!"}'));
      await runWrites(tx, writes);
      return object;
    });
    for (const [obj, plain] of [
      [a, small],
      [b, large],
      [along, Buffer.from('{"secret":"PLAIN-TEXT-MARK!"}')],
    ] as const) {
      const rows = await chunksOf(obj.id);
      expect(rows.length).to.equal(Math.ceil(plain.length / (1024 * 1024)));
      expect(rows.every((r) => r.sealed)).to.equal(true);
      expect(rows.reduce((n, r) => n + r.data.length, 0)).to.equal(plain.length + rows.length * 28);
      for (const r of rows) expect(r.data.includes('PLAIN-TEXT-MARK!')).to.equal(false);
      expect((await readAll(store(), obj.id))!.equals(plain)).to.equal(true);
      expect(await store().stat(obj.id)).to.deep.include({
        size: plain.length,
        sha256: createHash('sha256').update(plain).digest('hex'),
      });
    }
  });

  it('refuses a chunk that was altered, moved to another place or object, or sealed under another key', async () => {
    const [one, two] = await db().transaction(async (tx) => [
      await store().put(tx, payload(3 * 1024 * 1024)),
      await store().put(tx, payload(1000)),
    ]);
    const other = new PostgresObjectStore(db(), randomBytes(32));
    expect(
      await readAll(other, two.id).then(
        () => 'read',
        () => 'refused',
      ),
    ).to.equal('refused');

    const [first] = await chunksOf(one.id);
    const altered = Buffer.from(first.data);
    altered[100] ^= 1;
    await db()('object_chunks').where({ object_id: one.id, seq: 0 }).update({ data: altered });
    expect(
      await readAll(store(), one.id).then(
        () => 'read',
        () => 'refused',
      ),
    ).to.equal('refused');

    // The first chunk of `two` put in place of `one`'s second: authentic bytes, wrong place.
    const [moved] = await chunksOf(two.id);
    await db()('object_chunks').where({ object_id: one.id, seq: 0 }).update({ data: first.data });
    await db()('object_chunks').where({ object_id: one.id, seq: 1 }).update({ data: moved.data });
    expect(
      await readAll(store(), one.id).then(
        () => 'read',
        () => 'refused',
      ),
    ).to.equal('refused');
  });

  it('reads chunks written before sealing as they are', async () => {
    const id = `obj-${randomBytes(6).toString('hex')}`;
    await db()('objects').insert({ id, size: 5, sha256: '', content_type: 'text/plain' });
    await db()('object_chunks').insert({ object_id: id, seq: 0, data: Buffer.from('hello') });
    expect((await readAll(store(), id))!.toString()).to.equal('hello');
  });
});
