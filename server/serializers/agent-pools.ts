import { iso, many, one, type Resource } from '../jsonapi.js';
import type { AgentPoolRow } from '../../shared/agent-pools/repo.js';

/** An agent pool; no agent connects here, so it counts none. */
export function agentPoolResource(
  p: AgentPoolRow,
  members: { workspaceIds: string[]; allowedWorkspaceIds: string[] },
): Resource {
  return {
    type: 'agent-pools',
    id: p.id,
    attributes: {
      name: p.name,
      'organization-scoped': p.organization_scoped,
      'agent-count': 0,
      'created-at': iso(p.created_at),
    },
    relationships: {
      organization: one('organizations', p.organization_name),
      workspaces: many('workspaces', members.workspaceIds),
      'allowed-workspaces': many('workspaces', members.allowedWorkspaceIds),
      'allowed-projects': many('projects', []),
      'excluded-workspaces': many('workspaces', []),
    },
    links: { self: `/api/v2/agent-pools/${p.id}` },
  };
}
