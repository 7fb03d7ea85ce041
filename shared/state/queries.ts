import type { Db } from '../platform/db.js';
import type { StateOutputRow, StateVersionRow } from './repo.js';

/** Response queries of the state version endpoints. */

export interface PageRequest {
  number: number;
  size: number;
}

/** A page of a workspace's state versions, newest (highest serial, then latest) first, and how many there are. */
export async function stateVersionsPage(
  db: Db,
  workspaceId: string,
  page: PageRequest,
): Promise<{ rows: StateVersionRow[]; total: number }> {
  const base = db<StateVersionRow>('state_versions')
    .where({ workspace_id: workspaceId })
    .whereNot({ status: 'discarded' });
  const [{ count }] = (await base.clone().count({ count: '*' })) as { count: string | number }[];
  const rows = await base
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.size)
    .offset((page.number - 1) * page.size);
  return { rows, total: Number(count) };
}

/** The outputs of several state versions, by version id, in name order. */
export async function outputsByVersion(db: Db, stateVersionIds: string[]): Promise<Map<string, StateOutputRow[]>> {
  const out = new Map<string, StateOutputRow[]>(stateVersionIds.map((id) => [id, []]));
  if (!stateVersionIds.length) return out;
  const rows = await db<StateOutputRow>('state_version_outputs')
    .whereIn('state_version_id', stateVersionIds)
    .orderBy(['state_version_id', 'name']);
  for (const o of rows) out.get(o.state_version_id)?.push(o);
  return out;
}

/** The workspace's current state version id, when it has one. */
export const currentStateVersionId = async (db: Db, workspaceId: string): Promise<string | null> =>
  (
    (await db('workspaces').where({ id: workspaceId }).first('current_state_version_id')) as
      { current_state_version_id: string | null } | undefined
  )?.current_state_version_id ?? null;

/** State versions by id (in no particular order). */
export const stateVersionsByIds = (db: Db, ids: string[]): Promise<StateVersionRow[]> =>
  db<StateVersionRow>('state_versions').whereIn('id', ids);
