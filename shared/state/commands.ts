import { decryptSecret } from '../platform/crypto.js';
import { createHash } from 'node:crypto';
import type { Runtime } from '../runtime.js';
import type { Db } from '../platform/db.js';
import type { Principal } from '../identity/access.queries.js';
import { ApiError, Conflict, NotFound, Unprocessable } from '../platform/errors.js';
import {
  addConsumers,
  attachJsonState,
  consumerIdsOf,
  currentStateVersion,
  finalizeStateVersion,
  findStateVersion,
  insertPendingStateVersion,
  insertStateVersion,
  lockWorkspaceRow,
  parseState,
  removeConsumers,
  replaceConsumers,
  sharesStateWith,
  workspacesOfOrganization,
  type ParsedState,
  type StateOutputRow,
  type StateVersionRow,
} from './repo.js';
import { holderOf } from '../workspaces/rules.js';
import {
  managedResourcesOf,
  servesState,
  successorConflict,
  type ManagedResource,
  type StateVersionMark,
} from './machine.js';

/** What a client sends to create a state version (attributes already validated for type). */
export interface StateVersionInput {
  serial: number;
  md5: string;
  lineage?: string | null;
  /** Base64 of the raw state; without it the version waits (pending) for its upload URL. */
  state?: string;
  /** Base64 of the JSON state (`terraform show -json`), optional. */
  jsonState?: string;
  /** Skip the serial and lineage checks (`terraform state push -force`). */
  force?: boolean;
}

const md5Hex = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

/** Decodes a base64 attribute; 422 naming it when it is not base64 or empty. */
function decode(value: string, attr: string): Buffer {
  const compact = value.replace(/\s+/g, '');
  const bytes = Buffer.from(compact, 'base64');
  if (!bytes.length || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) {
    throw new Unprocessable(`${attr} must be base64 encoded`, { attribute: attr });
  }
  return bytes;
}

/** Parses a state file's bytes; 422 when they are not a Terraform state. */
function parsed(bytes: Buffer, attr: string): ParsedState {
  let state: ParsedState;
  try {
    state = parseState(bytes);
  } catch {
    throw new Unprocessable('the state is not valid JSON', { attribute: attr });
  }
  if (!Number.isInteger(state.serial) || state.serial < 0)
    throw new Unprocessable('the state has no valid serial', { attribute: attr });
  return state;
}

/** 409 unless `principal` holds the workspace's lock (TFE's rule for writing state). */
async function requireLockHolder(tx: Db, workspaceId: string, principal: Principal) {
  const ws = await lockWorkspaceRow(tx, workspaceId);
  if (!ws) throw new NotFound();
  const me = holderOf(principal);
  if (!ws.locked || ws.locked_by_type !== me.type || ws.locked_by_id !== me.id)
    throw new Conflict('workspace must be locked by the caller to create a state version');
  return ws;
}

/** 409 unless a version marked `next` may follow the workspace's current one (skipped with force). */
async function requireSuccessor(tx: Db, workspaceId: string, next: StateVersionMark): Promise<void> {
  const current = await currentStateVersion(tx, workspaceId);
  const why = current ? successorConflict(current, next) : null;
  if (why) throw new Conflict(why);
}

/**
 * Creates a state version of a workspace the caller holds the lock of (the caller's access was
 * checked by the route: write). With `state`, it is stored, finalized and made current at once;
 * without, it is `pending` until its state arrives through the upload URL.
 */
