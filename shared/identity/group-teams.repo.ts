import type { Db } from '../platform/db.js';

/** A team a provider's group names, in an organization whose teams follow the provider. */
export interface GroupTeam {
  id: string;
  name: string;
  organization_name: string;
  is_owners: boolean;
}

/**
 * The teams of these organizations that these groups name: a team whose SSO team id is set
 * follows that group only; one without follows the group of its own name.
 */
export function teamsNamedByGroups(db: Db, organizations: readonly string[], groups: readonly string[]) {
  return db<GroupTeam>('teams')
    .whereIn('organization_name', organizations)
    .where((q) =>
      q
        .where((a) => a.whereNotNull('sso_team_id').whereIn('sso_team_id', groups))
        .orWhere((b) => b.whereNull('sso_team_id').whereIn('name', groups)),
    )
    .select('id', 'name', 'organization_name', 'is_owners');
}

/** The team memberships groups gave the user in these organizations (those a sign-in may take away). */
export function groupMembershipsOf(db: Db, userId: string, organizations: readonly string[]) {
  return db('team_members as tm')
    .join('organization_memberships as om', 'om.id', 'tm.organization_membership_id')
    .join('teams as t', 't.id', 'tm.team_id')
    .where({ 'om.user_id': userId, 'tm.source': 'sso' })
    .whereIn('om.organization_name', organizations)
    .select<(GroupTeam & { membership_id: string })[]>(
      't.id',
      't.name',
      't.organization_name',
      't.is_owners',
      'om.id as membership_id',
    );
}

/** Adds a member to a team because a group says so; a membership they already have stays as it was. */
export async function addGroupMember(db: Db, teamId: string, membershipId: string): Promise<boolean> {
  const rows = await db('team_members')
    .insert({ team_id: teamId, organization_membership_id: membershipId, source: 'sso' })
    .onConflict(['team_id', 'organization_membership_id'])
    .ignore()
    .returning('team_id');
  return rows.length > 0;
}

export async function removeGroupMember(db: Db, teamId: string, membershipId: string): Promise<void> {
  await db('team_members').where({ team_id: teamId, organization_membership_id: membershipId, source: 'sso' }).del();
}
