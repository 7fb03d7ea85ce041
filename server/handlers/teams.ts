import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import type { Db } from '../../shared/platform/db.js';
import { NotFound, Unprocessable } from '../../shared/platform/errors.js';
import type { OrganizationAccess, OrganizationGrant } from '../../shared/identity/access.queries.js';
import {
  changeTeam,
  createTeam,
  deleteTeam,
  type TeamColumns,
  teamMembers,
  type TeamRow,
} from '../../shared/identity/index.js';
import { membershipsWithTeamLinks, teamsOfOrganization } from '../../shared/identity/teams.queries.js';
import { canSeeTeam, orgScope, teamScope } from '../guards.js';
import {
  paginate,
  readInclude,
  readPageOrDefault,
  readParam,
  send,
  sendResource,
  uniqueResources,
  type Resource,
  sliceOf,
} from '../jsonapi.js';
import { attributesOf, type Req } from './body.js';
import { membershipResource, teamResource, userResource } from '../serializers/foundation.js';

const INCLUDES = ['users', 'organization_memberships'] as const;

/** Membership rows and, per membership, the ids of its teams the grant may see. */
async function membershipsWithTeams(db: Db, ids: string[], grant: OrganizationGrant | null) {
  const { rows, links } = await membershipsWithTeamLinks(db, ids);
  const teamIds = new Map<string, string[]>();
  for (const link of links) {
    if (grant && canSeeTeam(grant, link))
      teamIds.set(link.membership_id, [...(teamIds.get(link.membership_id) ?? []), link.id]);
  }
  return { rows, teamIds };
}

/** Teams with their members; `users` lists only members whose invitation is accepted. */
export async function presentTeams(
  { db, config }: Pick<AppDeps, 'db' | 'config'>,
  teams: TeamRow[],
  grant: OrganizationGrant | null,
  include: Set<string>,
) {
  const members = teams.length
    ? await teamMembers(
        db,
        teams.map((t) => t.id),
      )
    : [];
  const membershipIds = [...new Set(members.map((m) => m.membership_id))];
  const wantMemberships = include.has('organization_memberships') && membershipIds.length > 0;
  const memberships = wantMemberships ? await membershipsWithTeams(db, membershipIds, grant) : null;
  const included: Resource[] = [];
  const data = teams.map((team) => {
    const mine = members.filter((m) => m.team_id === team.id);
    const active = mine.filter((m) => m.status === 'active');
    if (include.has('users')) {
      for (const m of active)
        included.push(
          userResource(
            {
              id: m.user_id,
              username: m.username,
              email: m.email,
              is_admin: m.is_admin,
              created_at: m.user_created_at,
            },
            config.organizationCreation,
          ),
        );
    }
    if (memberships) {
      for (const m of mine) {
        included.push(
          membershipResource(
            memberships.rows.get(m.membership_id)!,
            m.email,
            memberships.teamIds.get(m.membership_id) ?? [],
          ),
        );
      }
    }
    return teamResource(
      team,
      { userIds: active.map((m) => m.user_id), membershipIds: mine.map((m) => m.membership_id) },
      grant,
    );
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

function columns(attrs: TeamAttrs): TeamColumns {
  return {
    ...(attrs.name !== undefined ? { name: attrs.name } : {}),
    ...(attrs.visibility !== undefined ? { visibility: attrs.visibility } : {}),
    ...(attrs['sso-team-id'] !== undefined ? { sso_team_id: attrs['sso-team-id'] } : {}),
    ...(attrs['allow-member-token-management'] !== undefined
      ? { allow_member_token_management: attrs['allow-member-token-management'] }
      : {}),
  };
}

/** Granting organization permissions needs manage-organization-access (owners have it), as in TFE. */
function assertMayGrant(grant: OrganizationGrant, attrs: TeamAttrs): void {
  if (attrs['organization-access'] && !grant.isOwner && !grant.permissions['manage-organization-access'])
    throw new NotFound();
}

export function teamHandlers(deps: AppDeps) {
  const { db } = deps;
  return {
    async create(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org, 'manage-teams');
      const attrs = attributesOf(req) as TeamAttrs;
      assertMayGrant(grant, attrs);
      const team = await createTeam(deps, org.name, attrs.name!, columns(attrs), attrs['organization-access']);
      sendResource(res, 201, teamResource(team, { userIds: [], membershipIds: [] }, grant));
    },

    async list(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      const include = readInclude(req, INCLUDES);
      const page = readPageOrDefault(req);
      const names = readParam(req, 'filter[names]');
      const teams = await teamsOfOrganization(db, org.name, {
        names: names ? names.split(',') : null,
        search: readParam(req, 'q') || null,
      });
      const visible = teams.filter((t) => canSeeTeam(grant, t));
      const body = await presentTeams(deps, sliceOf(visible, page), grant, include);
      send(res, 200, {
        data: body.data,
        ...(body.included.length ? { included: body.included } : {}),
        ...paginate(req, page, visible.length),
      });
    },

    async show(req: Req, res: Response) {
      const { team, grant } = await teamScope(db, res.locals.principal, req.params.id);
      const body = await presentTeams(deps, [team], grant, readInclude(req, INCLUDES));
      sendResource(res, 200, body.data[0], body.included);
    },

    async update(req: Req, res: Response) {
      const { team, grant } = await teamScope(db, res.locals.principal, req.params.id, 'manage-teams');
      // Every change to the owners team (its visibility too) is for owners only: not for a member
      // with manage-teams, nor for an organization token.
      if (team.is_owners && !grant.isOwner) throw new NotFound();
      const attrs = attributesOf(req) as TeamAttrs;
      assertMayGrant(grant, attrs);
      const updated = await changeTeam(deps, team, columns(attrs), attrs['organization-access']);
      const body = await presentTeams(deps, [updated], grant, new Set());
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