export async function createStateVersion(
  rt: Runtime,
  principal: Principal,
  workspaceId: string,
  input: StateVersionInput,
): Promise<StateVersionRow> {
  const md5 = input.md5.toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(md5))
    throw new Unprocessable('md5 must be the hex MD5 digest of the state', { attribute: 'md5' });
  const raw = input.state !== undefined ? decode(input.state, 'state') : null;
  const json = input.jsonState !== undefined ? decode(input.jsonState, 'json-state') : null;
  let state: ParsedState | null = null;
  if (raw) {
    if (md5Hex(raw) !== md5) throw new Unprocessable('md5 does not match the state', { attribute: 'md5' });
    state = parsed(raw, 'state');
  }
  if (json) {
    try {
      JSON.parse(json.toString('utf8'));
    } catch {
      throw new Unprocessable('json-state is not valid JSON', { attribute: 'json-state' });
    }
  }
  const lineage = input.lineage ?? state?.lineage ?? null;
  return rt.db.transaction(async (tx) => {
    await requireLockHolder(tx, workspaceId, principal);
    if (!input.force) await requireSuccessor(tx, workspaceId, { serial: input.serial, lineage, md5 });
    if (!raw || !state)
      return insertPendingStateVersion(tx, { workspaceId, runId: null, serial: input.serial, lineage, md5 });
    const obj = await rt.store.put(tx, raw, { contentType: 'application/json', prefix: 'state' });
    const jsonObj = json
      ? await rt.store.put(tx, json, { contentType: 'application/json', prefix: 'state-json' })
      : null;
    return insertStateVersion(tx, rt.config.encryptionKey, {
      workspaceId,
      runId: null,
      objectId: obj.id,
      size: raw.length,
      state: { ...state, serial: input.serial, lineage },
      md5,
      jsonObjectId: jsonObj?.id ?? null,
    });
  });
}

/** Which of a version's upload URLs a PUT came through. */
export type StateUploadKind = 'state' | 'json-state';

/**
 * Takes the bytes PUT to a state version's upload URL, streamed into the object store. The raw
 * state must match the declared md5 (422, the version stays pending so the URL can be used
 * again); it finalizes the version with its declared serial and makes it current, unless a
 * version stored since it was created may not be followed by it (409). The JSON state is kept as
 * it is, once.
 */
export async function acceptStateUpload(
  rt: Runtime,
  svId: string,
  kind: StateUploadKind,
  body: AsyncIterable<Buffer>,
  declaredBytes?: number,
): Promise<StateVersionRow> {
  const before = await findStateVersion(rt.db, svId);
  if (!before) throw new NotFound('state version not found');
  if (kind === 'state' ? before.status !== 'pending' : before.json_object_id !== null)
    throw new ApiError('forbidden', 'forbidden', 'this upload URL has already been used');
  const limit = rt.config.maxArchiveBytes;
  const tooLarge = () =>
    new ApiError('too-large', 'payload too large', `the state is larger than the limit of ${limit} bytes`);
  if (declaredBytes !== undefined && declaredBytes > limit) throw tooLarge();

  const writer = await rt.store.create({
    contentType: 'application/json',
    prefix: kind === 'state' ? 'state' : 'state-json',
  });
  let committed = false;
  try {
    // The state's outputs are read from its JSON, so its bytes are kept until it is parsed.
    const pieces: Buffer[] = [];
    const hash = createHash('md5');
    let size = 0;
    for await (const piece of body) {
      size += piece.length;
      if (size > limit) throw tooLarge();
      hash.update(piece);
      pieces.push(piece);
      await writer.write(piece);
    }
    const bytes = Buffer.concat(pieces, size);
    if (kind === 'json-state') {
      try {
        JSON.parse(bytes.toString('utf8'));
      } catch {
        throw new Unprocessable('the JSON state is not valid JSON');
      }
      const ok = await rt.db.transaction(async (tx) => {
        const stored = await writer.finish(tx);
        return attachJsonState(tx, svId, stored.id);
      });
      if (!ok) throw new ApiError('forbidden', 'forbidden', 'this upload URL has already been used');
      committed = true;
      return (await findStateVersion(rt.db, svId))!;
    }
    if (!size) throw new Unprocessable('the state is empty');
    if (before.md5 && hash.digest('hex') !== before.md5)
      throw new Unprocessable('the state does not match the md5 declared when the state version was created');
    const state = parsed(bytes, 'state');
    const lineage = before.lineage ?? state.lineage;
    const row = await rt.db.transaction(async (tx) => {
      await lockWorkspaceRow(tx, before.workspace_id);
      // The version was checked against the current one when it was created; only a version stored since can stand in its way.
      const current = await currentStateVersion(tx, before.workspace_id);
      const why =
        current && current.created_at > before.created_at
          ? successorConflict(current, { serial: before.serial, lineage, md5: before.md5 })
          : null;
      if (why) throw new Conflict(`a state version was stored after this one was created: ${why}`);
      const stored = await writer.finish(tx);
      const done = await finalizeStateVersion(tx, rt.config.encryptionKey, svId, {
        objectId: stored.id,
        size,
        state: { ...state, serial: before.serial, lineage },
      });
      if (!done) throw new ApiError('forbidden', 'forbidden', 'this upload URL has already been used');
      return done;
    });
    committed = true;
    return row;
  } finally {
    if (!committed) await writer.discard().catch(() => undefined);
  }
}

