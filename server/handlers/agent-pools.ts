import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { Unprocessable } from '../../shared/platform/errors.js';
import type { AgentPoolRow } from '../../shared/agent-pools/repo.js';
import { agentPoolsPage, poolMembers } from '../../shared/agent-pools/queries.js';
import {
  changeAgentPool,
  createAgentPool,
  removeAgentPool,
  type AgentPoolInput,
} from '../../shared/agent-pools/index.js';
import { agentPoolScope, orgScope } from '../guards.js';
import { paginate, readPageOrDefault, readParam, send, sendResource } from '../jsonapi.js';
import { agentPoolResource } from '../serializers/agent-pools.js';
import { attributesOf, relationshipIds, type Req } from './body.js';

/** What a (validated) request sets on a pool; allowed projects and excluded workspaces are not built (422 when named). */
function inputOf(req: Req): AgentPoolInput {
  for (const rel of ['allowed-projects', 'excluded-workspaces']) {
    if (relationshipIds(req, rel)?.length)
      throw new Unprocessable(`${rel} are not supported here; use allowed-workspaces`, { relationship: rel });
  }
  const attrs = attributesOf(req) as { name?: string; 'organization-scoped'?: boolean };
  return {
    name: attrs.name,
    organization_scoped: attrs['organization-scoped'],
    allowedWorkspaceIds: relationshipIds(req, 'allowed-workspaces'),
  };
}

/** Agent pools of an organization: members list and read them, manage-agent-pools changes them. */
export function agentPoolHandlers(deps: AppDeps) {
  const { db } = deps;
  const documents = async (pools: AgentPoolRow[]) => {
    const members = await poolMembers(
      db,
      pools.map((p) => p.id),
    );
    return pools.map((p) => agentPoolResource(p, members.get(p.id)!));
  };
  const one = async (res: Response, status: number, pool: AgentPoolRow) =>
    sendResource(res, status, (await documents([pool]))[0]);

  return {
    /** GET /organizations/:org/agent-pools (`q`: names containing it; `filter[allowed_workspaces][name]`: pools that workspace may use). */
    async list(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org);
      const page = readPageOrDefault(req);
      const found = await agentPoolsPage(db, org.name, {
        query: readParam(req, 'q')?.trim() || null,
        allowedWorkspaceName: readParam(req, 'filter[allowed_workspaces][name]') || null,
        page,
      });
      send(res, 200, { data: await documents(found.rows), ...paginate(req, page, found.total) });
    },

    async create(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org, 'manage-agent-pools');
      const input = inputOf(req);
      await one(res, 201, await createAgentPool(deps, org.name, { ...input, name: input.name! }));
    },

    async show(req: Req, res: Response) {
      await one(res, 200, (await agentPoolScope(db, res.locals.principal, req.params.id)).pool);
    },

    async update(req: Req, res: Response) {
      const { pool } = await agentPoolScope(db, res.locals.principal, req.params.id, true);
      await one(res, 200, await changeAgentPool(deps, pool, inputOf(req)));
    },

    async destroy(req: Req, res: Response) {
      const { pool } = await agentPoolScope(db, res.locals.principal, req.params.id, true);
      await removeAgentPool(deps, pool);
      res.status(204).end();
    },
  };
}
