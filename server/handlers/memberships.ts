import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/platform/errors.js';
import { organizationGrant, type OrganizationGrant } from '../../shared/identity/access.queries.js';
import {
  acceptInvitation,
  findMembership,
  inviteMember,
  type MembershipRow,
  removeMembership,
} from '../../shared/identity/index.js';
import { membershipRelations, membershipsOfUser, membershipsPage } from '../../shared/identity/memberships.queries.js';
import { canSeeTeam, orgScope } from '../guards.js';
import {
  paginate,
  readInclude,
  readPageOrDefault,
  readParam,
  send,
  sendResource,
  uniqueResources,
  wholeListMeta,
  type Resource,
} from '../jsonapi.js';
import { attributesOf, type Req } from './body.js';
import { presentTeams } from './teams.js';
import { invitedUserResource, membershipResource, userResource } from '../serializers/foundation.js';
import { enforceLimit } from '../rate-limit.js';

/**
 * Serializes memberships with the ids of the teams the caller may see (all of them for the invitee's own view,
 * where `grant` is null) and, when asked, the users and those teams. The user of an invitation not
 * accepted yet is included without anything identifying, except for that user itself (`viewerId`).
 */
async function present(
  { db, config }: Pick<AppDeps, 'db' | 'config'>,
  rows: MembershipRow[],
  include: Set<string>,
  grant: OrganizationGrant | null,
  viewerId: string | null,
): Promise<{ data: Resource[]; included: Resource[] }> {
  const { links: teamRows, teams, users } = await membershipRelations(db, rows);
  const visible = new Map(teams.filter((t) => !grant || canSeeTeam(grant, t)).map((t) => [t.id, t]));
  const userById = new Map(users.map((u) => [u.id as string, u]));
  const data = rows.map((r) =>
    membershipResource(
      r,
      userById.get(r.user_id)?.email ?? null,
      teamRows.filter((t) => t.organization_membership_id === r.id && visible.has(t.team_id)).map((t) => t.team_id),
    ),
  );
  const includedTeams =
    include.has('teams') && visible.size
      ? (await presentTeams({ db, config }, [...visible.values()], grant, new Set())).data
      : [];
  const accepted = new Set(rows.filter((r) => r.status === 'active').map((r) => r.user_id));
  const includedUsers = include.has('user')
    ? users.map((u) =>
        accepted.has(u.id) || u.id === viewerId
          ? userResource(u, config.organizationCreation)
          : invitedUserResource(u.id),
      )
    : [];
  const included = [...includedUsers, ...includedTeams];
  return { data, included: uniqueResources(included) };
}

/** The calling user's id, when a user token calls. */
const viewerOf = (res: Response): string | null =>
  res.locals.principal.kind === 'user' ? res.locals.principal.user.id : null;

export function membershipHandlers(deps: AppDeps) {
  const { db, rateLimits } = deps;
  return {
    async invite(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org, 'manage-membership');
      // The organization's own budget, taken only once the caller may invite into it (nobody else can spend it).
      await enforceLimit(rateLimits, 'organization-invitations', org.name);
      const { email } = attributesOf(req) as { email: string };
      const teamIds = ((req.body.data.relationships?.teams?.data ?? []) as { id: string }[]).map((t) => t.id);
      const membership = await inviteMember(deps, org.name, grant, email, teamIds);
      // Nothing about the invited user beyond the email the inviter typed and the id the membership
      // names: no username, no site-admin flag (until the invitation is accepted).
      const body = await present(deps, [membership], new Set(), null, null);
      sendResource(res, 201, body.data[0]);
    },

    async list(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      const include = readInclude(req, ['user', 'teams']);
      const page = readPageOrDefault(req);
      const status = readParam(req, 'filter[status]');
      const email = readParam(req, 'filter[email]');
      const search = readParam(req, 'q');
      const { rows, total: count } = await membershipsPage(
        db,
        org.name,
        {
          statuses: status ? status.split(',') : null,
          emails: email
            ? email
                .split(',')
                .map((e) => e.trim())
                .filter(Boolean)
            : null,
          search: search?.trim() || null,
        },
        page,
      );
      const body = await present(deps, rows, include, grant, viewerOf(res));
      send(res, 200, {
        data: body.data,
        ...(body.included.length ? { included: body.included } : {}),
        ...paginate(req, page, Number(count)),
      });
    },

    /**
     * The calling user's own memberships in every organization, pending invitations included (TFE's
     * "list user's own memberships"): how a signed-in person finds an invitation to accept.
     */
    async listOwn(req: Req, res: Response) {
      const principal = res.locals.principal;
      if (principal.kind !== 'user') throw new NotFound();
      const status = readParam(req, 'filter[status]');
      const rows = await membershipsOfUser(db, principal.user.id, status ? status.split(',') : null);
      const body = await present(deps, rows, readInclude(req, ['user', 'teams']), null, principal.user.id);
      send(res, 200, {
        data: body.data,
        ...(body.included.length ? { included: body.included } : {}),
        meta: wholeListMeta(rows.length),
      });
    },

    async show(req: Req, res: Response) {
      const principal = res.locals.principal;
      const row = await findMembership(db, req.params.id);
      const own = row && principal.kind === 'user' && principal.user.id === row.user_id;
      const grant = row ? await organizationGrant(db, principal, row.organization_name) : null;
      if (!row || (!own && !grant)) throw new NotFound();
      const body = await present(deps, [row], readInclude(req, ['user', 'teams']), grant, viewerOf(res));
      sendResource(res, 200, body.data[0], body.included);
    },

    async destroy(req: Req, res: Response) {
      const row = await findMembership(db, req.params.id);
      if (!row) throw new NotFound();
      const { grant } = await orgScope(db, res.locals.principal, row.organization_name, 'manage-membership');
      await removeMembership(deps, row, grant);
      res.status(204).end();
    },

    /** The invited user accepts; from then on the user counts in every team the membership joined. */
    async accept(req: Req, res: Response) {
      const principal = res.locals.principal;
      const row = await findMembership(db, req.params.id);
      if (!row || principal.kind !== 'user' || principal.user.id !== row.user_id) throw new NotFound();
      const updated = await acceptInvitation(deps, row);
      const body = await present(deps, [updated], new Set(), null, principal.user.id);
      sendResource(res, 200, body.data[0]);
    },
  };
}
