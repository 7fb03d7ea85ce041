import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createDb, rowsOf, type Db } from '../../shared/platform/db.js';
import { harness } from '../helpers/harness.js';

/** The statements the pool's one connection has prepared (read unnamed: it has no parameters). */
async function preparedOn(db: Db): Promise<string[]> {
  const { rows } = await db.raw('select statement from pg_prepared_statements order by prepare_time');
  return (rows as { statement: string }[]).map((r) => r.statement);
}

describe('database: prepared statements', function () {
  this.timeout(30_000);
  const table = `prepared_probe_${randomBytes(4).toString('hex')}`;
  const pools: Db[] = [];
  /** A pool of one connection, so every statement of a test goes to the same backend. */
  const pool = (limit: number) => {
    const db = createDb(harness().config.databaseUrl, 1, limit);
    pools.push(db);
    return db;
  };

  before(async () => {
    await harness().rt.db.schema.createTable(table, (t) => t.integer('a'));
    await harness()
      .rt.db(table)
      .insert([{ a: 1 }, { a: 2 }]);
  });

  after(async () => {
    await Promise.all(pools.map((db) => db.destroy()));
    await harness().rt.db.schema.dropTableIfExists(table);
  });

  it('prepares a statement with parameters once per connection and runs it again by name; BEGIN, COMMIT and statements without parameters stay unnamed', async () => {
    const db = pool(10);
    const read = (a: number) => db(table).where({ a }).select('a');
    expect(await read(1)).to.deep.equal([{ a: 1 }]);
    expect(await read(2)).to.deep.equal([{ a: 2 }]);
    await db.transaction(async (tx) => expect(await tx(table).where({ a: 2 }).select('a')).to.deep.equal([{ a: 2 }]));
    await db.raw(`select count(*) from ${table}`);
    expect(await preparedOn(db)).to.deep.equal([`select "a" from "${table}" where "a" = $1`]);
  });

  it('keeps at most its limit of statements per connection and runs the others unnamed', async () => {
    const db = pool(2);
    const results = [];
    for (const column of ['a', 'a as b', 'a as c', 'a as d'])
      results.push(await db(table).where({ a: 1 }).first(db.raw(column)));
    expect(results).to.deep.equal([{ a: 1 }, { b: 1 }, { c: 1 }, { d: 1 }]);
    expect(await preparedOn(db)).to.have.length(2);
  });

  it('prepares nothing when its limit is 0', async () => {
    const db = pool(0);
    expect(await db(table).where({ a: 1 }).first('a')).to.deep.equal({ a: 1 });
    expect(await preparedOn(db)).to.deep.equal([]);
  });

  it('recovers when a migration changes the columns a prepared statement returns: a transaction that meets it fails, and later statements are prepared afresh', async () => {
    const db = pool(10);
    const read = (q: Db) => q(table).where({ a: 1 }).select('*');
    expect(await read(db)).to.deep.equal([{ a: 1 }]);

    await harness().rt.db.schema.alterTable(table, (t) => t.integer('b').defaultTo(7));
    const inTransaction = await db
      .transaction((tx) => read(tx))
      .then(
        () => null,
        (err: { code?: string }) => err,
      );
    expect(inTransaction).to.have.property('code', '0A000');
    expect(await read(db)).to.deep.equal([{ a: 1, b: 7 }]);

    // Outside a transaction the statement that meets a changed result is run again at once.
    await harness().rt.db.schema.alterTable(table, (t) => t.integer('c').defaultTo(8));
    expect(await read(db)).to.deep.equal([{ a: 1, b: 7, c: 8 }]);
    expect(await db.transaction((tx) => read(tx))).to.deep.equal([{ a: 1, b: 7, c: 8 }]);
  });

  it('runs a written-out statement (rowsOf) prepared on a pooled connection, or in the transaction it is given, reporting it as knex reports any statement', async () => {
    const db = pool(10);
    const sent: string[] = [];
    const answered: string[] = [];
    db.on('query', (q: { sql: string }) => sent.push(q.sql));
    db.on('query-response', (_rows: unknown, q: { sql: string }) => answered.push(q.sql));
    const text = `select a from ${table} where a = ? order by a`;
    expect(await rowsOf(db, text, [2])).to.deep.equal([{ a: 2 }]);
    expect(await rowsOf(db, text, [1])).to.deep.equal([{ a: 1 }]);
    expect(await db.transaction((tx) => rowsOf(tx, text, [2]))).to.deep.equal([{ a: 2 }]);
    const numbered = `select a from ${table} where a = $1 order by a`;
    expect(sent.filter((sql) => sql === numbered)).to.have.length(3);
    expect(answered.filter((sql) => sql === numbered)).to.have.length(3);
    expect(await preparedOn(db)).to.deep.equal([numbered]);
  });
});
