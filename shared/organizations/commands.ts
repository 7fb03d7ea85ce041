import type { Runtime } from '../runtime.js';
import { Forbidden, Unprocessable } from '../platform/errors.js';
import {
  findOrganization,
  insertOrganization,
  updateOrganization,
  type OrganizationRow,
  type OrganizationSettings,
} from './repo.js';
import { followDefaultExecution } from '../workspaces/index.js';
import { resolveExecution } from '../agent-pools/index.js';
import { addTeamMembers, insertTeam, insertMembership } from '../identity/index.js';
import { insertProject } from '../projects/index.js';
import { DEFAULT_PROJECT_NAME } from '../projects/rules.js';
import { mayCreateOrganizations } from '../identity/permissions.rules.js';
import type { UserRow } from '../identity/users.repo.js';

const nameTaken = () => new Unprocessable('name has already been taken', { attribute: 'name' });

/**
 * Creates an organization whose owners team holds its creator, with its default project; the name
 * must be free. It has no agent pool yet, so its default execution mode cannot be `agent`. With
 * ORGANIZATION_CREATION=site-admins only a site admin may (403 for anyone else, nothing written).
 */
export async function createOrganization(
  rt: Runtime,
  attrs: Pick<OrganizationRow, 'name' | 'email'> & OrganizationSettings,
  creator: Pick<UserRow, 'id' | 'is_admin'>,
): Promise<OrganizationRow> {
  if (!mayCreateOrganizations(rt.config.organizationCreation, creator))
    throw new Forbidden('Only site admins may create organizations on this site.');
  return rt.db.transaction(async (tx) => {
    if (await findOrganization(tx, attrs.name)) throw nameTaken();
    if (attrs.default_execution_mode)
      await resolveExecution(
        tx,
        attrs.name,
        { mode: 'remote', pool: null },
        { mode: attrs.default_execution_mode },
        { kind: 'organization' },
      );
    const created = await insertOrganization(tx, attrs);
    const owners = await insertTeam(tx, {
      organization_name: attrs.name,
      name: 'owners',
      is_owners: true,
      visibility: 'organization',
    });
    const membership = await insertMembership(tx, attrs.name, creator.id, 'active');
    await addTeamMembers(tx, owners.id, [membership.id]);
    await insertProject(tx, attrs.name, { name: DEFAULT_PROJECT_NAME }, true);
    return created;
  });
}

/**
 * Renames an organization or changes its settings; a new name must be free. The default agent pool
 * goes with the `agent` default execution mode (see executionAfter). Workspaces that follow the
 * default execution mode (no execution mode of their own) take a new default, and its pool, in the
 * same transaction.
 */
export async function changeOrganization(
  rt: Runtime,
  org: OrganizationRow,
  patch: Partial<Pick<OrganizationRow, 'name' | 'email'>> & OrganizationSettings,
): Promise<OrganizationRow> {
  return rt.db.transaction(async (tx) => {
    if (patch.name && patch.name !== org.name && (await findOrganization(tx, patch.name))) throw nameTaken();
    const changesExecution = patch.default_execution_mode !== undefined || patch.default_agent_pool_id !== undefined;
    const execution = changesExecution
      ? await resolveExecution(
          tx,
          org.name,
          { mode: org.default_execution_mode, pool: org.default_agent_pool_id },
          { mode: patch.default_execution_mode, pool: patch.default_agent_pool_id },
          { kind: 'organization' },
        )
      : null;
    const updated = await updateOrganization(tx, org.name, {
      ...patch,
      ...(execution ? { default_execution_mode: execution.mode, default_agent_pool_id: execution.pool } : {}),
    });
    if (execution) await followDefaultExecution(tx, updated.name, execution);
    return updated;
  });
}
