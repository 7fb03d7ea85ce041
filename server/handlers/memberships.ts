import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { IllegalTransition, NotFound, Unprocessable } from '../../shared/errors.js';
import { organizationGrant, type OrganizationGrant } from '../../shared/access.js';
import { membershipMachine } from '../../shared/domain/membership.js';
import { freeUsernameFor, findUserByEmail, insertUser, lockUserCreation } from '../../shared/repos/users.js';
import { activateMembership, findMembership, findMembershipOf, insertMembership, membershipsOf, type MembershipRow } from '../../shared/repos/memberships.js';
import { addTeamMembers, type TeamRow } from '../../shared/repos/teams.js';
import { queueInvitationMail } from '../../shared/invitations.js';
import { enqueueAfterCommit, jobs } from '../../shared/queues.js';
import { canSeeTeam, orgScope } from '../guards.js';
import { fetchPage, paginate, readInclude, readPageOrDefault, readParam, send, sendResource, uniqueResources, type Resource } from '../jsonapi.js';
import { attributesOf, type Req } from './body.js';
import { presentTeams } from './teams.js';
import { invitedUserResource, membershipResource, userResource } from '../serializers/foundation.js';
import type { Db } from '../../shared/db.js';
import { enforceLimit } from '../rate-limit.js';

/**
 * Serializes memberships with the ids of the teams the caller may see (all of them for the invitee's own view,
 * where `grant` is null) and, when asked, the users and those teams. The user of an invitation not
 * accepted yet is included without anything identifying, except for that user itself (`viewerId`).
 */
async function present(
  db: Db,
  rows: MembershipRow[],
  include: Set<string>,
  grant: OrganizationGrant | null,
  viewerId: string | null,
): Promise<{ data: Resource[]; included: Resource[] }> {
  const ids = rows.map((r) => r.id);
  const teamRows = ids.length ? await db('team_members').whereIn('organization_membership_id', ids).select('organization_membership_id', 'team_id') : [];
  const teamIds = [...new Set(teamRows.map((t) => t.team_id as string))];
  const teams: TeamRow[] = teamIds.length ? await db('teams').whereIn('id', teamIds) : [];
  const visible = new Map(teams.filter((t) => !grant || canSeeTeam(grant, t)).map((t) => [t.id, t]));
  const users = ids.length ? await db('users').whereIn('id', rows.map((r) => r.user_id)) : [];
  const userById = new Map(users.map((u) => [u.id as string, u]));
  const data = rows.map((r) =>
    membershipResource(
      r,
      userById.get(r.user_id)?.email ?? null,
      teamRows.filter((t) => t.organization_membership_id === r.id && visible.has(t.team_id)).map((t) => t.team_id as string),
    ),
  );
  const includedTeams = include.has('teams') && visible.size ? (await presentTeams(db, [...visible.values()], grant, new Set())).data : [];
  const accepted = new Set(rows.filter((r) => r.status === 'active').map((r) => r.user_id));
  const includedUsers = include.has('user') ? users.map((u) => (accepted.has(u.id) || u.id === viewerId ? userResource(u) : invitedUserResource(u.id))) : [];
  const included = [...includedUsers, ...includedTeams];
  return { data, included: uniqueResources(included) };
}

/** The calling user's id, when a user token calls. */
const viewerOf = (res: Response): string | null => (res.locals.principal.kind === 'user' ? res.locals.principal.user.id : null);

/** Removing this membership must not leave the organization's owners team empty. */
export async function assertOwnersKeepAMember(db: Db, organizationName: string, leavingMembershipIds: string[]): Promise<void> {
  const owners = await db('teams').where({ organization_name: organizationName, is_owners: true }).first('id');
  if (!owners) return;
  const remaining = await db('team_members as tm')
    .join('organization_memberships as m', 'm.id', 'tm.organization_membership_id')
    .where({ 'tm.team_id': owners.id, 'm.status': 'active' })
    .whereNotIn('tm.organization_membership_id', leavingMembershipIds)
    .first('tm.organization_membership_id');
  if (!remaining) throw new Unprocessable('the owners team must keep at least one active member');
}

