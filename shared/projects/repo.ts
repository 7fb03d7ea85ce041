import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import type { ProjectAccessLevel, ProjectPermissions, ProjectWorkspacePermissions } from './rules.js';

export interface TagBinding {
  key: string;
  value: string;
}

export interface ProjectRow {
  id: string;
  organization_name: string;
  name: string;
  description: string;
  is_default: boolean;
  tag_bindings: TagBinding[];
  created_at: Date;
  updated_at: Date;
}

export type ProjectSettings = Partial<Pick<ProjectRow, 'name' | 'description' | 'tag_bindings'>>;

/** The index that keeps project names unique in an organization (see its migration). */
export const PROJECT_NAME_UNIQUE = 'projects_organization_name_name_unique';

export const findProject = (db: Db, id: string) => db<ProjectRow>('projects').where({ id }).first();
export const defaultProjectOf = (db: Db, organizationName: string) =>
  db<ProjectRow>('projects').where({ organization_name: organizationName, is_default: true }).first();

const encode = (settings: ProjectSettings): Record<string, unknown> =>
  settings.tag_bindings ? { ...settings, tag_bindings: JSON.stringify(settings.tag_bindings) } : { ...settings };

export async function insertProject(
  db: Db,
  organizationName: string,
  settings: ProjectSettings & { name: string },
  isDefault = false,
): Promise<ProjectRow> {
  const [row] = await db<ProjectRow>('projects')
    .insert({ id: newId('prj'), organization_name: organizationName, is_default: isDefault, ...encode(settings) })
    .returning('*');
  return row;
}

export async function updateProject(db: Db, id: string, settings: ProjectSettings): Promise<ProjectRow> {
  const [row] = await db<ProjectRow>('projects')
    .where({ id })
    .update({ ...encode(settings), updated_at: db.fn.now() })
    .returning('*');
  return row;
}

export const deleteProject = (db: Db, id: string) => db('projects').where({ id }).del();

/** Locks a project's row until the caller's transaction ends. */
export async function lockProject(tx: Db, id: string): Promise<void> {
  await tx('projects').where({ id }).forUpdate().first('id');
}

/** Whether any workspace is in the project. */
export async function projectHasWorkspaces(db: Db, id: string): Promise<boolean> {
  return (await db('workspaces').where({ project_id: id }).first('id')) !== undefined;
}

/** The ids among `ids` of projects in the organization. */
export async function projectIdsIn(db: Db, organizationName: string, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  return (await db('projects')
    .where({ organization_name: organizationName })
    .whereIn('id', ids)
    .pluck('id')) as string[];
}

export interface TeamProjectRow {
  id: string;
  team_id: string;
  project_id: string;
  access: ProjectAccessLevel;
  project_access: ProjectPermissions;
  workspace_access: ProjectWorkspacePermissions;
  created_at: Date;
}

export type TeamProjectGrant = Pick<TeamProjectRow, 'access' | 'project_access' | 'workspace_access'>;

const encodeGrant = (g: TeamProjectGrant) => ({
  access: g.access,
  project_access: JSON.stringify(g.project_access),
  workspace_access: JSON.stringify(g.workspace_access),
});

export const findTeamProject = (db: Db, id: string) => db<TeamProjectRow>('team_projects').where({ id }).first();
export const findTeamProjectOf = (db: Db, teamId: string, projectId: string) =>
  db<TeamProjectRow>('team_projects').where({ team_id: teamId, project_id: projectId }).first();
export const teamProjectsOf = (db: Db, projectId: string) =>
  db<TeamProjectRow>('team_projects')
    .where({ project_id: projectId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);

export async function insertTeamProject(
  db: Db,
  teamId: string,
  projectId: string,
  grant: TeamProjectGrant,
): Promise<TeamProjectRow> {
  const [row] = (await db('team_projects')
    .insert({ id: newId('tprj'), team_id: teamId, project_id: projectId, ...encodeGrant(grant) })
    .returning('*')) as TeamProjectRow[];
  return row;
}

export async function updateTeamProject(db: Db, id: string, grant: TeamProjectGrant): Promise<TeamProjectRow> {
  const [row] = (await db('team_projects').where({ id }).update(encodeGrant(grant)).returning('*')) as TeamProjectRow[];
  return row;
}

export const deleteTeamProject = (db: Db, id: string) => db('team_projects').where({ id }).del();
