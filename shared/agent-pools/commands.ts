import type { Runtime } from '../runtime.js';
import { isUniqueViolation, type Db } from '../platform/db.js';
import { type Field, NotFound, Unprocessable } from '../platform/errors.js';
import { executionAfter, isProblem, poolServes, type Execution, type ExecutionRequest } from './rules.js';
import {
  allowsWorkspace,
  deleteAgentPool,
  findAgentPool,
  insertAgentPool,
  organizationWorkspaceIds,
  POOL_NAME_UNIQUE,
  poolUse,
  replaceAllowedWorkspaces,
  updateAgentPool,
  workspaceIdsInPool,
  type AgentPoolRow,
} from './repo.js';

/*
 * Agent pools: named groups of workspaces in `agent` execution mode. No agent connects here; the
 * run-pipeline workers run these workspaces' runs as they run remote ones (docs/decisions.md).
 */

/** What a request sets on a pool; `allowedWorkspaceIds` replaces the workspaces it allows. */
export interface AgentPoolInput {
  name?: string;
  organization_scoped?: boolean;
  allowedWorkspaceIds?: string[];
}

const nameTaken = () => new Unprocessable('Name has already been taken', { attribute: 'name' });

/** The allowed workspaces a request names, all of the pool's organization (422 naming the first that is not). */
async function allowedOf(db: Db, organizationName: string, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const found = await organizationWorkspaceIds(db, organizationName, unique);
  const missing = unique.find((id) => !found.includes(id));
  if (missing)
    throw new Unprocessable(`workspace ${missing} not found in the organization`, {
      relationship: 'allowed-workspaces',
    });
  return unique;
}

/** Creates a pool in an organization; its name must be free there. */
export async function createAgentPool(
  rt: Runtime,
  organizationName: string,
  input: AgentPoolInput & { name: string },
): Promise<AgentPoolRow> {
  return rt.db
    .transaction(async (tx) => {
      const pool = await insertAgentPool(tx, organizationName, input);
      if (input.allowedWorkspaceIds)
        await replaceAllowedWorkspaces(tx, pool.id, await allowedOf(tx, organizationName, input.allowedWorkspaceIds));
      return pool;
    })
    .catch((err: unknown) => {
      throw isUniqueViolation(err, POOL_NAME_UNIQUE) ? nameTaken() : err;
    });
}

/** Changes a pool; a workspace that runs in it must stay served by it (422 otherwise). */
export async function changeAgentPool(rt: Runtime, pool: AgentPoolRow, input: AgentPoolInput): Promise<AgentPoolRow> {
  return rt.db
    .transaction(async (tx) => {
      const changed =
        (await updateAgentPool(tx, pool.id, { name: input.name, organization_scoped: input.organization_scoped })) ??
        pool;
      if (input.allowedWorkspaceIds)
        await replaceAllowedWorkspaces(
          tx,
          pool.id,
          await allowedOf(tx, pool.organization_name, input.allowedWorkspaceIds),
        );
      if (!changed.organization_scoped) {
        for (const id of await workspaceIdsInPool(tx, pool.id)) {
          if (!(await allowsWorkspace(tx, pool.id, id)))
            throw new Unprocessable(`workspace ${id} runs in this agent pool and would no longer be allowed to`, {
              relationship: 'allowed-workspaces',
            });
        }
      }
      return changed;
    })
    .catch((err: unknown) => {
      throw isUniqueViolation(err, POOL_NAME_UNIQUE) ? nameTaken() : err;
    });
}

/** Deletes a pool no workspace runs in and that is not its organization's default (422 otherwise). */
export async function removeAgentPool(rt: Runtime, pool: AgentPoolRow): Promise<void> {
  await rt.db.transaction(async (tx) => {
    const use = await poolUse(tx, pool.id);
    if (use.isDefault)
      throw new Unprocessable(
        "the agent pool is the organization's default agent pool; change the organization's default first",
      );
    if (use.workspaceIds.length)
      throw new Unprocessable(
        `the agent pool is used by workspaces (${use.workspaceIds.join(', ')}); move them to another pool or execution mode first`,
      );
    if (!(await deleteAgentPool(tx, pool.id))) throw new NotFound();
  });
}

/**
 * The mode and pool an organization's default or a workspace ends with (see executionAfter), with
 * a named pool checked: one of the organization's (422 otherwise) that serves the workspace
 * (`workspaceId`; a new workspace is served by organization-scoped pools only).
 */
export async function resolveExecution(
  db: Db,
  organizationName: string,
  before: Execution,
  request: ExecutionRequest,
  target: { kind: 'organization' } | { kind: 'workspace'; workspaceId: string | null },
): Promise<Execution> {
  const field: Field =
    target.kind === 'organization' ? { relationship: 'default-agent-pool' } : { attribute: 'agent-pool-id' };
  const after = executionAfter(
    before,
    request,
    target.kind === 'organization' ? 'Default agent pool' : 'Agent pool',
    field,
  );
  if (isProblem(after)) throw new Unprocessable(after.problem, after.field);
  if (!after.pool || after.pool === before.pool) return after;
  const pool = await findAgentPool(db, after.pool);
  if (!pool || pool.organization_name !== organizationName)
    throw new Unprocessable(`agent pool ${after.pool} not found in the organization`, field);
  const allowed =
    target.kind === 'workspace' &&
    target.workspaceId !== null &&
    (await allowsWorkspace(db, pool.id, target.workspaceId));
  if (target.kind === 'workspace' && !poolServes(pool, allowed))
    throw new Unprocessable(`agent pool ${pool.name} is not available to this workspace`, field);
  return after;
}