export function membershipHandlers({ db, config, queues, logger, rateLimits }: AppDeps) {
  return {
    async invite(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org, 'manage-membership');
      // The organization's own budget, taken only once the caller may invite into it (nobody else can spend it).
      await enforceLimit(rateLimits, res, 'organization-invitations', org.name);
      const { email } = attributesOf(req) as { email: string };
      const teamIds = ((req.body.data.relationships?.teams?.data ?? []) as { id: string }[]).map((t) => t.id);
      const { membership, mailId } = await db.transaction(async (tx) => {
        await lockUserCreation(tx);
        const known = await findUserByEmail(tx, email);
        const user = known ?? (await insertUser(tx, { username: await freeUsernameFor(tx, email), email }));
        if (await findMembershipOf(tx, org.name, user.id)) throw new Unprocessable(`${email} is already a member of ${org.name}`, '/data/attributes/email');
        const teams: TeamRow[] = teamIds.length ? await tx('teams').where({ organization_name: org.name }).whereIn('id', teamIds) : [];
        // Only owners may put someone into the owners team (it holds every permission).
        const unknown = teamIds.filter((id) => !teams.some((t) => t.id === id && (!t.is_owners || grant.isOwner)));
        if (unknown.length) throw new Unprocessable(`team ${unknown[0]} not found in ${org.name}`, '/data/relationships/teams');
        const membership = await insertMembership(tx, org.name, user.id, 'invited');
        for (const teamId of new Set(teamIds)) await addTeamMembers(tx, teamId, [membership.id]);
        const mail = await queueInvitationMail(tx, config, { membershipId: membership.id, organizationName: org.name, email });
        return { membership, mailId: mail.id };
      });
      await enqueueAfterCommit(queues, jobs.mailDelivery(mailId), logger);
      // Nothing about the invited user beyond the email the inviter typed and the id the membership
      // names: no username, no site-admin flag (until the invitation is accepted).
      const body = await present(db, [membership], new Set(), null, null);
      sendResource(res, 201, body.data[0]);
    },

    async list(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      const include = readInclude(req, ['user', 'teams']);
      const page = readPageOrDefault(req);
      const query = membershipsOf(db, org.name);
      const status = readParam(req, 'filter[status]');
      if (status) query.whereIn('status', status.split(','));
      const email = readParam(req, 'filter[email]');
      if (email) query.whereIn('user_id', db('users').whereRaw('lower(email) = any(?)', [email.toLowerCase().split(',')]).select('id'));
      const { rows, total: count } = await fetchPage<MembershipRow>(query.orderBy('created_at'), page);
      const body = await present(db, rows, include, grant, viewerOf(res));
      send(res, 200, { data: body.data, ...(body.included.length ? { included: body.included } : {}), ...paginate(req, page, Number(count)) });
    },

    async show(req: Req, res: Response) {
      const principal = res.locals.principal;
      const row = await findMembership(db, req.params.id);
      const own = row && principal.kind === 'user' && principal.user.id === row.user_id;
      const grant = row ? await organizationGrant(db, principal, row.organization_name) : null;
      if (!row || (!own && !grant)) throw new NotFound();
      const body = await present(db, [row], readInclude(req, ['user', 'teams']), grant, viewerOf(res));
      sendResource(res, 200, body.data[0], body.included);
    },

    async destroy(req: Req, res: Response) {
      const row = await findMembership(db, req.params.id);
      if (!row) throw new NotFound();
      const { grant } = await orgScope(db, res.locals.principal, row.organization_name, 'manage-membership');
      await db.transaction(async (tx) => {
        const owner = await tx('team_members as tm').join('teams as t', 't.id', 'tm.team_id').where({ 'tm.organization_membership_id': row.id, 't.is_owners': true }).first('t.id');
        if (owner && !grant.isOwner) throw new NotFound();
        // Lock the owners team, as team member changes do, so concurrent removals cannot both pass the check.
        await tx('teams').where({ organization_name: row.organization_name, is_owners: true }).forUpdate().first('id');
        await assertOwnersKeepAMember(tx, row.organization_name, [row.id]);
        await tx('organization_memberships').where({ id: row.id }).del();
      });
      res.status(204).end();
    },

    /** The invited user accepts; from then on the user counts in every team the membership joined. */
    async accept(req: Req, res: Response) {
      const principal = res.locals.principal;
      const row = await findMembership(db, req.params.id);
      if (!row || principal.kind !== 'user' || principal.user.id !== row.user_id) throw new NotFound();
      membershipMachine.transition(row.status, 'accept');
      const updated = await activateMembership(db, row.id);
      if (!updated) throw new IllegalTransition(membershipMachine.name, 'active', 'accept');
      const body = await present(db, [updated], new Set(), null, principal.user.id);
      sendResource(res, 200, body.data[0]);
    },
  };
}
