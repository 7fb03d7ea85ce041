import type { Runtime } from '../runtime.js';
import { Conflict, Unprocessable } from '../platform/errors.js';
import { readAll } from '../platform/store/postgres-store.js';
import { parseState } from '../state/index.js';
import { isUniqueViolation, type Db } from '../platform/db.js';
import { resolveExecution } from '../agent-pools/index.js';
import { poolWithoutAgentMode } from '../agent-pools/rules.js';
import {
  currentStateObjectId,
  deleteWorkspace,
  findWorkspace,
  findWorkspaceByName,
  insertWorkspace,
  lockWorkspaceRow,
  updateWorkspace,
  type WorkspaceRow,
  type WorkspaceSettings,
} from './repo.js';
import {
  attachTags,
  deleteTags,
  detachTags,
  workspaceIdsIn,
  existingTagsNamed,
  tagsByIds,
  tagsNamed,
  type TagRow,
} from './tags.repo.js';

/** A tag as clients name it: by id, or by name (a new name creates the tag in the organization). */
export interface TagRef {
  id?: string;
  name?: string;
}

/** The resources a stored state manages (0 for a state that does not parse). */
const parsedCount = (state: Buffer): number => {
  try {
    return parseState(state).resourceCount;
  } catch {
    return 0;
  }
};

const nameTaken = () => new Unprocessable('name has already been taken', { attribute: 'name' });
/** The index that keeps workspace names unique in an organization (see its migration). */
const NAME_UNIQUE = 'workspaces_organization_name_name_unique';

/**
 * File triggers follow either prefixes or patterns, not both: a request that sets both non-empty
 * is refused; one that sets either non-empty clears the other. A repository followed by its tags
 * (`tags-regex`) takes no file triggers: a request that gives a tags-regex with them is refused,
 * and one that does not say turns them off.
 */
function triggers(settings: WorkspaceSettings): WorkspaceSettings {
  const prefixes = settings.trigger_prefixes ?? [];
  const patterns = settings.trigger_patterns ?? [];
  if (prefixes.length && patterns.length)
    throw new Unprocessable('only one of trigger-prefixes and trigger-patterns may be set', {
      attribute: 'trigger-patterns',
    });
  if (settings.vcs_repo?.['tags-regex']) {
    if (prefixes.length || patterns.length)
      throw new Unprocessable('a workspace that follows tags (tags-regex) takes no trigger prefixes or patterns', {
        attribute: 'vcs-repo/tags-regex',
      });
    if (settings.file_triggers_enabled === true)
      throw new Unprocessable('a workspace that follows tags (tags-regex) cannot enable file triggers', {
        attribute: 'file-triggers-enabled',
      });
    settings = { ...settings, file_triggers_enabled: false };
  }
  if (prefixes.length) return { ...settings, trigger_patterns: [] };
  if (patterns.length) return { ...settings, trigger_prefixes: [] };
  return settings;
}

/** The organization's tags a request names, in its order: names are created when missing, unknown ids refused. */
async function resolveTags(db: Db, organizationName: string, refs: TagRef[], create: boolean): Promise<TagRow[]> {
  const names = [...new Set(refs.flatMap((r) => (r.id ? [] : [r.name!])))];
  const ids = [...new Set(refs.flatMap((r) => (r.id ? [r.id] : [])))];
  const [byName, byId] = await Promise.all([
    create ? tagsNamed(db, organizationName, names) : existingTagsNamed(db, organizationName, names),
    tagsByIds(db, organizationName, ids),
  ]);
  const missing = ids.find((id) => !byId.some((t) => t.id === id));
  if (missing) throw new Unprocessable(`tag ${missing} not found in the organization`, { primary: true });
  const found = new Map([
    ...byName.map((t) => [`n:${t.name}`, t] as const),
    ...byId.map((t) => [`i:${t.id}`, t] as const),
  ]);
  return refs.flatMap((r) => found.get(r.id ? `i:${r.id}` : `n:${r.name}`) ?? []);
}

/** Creates a workspace in an organization, with its tags; its name must be free there. */
export async function createWorkspace(
  rt: Runtime,
  organizationName: string,
  settings: WorkspaceSettings & { name: string },
  tags: TagRef[] = [],
): Promise<WorkspaceRow> {
  const values = { ...triggers(await executionOf(rt.db, organizationName, null, settings)), name: settings.name };
  // The name's unique index refuses a taken one, also between concurrent creations.
  const insert = (db: Db) =>
    insertWorkspace(db, organizationName, values).catch((err: unknown) => {
      throw isUniqueViolation(err, NAME_UNIQUE) ? nameTaken() : err;
    });
  // Without tags, one statement; with them, the tags are attached in the same transaction.
  if (!tags.length) return insert(rt.db);
  return rt.db.transaction(async (tx) => {
    const ws = await insert(tx);
    await attachTags(
      tx,
      ws.id,
      (await resolveTags(tx, organizationName, tags, true)).map((t) => t.id),
    );
    return ws;
  });
}

