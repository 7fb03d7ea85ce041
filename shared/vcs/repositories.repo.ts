import type { Db } from '../platform/db.js';
import { API_SOURCES } from '../configuration-versions/machine.js';
import { FINAL_RUN_STATUSES } from '../runs/machine.js';

/** A repository webhook the service created at its provider. */
export interface HookRow {
  id: string;
  oauth_client_id: string;
  identifier: string;
  provider_hook_id: string | null;
  last_error: string | null;
}

/** A workspace following a hook, as its row holds it. */
export interface FollowerRow {
  id: string;
  organization_name: string;
  vcs_repo: Record<string, unknown>;
  speculative_enabled: boolean;
  file_triggers_enabled: boolean;
  working_directory: string;
  trigger_prefixes: string[];
  trigger_patterns: string[];
}

/** The workspaces that follow a hook, oldest first. */
export const followersOf = (db: Db, hookId: string): Promise<FollowerRow[]> =>
  db('workspaces')
    .where({ vcs_hook_id: hookId })
    .whereNotNull('vcs_repo')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select(
      'id',
      'organization_name',
      'vcs_repo',
      'speculative_enabled',
      'file_triggers_enabled',
      'working_directory',
      'trigger_prefixes',
      'trigger_patterns',
    );

/** The repository of the oldest workspace (or else registry module) that follows a hook, or undefined when none does. */
export async function firstFollowerRepo(db: Db, hookId: string): Promise<Record<string, unknown> | undefined> {
  for (const table of ['workspaces', 'registry_modules']) {
    const row = (await db(table)
      .where({ vcs_hook_id: hookId })
      .whereNotNull('vcs_repo')
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .first('vcs_repo')) as { vcs_repo: Record<string, unknown> } | undefined;
    if (row) return row.vcs_repo;
  }
  return undefined;
}

/** The registry modules that publish from a hook's repository. */
export const modulesFollowing = (
  db: Db,
  hookId: string,
): Promise<{ id: string; organization_name: string; vcs_repo: Record<string, unknown> }[]> =>
  db('registry_modules')
    .where({ vcs_hook_id: hookId })
    .whereNotNull('vcs_repo')
    .orderBy('id')
    .select('id', 'organization_name', 'vcs_repo');

export const findHook = (db: Db, id: string): Promise<HookRow | undefined> =>
  db<HookRow>('vcs_hooks').where({ id }).first();

/** Records the provider's hook (or, without one, why creating it failed) for a repository of a connection. */
export async function saveHook(
  db: Db,
  row: Pick<HookRow, 'id' | 'oauth_client_id' | 'identifier'> &
    ({ provider_hook_id: string; last_error?: never } | { last_error: string; provider_hook_id?: never }),
): Promise<void> {
  const synced = row.provider_hook_id ? { synced_at: db.fn.now(), last_error: null } : {};
  await db('vcs_hooks')
    .insert({ ...row, ...synced })
    .onConflict('id')
    .merge(row.provider_hook_id ? undefined : ['last_error']);
}

export const deleteHookRow = async (db: Db, id: string): Promise<void> => {
  await db('vcs_hooks').where({ id }).delete();
};

/** Any token of a connection (the hook's workspaces, which named one, are gone). */
export const anyTokenOf = async (db: Db, oauthClientId: string): Promise<string | undefined> =>
  (
    (await db('oauth_tokens').where({ oauth_client_id: oauthClientId }).orderBy('created_at').first('id')) as
      { id: string } | undefined
  )?.id;

/** Records a delivery once by its id; false when it was received before. */
export async function recordDelivery(tx: Db, hookId: string, deliveryId: string, event: string): Promise<boolean> {
  const [recorded] = await tx('vcs_deliveries')
    .insert({ hook_id: hookId, delivery_id: deliveryId, event })
    .onConflict(['hook_id', 'delivery_id'])
    .ignore()
    .returning('delivery_id');
  return Boolean(recorded);
}

/** The versions a delivery created, for its log. */
export const setDeliveryVersions = async (tx: Db, hookId: string, deliveryId: string, cvIds: string[]) => {
  await tx('vcs_deliveries')
    .where({ hook_id: hookId, delivery_id: deliveryId })
    .update({ configuration_version_ids: cvIds });
};

