import type { Db } from '../platform/db.js';
import type { PolicyKind } from './rules.js';
import { policies, type PolicyRow, type PolicySetRow } from './repo.js';
import { fetchPage, type Page } from '../platform/page.js';
import { newestReadyVersions, VERSION_SUMMARY_COLUMNS, type PolicySetVersionSummary } from './set-versions.repo.js';

/** How a list of policies or policy sets is narrowed: by kind, and by a substring of the name (case-insensitive). */
export interface NamedFilter {
  kind?: PolicyKind;
  search?: string;
}

/** One page of an organization's policies or policy sets, ordered by name, narrowed by `filter`. */
export async function namedPage<T>(
  db: Db,
  table: 'policies' | 'policy_sets',
  org: string,
  page: Page,
  filter: NamedFilter,
): Promise<{ rows: T[]; total: number }> {
  const query = (table === 'policies' ? policies(db) : db<PolicySetRow>('policy_sets')).where({
    organization_name: org,
  });
  if (filter.kind) query.where({ kind: filter.kind });
  if (filter.search) query.whereILike('name', `%${filter.search.replace(/[%_\\]/g, '\\$&')}%`);
  return fetchPage<T>(query.orderBy('name').orderBy('id'), page);
}

/** Policy sets by id, ordered by name. */
export const policySetsByIds = (db: Db, ids: string[]): Promise<PolicySetRow[]> =>
  db<PolicySetRow>('policy_sets').whereIn('id', ids).orderBy('name');

/** Policies (without their code) by id, ordered by name. */
export const policiesByIds = (db: Db, ids: string[]): Promise<PolicyRow[]> =>
  policies(db).whereIn('id', ids).orderBy('name');

/**
 * The versions a policy set names: its newest version (whatever its status) and its current one
 * (the newest ready version, whose bundle it evaluates), by set id; without their policies.
 */
export async function versionsOfSets(
  db: Db,
  setIds: string[],
): Promise<{ newest: Map<string, PolicySetVersionSummary>; current: Map<string, PolicySetVersionSummary> }> {
  if (!setIds.length) return { newest: new Map(), current: new Map() };
  const newest = (await db('policy_set_versions')
    .select(...VERSION_SUMMARY_COLUMNS)
    .distinctOn('policy_set_id')
    .whereIn('policy_set_id', setIds)
    .orderBy([
      { column: 'policy_set_id' },
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])) as PolicySetVersionSummary[];
  return { newest: new Map(newest.map((v) => [v.policy_set_id, v])), current: await newestReadyVersions(db, setIds) };
}
