import { isUniqueViolation, type Db } from '../platform/db.js';
import { type ElementField, type Field, Unprocessable } from '../platform/errors.js';
import {
  applyToWorkspaces,
  deleteVariableSet,
  insertVariableSet,
  lockVariableSet,
  nameTaken,
  removeFromWorkspaces,
  updateVariableSet,
  workspacesInOrganization,
  type VariableSetRow,
} from './sets.repo.js';

/*
 * Variable sets: their names are unique in an organization; a global set reaches every workspace
 * and has none applied; the workspaces a request names must be of the set's organization. Every
 * refusal is a 422 naming the field that is wrong.
 */

export interface VarsetInput {
  name?: string;
  description?: string | null;
  global?: boolean;
  priority?: boolean;
}

const nameTakenError = () => new Unprocessable('name has already been taken', { attribute: 'name' });
const globalHasNoWorkspaces = (field: Field) =>
  new Unprocessable('a global variable set applies to every workspace; workspaces cannot be applied to it', field);

/** 422 unless every id is a workspace of the organization; `element(i)` names the i-th. */
async function assertWorkspaces(db: Db, org: string, ids: string[], element: ElementField): Promise<void> {
  const found = new Set(await workspacesInOrganization(db, org, ids));
  for (const [i, id] of ids.entries())
    if (!found.has(id)) throw new Unprocessable(`workspace ${id} was not found in organization ${org}`, element(i));
}

const nameRace = (err: unknown): never => {
  if (isUniqueViolation(err)) throw nameTakenError();
  throw err;
};

export async function createVariableSet(
  db: Db,
  org: string,
  a: VarsetInput & { name: string },
  workspaceIds: string[],
): Promise<VariableSetRow> {
  if (a.global && workspaceIds.length) throw globalHasNoWorkspaces({ relationship: 'workspaces' });
  return db
    .transaction(async (tx) => {
      if (await nameTaken(tx, org, a.name)) throw nameTakenError();
      await assertWorkspaces(tx, org, workspaceIds, (i) => ({ relationship: 'workspaces', element: i, id: true }));
      const set = await insertVariableSet(tx, {
        organization_name: org,
        name: a.name,
        description: a.description ?? null,
        global: a.global ?? false,
        priority: a.priority ?? false,
      });
      await applyToWorkspaces(tx, set.id, workspaceIds);
      return set;
    })
    .catch(nameRace);
}

/**
 * Omitted attributes keep their value; making a set global removes it from the workspaces it was
 * applied to. `workspaceIds`, when given, replaces those workspaces (none: applied to none).
 */
export async function changeVariableSet(
  db: Db,
  set: VariableSetRow,
  a: VarsetInput,
  workspaceIds?: string[],
): Promise<VariableSetRow> {
  return db
    .transaction(async (tx) => {
      const current = await lockVariableSet(tx, set.id);
      if (a.name !== undefined && (await nameTaken(tx, set.organization_name, a.name, set.id))) throw nameTakenError();
      const global = a.global ?? current?.global ?? set.global;
      if (global && workspaceIds?.length) throw globalHasNoWorkspaces({ relationship: 'workspaces' });
      if (workspaceIds)
        await assertWorkspaces(tx, set.organization_name, workspaceIds, (i) => ({
          relationship: 'workspaces',
          element: i,
          id: true,
        }));
      if (global || workspaceIds) await removeFromWorkspaces(tx, set.id);
      if (workspaceIds) await applyToWorkspaces(tx, set.id, workspaceIds);
      const { name, description, priority } = a;
      const changes = Object.fromEntries(
        Object.entries({ name, description, global: a.global, priority }).filter(([, v]) => v !== undefined),
      );
      return updateVariableSet(tx, set.id, changes);
    })
    .catch(nameRace);
}

export const removeVariableSet = (db: Db, set: VariableSetRow) => deleteVariableSet(db, set.id);

/** Applies a (non-global) set to workspaces of its organization; applying twice is harmless. */
export async function applyVariableSet(db: Db, set: VariableSetRow, workspaceIds: string[]): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await lockVariableSet(tx, set.id);
    if (current?.global) throw globalHasNoWorkspaces({ primary: true });
    await assertWorkspaces(tx, set.organization_name, workspaceIds, (i) => ({ primary: true, element: i, id: true }));
    await applyToWorkspaces(tx, set.id, workspaceIds);
  });
}

export async function unapplyVariableSet(db: Db, set: VariableSetRow, workspaceIds: string[]): Promise<void> {
  await assertWorkspaces(db, set.organization_name, workspaceIds, (i) => ({ primary: true, element: i, id: true }));
  await removeFromWorkspaces(db, set.id, workspaceIds);
}
