import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';

export interface AgentPoolRow {
  id: string;
  organization_name: string;
  name: string;
  /** Whether every workspace of the organization may use it (otherwise only those it allows). */
  organization_scoped: boolean;
  created_at: Date;
}

/** The index that keeps pool names unique in an organization. */
export const POOL_NAME_UNIQUE = 'agent_pools_organization_name_name_unique';

export const findAgentPool = (db: Db, id: string) => db<AgentPoolRow>('agent_pools').where({ id }).first();

export async function insertAgentPool(
  db: Db,
  organizationName: string,
  attrs: { name: string; organization_scoped?: boolean },
): Promise<AgentPoolRow> {
  const [row] = await db<AgentPoolRow>('agent_pools')
    .insert({
      id: newId('apool'),
      organization_name: organizationName,
      name: attrs.name,
      organization_scoped: attrs.organization_scoped ?? true,
    })
    .returning('*');
  return row;
}

/** Changes the given attributes of a pool (none given: reads it); undefined when it is gone. */
export async function updateAgentPool(
  db: Db,
  id: string,
  attrs: { name?: string; organization_scoped?: boolean },
): Promise<AgentPoolRow | undefined> {
  const changes = Object.fromEntries(Object.entries(attrs).filter(([, v]) => v !== undefined));
  if (!Object.keys(changes).length) return findAgentPool(db, id);
  const [row] = await db<AgentPoolRow>('agent_pools').where({ id }).update(changes).returning('*');
  return row;
}

export const deleteAgentPool = (db: Db, id: string) => db('agent_pools').where({ id }).del();

/** Replaces the workspaces a pool allows. */
export async function replaceAllowedWorkspaces(db: Db, poolId: string, workspaceIds: string[]): Promise<void> {
  await db('agent_pool_allowed_workspaces').where({ agent_pool_id: poolId }).del();
  if (workspaceIds.length)
    await db('agent_pool_allowed_workspaces').insert(
      workspaceIds.map((workspace_id) => ({ agent_pool_id: poolId, workspace_id })),
    );
}

/** Whether a pool allows a workspace by name (for pools that are not organization-scoped). */
export const allowsWorkspace = async (db: Db, poolId: string, workspaceId: string): Promise<boolean> =>
  (await db('agent_pool_allowed_workspaces')
    .where({ agent_pool_id: poolId, workspace_id: workspaceId })
    .first('workspace_id')) !== undefined;

/** The ids of the workspaces that run in a pool. */
export const workspaceIdsInPool = async (db: Db, poolId: string): Promise<string[]> =>
  (await db('workspaces').where({ agent_pool_id: poolId }).orderBy('id').pluck('id')) as string[];

/** Who uses a pool: the workspaces that run in it, and whether it is its organization's default. */
export async function poolUse(db: Db, poolId: string): Promise<{ workspaceIds: string[]; isDefault: boolean }> {
  const isDefault = (await db('organizations').where({ default_agent_pool_id: poolId }).first('name')) !== undefined;
  return { workspaceIds: await workspaceIdsInPool(db, poolId), isDefault };
}

/** Which of these workspace ids name workspaces of the pool's organization (a pool may allow only those). */
export const organizationWorkspaceIds = async (db: Db, organizationName: string, ids: string[]): Promise<string[]> =>
  (await db('workspaces').where({ organization_name: organizationName }).whereIn('id', ids).pluck('id')) as string[];
