import type { Knex } from 'knex';
import type { Db, Writes } from '../platform/db.js';
import type { TaskResultEvent, TaskStageName, TaskStageStatus } from './machine.js';
import { stageStatusUpdate, taskResultMove, type TaskStageRow } from './repo.js';

/*
 * The SQL of the run task stages' part in a run's lifecycle: the stages a run leaves open, the
 * interests its hooks and listener ask, and the one statement that settles a stage's last result.
 */

/** A run's stages in one of `statuses`. */
export const stagesOfRunIn = (db: Db, runId: string, statuses: readonly TaskStageStatus[]): Promise<TaskStageRow[]> =>
  db<TaskStageRow>('task_stages').where({ run_id: runId }).whereIn('status', statuses);

/** A stage's row, locked for update. */
export const lockStage = (db: Db, id: string): Promise<TaskStageRow | undefined> =>
  db<TaskStageRow>('task_stages').where({ id }).forUpdate().first();

/** Whether the workspace of the run row named `row` has a task attached or its organization a global one enabled. */
export const workspaceHasTasks = (db: Db, row: string): Knex.Raw =>
  db.raw(
    `exists (select 1 from workspace_tasks wt where wt.workspace_id = ??.workspace_id)
           or exists (select 1 from tasks t join workspaces w on w.organization_name = t.organization_name where w.id = ??.workspace_id and t.enabled and t.global_enabled)`,
    [row, row],
  );

/** Whether the run row named `row` has a stage left open. */
export const runHasOpenStage = (db: Db, row: string): Knex.Raw =>
  db.raw(
    `exists (select 1 from task_stages s where s.run_id = ??.id and s.status in ('pending', 'running', 'awaiting_override'))`,
    [row],
  );

/** Whether the run's `stage` is pending (entering it has something to start). */
export const stagePending = (db: Db, runId: string | Knex.Raw, stage: TaskStageName): Knex.Raw =>
  db.raw(`exists (select 1 from task_stages s where s.run_id = ? and s.stage = ? and s.status = 'pending')`, [
    runId,
    stage,
  ]);

/** The run a callback's authentication reads, as its statement names it (see taskResultWithRun). */
export const callbackRun = (db: Db): Knex.Raw => db.raw('r.id');

/**
 * The writes that settle a stage's last result in the statement moving its run: the result's move,
 * then the stage's end, made only when the result moved (both compare-and-set).
 */
export const lastResultWrites = (
  db: Db,
  resultId: string,
  event: TaskResultEvent,
  changes: { message?: string | null; url?: string | null },
  stageId: string,
  closeAs: TaskStageStatus,
): Writes => [
  ['moved_result', taskResultMove(db, resultId, event, changes)],
  [
    'closed_stage',
    stageStatusUpdate(db, stageId, closeAs, ['running']).whereRaw('exists (select 1 from moved_result)'),
  ],
];

/** The stage was closed by lastResultWrites, for the run's move to ask. */
export const stageClosed = (db: Db): Knex.Raw => db.raw('exists (select 1 from closed_stage)');
