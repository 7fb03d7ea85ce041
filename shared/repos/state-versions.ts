import type { Db } from '../db.js';
import { newId } from '../ids.js';
import { encryptSecret } from '../crypto.js';

export interface StateVersionRow {
  id: string;
  workspace_id: string;
  run_id: string | null;
  serial: number;
  lineage: string | null;
  terraform_version: string | null;
  object_id: string | null;
  size: number;
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
export const outputsOf = (db: Db, stateVersionId: string) => db<StateOutputRow>('state_version_outputs').where({ state_version_id: stateVersionId }).orderBy('name');
export const findOutput = (db: Db, id: string) => db<StateOutputRow>('state_version_outputs').where({ id }).first();

/** The parts of a Terraform state file the service records. */
export interface ParsedState {
  serial: number;
  lineage: string | null;
  terraformVersion: string | null;
  outputs: Record<string, { value: unknown; type?: unknown; sensitive?: boolean }>;
}

export function parseState(raw: Buffer): ParsedState {
  const doc = JSON.parse(raw.toString('utf8')) as { serial?: number; lineage?: string; terraform_version?: string; outputs?: ParsedState['outputs'] };
  return { serial: doc.serial ?? 0, lineage: doc.lineage ?? null, terraformVersion: doc.terraform_version ?? null, outputs: doc.outputs ?? {} };
}

/** Records a new state version with its outputs (sensitive values encrypted) and makes it current. */
export async function insertStateVersion(
  db: Db,
  encryptionKey: Buffer,
  attrs: { workspaceId: string; runId: string | null; objectId: string; size: number; state: ParsedState },
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
    })
    .returning('*');
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
  return row;
}
