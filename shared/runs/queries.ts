import type { Db } from '../platform/db.js';
import type { Knex } from 'knex';
import { FINAL_RUN_STATUSES, RUN_STATUSES, runMachine } from './machine.js';
import {
  workspaceAccessMap,
  type GrantedRead,
  type OrganizationGrant,
  type WorkspaceAccess,
} from '../identity/index.js';
import type { ApplyRow, PlanRow, RunRow } from './repo.js';
import type { TaskStageRow } from '../run-tasks/repo.js';
import type { WorkspaceRow } from '../workspaces/repo.js';
import type { UserRow } from '../identity/users.repo.js';
import type { CvRow } from '../configuration-versions/repo.js';
import type { CommentRow } from './comments.repo.js';
import { fetchPage, type Page } from '../platform/page.js';

/** Orders task stages as a run passes them (SQL over a `stage` column). */
export const STAGE_ORDER = "array_position(array['pre_plan','post_plan','pre_apply','post_apply'], stage)";

/** What a run resource points at: plan and apply, task stages and policy checks in order. */
export interface RunReferences {
  plan_id: string;
  apply_id: string;
  stage_ids: string[];
  check_ids: string[];
  comment_ids: string[];
  event_ids: string[];
  /** Who confirmed (applied) the run, when a user did. */
  confirmed_by_id: string | null;
}

/** The columns of RunReferences, for a query over runs as `alias`. */
const referenceColumns = (alias: string): string[] => [
  `(select p.id from plans p where p.run_id = ${alias}.id) as plan_id`,
  `(select a.id from applies a where a.run_id = ${alias}.id) as apply_id`,
  `array(select s.id from task_stages s where s.run_id = ${alias}.id order by ${STAGE_ORDER}) as stage_ids`,
  `array(select c.id from policy_checks c where c.run_id = ${alias}.id order by c.created_at, c.scope) as check_ids`,
  `array(select m.id from comments m where m.run_id = ${alias}.id order by m.created_at, m.id) as comment_ids`,
  `array(select e.id from run_events e where e.run_id = ${alias}.id order by e.created_at, e.id) as event_ids`,
  `(select e.actor_id from run_events e where e.run_id = ${alias}.id and e.action = 'confirm' order by e.created_at desc limit 1) as confirmed_by_id`,
];

/** The references of many runs in one query. */
export async function runReferences(db: Db, ids: string[]): Promise<Map<string, RunReferences>> {
  const rows = (
    ids.length
      ? await db('runs as r')
          .whereIn('r.id', ids)
          .select('r.id', db.raw(referenceColumns('r').join(', ')))
      : []
  ) as (RunReferences & { id: string })[];
  return new Map(rows.map((r) => [r.id, r]));
}

/** The name of the organization of a run read as `x`, as SQL. */
const ORGANIZATION_OF_RUN = '(select w.organization_name from workspaces w where w.id = x.workspace_id)';

/**
 * A run by id with its references and its organization's name, as a granted read (see
 * rowWithGrant): every poll of a run's status makes it, with the caller's grant, in one statement.
 */
export const RUN_WITH_REFERENCES: GrantedRead = {
  table: 'runs',
  organization: ORGANIZATION_OF_RUN,
  where: 'x.id = ?',
  extra: [...referenceColumns('x'), `${ORGANIZATION_OF_RUN} as organization_name`],
};

/** A row RUN_WITH_REFERENCES read: the run's columns, its references and its organization's name. */
export type RunWithReferencesRow = RunRow & RunReferences & { organization_name: string };

/** The run and its references of a row RUN_WITH_REFERENCES read. */
export function splitRunReferences(row: RunWithReferencesRow): { run: RunRow; refs: RunReferences } {
  const {
    plan_id,
    apply_id,
    stage_ids,
    check_ids,
    comment_ids,
    event_ids,
    confirmed_by_id,
    organization_name: _name,
    ...run
  } = row;
  return { run, refs: { plan_id, apply_id, stage_ids, check_ids, comment_ids, event_ids, confirmed_by_id } };
}

