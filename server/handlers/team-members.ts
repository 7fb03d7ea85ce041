import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import type { Tx } from '../../shared/db.js';
import { NotFound, Unprocessable } from '../../shared/errors.js';
import { addTeamMembers, removeTeamMembers, type TeamRow } from '../../shared/repos/teams.js';
import { membershipsByUsername } from '../../shared/repos/memberships.js';
import { teamScope } from '../guards.js';
import { linkageIds, type Req } from './body.js';
import { assertOwnersKeepAMember } from './memberships.js';

/*
 * Team membership (four endpoints). Every element is checked before anything changes, and all
 * changes happen in one transaction, so a bad element fails the whole request with nothing applied.
 */

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
      throw new Unprocessable(`user "${username}" has not accepted the invitation to ${team.organization_name}`, `/data/${i}/id`);
    }
  }
  return usernames.map((u) => (byName.get(u) ?? rows.find((r) => r.user_id === u))!.id);
}

/** Checks membership ids belong to the team's organization (an invitation is enough). */
async function membershipsById(tx: Tx, team: TeamRow, ids: string[]): Promise<string[]> {
  const found = (await tx('organization_memberships').where({ organization_name: team.organization_name }).whereIn('id', ids).pluck('id')) as string[];
  const missing = ids.find((id) => !found.includes(id));
  if (missing) throw new NotFound(`organization membership "${missing}" not found in organization ${team.organization_name}`);
  return ids;
}

async function assertAllMembers(tx: Tx, team: TeamRow, membershipIds: string[], labels: string[]): Promise<void> {
  const present = (await tx('team_members').where({ team_id: team.id }).whereIn('organization_membership_id', membershipIds).pluck('organization_membership_id')) as string[];
  const i = membershipIds.findIndex((id) => !present.includes(id));
  if (i >= 0) throw new Unprocessable(`"${labels[i]}" is not a member of team ${team.name}`, `/data/${i}/id`);
}

export function teamMemberHandlers({ db }: AppDeps) {
  const change = (resolve: (tx: Tx, team: TeamRow, ids: string[]) => Promise<string[]>, op: 'add' | 'remove') =>
    async (req: Req, res: Response) => {
      const { team, grant } = await teamScope(db, res.locals.principal, req.params.id, 'manage-membership');
      // Joining the owners team grants everything, so only owners may change who is in it.
      if (team.is_owners && !grant.isOwner) throw new NotFound();
      const ids = linkageIds(req);
      await db.transaction(async (tx) => {
        // Serialise changes to one team so the owners-not-empty check cannot race.
        await tx('teams').where({ id: team.id }).forUpdate().first('id');
        const membershipIds = await resolve(tx, team, ids);
        if (op === 'add') return addTeamMembers(tx, team.id, membershipIds);
        await assertAllMembers(tx, team, membershipIds, ids);
        if (team.is_owners) await assertOwnersKeepAMember(tx, team.organization_name, membershipIds);
        await removeTeamMembers(tx, team.id, membershipIds);
      });
      res.status(204).end();
    };
  return {
    addUsers: change(membershipsForUsernames, 'add'),
    removeUsers: change(membershipsForUsernames, 'remove'),
    addMemberships: change(membershipsById, 'add'),
    removeMemberships: change(membershipsById, 'remove'),
  };
}