/** Adds tags to a workspace (by name, creating new ones in the organization, or by id). */
export async function addWorkspaceTags(rt: Runtime, ws: WorkspaceRow, tags: TagRef[]): Promise<void> {
  await rt.db.transaction(async (tx) => {
    await lockWorkspaceRow(tx, ws.id);
    await attachTags(
      tx,
      ws.id,
      (await resolveTags(tx, ws.organization_name, tags, true)).map((t) => t.id),
    );
  });
}

/** Removes tags from a workspace; tags it does not carry, or that do not exist, are ignored (the tags stay in the organization). */
export async function removeWorkspaceTags(rt: Runtime, ws: WorkspaceRow, tags: TagRef[]): Promise<void> {
  const named = await existingTagsNamed(
    rt.db,
    ws.organization_name,
    tags.flatMap((r) => (r.id ? [] : [r.name!])),
  );
  const ids = [...named.map((t) => t.id), ...tags.flatMap((r) => (r.id ? [r.id] : []))];
  await detachTags(rt.db, ws.id, ids);
}

/** Changes a workspace's settings; a new name must be free in its organization. */
export async function changeWorkspace(
  rt: Runtime,
  ws: WorkspaceRow,
  settings: WorkspaceSettings,
): Promise<WorkspaceRow> {
  return rt.db.transaction(async (tx) => {
    if (
      settings.name &&
      settings.name !== ws.name &&
      (await findWorkspaceByName(tx, ws.organization_name, settings.name))
    )
      throw nameTaken();
    return updateWorkspace(tx, ws, triggers(await executionOf(tx, ws.organization_name, ws, settings)));
  });
}

/**
 * The settings with the execution mode and agent pool the workspace (`ws`; null when new) ends
 * with: one that follows its organization takes the organization's (in the writing statement) and
 * names no pool of its own; one with a mode of its own goes by executionAfter, a named pool checked.
 */
async function executionOf(
  db: Db,
  organizationName: string,
  ws: WorkspaceRow | null,
  settings: WorkspaceSettings,
): Promise<WorkspaceSettings> {
  const follows =
    settings.overwrites_execution_mode === false ||
    (settings.execution_mode === undefined && !(ws?.overwrites_execution_mode ?? false));
  if (follows) {
    if (settings.agent_pool_id)
      throw new Unprocessable(poolWithoutAgentMode('Agent pool'), { attribute: 'agent-pool-id' });
    const { agent_pool_id: _ignored, ...rest } = settings;
    return rest;
  }
  if (settings.execution_mode === undefined && settings.agent_pool_id === undefined) return settings;
  const before = ws ? { mode: ws.execution_mode, pool: ws.agent_pool_id } : { mode: 'remote' as const, pool: null };
  const after = await resolveExecution(
    db,
    organizationName,
    before,
    { mode: settings.execution_mode, pool: settings.agent_pool_id },
    { kind: 'workspace', workspaceId: ws?.id ?? null },
  );
  return { ...settings, execution_mode: after.mode, agent_pool_id: after.pool };
}

/** Deletes tags of an organization (every workspace loses them). */
export const deleteOrganizationTags = (rt: Runtime, organizationName: string, ids: string[]) =>
  deleteTags(rt.db, organizationName, ids);

/** Puts one of the organization's tags on workspaces of the same organization (unknown ones refused, nothing written). */
export async function tagWorkspaces(rt: Runtime, tag: TagRow, workspaceIds: string[]): Promise<void> {
  await rt.db.transaction(async (tx) => {
    const found = await workspaceIdsIn(tx, tag.organization_name, workspaceIds);
    const missing = workspaceIds.find((id) => !found.includes(id));
    if (missing) throw new Unprocessable(`workspace ${missing} not found in the organization`, { primary: true });
    for (const id of workspaceIds) await attachTags(tx, id, [tag.id]);
  });
}

/**
 * `actions/safe-delete`: deletes the workspace only when it is not locked and its current state
 * manages no resources (409 otherwise, worded as Terraform Cloud words it: "locked", or "not safe").
 */
export async function safeDeleteWorkspace(rt: Runtime, ws: WorkspaceRow): Promise<void> {
  await rt.db.transaction(async (tx) => {
    await lockWorkspaceRow(tx, ws.id);
    const now = await findWorkspace(tx, ws.id);
    if (!now) return;
    if (now.locked) throw new Conflict('Unable to safe-delete the workspace: it is locked.');
    const objectId = await currentStateObjectId(tx, ws.id);
    const state = objectId ? await readAll(rt.store, objectId) : null;
    const count = state ? parsedCount(state) : 0;
    if (count > 0)
      throw new Conflict(
        `The workspace is not safe to delete: its state manages ${count} resource(s); destroy them first.`,
      );
    await deleteWorkspace(tx, ws.id);
  });
}
