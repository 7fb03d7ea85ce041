import type { Db } from '../db.js';
import { newId } from '../ids.js';
import type { WorkspaceAccess } from '../access.js';

export interface TeamWorkspaceRow {
  id: string;
  team_id: string;
  workspace_id: string;
  access: WorkspaceAccess;
  created_at: Date;
}

export const findTeamWorkspace = (db: Db, id: string) => db<TeamWorkspaceRow>('team_workspaces').where({ id }).first();
export const teamWorkspacesOf = (db: Db, workspaceId: string) =>
  db<TeamWorkspaceRow>('team_workspaces').where({ workspace_id: workspaceId }).orderBy('created_at');

export async function insertTeamWorkspace(db: Db, teamId: string, workspaceId: string, access: WorkspaceAccess): Promise<TeamWorkspaceRow> {
  const [row] = await db<TeamWorkspaceRow>('team_workspaces')
    .insert({ id: newId('tws'), team_id: teamId, workspace_id: workspaceId, access })
    .returning('*');
  return row;
}

export async function updateTeamWorkspace(db: Db, id: string, access: WorkspaceAccess): Promise<TeamWorkspaceRow> {
  const [row] = await db<TeamWorkspaceRow>('team_workspaces').where({ id }).update({ access }).returning('*');
  return row;
}

export const deleteTeamWorkspace = (db: Db, id: string) => db('team_workspaces').where({ id }).del();

/** A team's access row for a workspace, if it has one. */
export const findTeamWorkspaceOf = (db: Db, teamId: string, workspaceId: string) => db<TeamWorkspaceRow>('team_workspaces').where({ team_id: teamId, workspace_id: workspaceId }).first();
