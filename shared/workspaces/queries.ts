import type { Db } from '../platform/db.js';
import {
  grantedRead,
  grantedReadWhere,
  workspaceAccessMap,
  type GrantedRead,
  type OrganizationGrant,
  type WorkspaceAccess,
} from '../identity/index.js';
import type { WorkspaceRow } from './repo.js';
import { groupUnder } from '../platform/page.js';
import type { StateOutputRow } from '../state/repo.js';
import { FINAL_RUN_STATUSES, type RunStatus } from '../runs/machine.js';

const FINAL_LIST = FINAL_RUN_STATUSES.map((s) => `'${s}'`).join(', ');

/**
 * A column of a workspace's current run, as SQL over workspaces as `alias`: the non-speculative
 * run holding the workspace; else, when none does, the oldest pending one (next in line, waiting
 * for a lock or a run-less reason); else the newest that ever held it. Terraform Cloud keeps the
 * same notion: clients read it to tell a run waiting for a manual lock from one waiting in line.
 */
export const currentRunColumn = (alias: string, column: 'id' | 'status' | 'created_at'): string =>
  `(select cr.${column} from runs cr where cr.workspace_id = ${alias}.id and not cr.plan_only` +
  ` and (cr.status = 'pending' or jsonb_exists_any(cr.status_timestamps, array['plan-queued-at', 'pre-plan-running-at']))` +
  ` order by case when cr.status = 'pending' then 1 when cr.status in (${FINAL_LIST}) then 2 else 0 end,` +
  ` case when cr.status = 'pending' then cr.created_at end, cr.created_at desc, cr.id desc limit 1)`;

/** How a workspace list may be ordered: by name, or by its current run's creation (workspaces without one last). */
export const WORKSPACE_SORTS = ['name', '-name', 'current-run.created-at', '-current-run.created-at'] as const;
export type WorkspaceSort = (typeof WORKSPACE_SORTS)[number];

/**
 * An organization's workspaces the grant may see, by name, optionally only those whose name
 * contains `search` (any case), that are in the project `projectId`, whose name matches the `wildcard` pattern, that carry every tag of
 * `tags` and none of `excludeTags`, with the access to each.
 */
export async function visibleWorkspaces(
  db: Db,
  organizationName: string,
  grant: OrganizationGrant,
  search: string | null,
  filter: {
    projectId?: string;
    tags?: string[];
    excludeTags?: string[];
    wildcard?: string;
    currentRunStatuses?: string[];
    sort?: WorkspaceSort;
  } = {},
): Promise<{ rows: WorkspaceRow[]; access: Map<string, WorkspaceAccess> }> {
  const query = db<WorkspaceRow>('workspaces').where({ organization_name: organizationName });
  if (filter.projectId) query.where({ project_id: filter.projectId });
  if (search) query.whereILike('name', `%${search.replace(/[%_\\]/g, '\\$&')}%`);
  const carrying = (name: string) =>
    db('workspace_tags as wt')
      .join('tags as t', 't.id', 'wt.tag_id')
      .whereRaw('wt.workspace_id = workspaces.id')
      .where('t.name', name);
  // `*` stands for any run of characters (`*-prod`, `app-*`, `*net*`); anything else matches itself.
  if (filter.wildcard) query.whereILike('name', filter.wildcard.replace(/[%_\\]/g, '\\$&').replace(/\*/g, '%'));
  for (const name of filter.tags ?? []) query.whereExists(carrying(name));
  for (const name of filter.excludeTags ?? []) query.whereNotExists(carrying(name));
  if (filter.currentRunStatuses?.length) {
    query.whereRaw(
      `${currentRunColumn('workspaces', 'status')}::text in (${filter.currentRunStatuses.map(() => '?').join(', ')})`,
      filter.currentRunStatuses,
    );
  }
  const sort = filter.sort ?? 'name';
  if (sort.endsWith('current-run.created-at'))
    query.orderByRaw(
      `${currentRunColumn('workspaces', 'created_at')} ${sort.startsWith('-') ? 'desc' : 'asc'} nulls last`,
    );
  const rows = await query.orderBy('name', sort === '-name' ? 'desc' : 'asc');
  const access = await workspaceAccessMap(
    db,
    grant,
    rows.map((r) => r.id),
  );
  return { rows: rows.filter((r) => access.has(r.id)), access };
}

/** Workspace rows by id (in no particular order, or by name). */
export function workspacesByIds(db: Db, ids: string[], byName = false): Promise<WorkspaceRow[]> {
  const query = db<WorkspaceRow>('workspaces').whereIn('id', ids);
  return byName ? query.orderBy('name') : query;
}