/** The name of the organization of a row of a run's (a plan, apply, policy check or task stage) read as `x`, through its run's workspace, as SQL. */
const ORGANIZATION_THROUGH_RUN =
  '(select w.organization_name from runs pr join workspaces w on w.id = pr.workspace_id where pr.id = x.run_id)';

/**
 * The granted read of a row of a run's by id, with its run's status and workspace: what a plan's,
 * an apply's, a policy check's or a task stage's own document needs of the run.
 */
const withItsRun = (table: 'plans' | 'applies' | 'policy_checks' | 'task_stages'): GrantedRead => ({
  table,
  organization: ORGANIZATION_THROUGH_RUN,
  where: 'x.id = ?',
  extra: [
    '(select pr.status from runs pr where pr.id = x.run_id) as run_status',
    '(select pr.workspace_id from runs pr where pr.id = x.run_id) as run_workspace_id',
    `${ORGANIZATION_THROUGH_RUN} as organization_name`,
  ],
});

export const PLAN_WITH_RUN = withItsRun('plans');
export const APPLY_WITH_RUN = withItsRun('applies');
export const POLICY_CHECK_WITH_RUN = withItsRun('policy_checks');
export const TASK_STAGE_WITH_RUN = withItsRun('task_stages');

/** What the reads above read besides the row's own columns. */
export interface RunColumns {
  run_status: RunRow['status'];
  run_workspace_id: string;
  organization_name: string;
}

/** The row's own columns of a row one of the reads above read, and its run's status and workspace. */
export function splitRunColumns<T>(row: T & RunColumns): { own: T; runStatus: RunRow['status']; workspaceId: string } {
  const { run_status, run_workspace_id, organization_name: _name, ...own } = row;
  return { own: own as T, runStatus: run_status, workspaceId: run_workspace_id };
}

/** The related rows a run list includes on request (each read only when its name is in `include`). */
export interface RunIncludes {
  stages: TaskStageRow[];
  plans: Map<string, PlanRow> | null;
  applies: Map<string, ApplyRow> | null;
  workspaces: WorkspaceRow[];
  users: UserRow[];
  cvs: CvRow[];
}

/** Reads what `include` names for these runs: task stages, plans, applies, workspaces, creators and configuration versions. */
export async function runIncludes(db: Db, runs: RunRow[], include: Set<string>): Promise<RunIncludes> {
  const ids = runs.map((r) => r.id);
  const stages =
    include.has('task_stages') && ids.length
      ? ((await db('task_stages').whereIn('run_id', ids).orderByRaw(STAGE_ORDER)) as TaskStageRow[])
      : [];
  const plans =
    include.has('plan') && ids.length
      ? new Map(((await db('plans').whereIn('run_id', ids)) as PlanRow[]).map((p) => [p.run_id, p]))
      : null;
  const applies =
    include.has('apply') && ids.length
      ? new Map(((await db('applies').whereIn('run_id', ids)) as ApplyRow[]).map((a) => [a.run_id, a]))
      : null;
  const workspaces =
    include.has('workspace') && runs.length
      ? ((await db('workspaces').whereIn('id', [...new Set(runs.map((r) => r.workspace_id))])) as WorkspaceRow[])
      : [];
  const users = include.has('created_by')
    ? ((await db('users').whereIn(
        'id',
        runs.map((r) => r.created_by_id).filter((x): x is string => Boolean(x)),
      )) as UserRow[])
    : [];
  const cvs =
    include.has('configuration_version') || include.has('configuration_version.ingress_attributes')
      ? ((await db('configuration_versions').whereIn(
          'id',
          runs.map((r) => r.configuration_version_id).filter((x): x is string => Boolean(x)),
        )) as CvRow[])
      : [];
  return { stages, plans, applies, workspaces, users, cvs };
}

/** The workspace id of the run whose id is the statement's value, as an SQL expression (see workspaceScopeOfRun). */
export const WORKSPACE_ID_OF_RUN = '(select wr.workspace_id from runs wr where wr.id = ?)';

