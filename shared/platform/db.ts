import { randomUUID } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { preparingPgClient } from './db/prepared.js';
import type { Logger } from './logger.js';

export type Db = Knex;
export type Tx = Knex.Transaction;

/**
 * Writes another statement may carry as its data-modifying CTEs (top level, named), so they cost
 * no round trip of their own (docs/design-for-speed.md, "Batched run writes").
 */
export type Writes = [name: string, query: Knex.QueryBuilder][];

/** SQL with `?` placeholders (as in knex's raw) and its values, for a written-out statement (see rowsOf). */
export interface Written {
  sql: string;
  bindings: readonly Knex.RawBinding[];
}

/** A raw statement or fragment compiled by knex into SQL text and values, to be written into another statement. */
export function compiled(raw: Knex.Raw): Written {
  const { sql, bindings } = raw.toSQL();
  return { sql, bindings: bindings as readonly Knex.RawBinding[] };
}

/**
 * A `with` entry named `relaxed` that lets its statement's own transaction commit without waiting
 * for PostgreSQL's log to reach the disk (`synchronous_commit` off for that transaction only). The
 * statement must read `relaxed` (a `with` that only selects runs only when read). Only for writes
 * a later durable commit makes durable anyway (docs/design-for-speed.md, "Relaxed commits for claims").
 */
export const RELAXED_COMMIT = "relaxed as (select set_config('synchronous_commit', 'off', true))";

/** A statement that carries `writes` as its CTEs; the caller adds what it selects or does. */
export const withWrites = (db: Db, writes: Writes): Knex.QueryBuilder =>
  writes.reduce((q, [name, query]) => q.with(name, query), db.queryBuilder());

/**
 * Changes the given columns of the row of `table` with `id` (undefined ones stay as they are) and
 * its updated_at; with none given it only reads the row. Undefined when there is no such row.
 */
export async function updateGiven<T extends object>(
  db: Db,
  table: string,
  id: string,
  attrs: Partial<T>,
): Promise<T | undefined> {
  const changes = Object.fromEntries(Object.entries(attrs).filter(([, v]) => v !== undefined));
  if (!Object.keys(changes).length) return (await db(table).where({ id }).first()) as T | undefined;
  const [row] = (await db(table)
    .where({ id })
    .update({ ...changes, updated_at: db.fn.now() })
    .returning('*')) as T[];
  return row;
}

/**
 * A value as JSON text for a json or jsonb column, typed as SQL so that a row-typed query takes it
 * whatever the column's type in the row (PostgreSQL infers the parameter's type from the column).
 */
export const asJson = (db: Db, value: unknown): Knex.Raw => db.raw('?', [JSON.stringify(value)]);

/**
 * One page of a keyset walk over the rows `query` selects, each with a unique text column `key`:
 * those whose key comes after `after` (from the first when null), in key order, at most `limit`.
 * Every page is a short query however many rows the walk goes through.
 */
export const pageAfter = (db: Db, query: Knex.QueryBuilder, after: string | null, limit: number): Knex.QueryBuilder => {
  const page = db.from(query.as('rows')).select('*');
  if (after !== null) page.where('rows.key', '>', after);
  return page.orderBy('rows.key').limit(limit);
};

/** Runs writes on their own, as one statement. */
export async function writeAsOneStatement(db: Db, writes: Writes): Promise<void> {
  if (!writes.length) return;
  await withWrites(db, writes).select(db.raw('1'));
}

/** What knex's client offers for running a statement on a connection of its pool. */
interface StatementClient {
  acquireConnection(): Promise<object>;
  releaseConnection(connection: object): Promise<unknown>;
  query(
    connection: object,
    statement: { sql: string; bindings: readonly unknown[]; method: 'raw'; options: object; __knexQueryUid: string },
  ): Promise<{ response: { rows: unknown[] } }>;
  emit(event: 'query-response', response: unknown, statement: object): void;
}

/**
 * The rows of a written-out statement (`?` placeholders, as in knex's raw), run through knex's
 * client on a connection of the pool without knex's query builder and runner (docs/design-for-speed.md,
 * "Written-out statements"); still prepared, logged and observed (knex's `query` and
 * `query-response` events). In a transaction, or with a query among its values, it runs as knex's raw.
 */
export async function rowsOf<R>(
  db: Db,
  sql: string,
  bindings: readonly (Knex.RawBinding | Knex.QueryBuilder)[],
): Promise<R[]> {
  // A query among the values needs knex to write it into the statement.
  const writesQuery = bindings.some((b) => typeof b === 'object' && b !== null && 'toSQL' in b);
  if (db.isTransaction || writesQuery)
    return ((await db.raw(sql, bindings as Knex.RawBinding[])) as { rows: R[] }).rows;
  const client = db.client as unknown as StatementClient;
  const connection = await client.acquireConnection();
  try {
    const statement = { sql, bindings, method: 'raw' as const, options: {}, __knexQueryUid: randomUUID() };
    const { response } = await client.query(connection, statement);
    client.emit('query-response', response, statement);
    return response.rows as R[];
  } finally {
    await client.releaseConnection(connection);
  }
}

// Counts come back from pg as strings for bigint; the API serves numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** Makes a new connection keep one generic plan for each statement it prepares. */
function genericPlans(connection: pg.Client, done: (err: Error | undefined, connection: pg.Client) => void): void {
  connection.query('set plan_cache_mode = force_generic_plan').then(
    () => done(undefined, connection),
    (err: Error) => done(err, connection),
  );
}

/**
 * Creates the knex pool for the service. Each connection keeps up to `preparedStatements` of the
 * statements it runs prepared (0: none; see shared/platform/db/prepared.ts).
 */
export function createDb(databaseUrl: string, poolMax = 10, preparedStatements = 0, logger?: Logger): Db {
  // knex's own messages (a connection that could not be made, ...) go to the service's log, not the console.
  const say = (level: 'warn' | 'error' | 'debug') => (message: unknown) =>
    logger?.[level]('database client', { message: String(message) });
  return knexFactory({
    client: preparedStatements > 0 ? preparingPgClient(preparedStatements) : 'pg',
    connection: databaseUrl,
    pool: {
      min: 0,
      max: poolMax,
      // A prepared statement is planned once (a generic plan) instead of at every execution
      // (docs/design-for-speed.md, "Prepared statements"); unnamed ones are planned each time anyway.
      ...(preparedStatements > 0 ? { afterCreate: genericPlans } : {}),
    },
    // An error names its statement without the values bound to it (tokens, state, plan files).
    compileSqlOnError: false,
    ...(logger ? { log: { warn: say('warn'), error: say('error'), deprecate: say('warn'), debug: say('debug') } } : {}),
  });
}

/** Whether `err` is PostgreSQL's refusal of a duplicate by a unique index (by `constraint` when named). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

/** Creates the database named in the URL when it does not exist yet (safe when several processes race). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`unsupported database name: ${name}`);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name}"`);
  } catch (err) {
    // 42P04 duplicate_database / 23505: another process created it first.
    const code = (err as { code?: string }).code;
    if (code !== '42P04' && code !== '23505') throw err;
  } finally {
    await client.end();
  }
}

/** Drops a database (used by tests for their per-run database). */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}

/** Resolves when the database answers a trivial query. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.raw('select 1');
}