/** The workspaces among `ids` that the grant may see, by name, with the access to each. */
export async function visibleWorkspacesByIds(
  db: Db,
  grant: OrganizationGrant,
  ids: string[],
): Promise<{ rows: WorkspaceRow[]; access: Map<string, WorkspaceAccess> }> {
  const rows = ids.length ? await workspacesByIds(db, ids, true) : [];
  const access = await workspaceAccessMap(
    db,
    grant,
    rows.map((r) => r.id),
  );
  return { rows: rows.filter((r) => access.has(r.id)), access };
}

/**
 * What a workspace document shows besides its row: its tags, how many runs it had, how many
 * resources its state manages, its current run (see currentRunColumn), its newest run and its
 * variables' ids.
 */
export interface WorkspaceFacts {
  tagNames: string[];
  runsCount: number;
  resourceCount: number;
  currentRun: { id: string; status: RunStatus } | null;
  latestRunId: string | null;
  varIds: string[];
}

/** The facts as columns of a statement over workspaces as `alias` (tags in the order they were added). */
export const factsColumns = (alias: string): string[] => [
  `array(select t.name from workspace_tags wt join tags t on t.id = wt.tag_id where wt.workspace_id = ${alias}.id order by wt.position) as facts_tag_names`,
  `(select count(*)::int from runs r where r.workspace_id = ${alias}.id) as facts_runs_count`,
  `coalesce((select sv.resource_count from state_versions sv where sv.id = ${alias}.current_state_version_id), 0) as facts_resource_count`,
  `${currentRunColumn(alias, 'id')} as facts_current_run_id`,
  `${currentRunColumn(alias, 'status')} as facts_current_run_status`,
  `(select lr.id from runs lr where lr.workspace_id = ${alias}.id order by lr.created_at desc, lr.id desc limit 1) as facts_latest_run_id`,
  `array(select v.id from variables v where v.workspace_id = ${alias}.id order by v.created_at, v.id) as facts_var_ids`,
];

/** A workspace by id with its facts, as a granted read (see rowWithGrant). */
export const WORKSPACE_WITH_FACTS: GrantedRead = grantedRead('workspaces', factsColumns('x'));

/** A workspace by its organization's and its own name with its facts, as a granted read. */
export const WORKSPACE_BY_NAME_WITH_FACTS: GrantedRead = grantedReadWhere(
  'workspaces',
  'x.organization_name = ? and x.name = ?',
  factsColumns('x'),
);

/** What factsColumns adds to a row. */
export interface FactsColumns {
  facts_tag_names: string[];
  facts_runs_count: number;
  facts_resource_count: number;
  facts_current_run_id: string | null;
  facts_current_run_status: RunStatus | null;
  facts_latest_run_id: string | null;
  facts_var_ids: string[];
}

/** A row read with factsColumns, split into the row and its facts. */
export function splitFacts<T>(row: T & FactsColumns): { row: T; facts: WorkspaceFacts } {
  const {
    facts_tag_names,
    facts_runs_count,
    facts_resource_count,
    facts_current_run_id,
    facts_current_run_status,
    facts_latest_run_id,
    facts_var_ids,
    ...rest
  } = row;
  const currentRun =
    facts_current_run_id && facts_current_run_status
      ? { id: facts_current_run_id, status: facts_current_run_status }
      : null;
  return {
    row: rest as T,
    facts: {
      tagNames: facts_tag_names,
      runsCount: facts_runs_count,
      resourceCount: facts_resource_count,
      currentRun,
      latestRunId: facts_latest_run_id,
      varIds: facts_var_ids,
    },
  };
}

/** The facts of each workspace, read in one statement. */
export async function workspaceFacts(db: Db, ids: string[]): Promise<Map<string, WorkspaceFacts>> {
  if (!ids.length) return new Map();
  const rows = (await db('workspaces as w')
    .whereIn('w.id', ids)
    .select('w.id', ...factsColumns('w').map((c) => db.raw(c)))) as ({ id: string } & FactsColumns)[];
  return new Map(rows.map((r) => [r.id, splitFacts(r).facts]));
}

/** The outputs of each workspace's current state version, by name. */
export async function currentOutputsOf(db: Db, workspaceIds: string[]): Promise<Map<string, StateOutputRow[]>> {
  if (!workspaceIds.length) return new Map();
  const rows: (StateOutputRow & { owner_workspace_id: string })[] = await db('state_version_outputs as o')
    .join('workspaces as w', 'w.current_state_version_id', 'o.state_version_id')
    .whereIn('w.id', workspaceIds)
    .select('o.*', 'w.id as owner_workspace_id')
    .orderBy('o.name');
  return groupUnder(
    workspaceIds,
    rows,
    (r) => r.owner_workspace_id,
    ({ owner_workspace_id: _, ...o }) => o,
  );
}
