import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import { encryptSecret } from '../platform/crypto.js';
import { backingDataMachine, type BackingDataEvent, type StateVersionStatus } from './machine.js';

export interface StateVersionRow {
  id: string;
  workspace_id: string;
  run_id: string | null;
  serial: number;
  lineage: string | null;
  terraform_version: string | null;
  object_id: string | null;
  size: number;
  /** `pending` until its state arrives through the upload URL; `finalized` once stored; then perhaps its backing data deleted. */
  status: StateVersionStatus;
  /** The md5 the creator declared (hex), checked against the state's bytes. */
  md5: string | null;
  json_object_id: string | null;
  /** Managed resources with at least one instance; null when stored before this was counted. */
  resource_count: number | null;
  created_at: Date;
}

export interface StateOutputRow {
  id: string;
  state_version_id: string;
  name: string;
  sensitive: boolean;
  type: unknown;
  value: string;
}

export const findStateVersion = (db: Db, id: string) => db<StateVersionRow>('state_versions').where({ id }).first();
export const outputsOf = (db: Db, stateVersionId: string) =>
  db<StateOutputRow>('state_version_outputs').where({ state_version_id: stateVersionId }).orderBy('name');
export const findOutput = (db: Db, id: string) => db<StateOutputRow>('state_version_outputs').where({ id }).first();

/** The parts of a Terraform state file the service records. */
export interface ParsedState {
  serial: number;
  lineage: string | null;
  terraformVersion: string | null;
  outputs: Record<string, { value: unknown; type?: unknown; sensitive?: boolean }>;
  /** Resources under management: managed resources with at least one instance (data sources do not count). */
  resourceCount: number;
}

export function parseState(raw: Buffer): ParsedState {
  const doc = JSON.parse(raw.toString('utf8')) as {
    serial?: number;
    lineage?: string;
    terraform_version?: string;
    outputs?: ParsedState['outputs'];
    resources?: { mode?: string; instances?: unknown[] }[];
  };
  const resources = Array.isArray(doc.resources) ? doc.resources : [];
  return {
    serial: doc.serial ?? 0,
    lineage: doc.lineage ?? null,
    terraformVersion: doc.terraform_version ?? null,
    outputs: doc.outputs ?? {},
    resourceCount: resources.filter(
      (r) => r?.mode === 'managed' && Array.isArray(r.instances) && r.instances.length > 0,
    ).length,
  };
}

/** Records a new state version with its outputs (sensitive values encrypted) and makes it current. */
export async function insertStateVersion(
  db: Db,
  encryptionKey: Buffer,
  attrs: {
    workspaceId: string;
    runId: string | null;
    objectId: string;
    size: number;
    state: ParsedState;
    md5?: string | null;
    jsonObjectId?: string | null;
  },
): Promise<StateVersionRow> {
  const [row] = await db<StateVersionRow>('state_versions')
    .insert({
      id: newId('sv'),
      workspace_id: attrs.workspaceId,
      run_id: attrs.runId,
      serial: attrs.state.serial,
      lineage: attrs.state.lineage,
      terraform_version: attrs.state.terraformVersion,
      object_id: attrs.objectId,
      size: attrs.size,
      status: 'finalized',
      md5: attrs.md5 ?? null,
      json_object_id: attrs.jsonObjectId ?? null,
      resource_count: attrs.state.resourceCount,
    })
    .returning('*');
  await recordOutputs(db, encryptionKey, row, attrs.state);
  return row;
}

/** Records a finalized version's outputs and makes it its workspace's current state version. */
async function recordOutputs(db: Db, encryptionKey: Buffer, row: StateVersionRow, state: ParsedState): Promise<void> {
  const attrs = { workspaceId: row.workspace_id, state };
  const outputs = Object.entries(attrs.state.outputs).map(([name, o]) => ({
    id: newId('wsout'),
    state_version_id: row.id,
    name,
    sensitive: o.sensitive === true,
    type: JSON.stringify(o.type ?? null),
    value: o.sensitive ? encryptSecret(encryptionKey, JSON.stringify(o.value)) : JSON.stringify(o.value),
  }));
  if (outputs.length) await db('state_version_outputs').insert(outputs);
  await db('workspaces').where({ id: attrs.workspaceId }).update({ current_state_version_id: row.id });
}

/** The workspace's current state version, if it has one. */
export const currentStateVersion = (db: Db, workspaceId: string) =>
  db<StateVersionRow>('state_versions as sv')
    .join('workspaces as w', 'w.current_state_version_id', 'sv.id')
    .where('w.id', workspaceId)
    .first('sv.*') as Promise<StateVersionRow | undefined>;

/** Takes the workspace's row lock for the rest of the transaction (state versions of one workspace are written one at a time). */
export const lockWorkspaceRow = (tx: Db, workspaceId: string) =>
  tx('workspaces')
    .where({ id: workspaceId })
    .forUpdate()
    .first('id', 'locked', 'locked_by_type', 'locked_by_id', 'current_state_version_id') as Promise<
    | {
        id: string;
        locked: boolean;
        locked_by_type: string | null;
        locked_by_id: string | null;
        current_state_version_id: string | null;
      }
    | undefined
  >;

