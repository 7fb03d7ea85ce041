import type { Runtime } from '../runtime.js';
import { Unprocessable } from '../platform/errors.js';
import { normalizeAccess, type OrganizationAccess } from './access.queries.js';
import { findTeamByName, insertTeam, updateTeam, type TeamRow } from './teams.repo.js';

/** The columns a client sets on a team (organization access apart). */
export type TeamColumns = Partial<
  Pick<TeamRow, 'name' | 'visibility' | 'sso_team_id' | 'allow_member_token_management'>
>;

const nameTaken = () => new Unprocessable('name has already been taken', { attribute: 'name' });

/** Creates a team; its name must be free in the organization. */
export async function createTeam(
  rt: Runtime,
  organizationName: string,
  name: string,
  columns: TeamColumns,
  access: Partial<OrganizationAccess> | undefined,
): Promise<TeamRow> {
  return rt.db.transaction(async (tx) => {
    if (await findTeamByName(tx, organizationName, name)) throw nameTaken();
    return insertTeam(tx, {
      organization_name: organizationName,
      name,
      ...columns,
      organization_access: normalizeAccess(access),
    });
  });
}

/**
 * Changes a team: a new name must be free; the owners team keeps its name and every permission.
 * Given organization access is merged into the team's.
 */
export async function changeTeam(
  rt: Runtime,
  team: TeamRow,
  columns: TeamColumns,
  access: Partial<OrganizationAccess> | undefined,
): Promise<TeamRow> {
  if (team.is_owners && columns.name !== undefined && columns.name !== team.name) {
    throw new Unprocessable('the owners team cannot be renamed', { attribute: 'name' });
  }
  if (team.is_owners && access) {
    throw new Unprocessable('the owners team always has every organization permission', {
      attribute: 'organization-access',
    });
  }
  return rt.db.transaction(async (tx) => {
    if (columns.name && columns.name !== team.name && (await findTeamByName(tx, team.organization_name, columns.name)))
      throw nameTaken();
    return updateTeam(tx, team.id, {
      ...columns,
      ...(access ? { organization_access: normalizeAccess({ ...team.organization_access, ...access }) } : {}),
    });
  });
}
