import { type ElementField, Unprocessable } from '../platform/errors.js';
import type { Db } from '../platform/db.js';
import { projectIdsIn } from './repo.js';
import { applySetToProjects, removeSetFromProjects, type ProjectSetKind } from './sets.repo.js';

/** A variable or policy set as applying it to projects needs it. */
interface SetRef {
  id: string;
  organization_name: string;
  global: boolean;
}

const NOUN: Record<ProjectSetKind, string> = { variable: 'variable set', policy: 'policy set' };

/** 422 unless every id is a project of the organization; `element(i)` names the i-th. */
export async function assertProjects(db: Db, org: string, ids: string[], element: ElementField): Promise<void> {
  const found = new Set(await projectIdsIn(db, org, ids));
  for (const [i, id] of ids.entries())
    if (!found.has(id)) throw new Unprocessable(`project ${id} was not found in organization ${org}`, element(i));
}

/** Applies a (non-global) set to projects of its organization: all or none. */
export async function applyToProjects(db: Db, kind: ProjectSetKind, set: SetRef, projectIds: string[]): Promise<void> {
  if (set.global)
    throw new Unprocessable(`a global ${NOUN[kind]} applies to every workspace; projects cannot be applied to it`, {
      primary: true,
    });
  await db.transaction(async (tx) => {
    await assertProjects(tx, set.organization_name, projectIds, (i) => ({ primary: true, element: i, id: true }));
    await applySetToProjects(tx, kind, set.id, projectIds);
  });
}

/** Removes a set from projects of its organization. */
export async function removeFromProjects(
  db: Db,
  kind: ProjectSetKind,
  set: SetRef,
  projectIds: string[],
): Promise<void> {
  await assertProjects(db, set.organization_name, projectIds, (i) => ({ primary: true, element: i, id: true }));
  await removeSetFromProjects(db, kind, set.id, projectIds);
}
