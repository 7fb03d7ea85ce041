import type { Knex } from 'knex';
import type { Db } from '../platform/db.js';
import type { OrganizationGrant } from '../identity/access.queries.js';
import {
  accessOfLevel,
  allows,
  WORKSPACE_ACCESS_LEVELS,
  WORKSPACE_PERMISSION_VALUES,
} from '../identity/permissions.rules.js';
import { PROJECT_ACCESS_LEVELS, projectPermissionsFor, workspaceAccessOfProject } from '../projects/rules.js';
import type { VariableSetRow } from './sets.repo.js';
import { projectIdsBySet, setsOfProject, setsOfWorkspaceProject } from '../projects/index.js';
import { containing, fetchPage, type Page } from '../platform/page.js';

/*
 * Which variable sets a caller sees, and what their documents need. Owners, the organization's
 * token and teams with manage-var-sets see every set; other members see global sets and the sets
 * that reach a workspace whose variables they read: applied to it, or to its project, or to a
 * project their team has access to.
 */

export const managesVarsets = (grant: OrganizationGrant): boolean =>
  grant.isOwner || grant.permissions['manage-var-sets'];

/** The values of a custom access's `variables` permission that read variables. */
const READING_VARIABLES: string[] = WORKSPACE_PERMISSION_VALUES.variables.filter((v) => v !== 'none');
const IN_READING = READING_VARIABLES.map(() => '?').join(', ');
/** The fixed workspace levels and project levels whose access reads the variables of a workspace. */
const WORKSPACE_LEVELS_READING = WORKSPACE_ACCESS_LEVELS.filter((l) => allows(accessOfLevel(l), 'read-variables'));
const PROJECT_LEVELS_READING = PROJECT_ACCESS_LEVELS.filter(
  (l) =>
    l !== 'custom' && allows(workspaceAccessOfProject(l, projectPermissionsFor(l, {}).workspace), 'read-variables'),
);

/** The team projects (`tp`) of the teams whose workspace access in the project reads variables. */
const projectsReadingVariables = (db: Db, teamIds: string[]) =>
  db('team_projects as tp')
    .whereIn('tp.team_id', teamIds)
    .where((w) =>
      w
        .whereIn('tp.access', PROJECT_LEVELS_READING)
        .orWhereRaw(`tp.workspace_access->>'variables' in (${IN_READING})`, READING_VARIABLES),
    );

/** The ids of the workspaces whose variables the teams read, by their own access or their project's (a query selecting them). */
const workspacesReadingVariables = (db: Db, teamIds: string[]) =>
  db('team_workspaces')
    .whereIn('team_id', teamIds)
    .where((w) =>
      w
        .whereIn('access', WORKSPACE_LEVELS_READING)
        .orWhereRaw(`permissions->>'variables' in (${IN_READING})`, READING_VARIABLES),
    )
    .select('workspace_id')
    .union(
      projectsReadingVariables(db, teamIds).join('workspaces as pw', 'pw.project_id', 'tp.project_id').select('pw.id'),
    );

/** Narrows a query over `variable_sets as s` to the sets the grant sees. */
function visibleTo(db: Db, grant: OrganizationGrant, q: Knex.QueryBuilder): Knex.QueryBuilder {
  if (managesVarsets(grant)) return q;
  const allWorkspaces = grant.permissions['read-workspaces'] || grant.permissions['manage-workspaces'];
  return q.where((w) => {
    w.where('s.global', true);
    const onWorkspace = db('variable_set_workspaces as vw').whereRaw('vw.variable_set_id = s.id');
    const onProject = db('variable_set_projects as vp').whereRaw('vp.variable_set_id = s.id');
    if (allWorkspaces) {
      w.orWhereExists(onWorkspace.select(db.raw('1'))).orWhereExists(onProject.select(db.raw('1')));
      return;
    }
    if (!grant.teamIds.length) return;
    const workspaces = workspacesReadingVariables(db, grant.teamIds);
    const projects = projectsReadingVariables(db, grant.teamIds)
      .select('tp.project_id')
      .union(db('workspaces').whereIn('id', workspacesReadingVariables(db, grant.teamIds)).select('project_id'));
    w.orWhereExists(onWorkspace.whereIn('vw.workspace_id', workspaces).select(db.raw('1'))).orWhereExists(
      onProject.whereIn('vp.project_id', projects).select(db.raw('1')),
    );
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
          .orWhereIn(
            's.id',
            db('variable_set_workspaces').where({ workspace_id: workspaceId }).select('variable_set_id'),
          )
          .orWhereIn('s.id', setsOfWorkspaceProject(db, 'variable', workspaceId)),
      ),
    listing,
  );

/** One page of the sets applied to a project, by name. */
export const projectVarsetsPage = (db: Db, projectId: string, listing: VarsetListing) =>
  listed(db('variable_sets as s').whereIn('s.id', setsOfProject(db, 'variable', projectId)), listing);

/** For each set: the workspaces and projects it is applied to and its variables' ids, in creation order. */
export async function varsetMembers(
  db: Db,
  setIds: string[],
): Promise<Map<string, { workspaceIds: string[]; projectIds: string[]; varIds: string[] }>> {
  const out = new Map(
    setIds.map((id) => [id, { workspaceIds: [] as string[], projectIds: [] as string[], varIds: [] as string[] }]),
  );
  if (!setIds.length) return out;
  const [workspaces, vars, projects] = await Promise.all([
    db('variable_set_workspaces')
      .whereIn('variable_set_id', setIds)
      .orderBy('workspace_id')
      .select('variable_set_id', 'workspace_id') as Promise<{ variable_set_id: string; workspace_id: string }[]>,
    db('variables')
      .whereIn('variable_set_id', setIds)
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .select('variable_set_id', 'id') as Promise<{ variable_set_id: string; id: string }[]>,
    projectIdsBySet(db, 'variable', setIds),
  ]);
  for (const [id, projectIds] of projects) out.get(id)!.projectIds = projectIds;
  for (const w of workspaces) out.get(w.variable_set_id)!.workspaceIds.push(w.workspace_id);
  for (const v of vars) out.get(v.variable_set_id)!.varIds.push(v.id);
  return out;
}
