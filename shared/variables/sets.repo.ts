import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';

export interface VariableSetRow {
  id: string;
  organization_name: string;
  name: string;
  description: string | null;
  global: boolean;
  priority: boolean;
  created_at: Date;
  updated_at: Date;
}

export const findVariableSet = (db: Db, id: string) => db<VariableSetRow>('variable_sets').where({ id }).first();

/** Locks a set's row until the transaction ends (changes to its variables and workspaces go one at a time). */
export const lockVariableSet = (tx: Db, id: string) =>
  tx<VariableSetRow>('variable_sets').where({ id }).forUpdate().first();

export async function nameTaken(db: Db, org: string, name: string, exceptId?: string): Promise<boolean> {
  const q = db('variable_sets').where({ organization_name: org, name });
  if (exceptId) q.whereNot({ id: exceptId });
  return (await q.first('id')) !== undefined;
}

export async function insertVariableSet(
  db: Db,
  row: Pick<VariableSetRow, 'organization_name' | 'name' | 'description' | 'global' | 'priority'>,
): Promise<VariableSetRow> {
  const [inserted] = await db<VariableSetRow>('variable_sets')
    .insert({ id: newId('varset'), ...row })
    .returning('*');
  return inserted;
}

export async function updateVariableSet(
  db: Db,
  id: string,
  changes: Partial<Pick<VariableSetRow, 'name' | 'description' | 'global' | 'priority'>>,
): Promise<VariableSetRow> {
  const [row] = await db<VariableSetRow>('variable_sets')
    .where({ id })
    .update({ ...changes, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

export const deleteVariableSet = (db: Db, id: string) => db('variable_sets').where({ id }).del();

/** Ids among `ids` of workspaces in the organization. */
export const workspacesInOrganization = (db: Db, org: string, ids: string[]): Promise<string[]> =>
  ids.length ? db('workspaces').where({ organization_name: org }).whereIn('id', ids).pluck('id') : Promise.resolve([]);

export async function applyToWorkspaces(db: Db, setId: string, workspaceIds: string[]): Promise<void> {
  if (!workspaceIds.length) return;
  await db('variable_set_workspaces')
    .insert(workspaceIds.map((workspace_id) => ({ variable_set_id: setId, workspace_id })))
    .onConflict(['variable_set_id', 'workspace_id'])
    .ignore();
}

/** Removes the set from the given workspaces, or from all of them. */
export async function removeFromWorkspaces(db: Db, setId: string, workspaceIds?: string[]): Promise<void> {
  const q = db('variable_set_workspaces').where({ variable_set_id: setId });
  if (workspaceIds) q.whereIn('workspace_id', workspaceIds);
  await q.del();
}
