import type { Knex } from 'knex';
import type { Db } from '../db.js';
import type { WorkspaceRow } from '../repos/workspaces.js';

/** A page of a list: its number (from 1) and size. */
export interface PageWindow {
  number: number;
  size: number;
}

/** One page of an ordered query's rows, with the count of all its rows. */
export async function fetchPage<T>(query: Knex.QueryBuilder, page: PageWindow): Promise<{ rows: T[]; total: number }> {
  const [{ count }] = (await query.clone().clearSelect().clearOrder().count({ count: '*' })) as { count: string | number }[];
  const rows = (await query.limit(page.size).offset((page.number - 1) * page.size)) as T[];
  return { rows, total: Number(count) };
}

/** Workspace rows by id (in no particular order, or by name). */
export function workspacesByIds(db: Db, ids: string[], byName = false): Promise<WorkspaceRow[]> {
  const query = db<WorkspaceRow>('workspaces').whereIn('id', ids);
  return byName ? query.orderBy('name') : query;
}
