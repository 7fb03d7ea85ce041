import type { Db } from '../db.js';
import { workspaceAccessMap, type OrganizationGrant, type WorkspaceAccess } from '../access.js';
import type { WorkspaceRow } from '../repos/workspaces.js';

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
