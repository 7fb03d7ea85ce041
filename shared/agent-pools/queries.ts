import type { Db } from '../platform/db.js';
import type { AgentPoolRow } from './repo.js';
import { containing, fetchPage, groupUnder, type Page } from '../platform/page.js';

/** What a list of an organization's pools is narrowed to: a name containing `query`, pools a named workspace may use, one page. */
export interface PoolListing {
  query: string | null;
  allowedWorkspaceName: string | null;
  page: Page;
}

/** One page of an organization's agent pools, by name, and their total. */
export function agentPoolsPage(
  db: Db,
  organizationName: string,
  listing: PoolListing,
): Promise<{ rows: AgentPoolRow[]; total: number }> {
  const q = db('agent_pools as p').where('p.organization_name', organizationName);
  if (listing.query) q.where('p.name', 'ilike', containing(listing.query));
  if (listing.allowedWorkspaceName) {
    const named = db('workspaces')
      .where({ organization_name: organizationName, name: listing.allowedWorkspaceName })
      .select('id');
    q.where((w) =>
      w
        .where('p.organization_scoped', true)
        .orWhereExists(
          db('agent_pool_allowed_workspaces as a')
            .whereRaw('a.agent_pool_id = p.id')
            .whereIn('a.workspace_id', named)
            .select(db.raw('1')),
        ),
    );
  }
  return fetchPage<AgentPoolRow>(q.select('p.*').orderBy([{ column: 'p.name' }, { column: 'p.id' }]), listing.page);
}

/** For each pool: the workspaces that run in it and those it allows, by id. */
export async function poolMembers(
  db: Db,
  poolIds: string[],
): Promise<Map<string, { workspaceIds: string[]; allowedWorkspaceIds: string[] }>> {
  if (!poolIds.length) return new Map();
  const [using, allowed] = await Promise.all([
    db('workspaces').whereIn('agent_pool_id', poolIds).orderBy('id').select('agent_pool_id', 'id') as Promise<
      { agent_pool_id: string; id: string }[]
    >,
    db('agent_pool_allowed_workspaces')
      .whereIn('agent_pool_id', poolIds)
      .orderBy('workspace_id')
      .select('agent_pool_id', 'workspace_id') as Promise<{ agent_pool_id: string; workspace_id: string }[]>,
  ]);
  const workspaces = groupUnder(
    poolIds,
    using,
    (r) => r.agent_pool_id,
    (r) => r.id,
  );
  const allows = groupUnder(
    poolIds,
    allowed,
    (r) => r.agent_pool_id,
    (r) => r.workspace_id,
  );
  return new Map(
    poolIds.map((id) => [id, { workspaceIds: workspaces.get(id)!, allowedWorkspaceIds: allows.get(id)! }]),
  );
}
