import { createHash } from 'node:crypto';
import PgClient from 'knex/lib/dialects/postgres/index.js';

/**
 * Knex's PostgreSQL client, made to run each parameterised statement as a named (prepared)
 * statement of its connection: PostgreSQL parses and analyses it once per connection, and after a
 * few executions reuses its plan, where an unnamed statement is parsed and planned every time.
 * Names come from the statement's text, so a text is prepared once per connection whoever sends
 * it. At most `limit` texts are prepared per connection (later ones run unnamed), which bounds
 * what each connection's backend keeps. Statements without parameters (BEGIN, COMMIT) stay
 * unnamed. See docs/decisions.md "Prepared statements".
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
  (err as { code?: string }).code === '0A000' && /cached plan must not change result type/.test(String((err as Error).message));

/** Digests (and numbered texts) of recent statements are kept up to this many. */
const DIGESTS_KEPT = 2000;

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
  /** Digests of recent statement texts: a text is hashed once, not at each execution. */
  const digests = new Map<string, string>();
  /** Recent texts with knex's `?` placeholders numbered for PostgreSQL: each is rewritten once. */
  const positioned = new Map<string, string>();
  /** The texts each connection has prepared, in the generation they were named in. */
  const preparedBy = new WeakMap<object, { generation: number; names: Set<string> }>();
  const digestOf = (sql: string): string => {
    let digest = digests.get(sql);
    if (digest === undefined) {
      if (digests.size >= DIGESTS_KEPT) digests.clear();
      digest = createHash('sha1').update(sql).digest('base64url');
      digests.set(sql, digest);
    }
    return digest;
  };

  return class PreparingPgClient extends PgClient {
    override positionBindings(sql: string): string {
      const known = positioned.get(sql);
      if (known !== undefined) return known;
      if (positioned.size >= DIGESTS_KEPT) positioned.clear();
      const text: string = super.positionBindings(sql);
      positioned.set(sql, text);
      return text;
    }

    /** The name `query` runs under on `connection`, or undefined to run it unnamed. */
    private nameFor(connection: Connection, query: KnexQuery): string | undefined {
      if (!query.bindings?.length || limit <= 0) return undefined;
      let mine = preparedBy.get(connection);
      if (!mine || mine.generation !== generation) preparedBy.set(connection, (mine = { generation, names: new Set() }));
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
