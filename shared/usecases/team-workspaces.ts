import type { Runtime } from '../runtime.js';
import { Unprocessable } from '../errors.js';
import type { WorkspaceAccess } from '../access.js';
import { findTeamWorkspaceOf, insertTeamWorkspace, type TeamWorkspaceRow } from '../repos/team-workspaces.js';

/** Gives a team access to a workspace; 422 when it has access already. */
export async function grantTeamWorkspace(rt: Runtime, teamId: string, workspaceId: string, access: WorkspaceAccess): Promise<TeamWorkspaceRow> {
  return rt.db.transaction(async (tx) => {
    if (await findTeamWorkspaceOf(tx, teamId, workspaceId)) throw new Unprocessable('team already has access to this workspace', '/data/relationships/team');
    return insertTeamWorkspace(tx, teamId, workspaceId, access);
  });
}
