import type { Db } from '../db.js';
import { grantedRead, grantedReadWhere, workspaceAccessMap, type GrantedRead, type OrganizationGrant, type WorkspaceAccess } from '../access.js';
import type { WorkspaceRow } from '../repos/workspaces.js';
import { groupUnder } from './page.js';
import type { StateOutputRow } from '../repos/state-versions.js';

/**
 * An organization's workspaces the grant may see, by name, optionally only those whose name
 * contains `search` (any case), whose name matches the `wildcard` pattern, that carry every tag of
 * `tags` and none of `excludeTags`, with the access to each.
 */
export async function visibleWorkspaces(
  db: Db,
  organizationName: string,
  grant: OrganizationGrant,
  search: string | null,
  filter: { tags?: string[]; excludeTags?: string[]; wildcard?: string } = {},
): Promise<{ rows: WorkspaceRow[]; access: Map<string, WorkspaceAccess> }> {
  const query = db<WorkspaceRow>('workspaces').where({ organization_name: organizationName });
  if (search) query.whereILike('name', `%${search.replace(/[%_\\]/g, '\\$&')}%`);
  const carrying = (name: string) => db('workspace_tags as wt').join('tags as t', 't.id', 'wt.tag_id').whereRaw('wt.workspace_id = workspaces.id').where('t.name', name);
  // `*` stands for any run of characters (`*-prod`, `app-*`, `*net*`); anything else matches itself.
  if (filter.wildcard) query.whereILike('name', filter.wildcard.replace(/[%_\\]/g, '\\$&').replace(/\*/g, '%'));
  for (const name of filter.tags ?? []) query.whereExists(carrying(name));
  for (const name of filter.excludeTags ?? []) query.whereNotExists(carrying(name));
  const rows = await query.orderBy('name');
  const access = await workspaceAccessMap(db, grant, rows.map((r) => r.id));
  return { rows: rows.filter((r) => access.has(r.id)), access };
}

/** Workspace rows by id (in no particular order, or by name). */
export function workspacesByIds(db: Db, ids: string[], byName = false): Promise<WorkspaceRow[]> {
  const query = db<WorkspaceRow>('workspaces').whereIn('id', ids);
  return byName ? query.orderBy('name') : query;
}

/** The workspaces among `ids` that the grant may see, by name, with the access to each. */
export async function visibleWorkspacesByIds(db: Db, grant: OrganizationGrant, ids: string[]): Promise<{ rows: WorkspaceRow[]; access: Map<string, WorkspaceAccess> }> {
  const rows = ids.length ? await workspacesByIds(db, ids, true) : [];
  const access = await workspaceAccessMap(db, grant, rows.map((r) => r.id));
  return { rows: rows.filter((r) => access.has(r.id)), access };
}

/** What a workspace document shows besides its row: its tags, how many runs it had, how many resources its state manages, its variables' ids. */
export interface WorkspaceFacts {
  tagNames: string[];
  runsCount: number;
  resourceCount: number;
  varIds: string[];
}

/** The facts as columns of a statement over workspaces as `alias` (tags in the order they were added). */
export const factsColumns = (alias: string): string[] => [
  `array(select t.name from workspace_tags wt join tags t on t.id = wt.tag_id where wt.workspace_id = ${alias}.id order by wt.position) as facts_tag_names`,
  `(select count(*)::int from runs r where r.workspace_id = ${alias}.id) as facts_runs_count`,
  `coalesce((select sv.resource_count from state_versions sv where sv.id = ${alias}.current_state_version_id), 0) as facts_resource_count`,
  `array(select v.id from variables v where v.workspace_id = ${alias}.id order by v.created_at, v.id) as facts_var_ids`,
];

/** A workspace by id with its facts, as a granted read (see rowWithGrant). */
export const WORKSPACE_WITH_FACTS: GrantedRead = grantedRead('workspaces', factsColumns('x'));

/** A workspace by its organization's and its own name with its facts, as a granted read. */
export const WORKSPACE_BY_NAME_WITH_FACTS: GrantedRead = grantedReadWhere('workspaces', 'x.organization_name = ? and x.name = ?', factsColumns('x'));

/** What factsColumns adds to a row. */
export interface FactsColumns {
  facts_tag_names: string[];
  facts_runs_count: number;
  facts_resource_count: number;
  facts_var_ids: string[];
}

/** A row read with factsColumns, split into the row and its facts. */
export function splitFacts<T>(row: T & FactsColumns): { row: T; facts: WorkspaceFacts } {
  const { facts_tag_names, facts_runs_count, facts_resource_count, facts_var_ids, ...rest } = row;
  return { row: rest as T, facts: { tagNames: facts_tag_names, runsCount: facts_runs_count, resourceCount: facts_resource_count, varIds: facts_var_ids } };
}

/** The facts of each workspace, read in one statement. */
export async function workspaceFacts(db: Db, ids: string[]): Promise<Map<string, WorkspaceFacts>> {
  if (!ids.length) return new Map();
  const rows = (await db('workspaces as w')
    .whereIn('w.id', ids)
    .select('w.id', ...factsColumns('w').map((c) => db.raw(c)))) as ({ id: string } & FactsColumns)[];
  return new Map(rows.map((r) => [r.id, splitFacts(r).facts]));
}

/** The outputs of each workspace's current state version, by name. */
export async function currentOutputsOf(db: Db, workspaceIds: string[]): Promise<Map<string, StateOutputRow[]>> {
  if (!workspaceIds.length) return new Map();
  const rows: (StateOutputRow & { owner_workspace_id: string })[] = await db('state_version_outputs as o')
    .join('workspaces as w', 'w.current_state_version_id', 'o.state_version_id')
    .whereIn('w.id', workspaceIds)
    .select('o.*', 'w.id as owner_workspace_id')
    .orderBy('o.name');
  return groupUnder(workspaceIds, rows, (r) => r.owner_workspace_id, ({ owner_workspace_id: _, ...o }) => o);
}