/** A version created without its state: it waits (pending) for the upload URL. */
export async function insertPendingStateVersion(
  db: Db,
  attrs: { workspaceId: string; runId: string | null; serial: number; lineage: string | null; md5: string },
): Promise<StateVersionRow> {
  const [row] = await db<StateVersionRow>('state_versions')
    .insert({
      id: newId('sv'),
      workspace_id: attrs.workspaceId,
      run_id: attrs.runId,
      serial: attrs.serial,
      lineage: attrs.lineage,
      md5: attrs.md5,
      status: 'pending',
      size: 0,
    })
    .returning('*');
  return row;
}

/** Finalizes a pending version with its stored state; undefined when it is no longer pending. */
export async function finalizeStateVersion(
  db: Db,
  encryptionKey: Buffer,
  id: string,
  attrs: { objectId: string; size: number; state: ParsedState },
): Promise<StateVersionRow | undefined> {
  const [row] = await db<StateVersionRow>('state_versions')
    .where({ id, status: 'pending' })
    .update({
      status: 'finalized',
      object_id: attrs.objectId,
      size: attrs.size,
      terraform_version: attrs.state.terraformVersion,
      resource_count: attrs.state.resourceCount,
    })
    .returning('*');
  if (row) await recordOutputs(db, encryptionKey, row, attrs.state);
  return row;
}

/** Points a version at its JSON state once; false when it has one already. */
export async function attachJsonState(db: Db, id: string, objectId: string): Promise<boolean> {
  const n = await db('state_versions')
    .where({ id })
    .whereNull('json_object_id')
    .whereIn('status', ['pending', 'finalized'])
    .update({ json_object_id: objectId });
  return n > 0;
}

/** A version and whether it is its workspace's current state, its row locked for the rest of the transaction. */
export const lockStateVersion = (tx: Db, id: string) =>
  tx('state_versions as sv')
    .join('workspaces as w', 'w.id', 'sv.workspace_id')
    .where('sv.id', id)
    .forUpdate('sv')
    .first('sv.*', tx.raw('(w.current_state_version_id is not distinct from sv.id) as is_current')) as Promise<
    (StateVersionRow & { is_current: boolean }) | undefined
  >;

/**
 * Moves a version by a backing-data event if it is still in a state the event starts from
 * (compare-and-set); a permanent delete also forgets its stored objects and outputs. Undefined when it moved meanwhile.
 */
export async function moveBackingData(
  db: Db,
  id: string,
  event: BackingDataEvent,
  from: StateVersionStatus,
): Promise<StateVersionRow | undefined> {
  const forget = event === 'permanent_delete' ? { object_id: null, json_object_id: null } : {};
  const [row] = await db<StateVersionRow>('state_versions')
    .where({ id, status: from })
    .update({ status: backingDataMachine.transition(from, event), ...forget })
    .returning('*');
  if (row && event === 'permanent_delete') await db('state_version_outputs').where({ state_version_id: id }).del();
  return row;
}

/** The organization a state version's workspace belongs to (upload slots are per organization). */
export const stateVersionOrganization = async (db: Db, id: string): Promise<string | undefined> =>
  (
    await db('state_versions as sv')
      .join('workspaces as w', 'w.id', 'sv.workspace_id')
      .where('sv.id', id)
      .first('w.organization_name')
  )?.organization_name;

// Remote state sharing: the workspaces allowed to read a workspace's outputs.

export const consumerIdsOf = async (db: Db, workspaceId: string): Promise<string[]> =>
  (
    await db('remote_state_consumers').where({ workspace_id: workspaceId }).orderBy('consumer_id').select('consumer_id')
  ).map((r: { consumer_id: string }) => r.consumer_id);

export async function addConsumers(db: Db, workspaceId: string, consumerIds: string[]): Promise<void> {
  if (!consumerIds.length) return;
  await db('remote_state_consumers')
    .insert(consumerIds.map((consumer_id) => ({ workspace_id: workspaceId, consumer_id })))
    .onConflict(['workspace_id', 'consumer_id'])
    .ignore();
}

export async function removeConsumers(db: Db, workspaceId: string, consumerIds: string[]): Promise<void> {
  await db('remote_state_consumers').where({ workspace_id: workspaceId }).whereIn('consumer_id', consumerIds).del();
}

export async function replaceConsumers(db: Db, workspaceId: string, consumerIds: string[]): Promise<void> {
  await db('remote_state_consumers').where({ workspace_id: workspaceId }).del();
  await addConsumers(db, workspaceId, consumerIds);
}

/** Which of `ids` are workspaces of `organization`. */
export const workspacesOfOrganization = async (db: Db, organization: string, ids: string[]): Promise<string[]> =>
  (await db('workspaces').where({ organization_name: organization }).whereIn('id', ids).select('id')).map(
    (r: { id: string }) => r.id,
  );

/** Whether `consumerId` may read `workspaceId`'s outputs: the same organization, and global sharing or a listed consumer. */
export async function sharesStateWith(db: Db, workspaceId: string, consumerId: string): Promise<boolean> {
  const row = await db('workspaces as w')
    .join('workspaces as c', 'c.organization_name', 'w.organization_name')
    .where('w.id', workspaceId)
    .where('c.id', consumerId)
    .where((q) =>
      q
        .where('w.global_remote_state', true)
        .orWhereExists(
          db('remote_state_consumers as r')
            .whereRaw('r.workspace_id = w.id')
            .whereRaw('r.consumer_id = c.id')
            .select(db.raw('1')),
        ),
    )
    .first(db.raw('1 as ok'));
  return Boolean(row);
}
