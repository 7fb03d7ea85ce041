import type { Db } from '../platform/db.js';
import { groupUnder } from '../platform/page.js';

/*
 * Variable sets and policy sets applied to projects: one link table each, the same shape, so the
 * same statements serve both.
 */

export type ProjectSetKind = 'variable' | 'policy';

const TABLES: Record<ProjectSetKind, { table: string; set: string }> = {
  variable: { table: 'variable_set_projects', set: 'variable_set_id' },
  policy: { table: 'policy_set_projects', set: 'policy_set_id' },
};

/** Applies a set to projects; applying twice is harmless. */
export async function applySetToProjects(
  db: Db,
  kind: ProjectSetKind,
  setId: string,
  projectIds: string[],
): Promise<void> {
  if (!projectIds.length) return;
  const { table, set } = TABLES[kind];
  await db(table)
    .insert(projectIds.map((project_id) => ({ [set]: setId, project_id })))
    .onConflict([set, 'project_id'])
    .ignore();
}

/** Removes a set from the given projects, or from all of them. */
export async function removeSetFromProjects(
  db: Db,
  kind: ProjectSetKind,
  setId: string,
  projectIds?: string[],
): Promise<void> {
  const { table, set } = TABLES[kind];
  const q = db(table).where({ [set]: setId });
  if (projectIds) q.whereIn('project_id', projectIds);
  await q.del();
}

/** The project ids each set is applied to, by id. */
export async function projectIdsBySet(db: Db, kind: ProjectSetKind, setIds: string[]): Promise<Map<string, string[]>> {
  if (!setIds.length) return new Map();
  const { table, set } = TABLES[kind];
  const rows = (await db(table)
    .whereIn(set, setIds)
    .orderBy('project_id')
    .select(`${set} as set_id`, 'project_id')) as { set_id: string; project_id: string }[];
  return groupUnder(
    setIds,
    rows,
    (r) => r.set_id,
    (r) => r.project_id,
  );
}

/** The ids of the sets of a kind applied to the project of the workspace whose id is given (a query selecting them). */
export const setsOfWorkspaceProject = (db: Db, kind: ProjectSetKind, workspaceId: unknown) =>
  db(`${TABLES[kind].table} as sp`)
    .join('workspaces as spw', 'spw.project_id', 'sp.project_id')
    .where('spw.id', workspaceId as string)
    .select(`sp.${TABLES[kind].set}`);

/** The ids of the sets of a kind applied to a project (a query selecting them). */
export const setsOfProject = (db: Db, kind: ProjectSetKind, projectId: string) =>
  db(TABLES[kind].table).where({ project_id: projectId }).select(TABLES[kind].set);