/** How a run list may be narrowed (each list is any of its values; absent: no filter). */
export interface RunListFilter {
  statuses?: string[];
  /** `plan_only`, `plan_and_apply`, `save_plan`, `refresh_only`, `destroy`, `empty_apply`. */
  operations?: string[];
  sources?: string[];
  /** Part of the creator's username (any case). */
  user?: string;
  /** A commit: runs here never come from a VCS commit, so any commit matches nothing. */
  commit?: string;
}

/** How an organization's run list may be narrowed besides RunListFilter. */
export interface OrganizationRunFilter extends RunListFilter {
  workspaceNames?: string[];
  /** `non_final`, `final` or `discardable`. */
  statusGroup?: (typeof RUN_STATUS_GROUPS)[number];
  /** Only runs created in the last year (`year`), or all of them (absent, or `all`). */
  lastYearOnly?: boolean;
  /** Agent pools by name: the runs of the workspaces that run in them now. */
  agentPoolNames?: string[];
  /** Part of the run's id or message (any case). */
  basic?: string;
}

export const RUN_STATUS_GROUPS = ['non_final', 'final', 'discardable'] as const;

/** The statuses of a status group. */
const GROUP_STATUSES: Record<(typeof RUN_STATUS_GROUPS)[number], readonly string[]> = {
  non_final: RUN_STATUSES.filter((s) => !(FINAL_RUN_STATUSES as readonly string[]).includes(s)),
  final: FINAL_RUN_STATUSES,
  discardable: RUN_STATUSES.filter((s) => runMachine.can(s, 'discard')),
};

/** Which runs an operation names (an unknown operation names none). */
const OPERATION_SQL: Record<string, string> = {
  plan_only: 'runs.plan_only and not runs.save_plan',
  plan_and_apply: 'not runs.plan_only and not runs.save_plan and not runs.refresh_only',
  save_plan: 'runs.save_plan',
  refresh_only: 'runs.refresh_only',
  destroy: 'runs.is_destroy',
  empty_apply: 'runs.allow_empty_apply',
};

const likeText = (text: string) => `%${text.replace(/[%_\\]/g, '\\$&')}%`;

/** Narrows a query over `runs` by `filter`. */
function narrowed(db: Db, query: Knex.QueryBuilder, filter: RunListFilter): Knex.QueryBuilder {
  if (filter.statuses) query.whereIn('runs.status', filter.statuses);
  if (filter.sources) query.whereIn('runs.source', filter.sources);
  if (filter.operations)
    query.where((q) => {
      for (const op of filter.operations!) q.orWhereRaw(OPERATION_SQL[op] ?? 'false');
    });
  if (filter.user)
    query.whereIn('runs.created_by_id', db('users').whereILike('username', likeText(filter.user)).select('id'));
  if (filter.commit) query.whereRaw('false');
  return query;
}

/** One page of a workspace's runs, newest first, narrowed by `filter`. */
export async function runsOfWorkspacePage(
  db: Db,
  workspaceId: string,
  filter: RunListFilter,
  page: Page,
): Promise<{ rows: RunRow[]; total: number }> {
  const query = narrowed(db, db<RunRow>('runs').where({ workspace_id: workspaceId }), filter);
  return fetchPage<RunRow>(query.orderBy('created_at', 'desc').orderBy('id'), page);
}

