import { asJson, type Db } from '../db.js';
import { newId } from '../ids.js';
import { taskResultMachine, type TaskResultEvent, type TaskResultStatus, type TaskStageName, type TaskStageStatus } from '../domain/run-task.js';

export interface TaskRow {
  id: string;
  organization_name: string;
  name: string;
  url: string;
  description: string | null;
  category: string;
  hmac_key_sealed: string | null;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface WorkspaceTaskRow {
  id: string;
  workspace_id: string;
  task_id: string;
  enforcement_level: 'advisory' | 'mandatory';
  stages: TaskStageName[];
  created_at: Date;
}

export interface TaskStageRow {
  id: string;
  run_id: string;
  stage: TaskStageName;
  status: TaskStageStatus;
  status_timestamps: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

export interface TaskResultRow {
  id: string;
  task_stage_id: string;
  run_id: string;
  task_id: string | null;
  workspace_task_id: string | null;
  task_name: string;
  task_url: string;
  enforcement_level: 'advisory' | 'mandatory';
  status: TaskResultStatus;
  message: string | null;
  url: string | null;
  status_timestamps: Record<string, string>;
  access_token_digest: string | null;
  access_token_sealed: string | null;
  /** The task's HMAC key as it was when the stage started (sealed). */
  hmac_key_sealed: string | null;
  triggered_at: Date | null;
  deadline_at: Date | null;
  dispatch_status: 'idle' | 'pending' | 'sending' | 'delivered' | 'gave_up';
  dispatch_attempts: number;
  next_dispatch_at: Date | null;
  dispatch_lease_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const findTask = (db: Db, id: string) => db<TaskRow>('tasks').where({ id }).first();
export const findWorkspaceTask = (db: Db, id: string) => db<WorkspaceTaskRow>('workspace_tasks').where({ id }).first();
export const findTaskStage = (db: Db, id: string) => db<TaskStageRow>('task_stages').where({ id }).first();
export const findTaskResult = (db: Db, id: string) => db<TaskResultRow>('task_results').where({ id }).first();
export const resultsOfStage = (db: Db, stageId: string) => db<TaskResultRow>('task_results').where({ task_stage_id: stageId }).orderBy('created_at').orderBy('id');

const stamp = (db: Db, status: string) => db.raw(`status_timestamps || jsonb_build_object(?::text, ?::text)`, [`${status}-at`, new Date().toISOString()]);

export async function insertTask(db: Db, attrs: Pick<TaskRow, 'organization_name' | 'name' | 'url' | 'description' | 'hmac_key_sealed' | 'enabled'>): Promise<TaskRow> {
  const [row] = await db<TaskRow>('tasks').insert({ id: newId('task'), ...attrs }).returning('*');
  return row;
}

export async function insertWorkspaceTask(db: Db, attrs: Pick<WorkspaceTaskRow, 'workspace_id' | 'task_id' | 'enforcement_level' | 'stages'>): Promise<WorkspaceTaskRow> {
  const [row] = await db<WorkspaceTaskRow>('workspace_tasks').insert({ id: newId('wstask'), ...attrs, stages: asJson(db, attrs.stages) }).returning('*');
  return row;
}

/**
 * Snapshots a new run's attachments: one pending stage per stage that has enabled tasks, one
 * pending result per attachment (the CLI reads the stages right after creating the run).
 */
export async function createStagesForRun(db: Db, run: { id: string; workspace_id: string }): Promise<void> {
  const attachments = (await db('workspace_tasks as wt')
    .join('tasks as t', 't.id', 'wt.task_id')
    .where({ 'wt.workspace_id': run.workspace_id, 't.enabled': true })
    .orderBy('wt.created_at')
    .select('wt.id as workspace_task_id', 'wt.enforcement_level', 'wt.stages', 't.id as task_id', 't.name', 't.url')) as {
    workspace_task_id: string;
    enforcement_level: string;
    stages: TaskStageName[];
    task_id: string;
    name: string;
    url: string;
  }[];
  const byStage = new Map<TaskStageName, typeof attachments>();
  for (const a of attachments) for (const s of a.stages) byStage.set(s, [...(byStage.get(s) ?? []), a]);
  for (const [stage, list] of byStage) {
    const [ts] = await db<TaskStageRow>('task_stages').insert({ id: newId('ts'), run_id: run.id, stage }).returning('*');
    await db('task_results').insert(
      list.map((a) => ({
        id: newId('taskrs'),
        task_stage_id: ts.id,
        run_id: run.id,
        task_id: a.task_id,
        workspace_task_id: a.workspace_task_id,
        task_name: a.name,
        task_url: a.url,
        enforcement_level: a.enforcement_level,
      })),
    );
  }
}

/** Moves a result with compare-and-set; undefined when it was already final (or moved meanwhile). */
export async function moveTaskResult(
  db: Db,
  id: string,
  event: TaskResultEvent,
  changes: Partial<Pick<TaskResultRow, 'message' | 'url'>> = {},
): Promise<TaskResultRow | undefined> {
  const to = taskResultMachine.moves[event].to;
  const [row] = await db<TaskResultRow>('task_results')
    .where({ id })
    .whereIn('status', taskResultMachine.sources(event) as TaskResultStatus[])
    .update({ ...changes, status: to, updated_at: db.fn.now(), status_timestamps: stamp(db, to) })
    .returning('*');
  return row;
}

export async function setStageStatus(db: Db, id: string, status: TaskStageStatus, from: TaskStageStatus[]): Promise<TaskStageRow | undefined> {
  const [row] = await db<TaskStageRow>('task_stages')
    .where({ id })
    .whereIn('status', from)
    .update({ status, updated_at: db.fn.now(), status_timestamps: stamp(db, status) })
    .returning('*');
  return row;
}
