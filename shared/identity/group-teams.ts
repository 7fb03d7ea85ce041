import type { Runtime } from '../runtime.js';
import { activateMembership, findMembershipOf, insertMembership } from './memberships.repo.js';
import { hasOtherActiveMember, lockTeam } from './teams.repo.js';
import {
  addGroupMember,
  groupMembershipsOf,
  removeGroupMember,
  teamsNamedByGroups,
  type GroupTeam,
} from './group-teams.repo.js';

/** What a sign-in changed of a user's teams: the teams joined, those left, those kept for the owners' sake. */
export interface TeamChanges {
  joined: GroupTeam[];
  left: GroupTeam[];
  keptLastOwner: GroupTeam[];
}

/**
 * Makes the user's teams in `organizations` those their provider's `groups` name: a team a group
 * names is joined (with the organization, when the user is not in it yet); a team a group gave
 * before and no group names now is left. Memberships given by hand are never touched, and the
 * owners team never loses its last active member this way.
 */
export async function syncTeamsWithGroups(
  rt: Pick<Runtime, 'db'>,
  userId: string,
  organizations: readonly string[],
  groups: readonly string[],
): Promise<TeamChanges> {
  const changes: TeamChanges = { joined: [], left: [], keptLastOwner: [] };
  if (!organizations.length) return changes;
  return rt.db.transaction(async (tx) => {
    const named = groups.length ? await teamsNamedByGroups(tx, organizations, groups) : [];
    const given = await groupMembershipsOf(tx, userId, organizations);
    for (const team of named) {
      await lockTeam(tx, team.id);
      const existing = await findMembershipOf(tx, team.organization_name, userId);
      const membership = existing ?? (await insertMembership(tx, team.organization_name, userId, 'active'));
      if (membership.status === 'invited') await activateMembership(tx, membership.id);
      if (await addGroupMember(tx, team.id, membership.id)) changes.joined.push(team);
    }
    for (const team of given.filter((g) => !named.some((n) => n.id === g.id))) {
      await lockTeam(tx, team.id);
      if (team.is_owners && !(await hasOtherActiveMember(tx, team.id, [team.membership_id]))) {
        changes.keptLastOwner.push(team);
        continue;
      }
      await removeGroupMember(tx, team.id, team.membership_id);
      changes.left.push(team);
    }
    return changes;
  });
}
