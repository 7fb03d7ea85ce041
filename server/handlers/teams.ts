import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import type { Db } from '../../shared/db.js';
import { NotFound, Unprocessable } from '../../shared/errors.js';
import { normalizeAccess, type OrganizationAccess, type OrganizationGrant } from '../../shared/access.js';
import { deleteTeam, insertTeam, teamMembers, teamsOf, updateTeam, type TeamRow } from '../../shared/repos/teams.js';
import type { MembershipRow } from '../../shared/repos/memberships.js';
import { canSeeTeam, orgScope, teamScope } from '../guards.js';
import { paginate, readInclude, readPageOrDefault, readParam, send, sendResource, uniqueResources, type Resource } from '../jsonapi.js';
import { attributesOf, type Req } from './body.js';
import { membershipResource, teamResource, userResource } from '../serializers/foundation.js';

const INCLUDES = ['users', 'organization_memberships'] as const;

/** Membership rows and, per membership, the ids of its teams the grant may see. */
async function membershipsWithTeams(db: Db, ids: string[], grant: OrganizationGrant | null) {
  const rows = new Map((await db<MembershipRow>('organization_memberships').whereIn('id', ids)).map((r) => [r.id, r]));
  const teamIds = new Map<string, string[]>();
  const links = await db('team_members as tm')
    .join('teams as t', 't.id', 'tm.team_id')
    .whereIn('tm.organization_membership_id', ids)
    .orderBy('t.name')
    .select<(TeamRow & { membership_id: string })[]>('t.*', 'tm.organization_membership_id as membership_id');
  for (const link of links) {
    if (grant && canSeeTeam(grant, link)) teamIds.set(link.membership_id, [...(teamIds.get(link.membership_id) ?? []), link.id]);
  }
  return { rows, teamIds };
}

/** Teams with their members; `users` lists only members whose invitation is accepted. */
export async function presentTeams(db: Db, teams: TeamRow[], grant: OrganizationGrant | null, include: Set<string>) {
  const members = teams.length ? await teamMembers(db, teams.map((t) => t.id)) : [];
  const membershipIds = [...new Set(members.map((m) => m.membership_id))];
  const wantMemberships = include.has('organization_memberships') && membershipIds.length > 0;
  const memberships = wantMemberships ? await membershipsWithTeams(db, membershipIds, grant) : null;
  const included: Resource[] = [];
  const data = teams.map((team) => {
    const mine = members.filter((m) => m.team_id === team.id);
    const active = mine.filter((m) => m.status === 'active');
    if (include.has('users')) {
      for (const m of active) included.push(userResource({ id: m.user_id, username: m.username, email: m.email, is_admin: m.is_admin, created_at: m.user_created_at }));
    }
    if (memberships) {
      for (const m of mine) {
        included.push(membershipResource(memberships.rows.get(m.membership_id)!, m.email, memberships.teamIds.get(m.membership_id) ?? []));
      }
    }
    return teamResource(team, { userIds: active.map((m) => m.user_id), membershipIds: mine.map((m) => m.membership_id) }, grant);
  });
  return { data, included: uniqueResources(included) };
}

type TeamAttrs = {
  name?: string;
  visibility?: 'secret' | 'organization';
  'organization-access'?: Partial<OrganizationAccess>;
  'sso-team-id'?: string | null;
  'allow-member-token-management'?: boolean;
};

function columns(attrs: TeamAttrs) {
  return {
    ...(attrs.name !== undefined ? { name: attrs.name } : {}),
    ...(attrs.visibility !== undefined ? { visibility: attrs.visibility } : {}),
    ...(attrs['sso-team-id'] !== undefined ? { sso_team_id: attrs['sso-team-id'] } : {}),
    ...(attrs['allow-member-token-management'] !== undefined ? { allow_member_token_management: attrs['allow-member-token-management'] } : {}),
  };
}

/** Granting organization permissions needs manage-organization-access (owners have it), as in TFE. */
function assertMayGrant(grant: OrganizationGrant, attrs: TeamAttrs): void {
  if (attrs['organization-access'] && !grant.isOwner && !grant.permissions['manage-organization-access']) throw new NotFound();
}

const nameTaken = () => new Unprocessable('name has already been taken', '/data/attributes/name');

export function teamHandlers({ db }: AppDeps) {
  return {
    async create(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org, 'manage-teams');
      const attrs = attributesOf(req) as TeamAttrs;
      assertMayGrant(grant, attrs);
      const team = await db.transaction(async (tx) => {
        if (await teamsOf(tx, org.name).where({ name: attrs.name }).first()) throw nameTaken();
        return insertTeam(tx, {
          organization_name: org.name,
          name: attrs.name!,
          ...columns(attrs),
          organization_access: normalizeAccess(attrs['organization-access']),
        });
      });
      sendResource(res, 201, teamResource(team, { userIds: [], membershipIds: [] }, grant));
    },

    async list(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      const include = readInclude(req, INCLUDES);
      const page = readPageOrDefault(req);
      const query = teamsOf(db, org.name);
      const names = readParam(req, 'filter[names]');
      if (names) query.whereIn('name', names.split(','));
      const search = readParam(req, 'q');
      if (search) query.whereILike('name', `%${search.replace(/[%_\\]/g, '\\$&')}%`);
      const visible = (await query.orderBy('name')).filter((t) => canSeeTeam(grant, t));
      const slice = visible.slice((page.number - 1) * page.size, page.number * page.size);
      const body = await presentTeams(db, slice, grant, include);
      send(res, 200, { data: body.data, ...(body.included.length ? { included: body.included } : {}), ...paginate(req, page, visible.length) });
    },

    async show(req: Req, res: Response) {
      const { team, grant } = await teamScope(db, res.locals.principal, req.params.id);
      const body = await presentTeams(db, [team], grant, readInclude(req, INCLUDES));
      sendResource(res, 200, body.data[0], body.included);
    },

    async update(req: Req, res: Response) {
      const { team, grant } = await teamScope(db, res.locals.principal, req.params.id, 'manage-teams');
      // Every change to the owners team (its visibility too) is for owners only: not for a member
      // with manage-teams, nor for an organization token.
      if (team.is_owners && !grant.isOwner) throw new NotFound();
      const attrs = attributesOf(req) as TeamAttrs;
      assertMayGrant(grant, attrs);
      if (team.is_owners && attrs.name !== undefined && attrs.name !== team.name) {
        throw new Unprocessable('the owners team cannot be renamed', '/data/attributes/name');
      }
      if (team.is_owners && attrs['organization-access']) {
        throw new Unprocessable('the owners team always has every organization permission', '/data/attributes/organization-access');
      }
      const updated = await db.transaction(async (tx) => {
        if (attrs.name && attrs.name !== team.name && (await teamsOf(tx, team.organization_name).where({ name: attrs.name }).first())) throw nameTaken();
        return updateTeam(tx, team.id, {
          ...columns(attrs),
          ...(attrs['organization-access'] ? { organization_access: normalizeAccess({ ...team.organization_access, ...attrs['organization-access'] }) } : {}),
        });
      });
      const body = await presentTeams(db, [updated], grant, new Set());
      sendResource(res, 200, body.data[0]);
    },

    async destroy(req: Req, res: Response) {
      const { team } = await teamScope(db, res.locals.principal, req.params.id, 'manage-teams');
      if (team.is_owners) throw new Unprocessable('the owners team cannot be deleted');
      await deleteTeam(db, team.id);
      res.status(204).end();
    },
  };
}
