import type { Knex } from 'knex';
import { rowsOf, type Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import { FINAL_RUN_STATUSES } from '../runs/machine.js';
import type { DataRetentionColumns } from '../retention/rules.js';

/** A workspace; its own data retention policy is kept on its row (DataRetentionColumns). */
export interface WorkspaceRow extends DataRetentionColumns {
  id: string;
  organization_name: string;
  name: string;
  description: string;
  working_directory: string;
  auto_apply: boolean;
  /** Whether runs queued by a run trigger apply without confirmation (`auto_apply` does not apply to them). */
  auto_apply_run_trigger: boolean;
  execution_mode: 'remote' | 'local' | 'agent';
  terraform_version: string;
  vcs_repo: Record<string, unknown> | null;
  /** The webhook its repository sends to (see shared/vcs/repositories.ts); null when it follows none. */
  vcs_hook_id: string | null;
  assessments_enabled: boolean;
  auto_destroy_at: Date | null;
  allow_destroy_plan: boolean;
  queue_all_runs: boolean;
  speculative_enabled: boolean;
  global_remote_state: boolean;
  structured_run_output_enabled: boolean;
  file_triggers_enabled: boolean;
  trigger_prefixes: string[];
  trigger_patterns: string[];
  /** Whether the workspace sets its own execution mode and agent pool, or follows its organization's defaults. */
  overwrites_execution_mode: boolean;
  overwrites_agent_pool: boolean;
  /** The agent pool of a workspace in `agent` execution mode (its organization's default one when it follows it). */
  agent_pool_id: string | null;
  /** The SSH key its runs use for git module sources (see shared/ssh-keys/commands.ts). */
  ssh_key_id: string | null;
  /** The tool that created the workspace, as it named itself, and a link to it. */
  source_name: string | null;
  source_url: string | null;
  locked: boolean;
  /** Who holds the lock: `users`, `teams`, `organizations` (an organization token) or `runs`. */
  locked_by_type: LockHolder['type'] | null;
  locked_by_id: string | null;
  lock_reason: string | null;
  current_configuration_version_id: string | null;
  current_state_version_id: string | null;
  /** The project the workspace is in (its organization's default project unless it names one). */
  project_id: string;
  created_at: Date;
  updated_at: Date;
}

/** Columns a client may set on create or update. */
export type WorkspaceSettings = Partial<
  Omit<
    WorkspaceRow,
    | 'id'
    | 'organization_name'
    | 'locked'
    | 'locked_by_type'
    | 'locked_by_id'
    | 'lock_reason'
    | 'created_at'
    | 'updated_at'
    | 'current_configuration_version_id'
    | 'current_state_version_id'
    | keyof DataRetentionColumns
  >
>;

/** Who holds a workspace's lock. */
export interface LockHolder {
  type: 'users' | 'teams' | 'organizations' | 'runs';
  id: string;
}

/** Locks an unlocked workspace for `holder`; undefined when it is locked already. */
export async function setLock(
  db: Db,
  id: string,
  holder: LockHolder,
  reason: string | null,
  opts: { unlessARunHolds?: boolean } = {},
): Promise<WorkspaceRow | undefined> {
  const query = db<WorkspaceRow>('workspaces').where({ id, locked: false });
  if (opts.unlessARunHolds) query.whereNotExists(holdingRuns(db, id));
  const [row] = await query
    .update({
      locked: true,
      locked_by_type: holder.type,
      locked_by_id: holder.id,
      lock_reason: reason,
      updated_at: db.fn.now(),
    })
    .returning('*');
  return row;
}

/** The run that holds a workspace: a non-speculative run that is neither waiting (pending) nor final. */
const holdingRuns = (db: Db, workspaceId: string) =>
  db('runs')
    .where({ workspace_id: workspaceId, plan_only: false })
    .whereNotIn('status', ['pending', ...FINAL_RUN_STATUSES])
    .select('id');

/** The id of the run holding a workspace, if one does. */
export async function holdingRun(db: Db, workspaceId: string): Promise<string | undefined> {
  const row = (await holdingRuns(db, workspaceId).first()) as { id: string } | undefined;
  return row?.id;
}

/** Unlocks a locked workspace, only when `holder` holds it unless null (force); undefined when nothing changed. */
export async function clearLock(db: Db, id: string, holder: LockHolder | null): Promise<WorkspaceRow | undefined> {
  const query = db<WorkspaceRow>('workspaces').where({ id, locked: true });
  if (holder) query.where({ locked_by_type: holder.type, locked_by_id: holder.id });
  const [row] = await query
    .update({ locked: false, locked_by_type: null, locked_by_id: null, lock_reason: null, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

export const findWorkspace = (db: Db, id: string) => db<WorkspaceRow>('workspaces').where({ id }).first();
export const findWorkspaceByName = (db: Db, organizationName: string, name: string) =>
  db<WorkspaceRow>('workspaces').where({ organization_name: organizationName, name }).first();

/** The organization's default execution mode and agent pool, read in the statement that writes a workspace (the organization's name bound). */
const ORGANIZATION_DEFAULT_MODE = '(select default_execution_mode from organizations where name = ?)';
const ORGANIZATION_DEFAULT_POOL = '(select default_agent_pool_id from organizations where name = ?)';

/** The organization's default project, read in the statement that creates a workspace named no other (the organization's name bound). */
const ORGANIZATION_DEFAULT_PROJECT = '(select id from projects where organization_name = ? and is_default)';

/** Settings as column values (the VCS repository as JSON text). */
function columnValues(settings: WorkspaceSettings): Record<string, unknown> {
  const values: Record<string, unknown> = { ...settings };
  if ('vcs_repo' in settings) values.vcs_repo = settings.vcs_repo === null ? null : JSON.stringify(settings.vcs_repo);
  return values;
}

function encode(db: Db, organizationName: string, settings: WorkspaceSettings): Record<string, unknown> {
  const values = columnValues(settings);
  // A workspace that follows its organization takes the organization's default execution mode and pool.
  if (settings.overwrites_execution_mode === false) {
    values.execution_mode = db.raw(ORGANIZATION_DEFAULT_MODE, [organizationName]);
    values.agent_pool_id = db.raw(ORGANIZATION_DEFAULT_POOL, [organizationName]);
  }
  return values;
}

/**
 * The statement creating a workspace that sets `columns` (names of WorkspaceRow's columns, never
 * input), with the organization's default execution mode unless `ownMode`. Written out rather than
 * built: it runs on every creation, and knex would compile a built insert each time.
 */
function insertText(columns: readonly string[], ownMode: boolean, ownProject: boolean): string {
  const names = [
    'id',
    'organization_name',
    ...columns,
    ...(ownMode ? [] : ['execution_mode', 'agent_pool_id']),
    ...(ownProject ? [] : ['project_id']),
  ].map((c) => `"${c.replace(/"/g, '""')}"`);
  const values = [
    '?',
    '?',
    ...columns.map(() => '?'),
    ...(ownMode ? [] : [ORGANIZATION_DEFAULT_MODE, ORGANIZATION_DEFAULT_POOL]),
    ...(ownProject ? [] : [ORGANIZATION_DEFAULT_PROJECT]),
  ];
  return `insert into workspaces (${names.join(', ')}) values (${values.join(', ')}) returning *`;
}

export async function insertWorkspace(
  db: Db,
  organizationName: string,
  settings: WorkspaceSettings & { name: string },
): Promise<WorkspaceRow> {
  const values = columnValues(settings);
  // Without an execution mode of its own, or following its organization's, a workspace takes the organization's default (and its pool).
  const ownMode = settings.execution_mode !== undefined && settings.overwrites_execution_mode !== false;
  if (!ownMode) {
    delete values.execution_mode;
    delete values.agent_pool_id;
  }
  const columns = Object.keys(values)
    .filter((c) => values[c] !== undefined)
    .sort();
  const ownProject = columns.includes('project_id');
  const bindings = [
    newId('ws'),
    organizationName,
    ...columns.map((c) => values[c] as Knex.RawBinding),
    ...(ownMode ? [] : [organizationName, organizationName]),
    ...(ownProject ? [] : [organizationName]),
  ];
  const [row] = await rowsOf<WorkspaceRow>(db, insertText(columns, ownMode, ownProject), bindings);
  return row;
}

export async function updateWorkspace(
  db: Db,
  ws: Pick<WorkspaceRow, 'id' | 'organization_name'>,
  settings: WorkspaceSettings,
): Promise<WorkspaceRow> {
  const [row] = await db<WorkspaceRow>('workspaces')
    .where({ id: ws.id })
    .update({ ...encode(db, ws.organization_name, settings), updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** Workspaces that follow their organization's default execution mode take its new value and agent pool. */
export async function followDefaultExecution(
  db: Db,
  organizationName: string,
  execution: { mode: WorkspaceRow['execution_mode']; pool: string | null },
): Promise<void> {
  await db('workspaces')
    .where({ organization_name: organizationName, overwrites_execution_mode: false })
    .update({ execution_mode: execution.mode, agent_pool_id: execution.pool, updated_at: db.fn.now() });
}

/** The object holding the workspace's current state, if it has one. */
export async function currentStateObjectId(db: Db, workspaceId: string): Promise<string | null> {
  const row = (await db('workspaces as w')
    .join('state_versions as sv', 'sv.id', 'w.current_state_version_id')
    .where('w.id', workspaceId)
    .first('sv.object_id')) as { object_id: string | null } | undefined;
  return row?.object_id ?? null;
}

export const deleteWorkspace = (db: Db, id: string) => db('workspaces').where({ id }).del();

/** Locks a workspace row until the caller's transaction ends (writes that must not race on it serialise here). */
export async function lockWorkspaceRow(db: Db, id: string): Promise<void> {
  await db('workspaces').where({ id }).forUpdate().first('id');
}
