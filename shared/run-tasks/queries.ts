import type { Db } from '../platform/db.js';
import type { TaskResultRow, TaskRow, TaskStageRow, WorkspaceTaskRow } from './repo.js';
import { fetchPage, type Page } from '../platform/page.js';

/** Orders task stages as a run passes them. */
export const STAGE_ORDER = "array_position(array['pre_plan','post_plan','pre_apply','post_apply'], stage)";

/** One page of an organization's run tasks, oldest first. */
export const taskPage = (db: Db, organizationName: string, page: Page) =>
  fetchPage<TaskRow>(
    db<TaskRow>('tasks').where({ organization_name: organizationName }).orderBy('created_at').orderBy('id'),
    page,
  );

/** One page of a workspace's run task attachments, oldest first. */
export const workspaceTaskPage = (db: Db, workspaceId: string, page: Page) =>
  fetchPage<WorkspaceTaskRow>(
    db<WorkspaceTaskRow>('workspace_tasks').where({ workspace_id: workspaceId }).orderBy('created_at').orderBy('id'),
    page,
  );

/** The attachments of the given tasks, oldest first. */
export async function attachmentsOfTasks(db: Db, taskIds: string[]): Promise<WorkspaceTaskRow[]> {
  return taskIds.length
    ? db<WorkspaceTaskRow>('workspace_tasks').whereIn('task_id', taskIds).orderBy('created_at')
    : [];
}

/** A run's task stages in the order the run passes them. */
export const stagesOfRun = (db: Db, runId: string): Promise<TaskStageRow[]> =>
  db<TaskStageRow>('task_stages').where({ run_id: runId }).orderByRaw(STAGE_ORDER);

/** The results of the given stages, oldest first. */
export async function resultsOfStages(db: Db, stageIds: string[]): Promise<TaskResultRow[]> {
  return stageIds.length
    ? ((await db('task_results')
        .whereIn('task_stage_id', stageIds)
        .orderBy('created_at')
        .orderBy('id')) as TaskResultRow[])
    : [];
}

/** A delivery attempt of a task result, as the API shows it. */
export type TaskAttemptRow = Record<string, unknown> & { task_result_id: string };

/** What presenting task results needs beside their rows: stage names, runs' plan-only flags, outcome ids and delivery attempts. */
export async function taskResultDetails(db: Db, results: TaskResultRow[]) {
  const ids = results.map((r) => r.id);
  const stages = new Map(
    (await db('task_stages').whereIn('id', [...new Set(results.map((r) => r.task_stage_id))])).map((s) => [
      s.id as string,
      s.stage as string,
    ]),
  );
  const runs = new Map(
    (
      await db('runs')
        .whereIn('id', [...new Set(results.map((r) => r.run_id))])
        .select('id', 'plan_only')
    ).map((r) => [r.id as string, r.plan_only as boolean]),
  );
  const outcomes = (await db('task_result_outcomes')
    .whereIn('task_result_id', ids)
    .orderBy('position')
    .select('id', 'task_result_id')) as { id: string; task_result_id: string }[];
  const attempts = (await db('task_result_attempts').whereIn('task_result_id', ids).orderBy('seq')) as TaskAttemptRow[];
  return { stages, runs, outcomes, attempts };
}

/** A task result's outcomes in the order they were reported. */
export const outcomesOfResult = (db: Db, resultId: string): Promise<Record<string, unknown>[]> =>
  db('task_result_outcomes').where({ task_result_id: resultId }).orderBy('position');
