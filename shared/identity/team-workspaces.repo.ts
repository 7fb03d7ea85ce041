import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import type { TeamWorkspaceAccess, WorkspacePermissions } from './permissions.rules.js';

export interface TeamWorkspaceRow {
  id: string;
  team_id: string;
  workspace_id: string;
  access: TeamWorkspaceAccess;
  /** A custom access's permissions; null for a fixed level, which implies its own. */
  permissions: WorkspacePermissions | null;
  created_at: Date;
}

/** A team's access as stored: its level, and a custom access's permissions. */
export type TeamWorkspaceGrant = Pick<TeamWorkspaceRow, 'access' | 'permissions'>;

export const findTeamWorkspace = (db: Db, id: string) => db<TeamWorkspaceRow>('team_workspaces').where({ id }).first();
export const teamWorkspacesOf = (db: Db, workspaceId: string) =>
  db<TeamWorkspaceRow>('team_workspaces').where({ workspace_id: workspaceId }).orderBy('created_at');

/** A jsonb column's value: the JSON text (pg would write a plain object's fields as a row otherwise). */
const json = (permissions: WorkspacePermissions | null): string | null =>
  permissions ? JSON.stringify(permissions) : null;

export async function insertTeamWorkspace(
  db: Db,
  teamId: string,
  workspaceId: string,
  grant: TeamWorkspaceGrant,
): Promise<TeamWorkspaceRow> {
  const [row] = await db('team_workspaces')
    .insert({
      id: newId('tws'),
      team_id: teamId,
      workspace_id: workspaceId,
      access: grant.access,
      permissions: json(grant.permissions),
    })
    .returning('*');
  return row as TeamWorkspaceRow;
}

export async function updateTeamWorkspace(db: Db, id: string, grant: TeamWorkspaceGrant): Promise<TeamWorkspaceRow> {
  const [row] = await db('team_workspaces')
    .where({ id })
    .update({ access: grant.access, permissions: json(grant.permissions) })
    .returning('*');
  return row as TeamWorkspaceRow;
}

export const deleteTeamWorkspace = (db: Db, id: string) => db('team_workspaces').where({ id }).del();

/** A team's access row for a workspace, if it has one. */
export const findTeamWorkspaceOf = (db: Db, teamId: string, workspaceId: string) =>
  db<TeamWorkspaceRow>('team_workspaces').where({ team_id: teamId, workspace_id: workspaceId }).first();
