import { asJson, type Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import type { PolicyKind } from './rules.js';
import type { ToolBuild } from './tool-versions.rules.js';

/** A version of a policy runtime (OPA or Sentinel) that policy sets may pin. */
export interface PolicyToolVersionRow {
  id: string;
  tool: PolicyKind;
  version: string;
  /** The top-level download as last given (see buildsAfterUpdate); null when only builds were given. */
  url: string | null;
  sha: string | null;
  archs: ToolBuild[];
  official: boolean;
  enabled: boolean;
  beta: boolean;
  deprecated: boolean;
  deprecated_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export type ToolVersionFields = Omit<PolicyToolVersionRow, 'id' | 'tool' | 'created_at' | 'updated_at'>;

const stored = (db: Db, f: Partial<ToolVersionFields>) => ({
  ...f,
  ...(f.archs ? { archs: asJson(db, f.archs) } : {}),
});

export const findToolVersion = (db: Db, tool: PolicyKind, id: string) =>
  db<PolicyToolVersionRow>('policy_tool_versions').where({ tool, id }).first();

/** Whether another version of the tool has this version number. */
export async function toolVersionTaken(db: Db, tool: PolicyKind, version: string, exceptId?: string): Promise<boolean> {
  const q = db('policy_tool_versions').where({ tool, version });
  if (exceptId) q.whereNot({ id: exceptId });
  return (await q.first('id')) !== undefined;
}

export async function insertToolVersion(db: Db, tool: PolicyKind, f: ToolVersionFields): Promise<PolicyToolVersionRow> {
  const [row] = await db<PolicyToolVersionRow>('policy_tool_versions')
    .insert({ id: newId('tool'), tool, ...stored(db, f) })
    .returning('*');
  return row;
}

export async function updateToolVersion(
  db: Db,
  id: string,
  changes: Partial<ToolVersionFields>,
): Promise<PolicyToolVersionRow> {
  const [row] = await db<PolicyToolVersionRow>('policy_tool_versions')
    .where({ id })
    .update({ ...stored(db, changes), updated_at: db.fn.now() })
    .returning('*');
  return row;
}

export const deleteToolVersion = (db: Db, id: string) => db('policy_tool_versions').where({ id }).del();

/** The version numbers of a tool, in creation order (for a refusal's message). */
export const toolVersionNumbers = (db: Db, tool: PolicyKind): Promise<string[]> =>
  db('policy_tool_versions')
    .where({ tool })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .pluck('version');