/** Versions still to fetch (a workspace's, or a module's under test), for the reconciler: their job was lost, or the process fetching died. */
export const fetchesDue = (db: Db) =>
  db('configuration_versions as cv')
    .leftJoin('workspaces as w', 'w.id', 'cv.workspace_id')
    .leftJoin('registry_modules as m', 'm.id', 'cv.registry_module_id')
    .where('cv.status', 'fetching')
    .whereNotIn('cv.source', API_SOURCES)
    .select(
      'cv.id as key',
      'cv.id',
      db.raw('coalesce(w.organization_name, m.organization_name) as organization_name'),
      db.raw(`cv.status_timestamps->>'fetching-at' as fetching_at`),
    );

/** The runs queued to plan from a version, waiting for its files. */
export const plansWaitingFor = (db: Db, cvId: string): Promise<{ id: string; organization_name: string }[]> =>
  db('runs as r')
    .join('workspaces as w', 'w.id', 'r.workspace_id')
    .where({ 'r.configuration_version_id': cvId, 'r.status': 'plan_queued' })
    .select('r.id', 'w.organization_name');

/** Whether a move's run (`row`, its name in the move statement) plans a version fetched from a repository. */
export const fetchedVersionOf = (db: Db, row: string) =>
  db.raw(
    `exists (select 1 from configuration_versions cv where cv.id = ??.configuration_version_id and cv.source not in (${API_SOURCES.map(() => '?').join(', ')}))`,
    [row, ...API_SOURCES],
  );

/** Fetched versions no run uses any more and no workspace has as current, still holding their files, for the reconciler. */
export const archivesDue = (db: Db) =>
  db('configuration_versions as cv')
    .where('cv.status', 'uploaded')
    .whereNotIn('cv.source', API_SOURCES)
    .whereNotNull('cv.workspace_id')
    .whereExists((q) => q.select(db.raw('1')).from('runs as r').whereRaw('r.configuration_version_id = cv.id'))
    .whereNotExists((q) =>
      q.select(db.raw('1')).from('workspaces as w').whereRaw('w.current_configuration_version_id = cv.id'),
    )
    .whereNotExists((q) =>
      q
        .select(db.raw('1'))
        .from('runs as r')
        .whereRaw('r.configuration_version_id = cv.id')
        .whereNotIn('r.status', FINAL_RUN_STATUSES),
    )
    .select('cv.id as key', 'cv.id');

/** The hooks of workspaces connected through a git server (no webhook may reach the service from it). */
export const hooksToPoll = async (db: Db): Promise<string[]> =>
  (
    (await db('workspaces as w')
      .join('oauth_tokens as t', 't.id', db.raw(`w.vcs_repo->>'oauth-token-id'`))
      .join('oauth_clients as c', 'c.id', 't.oauth_client_id')
      .whereNotNull('w.vcs_hook_id')
      .where('c.service_provider', 'git')
      .distinct('w.vcs_hook_id')) as { vcs_hook_id: string }[]
  ).map((r) => r.vcs_hook_id);

/** Where a polled repository's branches stood at the last look (undefined before the first). */
export const lastPolledHeads = async (db: Db, hookId: string): Promise<Record<string, string> | undefined> =>
  ((await db('vcs_polls').where({ hook_id: hookId }).first('heads')) as { heads: Record<string, string> } | undefined)
    ?.heads;

export async function savePolledHeads(db: Db, hookId: string, heads: Record<string, string>): Promise<void> {
  await db('vcs_polls')
    .insert({ hook_id: hookId, heads: JSON.stringify(heads), polled_at: db.fn.now() })
    .onConflict('hook_id')
    .merge();
}

/** Holds a hook until the caller's transaction ends, so its syncs take turns (one provider webhook, never two). */
export const lockHook = async (tx: Db, hookId: string): Promise<void> => {
  await tx.raw('select pg_advisory_xact_lock(hashtext(?))', [`vcs-hook:${hookId}`]);
};
