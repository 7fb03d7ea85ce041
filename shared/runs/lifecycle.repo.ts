import type { Knex } from 'knex';
import type { Db } from '../platform/db.js';

/*
 * The SQL the run lifecycle builds of its areas' interests: each one a named column of the
 * statement that asks it, or all of them as one condition.
 */

/** SQL false. */
export const never = (db: Db): Knex.Raw => db.raw('false');

/** `sql` selected as the column `name`. */
export const namedColumn = (db: Db, sql: Knex.Raw, name: string): Knex.Raw => db.raw('(?) as ??', [sql, name]);

/** Whether any of `conditions` holds; false when there is none. */
export const anyOf = (db: Db, conditions: Knex.Raw[]): Knex.Raw =>
  conditions.length ? db.raw(conditions.map(() => '(?)').join(' or '), conditions) : never(db);

/** The one row a select of `columns` (with no table) returns. */
export const selectColumns = async (db: Db, columns: Knex.Raw[]): Promise<Record<string, unknown>> =>
  ((await db.select(columns)) as Record<string, unknown>[])[0];
