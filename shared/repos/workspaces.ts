import type { Db } from '../db.js';
import { newId } from '../ids.js';

export interface WorkspaceRow {
  id: string;
  organization_name: string;
  name: string;
  description: string;
  working_directory: string;
  auto_apply: boolean;
  execution_mode: 'remote' | 'local' | 'agent';
  terraform_version: string;
  vcs_repo: Record<string, unknown> | null;
  assessments_enabled: boolean;
  auto_destroy_at: Date | null;
  allow_destroy_plan: boolean;
  queue_all_runs: boolean;
  speculative_enabled: boolean;
  global_remote_state: boolean;
  structured_run_output_enabled: boolean;
  locked: boolean;
  current_configuration_version_id: string | null;
  current_state_version_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Columns a client may set on create or update. */
export type WorkspaceSettings = Partial<Omit<WorkspaceRow, 'id' | 'organization_name' | 'locked' | 'created_at' | 'updated_at' | 'current_configuration_version_id' | 'current_state_version_id'>>;

export const findWorkspace = (db: Db, id: string) => db<WorkspaceRow>('workspaces').where({ id }).first();
export const findWorkspaceByName = (db: Db, organizationName: string, name: string) =>
  db<WorkspaceRow>('workspaces').where({ organization_name: organizationName, name }).first();

function encode(settings: WorkspaceSettings): Record<string, unknown> {
  const values: Record<string, unknown> = { ...settings };
  if ('vcs_repo' in settings) values.vcs_repo = settings.vcs_repo === null ? null : JSON.stringify(settings.vcs_repo);
  return values;
}

export async function insertWorkspace(db: Db, organizationName: string, settings: WorkspaceSettings & { name: string }): Promise<WorkspaceRow> {
  const [row] = await db<WorkspaceRow>('workspaces')
    .insert({ id: newId('ws'), organization_name: organizationName, ...encode(settings) })
    .returning('*');
  return row;
}

export async function updateWorkspace(db: Db, id: string, settings: WorkspaceSettings): Promise<WorkspaceRow> {
  const [row] = await db<WorkspaceRow>('workspaces')
    .where({ id })
    .update({ ...encode(settings), updated_at: db.fn.now() })
    .returning('*');
  return row;
}

export const deleteWorkspace = (db: Db, id: string) => db('workspaces').where({ id }).del();