/** Reads a stored object whole. */
async function readObject(rt: Runtime, id: string): Promise<Buffer | null> {
  const stream = await rt.store.get(id);
  if (!stream) return null;
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** The managed resource instances of the workspace's current state, with that state's version; null without a stored state. */
export async function currentResources(
  rt: Runtime,
  workspaceId: string,
): Promise<{ version: StateVersionRow; resources: ManagedResource[] } | null> {
  const version = await currentStateVersion(rt.db, workspaceId);
  const bytes = version?.object_id ? await readObject(rt, version.object_id) : null;
  if (!version || !bytes) return null;
  return { version, resources: managedResourcesOf(JSON.parse(bytes.toString('utf8')) as { resources?: unknown }) };
}

/**
 * Rolls a workspace back to an earlier state version of its own: a new version with that
 * version's content and the next serial becomes current. The caller must hold the lock.
 */
export async function rollbackStateVersion(
  rt: Runtime,
  principal: Principal,
  workspaceId: string,
  fromId: string,
): Promise<StateVersionRow> {
  const from = await findStateVersion(rt.db, fromId);
  if (!from || from.workspace_id !== workspaceId)
    throw new Unprocessable('the state version to roll back to must be one of this workspace', {
      primary: true,
      id: true,
    });
  if (!servesState(from) || !from.object_id)
    throw new Unprocessable('the state version to roll back to has no stored state', { primary: true, id: true });
  const bytes = await readObject(rt, from.object_id);
  if (!bytes)
    throw new Unprocessable('the state version to roll back to has no stored state', { primary: true, id: true });
  const doc = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  return rt.db.transaction(async (tx) => {
    await requireLockHolder(tx, workspaceId, principal);
    const current = await currentStateVersion(tx, workspaceId);
    const serial = Math.max(current?.serial ?? 0, from.serial) + 1;
    const lineage = current?.lineage ?? from.lineage;
    const raw = Buffer.from(`${JSON.stringify({ ...doc, serial, lineage }, null, 2)}\n`);
    const state = parsed(raw, 'state');
    const obj = await rt.store.put(tx, raw, { contentType: 'application/json', prefix: 'state' });
    return insertStateVersion(tx, rt.config.encryptionKey, {
      workspaceId,
      runId: null,
      objectId: obj.id,
      size: raw.length,
      state,
      md5: md5Hex(raw),
    });
  });
}

// Remote state sharing.

/** The consumers of a workspace's state. */
export const remoteStateConsumers = (rt: Runtime, workspaceId: string) => consumerIdsOf(rt.db, workspaceId);

/**
 * Changes a workspace's remote state consumers: `add`, `remove` or `replace` them. Consumers
 * must be other workspaces of the same organization (422 naming the first that is not).
 */
export async function changeRemoteStateConsumers(
  rt: Runtime,
  workspace: { id: string; organization_name: string },
  how: 'add' | 'remove' | 'replace',
  ids: string[],
): Promise<string[]> {
  if (how !== 'remove') {
    const known = new Set(await workspacesOfOrganization(rt.db, workspace.organization_name, ids));
    const bad = ids.find((id) => !known.has(id) || id === workspace.id);
    if (bad)
      throw new Unprocessable(`workspace ${bad} is not another workspace of this organization`, { primary: true });
  }
  await rt.db.transaction(async (tx) => {
    if (how === 'add') await addConsumers(tx, workspace.id, ids);
    else if (how === 'remove') await removeConsumers(tx, workspace.id, ids);
    else await replaceConsumers(tx, workspace.id, ids);
  });
  return consumerIdsOf(rt.db, workspace.id);
}

/** Whether runs of `consumerId` may read the outputs of `workspaceId` (remote state sharing). */
export const mayReadOutputsAs = (rt: Runtime, workspaceId: string, consumerId: string) =>
  sharesStateWith(rt.db, workspaceId, consumerId);

/** An output's value as stored: a sensitive one is kept sealed. */
export const outputValue = (key: Buffer, o: StateOutputRow): unknown =>
  JSON.parse(o.sensitive ? decryptSecret(key, o.value) : o.value);
