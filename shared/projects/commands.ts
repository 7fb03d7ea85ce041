import type { Runtime } from '../runtime.js';
import { Conflict, NotFound, Unprocessable } from '../platform/errors.js';
import { isUniqueViolation, type Db } from '../platform/db.js';
import {
  projectNameProblem,
  projectPermissionsFor,
  type ProjectAccessLevel,
  type ProjectPermissions,
  type ProjectWorkspacePermissions,
} from './rules.js';
import {
  PROJECT_NAME_UNIQUE,
  deleteProject,
  findProject,
  findTeamProjectOf,
  insertProject,
  insertTeamProject,
  lockProject,
  projectHasWorkspaces,
  updateProject,
  updateTeamProject,
  type ProjectRow,
  type ProjectSettings,
  type TeamProjectRow,
} from './repo.js';

const nameTaken = () => new Unprocessable('Name has already been taken', { attribute: 'name' });

function checkName(settings: ProjectSettings): void {
  if (settings.name === undefined) return;
  const problem = projectNameProblem(settings.name);
  if (problem) throw new Unprocessable(problem, { attribute: 'name' });
}

const refuseTakenName = (err: unknown): never => {
  throw isUniqueViolation(err, PROJECT_NAME_UNIQUE) ? nameTaken() : err;
};

/** Creates a project in an organization; its name must follow TFE's rule and be free there. */
export async function createProject(
  rt: Runtime,
  organizationName: string,
  settings: ProjectSettings & { name: string },
): Promise<ProjectRow> {
  checkName(settings);
  return insertProject(rt.db, organizationName, settings).catch(refuseTakenName);
}

/** Changes a project's name, description or tag bindings. */
export async function changeProject(rt: Runtime, project: ProjectRow, settings: ProjectSettings): Promise<ProjectRow> {
  checkName(settings);
  return updateProject(rt.db, project.id, settings).catch(refuseTakenName);
}

/** Deletes a project: never the organization's default one, nor one that still holds workspaces. */
export async function removeProject(rt: Runtime, project: ProjectRow): Promise<void> {
  if (project.is_default) throw new Conflict('The default project of an organization cannot be deleted.');
  await rt.db.transaction(async (tx) => {
    // The row lock keeps a workspace from being created in or moved to the project meanwhile.
    await lockProject(tx, project.id);
    if (await projectHasWorkspaces(tx, project.id))
      throw new Conflict('Project must be empty before it can be deleted: move or delete its workspaces first.');
    await deleteProject(tx, project.id);
  });
}

/** The project of `organizationName` a workspace names (422 for one of another organization or none). */
export async function projectForWorkspace(db: Db, organizationName: string, projectId: string): Promise<ProjectRow> {
  const project = await findProject(db, projectId);
  if (!project || project.organization_name !== organizationName)
    throw new Unprocessable(`project ${projectId} not found in the organization`, { relationship: 'project' });
  return project;
}

/** What a request gives of a team's project access. */
export interface TeamProjectRequest {
  access: ProjectAccessLevel;
  project?: Partial<ProjectPermissions>;
  workspace?: Partial<ProjectWorkspacePermissions>;
}

/** Gives a team access to a project of its organization; 422 when it has access already. */
export async function grantTeamProject(
  rt: Runtime,
  teamId: string,
  project: ProjectRow,
  given: TeamProjectRequest,
): Promise<TeamProjectRow> {
  const permissions = projectPermissionsFor(given.access, given);
  return rt.db.transaction(async (tx) => {
    if (await findTeamProjectOf(tx, teamId, project.id))
      throw new Unprocessable('Team already has access to this project', { relationship: 'team' });
    return insertTeamProject(tx, teamId, project.id, {
      access: given.access,
      project_access: permissions.project,
      workspace_access: permissions.workspace,
    });
  });
}

/** Changes a team's project access: a custom one keeps the permissions the request leaves out. */
export async function changeTeamProject(
  rt: Runtime,
  row: TeamProjectRow,
  given: Partial<TeamProjectRequest>,
): Promise<TeamProjectRow> {
  const access = given.access ?? row.access;
  const before = row.access === 'custom' ? { project: row.project_access, workspace: row.workspace_access } : undefined;
  const permissions = projectPermissionsFor(access, given, before);
  const found = await updateTeamProject(rt.db, row.id, {
    access,
    project_access: permissions.project,
    workspace_access: permissions.workspace,
  });
  if (!found) throw new NotFound();
  return found;
}
