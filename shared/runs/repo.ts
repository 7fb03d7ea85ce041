import type { Knex } from 'knex';
import { asJson, RELAXED_COMMIT, rowsOf, withWrites, type Db, type Writes, type Written } from '../platform/db.js';
import { reachingVariablesFrom, setReachOf, type ResolvableVariable } from '../variables/index.js';
import { RUN_TOKEN_INSERT, type NewRunToken } from '../identity/index.js';
import { newId } from '../platform/ids.js';
import type { IdempotencyColumns } from '../idempotency/repo.js';
import { FINAL_RUN_STATUSES, timestampKey, type RunEvent, type RunStatus } from './machine.js';
import { insertLogs } from '../platform/logs.js';
import { decryptSecret, encryptSecret } from '../platform/crypto.js';

export interface RunRow {
  id: string;
  workspace_id: string;
  configuration_version_id: string | null;
  status: RunStatus;
  source: string;
  message: string;
  is_destroy: boolean;
  auto_apply: boolean;
  plan_only: boolean;
  refresh: boolean;
  refresh_only: boolean;
  save_plan: boolean;
  allow_empty_apply: boolean;
  target_addrs: string[];
  replace_addrs: string[];
  /** The run variables' keys (their values are sealed in `variables_sealed`; rows from before kept values here). */
  variables: { key: string; value?: string }[];
  /** The run variables, keys and values, as JSON sealed under ENCRYPTION_KEY (see sealRunVariables). */
  variables_sealed: string | null;
  status_timestamps: Record<string, string>;
  has_changes: boolean | null;
  terraform_version: string | null;
  lease_owner: string | null;
  lease_until: Date | null;
  cancel_requested_at: Date | null;
  force_cancel_available_at: Date | null;
  error_message: string | null;
  created_by_id: string | null;
  /** Its phases get none of the workspace's secrets (see shared/runs/withheld-secrets.ts); decided when it was queued. */
  secrets_withheld: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface PlanRow {
  id: string;
  run_id: string;
  status: string;
  log_id: string | null;
  has_changes: boolean | null;
  resource_additions: number;
  resource_changes: number;
  resource_destructions: number;
  resource_imports: number;
  json_object_id: string | null;
  file_object_id: string | null;
  /** The providers' schemas of the types the plan changes (plans of workspaces with structured run output). */
  schemas_object_id: string | null;
  /** The redacted JSON plan served by json-output-redacted (null for plans stored before it was made with the plan). */
  redacted_object_id: string | null;
  /** The size of a JSON plan that was not stored: over MAX_PLAN_JSON_BYTES, or cut at the largest file a run may write. */
  json_omitted_bytes: string | number | null;
  attempts: number;
  status_timestamps: Record<string, string>;
  created_at: Date;
}

export interface ApplyRow {
  id: string;
  run_id: string;
  status: string;
  log_id: string | null;
  resource_additions: number;
  resource_changes: number;
  resource_destructions: number;
  resource_imports: number;
  started_at: Date | null;
  status_timestamps: Record<string, string>;
  created_at: Date;
}

export const findRun = (db: Db, id: string) => db<RunRow>('runs').where({ id }).first();
export const findPlan = (db: Db, id: string) => db<PlanRow>('plans').where({ id }).first();
export const planOfRun = (db: Db, runId: string) => db<PlanRow>('plans').where({ run_id: runId }).first();
export const applyOfRun = (db: Db, runId: string) => db<ApplyRow>('applies').where({ run_id: runId }).first();

export type NewRun = Pick<RunRow, 'workspace_id' | 'configuration_version_id' | 'source'> &
  Partial<
    Pick<
      RunRow,
      | 'message'
      | 'plan_only'
      | 'auto_apply'
      | 'is_destroy'
      | 'refresh'
      | 'refresh_only'
      | 'save_plan'
      | 'allow_empty_apply'
      | 'target_addrs'
      | 'replace_addrs'
      | 'variables'
      | 'variables_sealed'
      | 'terraform_version'
      | 'secrets_withheld'
    >
  > & {
    created_by_id?: string | null;
  } & Partial<IdempotencyColumns>;

/** The workspace's id with its row locked for update (a value for the run's `workspace_id`); its one placeholder is the id. */
const LOCKED_WORKSPACE = '(select id from workspaces where id = ? for update)';
const lockedWorkspace = (db: Db, workspaceId: string) => db.raw(LOCKED_WORKSPACE, [workspaceId]);

/**
 * Inserts a run in `pending` with its plan, its apply and its `created` event, locking its
 * workspace (caller's transaction). Returns the run's row with the caller's `alongside` columns
 * (SQL over the new row, named `run`) beside it. `lockWorkspace: false` leaves the workspace
 * row with the foreign key's share lock only, for a caller that takes no update lock on it later in
 * its transaction (see below) and should not wait for, or hold up, that workspace's other moves.
 */
export async function insertPendingRunRow(
  db: Db,
  attrs: NewRun,
  alongside: Knex.Raw[] = [],
  opts: { lockWorkspace?: boolean } = {},
): Promise<Record<string, unknown>> {
  const now = new Date().toISOString();
  const id = newId('run');
  const [planLog, applyLog] = [newId('log'), newId('log')];
  // The run, its plan and apply, their empty logs and the `created` event in one statement. The
  // workspace row is locked for update while the run's values are computed, before the insert's
  // foreign key check share-locks it: two inserts each holding the share lock and asking for the
  // update lock would deadlock.
  const [selected] = await db
    .with(
      'run',
      db('runs')
        .insert({
          id,
          ...attrs,
          workspace_id: opts.lockWorkspace === false ? attrs.workspace_id : lockedWorkspace(db, attrs.workspace_id),
          target_addrs: asJson(db, attrs.target_addrs ?? []),
          replace_addrs: asJson(db, attrs.replace_addrs ?? []),
          variables: asJson(db, attrs.variables ?? []),
          status: 'pending',
          status_timestamps: asJson(db, { 'plan-queueable-at': now }),
        })
        .returning('*'),
    )
    .with('logs', insertLogs(db, [planLog, applyLog]))
    .with('plan', db('plans').insert({ id: newId('plan'), run_id: id, log_id: planLog }))
    .with('apply', db('applies').insert({ id: newId('apply'), run_id: id, log_id: applyLog }))
    .with(
      'event',
      runEventInsert(db, {
        run_id: id,
        action: 'created',
        from_status: null,
        to_status: 'pending',
        actor_id: attrs.created_by_id ?? null,
      }),
    )
    .select('run.*', ...alongside)
    .from('run');
  return selected as Record<string, unknown>;
}

/** The rows insertQueuedRunIf writes with a run: its plan, its apply and its two events, in order. */
export interface QueuedRunIds {
  planId: string;
  applyId: string;
  eventIds: string[];
}

/** What insertQueuedRunIf's condition names the new run's row (its `id` and `workspace_id`). */
export const CANDIDATE = 'candidate';

/** A column of the runs table, as written into a statement (its names are the row type's own keys). */
function runColumn(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a column of runs: ${name}`);
  return `"${name}"`;
}

/**
 * Inserts run `id` straight into `plan_queued`, with its plan, its apply, their logs and its
 * `created` and `queue_plan` events, in one written-out statement of its own, when `onlyIf` holds:
 * an SQL boolean over the row named CANDIDATE, asked once the workspace row is locked. Returns
 * undefined, having written nothing, when it does not hold. The caller asks that nothing
 * listens to either move: none is told of them (docs/design-for-speed.md, "The run's queued insert").
 */
export async function insertQueuedRunIf(
  db: Db,
  id: string,
  attrs: NewRun,
  onlyIf: Written,
): Promise<{ run: RunRow; made: QueuedRunIds } | undefined> {
  const now = new Date().toISOString();
  const [planLog, applyLog] = [newId('log'), newId('log')];
  const made: QueuedRunIds = { planId: newId('plan'), applyId: newId('apply'), eventIds: [newId('re'), newId('re')] };
  const values: Record<string, unknown> = {
    id,
    ...attrs,
    target_addrs: attrs.target_addrs ?? [],
    replace_addrs: attrs.replace_addrs ?? [],
    variables: attrs.variables ?? [],
    status: 'plan_queued',
    status_timestamps: { 'plan-queueable-at': now, 'plan-queued-at': now },
  };
  // The values typed by the runs table's own row type; the columns left out keep their defaults.
  const columns = Object.keys(values)
    .filter((k) => values[k] !== undefined)
    .map(runColumn);
  // Both events at one instant, the second a microsecond later, so they list in their order.
  const sql = `with ${CANDIDATE} as (select ?::text as id, ?::text as workspace_id),
     at as (select clock_timestamp() as t),
     run as (
       insert into runs (${columns.join(', ')})
       select ${columns.map((c) => `r.${c}`).join(', ')} from json_populate_record(null::runs, ?::json) as r, ${CANDIDATE}
       where ${LOCKED_WORKSPACE} is not null and (${onlyIf.sql})
       returning *
     ),
     logs as (insert into logs (id) select unnest(array[?, ?]::text[]) from run),
     plan as (insert into plans (id, run_id, log_id) select ?, id, ? from run),
     apply as (insert into applies (id, run_id, log_id) select ?, id, ? from run),
     events as (
       insert into run_events (id, run_id, action, from_status, to_status, actor_id, description, created_at)
       select ?::text, id, 'created', null, 'pending', ?::text, null, (select t from at) from run
       union all
       select ?::text, id, 'queue_plan', 'pending', 'plan_queued', null, null, (select t from at) + interval '1 microsecond' from run
     )
     select * from run`;
  const bindings = [
    id,
    attrs.workspace_id,
    JSON.stringify(values),
    attrs.workspace_id,
    ...onlyIf.bindings,
    planLog,
    applyLog,
    made.planId,
    planLog,
    made.applyId,
    applyLog,
    made.eventIds[0],
    attrs.created_by_id ?? null,
    made.eventIds[1],
  ];
  const [run] = await rowsOf<RunRow>(db, sql, bindings);
  return run && { run, made };
}

type RunEventRow = {
  run_id: string;
  action: string;
  from_status?: string | null;
  to_status?: string | null;
  actor_id?: string | null;
  description?: string | null;
};

/**
 * The insert of a run event (a query: await it, or use it in a larger statement). The time is the
 * wall clock, not the transaction start, so several moves made in one transaction keep their order.
 */
const runEventInsert = (db: Db, e: RunEventRow) =>
  db('run_events').insert({ id: newId('re'), ...e, created_at: db.raw('clock_timestamp()') });

/** Records a run event. */
export async function insertRunEvent(db: Db, e: RunEventRow): Promise<void> {
  await runEventInsert(db, e);
}

/** How a run moves: the event and what its move records. */
export interface MoveOptions {
  actorId?: string | null;
  description?: string | null;
  /** Columns the move sets besides its status (a value may be SQL, e.g. a time by the database's clock). */
  changes?: { [K in keyof RunRow]?: RunRow[K] | Knex.Raw };
  /** A further condition (SQL) the move needs, asked in its statement: when it does not hold, nothing moves. */
  onlyIf?: Knex.Raw;
}

/** One move of a run as moveRunRow writes it: the event, the status it leads to, and what it records. */
export type RunHop = Omit<MoveOptions, 'onlyIf'> & { event: RunEvent; to: RunStatus };

/**
 * Moves a run with compare-and-set from its current status through `hops` (each move's status
 * following the previous one's), writing one run event per move, all in one statement: the row
 * ends in the last move's status with every move's changes and status timestamp. `with`: writes
 * the statement carries along (they happen whether or not the run moves); `alongside`: the
 * caller's columns (SQL over the moved row, named `moved`) returned beside it. Returns the moved
 * row, or undefined when the run was no longer in its status (someone else moved it first) or
 * `onlyIf` did not hold.
 */
export async function moveRunRow(
  db: Db,
  run: Pick<RunRow, 'id' | 'status'>,
  hops: readonly RunHop[],
  opts: { onlyIf?: Knex.Raw; with?: Writes; alongside?: Knex.Raw[] } = {},
): Promise<Record<string, unknown> | undefined> {
  const last = hops[hops.length - 1];
  const values: Record<string, unknown> = {
    ...Object.assign({}, ...hops.map((h) => h.changes ?? {})),
    status: last.to,
    updated_at: db.fn.now(),
  };
  for (const k of ['target_addrs', 'replace_addrs', 'variables'] as const)
    if (k in values) values[k] = asJson(db, values[k]);
  const at = new Date().toISOString();
  values.status_timestamps = db.raw(
    `status_timestamps || jsonb_build_object(${hops.map(() => '?::text, ?::text').join(', ')})`,
    hops.flatMap((h) => [timestampKey(h.to), at]),
  );
  // The moves and their events in one statement: the events are written only when the run moved,
  // each a microsecond after the one before, so that they read back in order.
  const froms = [run.status, ...hops.map((h) => h.to)];
  const recorded = db.raw(
    `insert into run_events (id, run_id, action, from_status, to_status, actor_id, description, created_at)
     select e.id, moved.id, e.action, e.from_status, e.to_status, e.actor_id, e.description, clock_timestamp() + e.ord * interval '1 microsecond'
       from moved, (values ${hops.map(() => '(?, ?, ?, ?, ?, ?, ?::int)').join(', ')}) as e (id, action, from_status, to_status, actor_id, description, ord)`,
    hops.flatMap((h, i) => [newId('re'), h.event, froms[i], h.to, h.actorId ?? null, h.description ?? null, i]),
  );
  const [selected] = await withWrites(db, opts.with ?? [])
    .with(
      'moved',
      db('runs')
        .where({ id: run.id, status: run.status })
        .andWhere(opts.onlyIf ?? db.raw('true'))
        .update(values)
        .returning('*'),
    )
    .with('event', recorded)
    .select('moved.*', ...(opts.alongside ?? []))
    .from('moved');
  return selected as Record<string, unknown> | undefined;
}

/** The update of a plan or apply of a run (by its id or the run's), stamping status-timestamps when the status changes; returns the row. */
export function phaseUpdate(
  db: Db,
  table: 'plans' | 'applies',
  where: { id: string } | { run_id: string },
  changes: Record<string, unknown>,
) {
  const values = { ...changes };
  if (typeof changes.status === 'string') {
    values.status_timestamps = db.raw('status_timestamps || jsonb_build_object(?::text, ?::text)', [
      `${changes.status}-at`,
      new Date().toISOString(),
    ]);
  }
  return db(table).where(where).update(values).returning('*');
}

/** Updates the plan or apply of a run (see phaseUpdate); returns the row. */
export async function updatePhase<T extends PlanRow | ApplyRow>(
  db: Db,
  table: 'plans' | 'applies',
  where: { id: string } | { run_id: string },
  changes: Record<string, unknown>,
): Promise<T | undefined> {
  const [row] = await phaseUpdate(db, table, where, changes);
  return row as T | undefined;
}

/** The organization a run's workspace belongs to, or null when there is no such run. */
export async function organizationOfRun(db: Db, id: string): Promise<string | null> {
  const row = await db('runs as r')
    .join('workspaces as w', 'w.id', 'r.workspace_id')
    .where('r.id', id)
    .first('w.organization_name');
  return row?.organization_name ?? null;
}

/** Speculative (plan-only) runs of a workspace that have not ended yet. */
export async function countUnfinishedSpeculativeRuns(db: Db, workspaceId: string): Promise<number> {
  const row = await db('runs')
    .where({ workspace_id: workspaceId, plan_only: true })
    .whereNotIn('status', FINAL_RUN_STATUSES)
    .count<{ n: string }[]>('* as n')
    .first();
  return Number(row?.n ?? 0);
}

/** A run as a statement about it names it: each column a value, or SQL (e.g. a column of another row of the statement). */
export interface RunColumns {
  id: string | Knex.Ref<string, object>;
  workspace_id: string | Knex.Ref<string, object>;
  created_at: Knex.Ref<string, object> | Knex.QueryBuilder;
}

/**
 * What keeps a non-speculative run waiting: its workspace is locked (by a person, or by a run
 * whose apply was interrupted), or another non-speculative run of it holds it (neither pending
 * nor final), or one is pending since before it. A select of one row when it must wait.
 */
export const blockingRuns = (db: Db, run: RunColumns) =>
  db('runs as o')
    .where({ 'o.workspace_id': run.workspace_id, 'o.plan_only': false })
    .whereNot('o.id', run.id)
    .whereNotIn('o.status', FINAL_RUN_STATUSES)
    .where((q) => q.whereNot('o.status', 'pending').orWhere('o.created_at', '<', run.created_at))
    .select(db.raw('1'))
    .unionAll(db('workspaces').where({ id: run.workspace_id, locked: true }).select(db.raw('1')));

/** Statuses in which a run waits for its next step's job (see nextStep). */
const QUEUED_STEPS: readonly RunStatus[] = [
  'plan_queued',
  'policy_checking',
  'confirmed',
  'pre_apply_completed',
  'apply_queued',
];

/**
 * Runs waiting for their next step's job, keyed by id (for pageAfter): queued ones, and pending
 * ones that nothing keeps waiting (see blockingRuns). A run waiting behind a lock or another run
 * needs no job: the change that frees it queues one.
 */
export const runsDue = (db: Db): Knex.QueryBuilder => {
  const due = { id: db.ref('due.id'), workspace_id: db.ref('due.workspace_id'), created_at: db.ref('due.created_at') };
  return db('runs as due')
    .where((q) =>
      q
        .whereIn('due.status', QUEUED_STEPS)
        .orWhere((p) =>
          p
            .where('due.status', 'pending')
            .andWhere((w) => w.where('due.plan_only', true).orWhereNotExists(blockingRuns(db, due))),
        ),
    )
    .select('due.id as key', 'due.id', 'due.status');
};

/** Runs planning or applying whose worker's lease has run out (or that have none), keyed by id (for pageAfter). */
export const runsAbandoned = (db: Db): Knex.QueryBuilder =>
  db('runs')
    .whereIn('status', ['planning', 'applying'])
    .andWhere((l) => l.whereNull('lease_until').orWhere('lease_until', '<', db.fn.now()))
    .select('id as key', 'id');

/** A run's variables as stored: keys in the clear, keys and values sealed (values are secrets). */
export function sealRunVariables(
  key: Buffer,
  variables: { key: string; value: string }[],
): Pick<RunRow, 'variables' | 'variables_sealed'> {
  if (!variables.length) return { variables: [], variables_sealed: null };
  return {
    variables: variables.map((v) => ({ key: v.key })),
    variables_sealed: encryptSecret(key, JSON.stringify(variables)),
  };
}

/** What a run's Terraform phase is made of, as phaseSourcesOf reads it. */
export interface PhaseSourcesRow extends Pick<
  RunRow,
  | 'workspace_id'
  | 'variables'
  | 'variables_sealed'
  | 'is_destroy'
  | 'refresh_only'
  | 'refresh'
  | 'target_addrs'
  | 'replace_addrs'
  | 'secrets_withheld'
> {
  archive_object_id: string | null;
  working_directory: string | null;
  structured_run_output_enabled: boolean;
  state_object_id: string | null;
  /** The variables reaching the run's workspace. */
  reaching: ResolvableVariable[];
  /** The sealed private key of the workspace's SSH key, or null when it has none. */
  ssh_key_sealed: string | null;
}

/**
 * The `with` that writes a phase's run token (RUN_TOKEN_INSERT) along a statement, whose commit
 * then does not wait for the disk (`relaxed`, which the statement must read): the token lives only
 * as long as its phase (docs/design-for-speed.md, "Relaxed commits for claims").
 */
const MINTING = `with ${RELAXED_COMMIT}, minted as (${RUN_TOKEN_INSERT})`;

/**
 * A run's options, its configuration's archive, its workspace's directory, current state and SSH
 * key, and the variables reaching the workspace, in one statement (the variables as one JSON array), which
 * also writes the phase's token (see MINTING).
 */
export async function phaseSourcesOf(
  db: Db,
  runId: string,
  token: Pick<NewRunToken, 'values'>,
): Promise<PhaseSourcesRow | undefined> {
  const sql = `${MINTING}
    select r.workspace_id, r.variables, r.variables_sealed, r.is_destroy, r.refresh_only, r.refresh, r.target_addrs, r.replace_addrs, r.secrets_withheld,
      cv.archive_object_id, w.working_directory, w.structured_run_output_enabled, sv.object_id as state_object_id,
      (select k.value_sealed from ssh_keys k where k.id = w.ssh_key_id) as ssh_key_sealed,
      (select coalesce(json_agg(json_build_object('key', v.key, 'value', v.value, 'value_sealed', v.value_sealed, 'category', v.category,
                 'hcl', v.hcl, 'variable_set_id', v.variable_set_id, 'set_name', s.name, 'set_global', s.global, 'set_priority', s.priority,
                 'set_reach', ${setReachOf('w.id')})), '[]'::json)
         from ${reachingVariablesFrom('w.id')}) as reaching
    from relaxed, runs r
    join workspaces w on w.id = r.workspace_id
    left join configuration_versions cv on cv.id = r.configuration_version_id
    left join state_versions sv on sv.id = w.current_state_version_id
    where r.id = ?`;
  return (await rowsOf<PhaseSourcesRow>(db, sql, [...token.values, runId]))[0];
}

/** A run's variables with their values, for its Terraform only. */
export function openRunVariables(
  key: Buffer,
  run: Pick<RunRow, 'variables' | 'variables_sealed'>,
): { key: string; value: string }[] {
  if (run.variables_sealed)
    return JSON.parse(decryptSecret(key, run.variables_sealed)) as { key: string; value: string }[];
  // Rows written before the values were sealed.
  return run.variables.filter((v): v is { key: string; value: string } => typeof v.value === 'string');
}

/** Records a plan's redacted JSON object unless it has one already; whether it did. */
export async function setPlanRedacted(db: Db, planId: string, objectId: string): Promise<boolean> {
  const n = await db('plans')
    .where({ id: planId })
    .whereNull('redacted_object_id')
    .update({ redacted_object_id: objectId });
  return n > 0;
}

/** The redacted JSON object of a plan (null when it has none). */
export async function redactedObjectOf(db: Db, planId: string): Promise<string | null> {
  const row = await db('plans').where({ id: planId }).first('redacted_object_id');
  return row?.redacted_object_id ?? null;
}

/** The configuration version a run plans, with its workspace's organization (for the fetch it may need). */
export const versionOfRun = (
  db: Db,
  runId: string,
): Promise<{ id: string; status: string; source: string; organization_name: string } | undefined> =>
  db('runs as r')
    .join('configuration_versions as cv', 'cv.id', 'r.configuration_version_id')
    .join('workspaces as w', 'w.id', 'r.workspace_id')
    .where('r.id', runId)
    .first('cv.id', 'cv.status', 'cv.source', 'w.organization_name');
