import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/platform/errors.js';
import {
  activeOrganizationsOf,
  createUser,
  findUserById,
  isActiveMemberOfAny,
  issueResetLink,
  setUserSuspended,
  updateOwnAccount,
  type UserRow,
} from '../../shared/identity/index.js';
import { isSiteAdmin, type Principal } from '../../shared/identity/access.queries.js';
import { paginate, readPageOrDefault, readParam, send, sendResource } from '../jsonapi.js';
import { usersPage } from '../../shared/identity/users.queries.js';
import { attributesOf, type Req } from './body.js';
import { adminOrganizationResource, passwordResetLinkResource, userResource } from '../serializers/foundation.js';
import { allOrganizationsPage } from '../../shared/organizations/queries.js';

/**
 * Whether a principal may see a user: itself, a site admin, or someone sharing an organization in
 * which both memberships are accepted. An invitation does not count on either side, so inviting
 * someone (by email) never shows the inviter who that is.
 */
async function canSeeUser(deps: AppDeps, principal: Principal, user: UserRow): Promise<boolean> {
  if (principal.kind === 'user' && (principal.user.id === user.id || principal.user.is_admin)) return true;
  if (principal.kind === 'run') return false;
  const orgs =
    principal.kind === 'user'
      ? activeOrganizationsOf(deps.db, principal.user.id)
      : [principal.kind === 'team' ? principal.team.organization_name : principal.organizationName];
  return isActiveMemberOfAny(deps.db, user.id, orgs);
}

export function userHandlers(deps: AppDeps) {
  const { db, config } = deps;
  return {
    async accountDetails(_req: Req, res: Response) {
      const principal = res.locals.principal;
      if (principal.kind !== 'user') throw new NotFound();
      // The authenticated user lacks the pending email change, which only the account's own views show.
      sendResource(
        res,
        200,
        userResource((await findUserById(db, principal.user.id)) ?? principal.user, config.organizationCreation, {
          self: true,
        }),
      );
    },

    /** PATCH /account/update: the user changes their own username or (pending confirmation) email. */
    async updateAccount(req: Req, res: Response) {
      const principal = res.locals.principal;
      if (principal.kind !== 'user') throw new NotFound();
      const attrs = attributesOf(req) as { username?: string; email?: string };
      const user = await updateOwnAccount(deps, principal.user.id, { username: attrs.username, email: attrs.email });
      sendResource(res, 200, userResource(user, config.organizationCreation, { self: true }));
    },

    async show(req: Req, res: Response) {
      const principal = res.locals.principal;
      const user = await findUserById(db, req.params.id);
      if (!user || !(await canSeeUser(deps, principal, user))) throw new NotFound();
      const self = principal.kind === 'user' && (principal.user.id === user.id || principal.user.is_admin);
      sendResource(res, 200, userResource(user, config.organizationCreation, { self }));
    },

    /** Site admin only: a one-time link with which the user sets a new password (the console's reset page). */
    async adminResetPassword(req: Req, res: Response) {
      const principal = res.locals.principal;
      if (principal.kind !== 'user' || !isSiteAdmin(principal)) throw new NotFound();
      const link = await issueResetLink(deps, principal.user.id, req.params.id);
      res.set('Cache-Control', 'no-store');
      sendResource(res, 200, passwordResetLinkResource(link, req.params.id));
    },

    /** Site admin only: every user (`q` filters by username or email), for the console's site admin page. */
    async adminList(req: Req, res: Response) {
      if (!isSiteAdmin(res.locals.principal)) throw new NotFound();
      const page = readPageOrDefault(req);
      const { rows, total } = await usersPage(db, readParam(req, 'q')?.trim() || null, page);
      send(res, 200, {
        data: rows.map((u) => userResource(u, config.organizationCreation, { self: true })),
        ...paginate(req, page, total),
      });
    },

    /** Site admin only: suspends a user (`actions/suspend`) or lifts it (`actions/unsuspend`). */
    suspension: (suspended: boolean) => async (req: Req, res: Response) => {
      const principal = res.locals.principal;
      if (principal.kind !== 'user' || !isSiteAdmin(principal)) throw new NotFound();
      const user = await setUserSuspended(deps, principal.user.id, req.params.id, suspended);
      sendResource(res, 200, userResource(user, config.organizationCreation, { self: true }));
    },

    /** Site admin only: every organization of the service (`q` filters by name or email). */
    async adminOrganizations(req: Req, res: Response) {
      if (!isSiteAdmin(res.locals.principal)) throw new NotFound();
      const page = readPageOrDefault(req);
      const { rows, total } = await allOrganizationsPage(db, readParam(req, 'q')?.trim() || null, page);
      send(res, 200, { data: rows.map(adminOrganizationResource), ...paginate(req, page, total) });
    },

    /** Site admin only: creates a user account. */
    async adminCreate(req: Req, res: Response) {
      if (!isSiteAdmin(res.locals.principal)) throw new NotFound();
      const attrs = attributesOf(req) as { username: string; email: string; 'is-admin'?: boolean };
      const user = await createUser(deps, {
        username: attrs.username,
        email: attrs.email,
        isAdmin: attrs['is-admin'] ?? false,
      });
      sendResource(res, 201, userResource(user, config.organizationCreation, { self: true }));
    },
  };
}
