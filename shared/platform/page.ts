import type { Knex } from 'knex';

/** A page of a list: its 1-based number and its size. */
export interface Page {
  number: number;
  size: number;
}

/** One page of a list query (already ordered) and the total count of the unpaged query. */
export async function fetchPage<T>(query: Knex.QueryBuilder, page: Page): Promise<{ rows: T[]; total: number }> {
  const [{ count }] = (await query.clone().clearSelect().clearOrder().count({ count: '*' })) as {
    count: string | number;
  }[];
  const rows = (await query.limit(page.size).offset((page.number - 1) * page.size)) as T[];
  return { rows, total: Number(count) };
}

/** An ILIKE pattern matching text that contains `s` (its wildcards taken literally). */
export const containing = (s: string): string => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Rows grouped under the ids they belong to, in the rows' order; every id is present (empty when it has none). */
export function groupUnder<R, V>(
  ids: string[],
  rows: R[],
  idOf: (row: R) => string,
  valueOf: (row: R) => V,
): Map<string, V[]> {
  const out = new Map<string, V[]>(ids.map((id) => [id, []]));
  for (const row of rows) out.get(idOf(row))?.push(valueOf(row));
  return out;
}
