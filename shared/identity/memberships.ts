import type { Runtime } from '../runtime.js';
import type { Db, Tx } from '../platform/db.js';
import { IllegalTransition, NotFound, Unprocessable } from '../platform/errors.js';
import type { OrganizationGrant } from './access.queries.js';
import { membershipMachine } from './memberships.machine.js';
import { freeUsernameFor, findUserByEmail, insertUser, lockUserCreation } from './users.repo.js';
import {
  activateMembership,
  deleteMembership,
  findMembershipOf,
  insertMembership,
  membershipIdsAmong,
  membershipsByUsername,
  type MembershipRow,
} from './memberships.repo.js';
import {
  addTeamMembers,
  hasOtherActiveMember,
  isInOwnersTeam,
  lockTeam,
  ownersTeamOf,
  removeTeamMembers,
  teamMembershipIdsAmong,
  teamsAmong,
  type TeamRow,
} from './teams.repo.js';
import { queueInvitationMail } from './invitations.js';
import { enqueueAfterCommit, jobs } from '../platform/queues.js';

/** Removing these memberships must not leave the organization's owners team without an active member. */
export async function assertOwnersKeepAMember(
  db: Db,
  organizationName: string,
  leavingMembershipIds: string[],
): Promise<void> {
  const owners = await ownersTeamOf(db, organizationName);
  if (!owners) return;
  if (!(await hasOtherActiveMember(db, owners.id, leavingMembershipIds)))
    throw new Unprocessable('the owners team must keep at least one active member');
}

/**
 * Invites an email into an organization (creating the user when unknown) and into the given teams
 * of it, and sends the invitation mail once committed. Only owners may invite into the owners team.
 */
export async function inviteMember(
  rt: Runtime,
  organizationName: string,
  grant: OrganizationGrant,
  email: string,
  teamIds: string[],
): Promise<MembershipRow> {
  const { membership, mailId } = await rt.db.transaction(async (tx) => {
    await lockUserCreation(tx);
    const known = await findUserByEmail(tx, email);
    const user = known ?? (await insertUser(tx, { username: await freeUsernameFor(tx, email), email }));
    if (await findMembershipOf(tx, organizationName, user.id))
      throw new Unprocessable(`${email} is already a member of ${organizationName}`, { attribute: 'email' });
    const teams: TeamRow[] = teamIds.length ? await teamsAmong(tx, organizationName, teamIds) : [];
    // Only owners may put someone into the owners team (it holds every permission).
    const unknown = teamIds.filter((id) => !teams.some((t) => t.id === id && (!t.is_owners || grant.isOwner)));
    if (unknown.length)
      throw new Unprocessable(`team ${unknown[0]} not found in ${organizationName}`, { relationship: 'teams' });
    const membership = await insertMembership(tx, organizationName, user.id, 'invited');
    for (const teamId of new Set(teamIds)) await addTeamMembers(tx, teamId, [membership.id]);
    const mail = await queueInvitationMail(tx, rt.config, {
      membershipId: membership.id,
      userId: user.id,
      organizationName,
      email,
    });
    return { membership, mailId: mail.id };
  });
  await enqueueAfterCommit(rt.queues, jobs.mailDelivery(mailId), rt.logger);
  return membership;
}

/** Removes a membership; one in the owners team only by an owner (404 otherwise), and never the owners team's last active member. */
export async function removeMembership(rt: Runtime, row: MembershipRow, grant: OrganizationGrant): Promise<void> {
  await rt.db.transaction(async (tx) => {
    if ((await isInOwnersTeam(tx, row.id)) && !grant.isOwner) throw new NotFound();
    // Lock the owners team, as team member changes do, so concurrent removals cannot both pass the check.
    await ownersTeamOf(tx, row.organization_name, true);
    await assertOwnersKeepAMember(tx, row.organization_name, [row.id]);
    await deleteMembership(tx, row.id);
  });
}

/** The invited user accepts; from then on the user counts in every team the membership joined. */
export async function acceptInvitation(rt: Runtime, row: MembershipRow): Promise<MembershipRow> {
  membershipMachine.transition(row.status, 'accept');
  const updated = await activateMembership(rt.db, row.id);
  if (!updated) throw new IllegalTransition(membershipMachine.name, 'active', 'accept');
  return updated;
}

/** How a team member change names memberships: by username (or user id), or by membership id. */
export type MemberNames = 'usernames' | 'memberships';

/**
 * Resolves usernames (or user ids) to memberships; users must be active members of the team's
 * organization. A pending invitee named by username counts as not found, as anyone outside: the
 * inviter knows the invitee's email and id, not the username, and must not be able to confirm a guess.
 */
async function membershipsForUsernames(tx: Tx, team: TeamRow, usernames: string[]): Promise<string[]> {
  const rows = await membershipsByUsername(tx, team.organization_name, usernames);
  const byName = new Map(rows.filter((r) => r.status === 'active').map((r) => [r.username, r]));
  for (const [i, username] of usernames.entries()) {
    const row = byName.get(username) ?? rows.find((r) => r.user_id === username);
    if (!row) throw new NotFound(`user "${username}" not found in organization ${team.organization_name}`);
    if (row.status !== 'active') {
      throw new Unprocessable(`user "${username}" has not accepted the invitation to ${team.organization_name}`, {
        primary: true,
        element: i,
        id: true,
      });
    }
  }
  return usernames.map((u) => (byName.get(u) ?? rows.find((r) => r.user_id === u))!.id);
}

/** Checks membership ids belong to the team's organization (an invitation is enough). */
async function membershipsById(tx: Tx, team: TeamRow, ids: string[]): Promise<string[]> {
  const found = await membershipIdsAmong(tx, team.organization_name, ids);
  const missing = ids.find((id) => !found.includes(id));
  if (missing)
    throw new NotFound(`organization membership "${missing}" not found in organization ${team.organization_name}`);
  return ids;
}

/** Every membership must be in the team (the error names the element as the request did). */
async function assertAllMembers(tx: Tx, team: TeamRow, membershipIds: string[], labels: string[]): Promise<void> {
  const present = await teamMembershipIdsAmong(tx, team.id, membershipIds);
  const i = membershipIds.findIndex((id) => !present.includes(id));
  if (i >= 0)
    throw new Unprocessable(`"${labels[i]}" is not a member of team ${team.name}`, {
      primary: true,
      element: i,
      id: true,
    });
}

/**
 * Adds or removes team members. Every element is checked before anything changes, and all
 * changes happen in one transaction, so a bad element fails the whole change with nothing applied.
 */
export async function changeTeamMembers(
  rt: Runtime,
  team: TeamRow,
  names: MemberNames,
  ids: string[],
  op: 'add' | 'remove',
): Promise<void> {
  const resolve = names === 'usernames' ? membershipsForUsernames : membershipsById;
  await rt.db.transaction(async (tx) => {
    // Serialise changes to one team so the owners-not-empty check cannot race.
    await lockTeam(tx, team.id);
    const membershipIds = await resolve(tx, team, ids);
    if (op === 'add') return addTeamMembers(tx, team.id, membershipIds);
    await assertAllMembers(tx, team, membershipIds, ids);
    if (team.is_owners) await assertOwnersKeepAMember(tx, team.organization_name, membershipIds);
    await removeTeamMembers(tx, team.id, membershipIds);
  });
}
