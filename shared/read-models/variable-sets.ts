import type { Knex } from 'knex';
import type { Db } from '../db.js';
import type { OrganizationGrant } from '../access.js';
import type { VariableSetRow } from '../repos/variable-sets.js';
import { projectIdsBySet, setsOfProject, setsOfWorkspaceProject } from '../repos/project-sets.js';
import { containing, fetchPage, type Page } from './page.js';

/*
 * Which variable sets a caller sees, and what their documents need. Owners, the organization's
 * token and teams with manage-var-sets see every set; other members see global sets and the sets
 * applied to a workspace they can read.
 */

export const managesVarsets = (grant: OrganizationGrant): boolean => grant.isOwner || grant.permissions['manage-var-sets'];

/** Narrows a query over `variable_sets as s` to the sets the grant sees. */
function visibleTo(db: Db, grant: OrganizationGrant, q: Knex.QueryBuilder): Knex.QueryBuilder {
  if (managesVarsets(grant)) return q;
  const allWorkspaces = grant.permissions['read-workspaces'] || grant.permissions['manage-workspaces'];
  return q.where((w) => {
    w.where('s.global', true);
    const applied = db('variable_set_workspaces as vw').whereRaw('vw.variable_set_id = s.id');
    if (allWorkspaces) w.orWhereExists(applied.select(db.raw('1')));
    else if (grant.teamIds.length) w.orWhereExists(applied.whereIn('vw.workspace_id', db('team_workspaces').whereIn('team_id', grant.teamIds).select('workspace_id')).select(db.raw('1')));
  });
}

/** Whether the grant sees the set. */
export async function varsetVisible(db: Db, grant: OrganizationGrant, setId: string): Promise<boolean> {
  if (managesVarsets(grant)) return true;
  return (await visibleTo(db, grant, db('variable_sets as s').where('s.id', setId)).first('s.id')) !== undefined;
}

/** What a list of sets is narrowed to: a name containing `query` (any case), and one page of them. */
export interface VarsetListing {
  query: string | null;
  page: Page;
}

/** The page of `q` (over `variable_sets as s`) by name, narrowed to names containing the query. */
function listed(q: Knex.QueryBuilder, listing: VarsetListing): Promise<{ rows: VariableSetRow[]; total: number }> {
  if (listing.query) q.where('s.name', 'ilike', containing(listing.query));
  return fetchPage<VariableSetRow>(q.select('s.*').orderBy([{ column: 's.name' }, { column: 's.id' }]), listing.page);
}

/** One page of the organization's sets the grant sees, by name, and their total. */
export const visibleVarsetsPage = (db: Db, grant: OrganizationGrant, org: string, listing: VarsetListing) =>
  listed(visibleTo(db, grant, db('variable_sets as s').where('s.organization_name', org)), listing);

/** One page of the sets that reach a workspace: applied to it or to its project, or global in its organization. */
export const workspaceVarsetsPage = (db: Db, workspaceId: string, org: string, listing: VarsetListing) =>
  listed(
    db('variable_sets as s')
      .where('s.organization_name', org)
      .andWhere((w) =>
        w
          .where('s.global', true)
          .orWhereIn('s.id', db('variable_set_workspaces').where({ workspace_id: workspaceId }).select('variable_set_id'))
          .orWhereIn('s.id', setsOfWorkspaceProject(db, 'variable', workspaceId)),
      ),
    listing,
  );

/** One page of the sets applied to a project, by name. */
export const projectVarsetsPage = (db: Db, projectId: string, listing: VarsetListing) =>
  listed(db('variable_sets as s').whereIn('s.id', setsOfProject(db, 'variable', projectId)), listing);

/** For each set: the workspaces and projects it is applied to and its variables' ids, in creation order. */
export async function varsetMembers(db: Db, setIds: string[]): Promise<Map<string, { workspaceIds: string[]; projectIds: string[]; varIds: string[] }>> {
  const out = new Map(setIds.map((id) => [id, { workspaceIds: [] as string[], projectIds: [] as string[], varIds: [] as string[] }]));
  if (!setIds.length) return out;
  const [workspaces, vars, projects] = await Promise.all([
    db('variable_set_workspaces').whereIn('variable_set_id', setIds).orderBy('workspace_id').select('variable_set_id', 'workspace_id') as Promise<{ variable_set_id: string; workspace_id: string }[]>,
    db('variables').whereIn('variable_set_id', setIds).orderBy([{ column: 'created_at' }, { column: 'id' }]).select('variable_set_id', 'id') as Promise<{ variable_set_id: string; id: string }[]>,
    projectIdsBySet(db, 'variable', setIds),
  ]);
  for (const [id, projectIds] of projects) out.get(id)!.projectIds = projectIds;
  for (const w of workspaces) out.get(w.variable_set_id)!.workspaceIds.push(w.workspace_id);
  for (const v of vars) out.get(v.variable_set_id)!.varIds.push(v.id);
  return out;
}
