import type { Knex } from 'knex';
import { asJson, RELAXED_COMMIT, type Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import { leaseClaimQuery } from '../platform/leases.js';
import {
  taskResultMachine,
  type TaskResultEvent,
  type TaskResultStatus,
  type TaskStageName,
  type TaskStageStatus,
} from './machine.js';
import type { RunRow } from '../runs/repo.js';

export interface TaskRow {
  id: string;
  organization_name: string;
  name: string;
  url: string;
  description: string | null;
  category: string;
  hmac_key_sealed: string | null;
  enabled: boolean;
  /** The global configuration: when enabled, the task applies to every workspace of the organization. */
  global_enabled: boolean;
  global_stages: TaskStageName[];
  global_enforcement_level: 'advisory' | 'mandatory';
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
export const findTaskResult = (db: Db, id: string) => db<TaskResultRow>('task_results').where({ id }).first();
export const resultsOfStage = (db: Db, stageId: string) =>
  db<TaskResultRow>('task_results').where({ task_stage_id: stageId }).orderBy('created_at').orderBy('id');

/** Adds `<status>-at` (hyphenated, as TFE's `awaiting-override-at`) to a row's status timestamps. */
const stamp = (db: Db, status: string) =>
  db.raw(`status_timestamps || jsonb_build_object(?::text, ?::text)`, [
    `${status.replace(/_/g, '-')}-at`,
    new Date().toISOString(),
  ]);

export type NewTask = Pick<
  TaskRow,
  'organization_name' | 'name' | 'url' | 'description' | 'hmac_key_sealed' | 'enabled'
> &
  Partial<Pick<TaskRow, 'global_enabled' | 'global_stages' | 'global_enforcement_level'>>;

/** The JSON columns of a task's row as the database takes them. */
const taskValues = <T extends Partial<TaskRow>>(db: Db, attrs: T) => ({
  ...attrs,
  ...(attrs.global_stages ? { global_stages: asJson(db, attrs.global_stages) } : {}),
});

export async function insertTask(db: Db, attrs: NewTask): Promise<TaskRow> {
  const [row] = await db<TaskRow>('tasks')
    .insert({ id: newId('task'), ...taskValues(db, attrs) })
    .returning('*');
  return row;
}

export async function insertWorkspaceTask(
  db: Db,
  attrs: Pick<WorkspaceTaskRow, 'workspace_id' | 'task_id' | 'enforcement_level' | 'stages'>,
): Promise<WorkspaceTaskRow> {
  const [row] = await db<WorkspaceTaskRow>('workspace_tasks')
    .insert({ id: newId('wstask'), ...attrs, stages: asJson(db, attrs.stages) })
    .returning('*');
  return row;
}

/** The tasks a run of the workspace gets: its attachments, and the organization's global tasks not attached to it. */
type RunTaskSource = {
  workspace_task_id: string | null;
  enforcement_level: string;
  stages: TaskStageName[];
  task_id: string;
  name: string;
  url: string;
};

/**
 * Snapshots a new run's tasks: one pending stage per stage that has enabled tasks, one pending
 * result per task (the CLI reads the stages right after creating the run). A task applies through
 * the workspace's attachment of it, or, without one, through its global configuration when that
 * is enabled (the attachment takes its place where there is one).
 */
export async function createStagesForRun(db: Db, run: { id: string; workspace_id: string }): Promise<void> {
  const attached = db('workspace_tasks as wt')
    .join('tasks as t', 't.id', 'wt.task_id')
    .where({ 'wt.workspace_id': run.workspace_id, 't.enabled': true })
    .select(
      'wt.id as workspace_task_id',
      'wt.enforcement_level',
      'wt.stages',
      't.id as task_id',
      't.name',
      't.url',
      'wt.created_at as since',
    );
  const global = db('tasks as t')
    .join('workspaces as w', 'w.organization_name', 't.organization_name')
    .where({ 'w.id': run.workspace_id, 't.enabled': true, 't.global_enabled': true })
    .whereNotExists(db('workspace_tasks as a').whereRaw('a.task_id = t.id and a.workspace_id = w.id'))
    .select(
      db.raw('null as workspace_task_id'),
      't.global_enforcement_level as enforcement_level',
      't.global_stages as stages',
      't.id as task_id',
      't.name',
      't.url',
      't.created_at as since',
    );
  const attachments = (await db
    .queryBuilder()
    .from(attached.unionAll(global).as('a'))
    .orderBy('since')
    .orderBy('task_id')) as RunTaskSource[];
  const byStage = new Map<TaskStageName, typeof attachments>();
  for (const a of attachments) for (const s of a.stages) byStage.set(s, [...(byStage.get(s) ?? []), a]);
  for (const [stage, list] of byStage) {
    const [ts] = await db<TaskStageRow>('task_stages')
      .insert({ id: newId('ts'), run_id: run.id, stage })
      .returning('*');
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

/** The compare-and-set update of a task result by `event` (see moveTaskResult), returning its row, for a statement to carry along. */
export function taskResultMove(
  db: Db,
  id: string,
  event: TaskResultEvent,
  changes: Partial<Pick<TaskResultRow, 'message' | 'url'>>,
) {
  const to = taskResultMachine.moves[event].to;
  return db('task_results')
    .where({ id })
    .whereIn('status', taskResultMachine.sources(event) as TaskResultStatus[])
    .update({ ...changes, status: to, updated_at: db.fn.now(), status_timestamps: stamp(db, to) })
    .returning('*');
}

/** Moves a result with compare-and-set; undefined when it was already final (or moved meanwhile). */
export async function moveTaskResult(
  db: Db,
  id: string,
  event: TaskResultEvent,
  changes: Partial<Pick<TaskResultRow, 'message' | 'url'>> = {},
): Promise<TaskResultRow | undefined> {
  const [row] = (await taskResultMove(db, id, event, changes)) as TaskResultRow[];
  return row;
}

/** The compare-and-set update of a stage's status (see setStageStatus), for a statement to carry along. */
export const stageStatusUpdate = (db: Db, id: string, status: TaskStageStatus, from: TaskStageStatus[]) =>
  db<TaskStageRow>('task_stages')
    .where({ id })
    .whereIn('status', from)
    .update({ status, updated_at: db.fn.now(), status_timestamps: stamp(db, status) })
    .returning('*');

export async function setStageStatus(
  db: Db,
  id: string,
  status: TaskStageStatus,
  from: TaskStageStatus[],
): Promise<TaskStageRow | undefined> {
  const [row] = await stageStatusUpdate(db, id, status, from);
  return row as TaskStageRow | undefined;
}

/**
 * Moves a task result like moveTaskResult and, in the same statement, locks its stage's row,
 * which it returns too (read once the lock is held): a final result may complete its stage.
 */
export async function moveTaskResultLockingStage(
  db: Db,
  id: string,
  event: TaskResultEvent,
  changes: Partial<Pick<TaskResultRow, 'message' | 'url'>> = {},
): Promise<{ result: TaskResultRow; stage: TaskStageRow } | undefined> {
  const [row] = (await db
    .with('moved', taskResultMove(db, id, event, changes))
    .from('moved')
    .join('task_stages as s', 's.id', 'moved.task_stage_id')
    .forUpdate('s')
    .select('moved.*', db.raw('row_to_json(s) as locked_stage'))) as (TaskResultRow & { locked_stage: TaskStageRow })[];
  if (!row) return undefined;
  const { locked_stage: stage, ...result } = row;
  return { result: result as TaskResultRow, stage };
}

/** What decides a stage's outcome: its results (in order) and policy evaluations, as stageOutcome and the run's error message read them. */
export interface StageVerdicts {
  results: Pick<TaskResultRow, 'id' | 'status' | 'enforcement_level' | 'task_name'>[];
  evaluations: { status: string; is_overridable: boolean }[];
}

/** A stage's verdicts as the columns `stage_results` and `stage_evaluations` of a statement; `stage` is its id or the column holding it. */
const verdictColumns = (db: Db, stage: string | Knex.Raw): Knex.Raw[] => [
  db.raw(
    `(select coalesce(json_agg(json_build_object('id', tr.id, 'status', tr.status, 'enforcement_level', tr.enforcement_level, 'task_name', tr.task_name) order by tr.created_at, tr.id), '[]') from task_results tr where tr.task_stage_id = ?) as stage_results`,
    [stage],
  ),
  db.raw(
    `(select coalesce(json_agg(json_build_object('status', pe.status, 'is_overridable', pe.is_overridable) order by pe.policy_kind), '[]') from policy_evaluations pe where pe.task_stage_id = ?) as stage_evaluations`,
    [stage],
  ),
];

type WithVerdicts<T> = T & { stage_results: StageVerdicts['results']; stage_evaluations: StageVerdicts['evaluations'] };

/** Takes the verdict columns out of a row read with them. */
function takeVerdicts<T extends object>(row: WithVerdicts<T>): { rest: T; verdicts: StageVerdicts } {
  const { stage_results: results, stage_evaluations: evaluations, ...rest } = row;
  return { rest: rest as unknown as T, verdicts: { results, evaluations } };
}

/**
 * A stage's run, its row locked, with what decides the stage's outcome, in one statement; the
 * caller holds the stage's lock already, so every result and evaluation settled before it is seen.
 * Undefined when there is no such run.
 */
export async function lockRunWithVerdicts(
  db: Db,
  runId: string,
  stageId: string,
  /** The caller's own columns (named), read along with the run's (the caller takes them out again). */
  questions: Knex.Raw[] = [],
): Promise<{ run: RunRow; verdicts: StageVerdicts } | undefined> {
  const row = (await db('runs as r')
    .where('r.id', runId)
    .forUpdate('r')
    .first('r.*', ...verdictColumns(db, stageId), ...questions)) as WithVerdicts<RunRow> | undefined;
  if (!row) return undefined;
  const { rest: run, verdicts } = takeVerdicts(row);
  return { run, verdicts };
}

/** A task result as a callback's authentication reads it, with its stage and run (see taskResultWithRun). */
export interface ResultWithRun {
  result: Pick<TaskResultRow, 'id' | 'status' | 'access_token_digest'>;
  stage: Pick<TaskStageRow, 'id' | 'stage' | 'status'>;
  run: RunRow;
  verdicts: StageVerdicts;
}

/**
 * A task result with its stage, its run and the stage's verdicts, in one statement that locks
 * nothing: what a callback's token is checked against, and from which a final result that leaves
 * nothing else open in its stage can decide the stage's outcome before it writes (the results
 * and evaluations seen final stay so). `questions`: the caller's own columns, where the run is
 * `r` (the caller takes them out of the run again). Undefined when there is no such result.
 */
export async function taskResultWithRun(
  db: Db,
  id: string,
  questions: Knex.Raw[] = [],
): Promise<ResultWithRun | undefined> {
  const row = (await db('task_results as t')
    .join('task_stages as s', 's.id', 't.task_stage_id')
    .join('runs as r', 'r.id', 's.run_id')
    .where('t.id', id)
    .first(
      'r.*',
      db.raw(
        `json_build_object('id', t.id, 'status', t.status, 'access_token_digest', t.access_token_digest) as callback_result`,
      ),
      db.raw(`json_build_object('id', s.id, 'stage', s.stage, 'status', s.status) as callback_stage`),
      ...verdictColumns(db, db.raw('s.id')),
      ...questions,
    )) as
    | WithVerdicts<RunRow & { callback_result: ResultWithRun['result']; callback_stage: ResultWithRun['stage'] }>
    | undefined;
  if (!row) return undefined;
  const { rest, verdicts } = takeVerdicts(row);
  const { callback_result: result, callback_stage: stage, ...run } = rest;
  return { result, stage, run, verdicts };
}

/** What a run task request describes besides the result, read with the claim (see claimTaskDispatch). */
export interface TaskRequestFacts {
  stage: TaskStageName;
  organization_name: string;
  run_created_at: Date;
  run_message: string;
  run_plan_only: boolean;
  configuration_version_id: string | null;
  cv_downloadable: boolean;
  run_created_by: string | null;
  plan_id: string | null;
  workspace_name: string;
  workspace_id: string;
  workspace_working_directory: string;
  workspace_vcs_repo: Record<string, unknown> | null;
  /** The commit the run's configuration came from (a version fetched from a repository), else null. */
  commit: { branch: string | null; commit_url: string | null; pull_request_url: string | null } | null;
}

/**
 * Claims a due delivery of a result still waiting for its integration (compare-and-set with a
 * lease), and records the attempt about to be sent as open in the same statement: it is closed
 * when it ends, and one whose sender dies stays open and shows as abandoned. The statement also
 * reads everything the request describes (run, workspace, stage, plan, configuration version).
 * Its commit does not wait for the disk (`relaxed`): a claim lost in a database crash leaves the
 * result due, to be sent again (docs/design-for-speed.md, "Relaxed commits for claims").
 */
export async function claimTaskDispatch(
  db: Db,
  id: string,
  leaseSeconds: number,
): Promise<(TaskResultRow & { request: TaskRequestFacts }) | undefined> {
  const claim = leaseClaimQuery(db, {
    table: 'task_results',
    id,
    where: { status: 'pending' },
    statusColumn: 'dispatch_status',
    leaseColumn: 'dispatch_lease_until',
    from: ['pending'],
    dueColumn: 'next_dispatch_at',
    to: 'sending',
    takeOver: true,
    leaseSeconds,
    set: { dispatch_attempts: db.raw('dispatch_attempts + 1') },
  });
  const { rows } = await db.raw<{ rows: (TaskResultRow & { request: TaskRequestFacts })[] }>(
    `with ${RELAXED_COMMIT}, claimed as (?), opened as (
       insert into task_result_attempts (task_result_id, attempt)
       select id, dispatch_attempts from claimed
       on conflict (task_result_id, attempt) do nothing
     )
     select c.*, json_build_object(
         'stage', s.stage, 'organization_name', w.organization_name,
         'run_created_at', r.created_at, 'run_message', r.message, 'run_plan_only', r.plan_only,
         'configuration_version_id', r.configuration_version_id,
         'cv_downloadable', coalesce(cv.status = 'uploaded' and cv.archive_object_id is not null, false),
         'run_created_by', u.username, 'plan_id', p.id,
         'workspace_id', w.id, 'workspace_name', w.name, 'workspace_working_directory', w.working_directory, 'workspace_vcs_repo', w.vcs_repo,
         'commit', case when ia.id is null then null else json_build_object(
           'branch', ia.branch, 'commit_url', ia.commit_url, 'pull_request_url', ia.pull_request_url) end
       ) as request
     from relaxed, claimed c
     join task_stages s on s.id = c.task_stage_id
     join runs r on r.id = c.run_id
     join workspaces w on w.id = r.workspace_id
     left join configuration_versions cv on cv.id = r.configuration_version_id
     left join ingress_attributes ia on ia.configuration_version_id = r.configuration_version_id
     left join users u on u.id = r.created_by_id
     left join plans p on p.run_id = r.id`,
    [claim],
  );
  const row = rows[0];
  if (row) row.request.run_created_at = new Date(row.request.run_created_at);
  return row;
}

/**
 * Ends a claimed dispatch in one statement: closes its attempt (opened by the claim) with what the
 * integration answered, and settles the result: delivered, pending again until `next`, or given
 * up; the lease is released.
 */
export async function endTaskDispatch(
  db: Db,
  id: string,
  attempt: number,
  end: { status: number | null; durationMs: number; error: string | null },
  outcome: { delivered: boolean; next: Date | null },
): Promise<void> {
  const close = db('task_result_attempts')
    .insert({
      task_result_id: id,
      attempt,
      status_code: end.status,
      duration_ms: end.durationMs,
      error: end.error,
      ended_at: db.fn.now(),
    })
    .onConflict(['task_result_id', 'attempt'])
    .merge(['status_code', 'duration_ms', 'error', 'ended_at']);
  const settle = db('task_results')
    .where({ id, dispatch_status: 'sending' })
    .update({
      dispatch_status: outcome.delivered ? 'delivered' : outcome.next ? 'pending' : 'gave_up',
      next_dispatch_at: outcome.next,
      dispatch_lease_until: null,
      updated_at: db.fn.now(),
    });
  await db.raw('with closed as (?) ?', [close, settle]);
}

/**
 * Run task requests due for delivery (or whose sender died) of results still waiting for their
 * integration, keyed by id (for pageAfter), with their attempts and workspace's organization.
 */
export const taskRequestsDue = (db: Db): Knex.QueryBuilder =>
  db('task_results as r')
    .join('runs', 'runs.id', 'r.run_id')
    .join('workspaces as w', 'w.id', 'runs.workspace_id')
    .where('r.status', 'pending')
    .andWhere((q) =>
      q
        .where((p) => p.where('r.dispatch_status', 'pending').andWhere('r.next_dispatch_at', '<=', db.fn.now()))
        .orWhere((p) => p.where('r.dispatch_status', 'sending').andWhere('r.dispatch_lease_until', '<', db.fn.now())),
    )
    .select('r.id as key', 'r.id', 'r.dispatch_attempts', 'r.dispatch_status', 'w.organization_name');

/** Open results past their deadline, keyed by id (for pageAfter). */
export const taskResultsPastDeadline = (db: Db): Knex.QueryBuilder =>
  db('task_results')
    .whereIn('status', ['pending', 'running'])
    .andWhere('deadline_at', '<=', db.fn.now())
    .select('id as key', 'id');

/**
 * Settles as delivered, at most `limit` at a time, the requests whose sender died after their
 * integration had called back (the result is no longer pending, so nothing sends it again): the
 * callback shows the request arrived. Their last attempt, never ended, then reads as abandoned.
 * Returns how many it settled.
 */
export async function settleAnsweredDispatches(db: Db, limit: number): Promise<number> {
  const stuck = db('task_results')
    .where('dispatch_status', 'sending')
    .andWhere('dispatch_lease_until', '<', db.fn.now())
    .whereNot('status', 'pending')
    .limit(limit)
    .select('id');
  return db('task_results')
    .whereIn('id', stuck)
    .andWhere('dispatch_status', 'sending')
    .update({ dispatch_status: 'delivered', dispatch_lease_until: null, updated_at: db.fn.now() });
}

/** A stage of a run, locked, with its run's organization and its results' ids, in one statement. */
export async function lockStageOfRun(
  db: Db,
  runId: string,
  stage: TaskStageName,
): Promise<(TaskStageRow & { organization_name: string; result_ids: string[] }) | undefined> {
  return db('task_stages as s')
    .join('runs as r', 'r.id', 's.run_id')
    .join('workspaces as w', 'w.id', 'r.workspace_id')
    .where({ 's.run_id': runId, 's.stage': stage })
    .forUpdate('s')
    .first(
      's.*',
      'w.organization_name',
      db.raw(
        'array(select tr.id from task_results tr where tr.task_stage_id = s.id order by tr.created_at, tr.id) as result_ids',
      ),
    );
}

/** A result's access token as a stage start stores it: its digest for lookup, sealed for re-delivery. */
export interface ResultToken {
  id: string;
  digest: string;
  sealed: string;
}

/**
 * Starts a pending stage and its results in one statement: the stage runs, and each result gets
 * its access token, the task's HMAC key as it is now, its deadline and a pending delivery.
 * Returns the results started, with their attempts so far.
 */
export async function startStage(
  db: Db,
  stageId: string,
  tokens: ResultToken[],
  deadline: Date,
): Promise<{ id: string; dispatch_attempts: number }[]> {
  const stage = db('task_stages')
    .where({ id: stageId, status: 'pending' })
    .update({ status: 'running', updated_at: db.fn.now(), status_timestamps: stamp(db, 'running') });
  const values = db.raw(
    tokens.map(() => '(?, ?, ?)').join(', '),
    tokens.flatMap((t) => [t.id, t.digest, t.sealed]),
  );
  const { rows } = await db.raw<{ rows: { id: string; dispatch_attempts: number }[] }>(
    `with stage as (?)
     update task_results as r set
       hmac_key_sealed = (select t.hmac_key_sealed from tasks t where t.id = r.task_id),
       access_token_digest = v.digest, access_token_sealed = v.sealed,
       triggered_at = now(), deadline_at = ?, dispatch_status = 'pending', next_dispatch_at = now(), updated_at = now()
     from (values ?) as v(id, digest, sealed)
     where r.id = v.id and r.task_stage_id = ?
     returning r.id, r.dispatch_attempts`,
    [stage, deadline, values, stageId],
  );
  return rows;
}

/** Whether a result is still open with its deadline passed (by the database's clock). */
export async function isTaskResultOverdue(db: Db, id: string): Promise<boolean> {
  return !!(await db('task_results')
    .where({ id })
    .whereIn('status', ['pending', 'running'])
    .andWhere('deadline_at', '<=', db.fn.now())
    .first('id'));
}

/** An outcome an integration reported with a callback. */
export interface TaskOutcomeInput {
  outcome_id: unknown;
  description: unknown;
  body: unknown;
  url: unknown;
  tags: Record<string, { label: string; level: string }[]>;
}

/** Replaces a result's outcomes with `outcomes`, in their order. */
export async function replaceTaskOutcomes(db: Db, resultId: string, outcomes: TaskOutcomeInput[]): Promise<void> {
  await db('task_result_outcomes').where({ task_result_id: resultId }).del();
  if (!outcomes.length) return;
  await db('task_result_outcomes').insert(
    outcomes.map((o, position) => ({
      id: newId('taskrsout'),
      task_result_id: resultId,
      position,
      ...o,
      tags: JSON.stringify(o.tags),
    })),
  );
}

/** Whether the organization has a run task (named `name`, when given). */
export async function organizationHasTask(db: Db, organizationName: string, name?: string): Promise<boolean> {
  return !!(await db('tasks')
    .where({ organization_name: organizationName, ...(name !== undefined ? { name } : {}) })
    .first('id'));
}

/** Updates a task's attributes; the row as it is now. */
export async function updateTask(db: Db, id: string, changes: Partial<TaskRow>): Promise<TaskRow> {
  const [row] = await db<TaskRow>('tasks')
    .where({ id })
    .update({ ...taskValues(db, changes), updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** Deletes a task (its attachments go with it). */
export const deleteTask = (db: Db, id: string) => db('tasks').where({ id }).del();

/** Locks the organization's row, so creates of its run tasks serialise. */
export const lockTaskOrganization = (db: Db, organizationName: string) =>
  db('organizations').where({ name: organizationName }).forUpdate().first('name');

/** Locks a task's row, so attachments to it serialise. */
export const lockTask = (db: Db, id: string) => db('tasks').where({ id }).forUpdate().first('id');

/** Whether the task is attached to the workspace already. */
export async function isTaskAttached(db: Db, workspaceId: string, taskId: string): Promise<boolean> {
  return !!(await db('workspace_tasks').where({ workspace_id: workspaceId, task_id: taskId }).first('id'));
}

/** How many workspaces the task is attached to. */
export async function attachmentCount(db: Db, taskId: string): Promise<number> {
  const [{ count }] = await db('workspace_tasks').where({ task_id: taskId }).count<{ count: number }[]>({ count: '*' });
  return Number(count);
}

/** Updates an attachment's enforcement level and stages; the row as it is now. */
export async function updateWorkspaceTask(
  db: Db,
  id: string,
  changes: Partial<Pick<WorkspaceTaskRow, 'enforcement_level' | 'stages'>>,
): Promise<WorkspaceTaskRow> {
  const values = { ...changes, ...(changes.stages ? { stages: asJson(db, changes.stages) } : {}) };
  const [row] = await db<WorkspaceTaskRow>('workspace_tasks').where({ id }).update(values).returning('*');
  return row;
}

/** Detaches a task from a workspace. */
export const deleteWorkspaceTask = (db: Db, id: string) => db('workspace_tasks').where({ id }).del();
