import { createHash } from 'node:crypto';
import PgClient from 'knex/lib/dialects/postgres/index.js';

/**
 * Knex's PostgreSQL client, made to run each parameterised statement as a named (prepared)
 * statement of its connection, named by its text and at most `limit` texts per connection, so
 * PostgreSQL parses it once per connection (docs/design-for-speed.md, "Prepared statements").
 */

/** A statement as knex hands it to its client. */
interface KnexQuery {
  sql: string;
  bindings?: unknown[];
  options?: Record<string, unknown>;
}

/** The pg connection, as knex passes it (in a transaction it carries the transaction's id). */
interface Connection {
  __knexTxId?: string;
}

/**
 * Raised by PostgreSQL when a prepared statement's result columns changed under it (a migration
 * added or dropped a column of a table it reads with `*`); that statement fails from then on.
 */
const isStalePlan = (err: unknown) =>
  (err as { code?: string }).code === '0A000' &&
  /cached plan must not change result type/.test(String((err as Error).message));

/** Digests (and numbered texts) of recent statements are kept up to this many. */
const DIGESTS_KEPT = 2000;

/** `compute` of a statement's text, remembered for the DIGESTS_KEPT most recent texts (all forgotten at once past that). */
function remembered(compute: (sql: string) => string): (sql: string) => string {
  const kept = new Map<string, string>();
  return (sql) => {
    let value = kept.get(sql);
    if (value === undefined) {
      if (kept.size >= DIGESTS_KEPT) kept.clear();
      value = compute(sql);
      kept.set(sql, value);
    }
    return value;
  };
}

/**
 * A knex client class (for knex's `client` option) that prepares at most `limit` statements per
 * connection. Each call makes a class of its own, with its own record of what its connections
 * prepared (one per database pool).
 */
export function preparingPgClient(limit: number): typeof PgClient {
  /**
   * Set on a stale plan: from then on every connection of the pool prepares under new names, so
   * no connection sends a statement whose result type changed again (the old ones are left to the
   * backends, which drop them with the connection).
   */
  let generation = 0;
  /** A text's digest, hashed once, not at each execution. */
  const digestOf = remembered((sql) => createHash('sha1').update(sql).digest('base64url'));
  /** A text with knex's `?` placeholders numbered for PostgreSQL, rewritten once. */
  const numbered = remembered((sql): string => PgClient.prototype.positionBindings(sql));
  /** The texts each connection has prepared, in the generation they were named in. */
  const preparedBy = new WeakMap<object, { generation: number; names: Set<string> }>();

  return class PreparingPgClient extends PgClient {
    override positionBindings(sql: string): string {
      return numbered(sql);
    }

    /** The name `query` runs under on `connection`, or undefined to run it unnamed. */
    private nameFor(connection: Connection, query: KnexQuery): string | undefined {
      if (!query.bindings?.length || limit <= 0) return undefined;
      let mine = preparedBy.get(connection);
      if (!mine || mine.generation !== generation)
        preparedBy.set(connection, (mine = { generation, names: new Set() }));
      const name = `s${generation}_${digestOf(query.sql)}`;
      if (mine.names.has(name)) return name;
      if (mine.names.size >= limit) return undefined;
      mine.names.add(name);
      return name;
    }

    override _query(connection: Connection, query: KnexQuery): Promise<unknown> {
      const name = this.nameFor(connection, query);
      if (!name) return super._query(connection, query);
      return super._query(connection, { ...query, options: { ...query.options, name } }).catch((err: unknown) => {
        if (!isStalePlan(err)) throw err;
        if (name.startsWith(`s${generation}_`)) generation++;
        // Outside a transaction nothing else failed with it: run it again, unnamed.
        if (connection.__knexTxId) throw err;
        return super._query(connection, query);
      });
    }
  };
}
