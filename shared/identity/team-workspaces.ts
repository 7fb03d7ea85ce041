import type { Runtime } from '../runtime.js';
import { NotFound, Unprocessable } from '../platform/errors.js';
import {
  permissionsOfTeamWorkspace,
  teamWorkspacePermissions,
  type TeamWorkspaceAccess,
  type WorkspacePermissions,
} from './permissions.rules.js';
import {
  findTeamWorkspaceOf,
  insertTeamWorkspace,
  updateTeamWorkspace,
  type TeamWorkspaceGrant,
  type TeamWorkspaceRow,
} from './team-workspaces.repo.js';

/** What a request gives of a team's access to a workspace: a level, and for `custom` the permissions it sets. */
export interface TeamWorkspaceRequest {
  access: TeamWorkspaceAccess;
  permissions: Partial<WorkspacePermissions>;
}

/** The access to store, or 422 naming the permission a fixed level does not let a request set. */
function grantOf(
  level: TeamWorkspaceAccess,
  given: Partial<WorkspacePermissions>,
  before: WorkspacePermissions | null,
): TeamWorkspaceGrant {
  const found = teamWorkspacePermissions(level, given, before);
  if ('problem' in found) throw new Unprocessable(found.problem.detail, { attribute: found.problem.attribute });
  return { access: level, permissions: found.permissions };
}

/** Gives a team access to a workspace; 422 when it has access already. */
export async function grantTeamWorkspace(
  rt: Runtime,
  teamId: string,
  workspaceId: string,
  given: TeamWorkspaceRequest,
): Promise<TeamWorkspaceRow> {
  const grant = grantOf(given.access, given.permissions, null);
  return rt.db.transaction(async (tx) => {
    if (await findTeamWorkspaceOf(tx, teamId, workspaceId))
      throw new Unprocessable('team already has access to this workspace', { relationship: 'team' });
    return insertTeamWorkspace(tx, teamId, workspaceId, grant);
  });
}

/**
 * Changes a team's access to a workspace (the level it has unless the request names one): a custom
 * access keeps the permissions it had, those of its earlier level included, where the request leaves them out.
 */
export async function changeTeamWorkspace(
  rt: Runtime,
  row: TeamWorkspaceRow,
  given: Partial<TeamWorkspaceRequest>,
): Promise<TeamWorkspaceRow> {
  const grant = grantOf(
    given.access ?? row.access,
    given.permissions ?? {},
    permissionsOfTeamWorkspace(row.access, row.permissions),
  );
  const found = await updateTeamWorkspace(rt.db, row.id, grant);
  if (!found) throw new NotFound();
  return found;
}