/** One page of the runs of an organization's workspaces among `workspaceIds` (those the caller may see), newest first, narrowed by `filter`. */
export async function runsOfOrganizationPage(
  db: Db,
  workspaceIds: string[],
  filter: OrganizationRunFilter,
  page: Page,
): Promise<{ rows: RunRow[]; total: number }> {
  const query = narrowed(db, db<RunRow>('runs').whereIn('runs.workspace_id', workspaceIds), filter);
  if (filter.workspaceNames)
    query.whereIn(
      'runs.workspace_id',
      db('workspaces').whereIn('id', workspaceIds).whereIn('name', filter.workspaceNames).select('id'),
    );
  if (filter.statusGroup) query.whereIn('runs.status', GROUP_STATUSES[filter.statusGroup]);
  if (filter.lastYearOnly) query.whereRaw(`runs.created_at > now() - interval '1 year'`);
  if (filter.agentPoolNames) {
    const pools = db('agent_pools').whereIn('name', filter.agentPoolNames).select('id');
    query.whereIn(
      'runs.workspace_id',
      db('workspaces').whereIn('id', workspaceIds).whereIn('agent_pool_id', pools).select('id'),
    );
  }
  if (filter.basic)
    query.where((q) =>
      q.whereILike('runs.id', likeText(filter.basic!)).orWhereILike('runs.message', likeText(filter.basic!)),
    );
  return fetchPage<RunRow>(query.select('runs.*').orderBy('runs.created_at', 'desc').orderBy('runs.id'), page);
}

/** Runs of an organization that have not finished, oldest first, in the workspaces the grant may see, with its access to each. */
export async function visibleUnfinishedRuns(
  db: Db,
  organizationName: string,
  grant: OrganizationGrant,
): Promise<{ rows: RunRow[]; access: Map<string, WorkspaceAccess> }> {
  const rows = await db<RunRow>('runs')
    .join('workspaces', 'workspaces.id', 'runs.workspace_id')
    .where('workspaces.organization_name', organizationName)
    .whereNotIn('runs.status', FINAL_RUN_STATUSES)
    .orderBy('runs.created_at')
    .select('runs.*');
  const access = await workspaceAccessMap(db, grant, [...new Set(rows.map((r) => r.workspace_id))]);
  return { rows: rows.filter((r) => access.has(r.workspace_id)), access };
}

/** How many runs of an organization wait (pending) and how many plan or apply. */
export async function organizationRunCounts(
  db: Db,
  organizationName: string,
): Promise<{ pending: number; running: number }> {
  const counts = await db('runs')
    .join('workspaces', 'workspaces.id', 'runs.workspace_id')
    .where('workspaces.organization_name', organizationName)
    .select(
      db.raw(`count(*) filter (where runs.status = 'pending') as pending`),
      db.raw(`count(*) filter (where runs.status in ('planning', 'applying')) as running`),
    )
    .first();
  return { pending: Number(counts?.pending ?? 0), running: Number(counts?.running ?? 0) };
}

/** A run event as the API shows it: the comment it records, if it is one (`commented`). */
export interface RunEventView {
  id: string;
  run_id: string;
  action: string;
  description: string | null;
  actor_id: string | null;
  comment_id: string | null;
  created_at: Date;
}

/** A run's events in the order they happened. */
export const runEventsOf = (db: Db, runId: string): Promise<RunEventView[]> =>
  db('run_events').where({ run_id: runId }).orderBy('created_at').orderBy('id');

/** One run event by id. */
export const findRunEvent = (db: Db, id: string): Promise<RunEventView | undefined> =>
  db('run_events').where({ id }).first();

/** What run events include on request (`include=actor,comment`): their actors and comments. */
export async function runEventIncludes(
  db: Db,
  events: RunEventView[],
  include: Set<string>,
): Promise<{ users: UserRow[]; comments: CommentRow[] }> {
  const actorIds = [...new Set(events.map((e) => e.actor_id).filter((id): id is string => Boolean(id)))];
  const commentIds = events.map((e) => e.comment_id).filter((id): id is string => Boolean(id));
  const users =
    include.has('actor') && actorIds.length ? ((await db('users').whereIn('id', actorIds)) as UserRow[]) : [];
  const comments =
    include.has('comment') && commentIds.length
      ? ((await db('comments').whereIn('id', commentIds)) as CommentRow[])
      : [];
  return { users, comments };
}

/** Runs by id (in no particular order). */
export const runsByIds = (db: Db, ids: string[]): Promise<RunRow[]> => db<RunRow>('runs').whereIn('id', ids);
