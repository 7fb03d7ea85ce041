declare module 'knex/lib/dialects/postgres/index.js' {
  import type { Knex } from 'knex';

  /** Knex's PostgreSQL client, the class `client: 'pg'` selects (knex ships no types for it). */
  export default class PgClient extends Knex.Client {
    constructor(config: Knex.Config);
    /** Sends one statement on a connection; resolves with the statement, its `response` set. */
    _query(connection: unknown, query: unknown): Promise<unknown>;
  }
}
