import type { Knex } from 'knex';
import type { Db } from '../platform/db.js';
import type { VariableRow } from './repo.js';

/*
 * What the variable endpoints answer with. Sealed values are never selected: a response has no
 * use for them (a sensitive variable's value is null in every response).
 */

export type VariableView = Omit<VariableRow, 'value_sealed'>;

const COLUMNS = [
  'id',
  'workspace_id',
  'variable_set_id',
  'key',
  'value',
  'description',
  'category',
  'hcl',
  'sensitive',
  'version_id',
  'created_at',
  'updated_at',
] as const;

const ordered = (db: Db, owner: Record<string, string>) =>
  db<VariableView>('variables')
    .where(owner)
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select(...COLUMNS);

export const workspaceVariables = (db: Db, workspaceId: string): Promise<VariableView[]> =>
  ordered(db, { workspace_id: workspaceId });
export const setVariables = (db: Db, setId: string): Promise<VariableView[]> => ordered(db, { variable_set_id: setId });

/** One variable of its owner (a workspace or a variable set); undefined when the owner has no such variable. */
export const ownedVariable = (
  db: Db,
  owner: { workspace_id: string } | { variable_set_id: string },
  id: string,
): Promise<VariableView | undefined> =>
  db<VariableView>('variables')
    .where({ ...owner, id })
    .first(...COLUMNS);

/** The id of the workspace an organization's workspace name selects (a query, for workspaceScopeById). */
export const workspaceIdByName = (db: Db, org: string, name: string): Knex.QueryBuilder =>
  db('workspaces').where({ organization_name: org, name }).select('id');

/** The workspace of a workspace variable (a query, for workspaceScopeById); selects nothing for a variable set's variable. */
export const workspaceOfVariable = (db: Db, id: string): Knex.QueryBuilder =>
  db('variables').where({ id }).whereNotNull('workspace_id').select('workspace_id');
