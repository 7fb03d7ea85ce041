import { randomBytes } from 'node:crypto';
import { rowsOf, type Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import { decryptSecret, encryptSecret } from '../platform/crypto.js';
import type { VariableCategory } from './rules.js';

/**
 * A variable of a workspace or of a variable set (exactly one of the two). A sensitive variable's
 * value is sealed with the service key in `value_sealed` and `value` is null; rows are never
 * serialized with a sensitive value (see variableResource).
 */
export interface VariableRow {
  id: string;
  workspace_id: string | null;
  variable_set_id: string | null;
  key: string;
  value: string | null;
  value_sealed: string | null;
  description: string | null;
  category: VariableCategory;
  hcl: boolean;
  sensitive: boolean;
  version_id: string;
  created_at: Date;
  updated_at: Date;
}

export type VariableOwner = { workspace_id: string } | { variable_set_id: string };

export interface VariableFields {
  key: string;
  value: string;
  description: string | null;
  category: VariableCategory;
  hcl: boolean;
  sensitive: boolean;
}

/** The stored form of a value: sealed when sensitive, plain otherwise. */
export function storedValue(
  key: Buffer,
  value: string,
  sensitive: boolean,
): Pick<VariableRow, 'value' | 'value_sealed'> {
  return sensitive ? { value: null, value_sealed: encryptSecret(key, value) } : { value, value_sealed: null };
}

/** A variable's value in plain text; for the worker (at a phase's start) and for making a variable sensitive. */
export const openValue = (key: Buffer, row: Pick<VariableRow, 'value' | 'value_sealed'>): string =>
  row.value_sealed ? decryptSecret(key, row.value_sealed) : (row.value ?? '');

const versionId = () => randomBytes(16).toString('hex');

export const findVariable = (db: Db, id: string) => db<VariableRow>('variables').where({ id }).first();

/** A variable of one owner by id, or undefined. */
export const findOwnedVariable = (db: Db, owner: VariableOwner, id: string) =>
  db<VariableRow>('variables')
    .where({ id, ...owner })
    .first();

/** Whether the owner has another variable of the key in the category. */
export async function keyTaken(
  db: Db,
  owner: VariableOwner,
  category: VariableCategory,
  key: string,
  exceptId?: string,
): Promise<boolean> {
  const q = db('variables').where({ ...owner, category, key });
  if (exceptId) q.whereNot({ id: exceptId });
  return (await q.first('id')) !== undefined;
}

export async function insertVariable(
  db: Db,
  encryptionKey: Buffer,
  owner: VariableOwner,
  f: VariableFields,
): Promise<VariableRow> {
  const [row] = await db<VariableRow>('variables')
    .insert({
      id: newId('var'),
      ...owner,
      key: f.key,
      ...storedValue(encryptionKey, f.value, f.sensitive),
      description: f.description,
      category: f.category,
      hcl: f.hcl,
      sensitive: f.sensitive,
      version_id: versionId(),
    })
    .returning('*');
  return row;
}

/** Writes changed columns (already in stored form) with a new version id. */
export async function updateVariable(
  db: Db,
  id: string,
  changes: Partial<Omit<VariableRow, 'id' | 'workspace_id' | 'variable_set_id' | 'created_at'>>,
): Promise<VariableRow> {
  const [row] = await db<VariableRow>('variables')
    .where({ id })
    .update({ ...changes, version_id: versionId(), updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** Deletes an owner's variable; the number of rows deleted (0 when it is not the owner's). */
export const deleteVariable = (db: Db, owner: VariableOwner, id: string): Promise<number> =>
  db('variables')
    .where({ id, ...owner })
    .del();

/** A variable reaching a workspace, with its set's precedence fields when it belongs to a variable set. */
export interface ReachingVariable extends VariableRow {
  set_name: string | null;
  set_global: boolean | null;
  set_priority: boolean | null;
  /** How the set reaches the workspace: applied to it, to its project, or global (null for the workspace's own variables). */
  set_reach: 'workspace' | 'project' | 'global' | null;
}

/** What resolving a reaching variable needs of it (see resolveEffectiveVariables). */
export type ResolvableVariable = Pick<
  ReachingVariable,
  | 'key'
  | 'value'
  | 'value_sealed'
  | 'category'
  | 'hcl'
  | 'variable_set_id'
  | 'set_name'
  | 'set_global'
  | 'set_priority'
  | 'set_reach'
>;

/**
 * The variables reaching the workspace whose id the SQL expression `ws` gives (it appears four
 * times): its own, those of the variable sets applied to it or to its project, and those of its
 * organization's global sets; `v` is the variable, `s` its set. Each is found through its own
 * index and their ids joined (a set both global and applied counts once), as one or'ed filter
 * reads every variable of every organization (docs/design-for-speed.md, "Variables reaching a
 * workspace").
 */
export const reachingVariablesFrom = (ws: string): string =>
  `variables v left join variable_sets s on s.id = v.variable_set_id
   where v.id in (
     select x.id from variables x where x.workspace_id = ${ws}
     union all
     select x.id from variable_set_workspaces vsw join variables x on x.variable_set_id = vsw.variable_set_id where vsw.workspace_id = ${ws}
     union all
     select x.id from workspaces pw join variable_set_projects vsp on vsp.project_id = pw.project_id join variables x on x.variable_set_id = vsp.variable_set_id where pw.id = ${ws}
     union all
     select x.id from variable_sets gs join variables x on x.variable_set_id = gs.id
      where gs.global and gs.organization_name = (select ow.organization_name from workspaces ow where ow.id = ${ws}))`;

/** How the set of the variable `v` reaches the workspace whose id the SQL expression `ws` gives (it appears twice): the nearest way wins. */
export const setReachOf = (ws: string): string => `case when v.variable_set_id is null then null
     when exists (select 1 from variable_set_workspaces a where a.variable_set_id = v.variable_set_id and a.workspace_id = ${ws}) then 'workspace'
     when exists (select 1 from variable_set_projects b join workspaces bw on bw.project_id = b.project_id where b.variable_set_id = v.variable_set_id and bw.id = ${ws}) then 'project'
     else 'global' end`;

/** The set columns a reaching variable carries, over reachingVariablesFrom's `s`. */
const setColumns = (ws: string) =>
  `s.name as set_name, s.global as set_global, s.priority as set_priority, ${setReachOf(ws)} as set_reach`;

/** Names the workspace by its id, or as the workspace of a run (read in the same statement). */
export type WorkspaceRef = { workspaceId: string } | { runId: string };

/** The workspace's own variables and those of the variable sets applied to it or global in its organization. */
export async function variablesReaching(db: Db, ref: WorkspaceRef): Promise<ReachingVariable[]> {
  const [ws, id] =
    'runId' in ref ? ['(select r.workspace_id from runs r where r.id = ?)', ref.runId] : ['?', ref.workspaceId];
  const text = `select v.*, ${setColumns(ws)} from ${reachingVariablesFrom(ws)}`;
  // The workspace's expression appears once per placeholder, each binding the same id.
  return rowsOf<ReachingVariable>(db, text, Array<string>(text.split('?').length - 1).fill(id));
}
