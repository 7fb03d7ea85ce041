import type { IdempotencyColumns } from '../idempotency/repo.js';
import { asJson, type Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import { cvMachine, type CvEvent, type CvStatus } from './machine.js';

export interface CvRow {
  id: string;
  /** Set for workspace versions; null for module test versions. */
  workspace_id: string | null;
  /** Set for module test versions; null for workspace versions. */
  registry_module_id: string | null;
  status: CvStatus;
  source: string;
  auto_queue_runs: boolean;
  speculative: boolean;
  provisional: boolean;
  error: string | null;
  error_message: string | null;
  archive_object_id: string | null;
  changed_files: string[];
  status_timestamps: Record<string, string>;
  created_by_id: string | null;
  /** Its creator could queue plans but not apply (the version is then speculative): the run its upload queues is that caller's. */
  created_with_plan_access_only: boolean;
  /** The workspace's current version when this one (not provisional) became current at its creation. */
  replaced_current_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface IngressRow {
  id: string;
  configuration_version_id: string;
  branch: string | null;
  clone_url: string | null;
  commit_message: string | null;
  commit_sha: string | null;
  commit_url: string | null;
  compare_url: string | null;
  identifier: string | null;
  is_pull_request: boolean;
  on_default_branch: boolean;
  pull_request_number: number | null;
  pull_request_url: string | null;
  pull_request_title: string | null;
  pull_request_body: string | null;
  tag: string | null;
  sender_username: string | null;
  sender_avatar_url: string | null;
  sender_html_url: string | null;
  created_at: Date;
}

export const findCv = (db: Db, id: string) => db<CvRow>('configuration_versions').where({ id }).first();

/** A version's row, locked until the caller's transaction ends (its actions and purges take turns on it). */
export const lockCv = (tx: Db, cvId: string) =>
  tx<CvRow>('configuration_versions').where({ id: cvId }).forUpdate().first();

/** A version with the organization it belongs to, through its workspace or its registry module; undefined when it does not exist. */
export const findCvWithOrganization = (
  db: Db,
  id: string,
): Promise<(CvRow & { organization_name: string | null }) | undefined> =>
  db('configuration_versions as cv')
    .leftJoin('workspaces as w', 'w.id', 'cv.workspace_id')
    .leftJoin('registry_modules as m', 'm.id', 'cv.registry_module_id')
    .where('cv.id', id)
    .first('cv.*', db.raw('coalesce(w.organization_name, m.organization_name) as organization_name'));

/** The workspace's current configuration version, looked up in one query. */
export const findCurrentCv = (db: Db, workspaceId: string) =>
  db<CvRow>('configuration_versions')
    .where('id', db('workspaces').where({ id: workspaceId }).select('current_configuration_version_id'))
    .first();
export const cvsOfWorkspace = (db: Db, workspaceId: string) =>
  db<CvRow>('configuration_versions').where({ workspace_id: workspaceId });
export const findIngress = (db: Db, cvId: string) =>
  db<IngressRow>('ingress_attributes').where({ configuration_version_id: cvId }).first();

/** A new version's timestamps: queued, and the moment it entered the state it starts in (a fetched one starts fetching). */
function timestampsAtCreation(status: CvStatus | undefined): Record<string, string> {
  const now = new Date().toISOString();
  const entered = status && TIMESTAMP_OF[status];
  return { 'queued-at': now, ...(entered ? { [entered]: now } : {}) };
}

export async function insertCv(
  db: Db,
  attrs: Partial<Pick<CvRow, 'workspace_id' | 'registry_module_id'>> &
    Pick<CvRow, 'source' | 'auto_queue_runs' | 'speculative' | 'provisional'> & {
      created_by_id?: string | null;
      status?: CvStatus;
    },
): Promise<CvRow> {
  const [row] = await db<CvRow>('configuration_versions')
    .insert({ id: newId('cv'), ...attrs, status_timestamps: asJson(db, timestampsAtCreation(attrs.status)) })
    .returning('*');
  return row;
}

export async function insertIngress(
  db: Db,
  cvId: string,
  attrs: Partial<Omit<IngressRow, 'id' | 'configuration_version_id' | 'created_at'>>,
): Promise<IngressRow> {
  const [row] = await db<IngressRow>('ingress_attributes')
    .insert({ id: newId('ia'), configuration_version_id: cvId, ...attrs })
    .returning('*');
  return row;
}

const TIMESTAMP_OF: Partial<Record<CvStatus, string>> = {
  uploaded: 'finished-at',
  errored: 'errored-at',
  archived: 'archived-at',
  fetching: 'fetching-at',
  backing_data_soft_deleted: 'soft-deleted-at',
  backing_data_permanently_deleted: 'permanently-deleted-at',
};

/**
 * Compare-and-set move of a version: only from `from` (default: every state the event allows).
 * Returns the updated row, or undefined when another request moved it first.
 */
export async function moveCv(
  db: Db,
  id: string,
  event: CvEvent,
  changes: Partial<Pick<CvRow, 'archive_object_id' | 'error' | 'error_message'>> = {},
  from: readonly CvStatus[] = cvMachine.sources(event),
): Promise<CvRow | undefined> {
  const to = cvMachine.moves[event].to;
  const stamp = TIMESTAMP_OF[to];
  const [row] = await db<CvRow>('configuration_versions')
    .where({ id })
    .whereIn('status', from as CvStatus[])
    .update({
      ...changes,
      status: to,
      updated_at: db.fn.now(),
      ...(stamp
        ? {
            status_timestamps: db.raw(`status_timestamps || jsonb_build_object(?::text, ?::text)`, [
              stamp,
              new Date().toISOString(),
            ]),
          }
        : {}),
    })
    .returning('*');
  return row;
}

/** Whether the version is the current configuration version of any workspace. */
export async function isCurrentAnywhere(db: Db, cvId: string): Promise<boolean> {
  return Boolean(await db('workspaces').where({ current_configuration_version_id: cvId }).first('id'));
}

/** Whether a pending version would give its workspace this version back were its upload to fail (see giveBackCurrent). */
export async function mayBeGivenBack(db: Db, cvId: string): Promise<boolean> {
  return Boolean(
    await db('configuration_versions').where({ replaced_current_id: cvId, status: 'pending' }).first('id'),
  );
}

/** Runs of this version that have not reached a final state. */
export async function activeRunCount(db: Db, cvId: string, finalStatuses: readonly string[]): Promise<number> {
  const row = await db('runs')
    .where({ configuration_version_id: cvId })
    .whereNotIn('status', finalStatuses)
    .count<{ count: number }[]>({ count: '*' })
    .first();
  return Number(row?.count ?? 0);
}

/**
 * A workspace's new version, in one statement: the workspace's row is locked, so creations in one
 * workspace take turns, and the version is stamped as created once its turn has come
 * (`clock_timestamp()`, not the statement's start): it is the workspace's newest. One that is not
 * provisional becomes the current one at once; the version it displaced (read from the locked
 * row, as the last creation left it) is remembered for a failed upload to give back (see
 * giveBackCurrent). Undefined when there is no such workspace. (The version must not be compared
 * with the current one by a read of `configuration_versions` here: a version committed while this
 * statement waited for the lock is not visible to it.)
 */
export async function insertWorkspaceCv(
  db: Db,
  attrs: Pick<CvRow, 'source' | 'auto_queue_runs' | 'speculative' | 'provisional' | 'created_with_plan_access_only'> & {
    workspace_id: string;
    created_by_id: string | null;
  },
  idempotency: IdempotencyColumns | null = null,
): Promise<CvRow | undefined> {
  const locked = db('workspaces')
    .where({ id: attrs.workspace_id })
    .forUpdate()
    .select('id', 'current_configuration_version_id');
  const row = {
    id: db.raw('?::text', [newId('cv')]),
    workspace_id: db.ref('w.id'),
    source: db.raw('?::text', [attrs.source]),
    auto_queue_runs: db.raw('?::boolean', [attrs.auto_queue_runs]),
    speculative: db.raw('?::boolean', [attrs.speculative]),
    provisional: db.raw('?::boolean', [attrs.provisional]),
    created_by_id: db.raw('?::text', [attrs.created_by_id]),
    created_with_plan_access_only: db.raw('?::boolean', [attrs.created_with_plan_access_only]),
    status_timestamps: db.raw('?::jsonb', [JSON.stringify({ 'queued-at': new Date().toISOString() })]),
    created_at: db.raw('clock_timestamp()'),
    replaced_current_id: attrs.provisional ? db.raw('null::text') : db.ref('w.current_configuration_version_id'),
    idempotency_key: db.raw('?::text', [idempotency?.idempotency_key ?? null]),
    idempotency_request: db.raw('?::text', [idempotency?.idempotency_request ?? null]),
  };
  const inserted = db
    .into(db.raw('configuration_versions (??)', [Object.keys(row)]))
    .insert(db.from('w').select(Object.values(row)))
    .returning('*');
  const made = db('workspaces')
    .where('id', db('w').select('id'))
    .update({ current_configuration_version_id: db('cv').select('id') });
  const statement = db.with('w', locked).with('cv', inserted);
  const [created] = await (attrs.provisional ? statement : statement.with('made', made)).select('*').from('cv');
  return created as CvRow | undefined;
}

/** A version whose upload failed gives its workspace back the version it displaced, if it is still the current one. */
export async function giveBackCurrent(db: Db, cv: CvRow): Promise<void> {
  if (!cv.workspace_id) return;
  await db('workspaces')
    .where({ id: cv.workspace_id, current_configuration_version_id: cv.id })
    .update({ current_configuration_version_id: cv.replaced_current_id });
}

/** Makes a version the workspace's current one unless a newer version already is (provisional promotion). */
export async function makeCurrent(db: Db, workspaceId: string, cv: Pick<CvRow, 'id' | 'created_at'>): Promise<boolean> {
  const n = await db('workspaces')
    .where({ id: workspaceId })
    .andWhere((q) =>
      q
        .whereNull('current_configuration_version_id')
        .orWhereIn(
          'current_configuration_version_id',
          db('configuration_versions').where('created_at', '<=', cv.created_at).select('id'),
        ),
    )
    .update({ current_configuration_version_id: cv.id });
  return n === 1;
}

/**
 * Up to `limit` ids of API-created workspace versions older than `days`, oldest first, that are
 * uploaded, not current anywhere and have no run outside `finalStatuses`: what maintenance archives.
 */
export async function archivableCvIds(
  db: Db,
  days: number,
  limit: number,
  finalStatuses: readonly string[],
): Promise<string[]> {
  return (await db('configuration_versions as cv')
    .where('cv.status', 'uploaded')
    .whereNotNull('cv.workspace_id')
    .whereIn('cv.source', ['tfe-api', 'terraform'])
    .where('cv.created_at', '<', db.raw(`now() - (? || ' days')::interval`, [String(days)]))
    .whereNotExists(db('workspaces').whereRaw('workspaces.current_configuration_version_id = cv.id'))
    .whereNotExists(db('runs').whereRaw('runs.configuration_version_id = cv.id').whereNotIn('status', finalStatuses))
    .orderBy('cv.created_at')
    .limit(limit)
    .pluck('cv.id')) as string[];
}
