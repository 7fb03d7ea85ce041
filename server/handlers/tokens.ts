import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/errors.js';
import type { Principal } from '../../shared/access.js';
import { findUserById } from '../../shared/repos/users.js';
import { replaceToken } from '../../shared/usecases/tokens.js';
import { deleteToken, findToken, issueToken, organizationToken, teamToken, tokensOfUser } from '../../shared/repos/tokens.js';
import { check } from '../validate.js';
import { orgScope, teamScope } from '../guards.js';
import { send, sendResource } from '../jsonapi.js';
import { attributesOf, hasDocument, type Req } from './body.js';
import { tokenResource } from '../serializers/foundation.js';

/** A user's own tokens are managed by that user or a site admin. */
const managesUser = (p: Principal, userId: string) => p.kind === 'user' && (p.user.id === userId || p.user.is_admin);
const creatorId = (p: Principal) => (p.kind === 'user' ? p.user.id : null);

/**
 * Optional body `{data:{type:'authentication-tokens', attributes:{description, expired-at}}}`. For
 * organization and team tokens (`singularType`), the type may also be `authentication-token`, as
 * existing client libraries and scripts send it.
 */
function tokenAttributes(req: Req, singularType = false): { description: string | null; expiredAt: Date | null } {
  if (!hasDocument(req)) return { description: null, expiredAt: null };
  const body = req.body as { data?: { type?: unknown } };
  const singular = singularType && body.data?.type === 'authentication-token';
  check('token.create', singular ? { ...body, data: { ...body.data, type: 'authentication-tokens' } } : body);
  const attrs = attributesOf(req) as { description?: string | null; 'expired-at'?: string | null };
  return { description: attrs.description ?? null, expiredAt: attrs['expired-at'] ? new Date(attrs['expired-at']) : null };
}

export function tokenHandlers(deps: AppDeps) {
  const { db } = deps;
  /**
   * A team whose token the caller may issue or revoke (manage-teams). The owners team's token
   * authenticates as an owner, so only owners may manage it; others get 404.
   */
  async function managedTeam(res: Response, teamId: string) {
    const { team, grant } = await teamScope(db, res.locals.principal, teamId, 'manage-teams');
    if (team.is_owners && !grant.isOwner) throw new NotFound();
    return team;
  }

  return {
    async createForUser(req: Req, res: Response) {
      const principal = res.locals.principal;
      const user = await findUserById(db, req.params.id);
      if (!user || !managesUser(principal, user.id)) throw new NotFound();
      const attrs = tokenAttributes(req);
      const { row, secret } = await issueToken(db, { kind: 'user', userId: user.id }, { ...attrs, createdById: creatorId(principal) });
      sendResource(res, 201, tokenResource(row, secret));
    },

    async listForUser(req: Req, res: Response) {
      if (!managesUser(res.locals.principal, req.params.id) || !(await findUserById(db, req.params.id))) throw new NotFound();
      const rows = await tokensOfUser(db, req.params.id);
      send(res, 200, { data: rows.map((r) => tokenResource(r)) });
    },

    async show(req: Req, res: Response) {
      const row = await findToken(db, req.params.id);
      if (!row || row.kind !== 'user' || !managesUser(res.locals.principal, row.user_id!)) throw new NotFound();
      sendResource(res, 200, tokenResource(row));
    },

    async destroy(req: Req, res: Response) {
      const row = await findToken(db, req.params.id);
      if (!row || row.kind !== 'user' || row.from_configuration || !managesUser(res.locals.principal, row.user_id!)) throw new NotFound();
      await deleteToken(db, row.id);
      res.status(204).end();
    },

    /** Issues the team's token, replacing any previous one. */
    async createForTeam(req: Req, res: Response) {
      const team = await managedTeam(res, req.params.id);
      const attrs = tokenAttributes(req, true);
      const { row, secret } = await replaceToken(deps, { kind: 'team', teamId: team.id }, { ...attrs, createdById: creatorId(res.locals.principal) });
      sendResource(res, 201, tokenResource(row, secret));
    },

    /** GET /teams/:id/authentication-token: the team token's metadata (never its secret). */
    async showForTeam(req: Req, res: Response) {
      const team = await managedTeam(res, req.params.id);
      const row = await teamToken(db, team.id);
      if (!row) throw new NotFound();
      sendResource(res, 200, tokenResource(row));
    },

    async destroyForTeam(req: Req, res: Response) {
      const team = await managedTeam(res, req.params.id);
      const row = await teamToken(db, team.id);
      if (!row) throw new NotFound();
      await deleteToken(db, row.id);
      res.status(204).end();
    },

    /** Issues the organization's token, replacing any previous one. Owners only. */
    async createForOrganization(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org, 'owner');
      const attrs = tokenAttributes(req, true);
      const { row, secret } = await replaceToken(deps, { kind: 'organization', organizationName: org.name }, { ...attrs, createdById: creatorId(res.locals.principal) });
      sendResource(res, 201, tokenResource(row, secret));
    },

    /** GET /organizations/:org/authentication-token: the organization token's metadata (never its secret). Owners only. */
    async showForOrganization(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org, 'owner');
      const row = await organizationToken(db, org.name);
      if (!row) throw new NotFound();
      sendResource(res, 200, tokenResource(row));
    },

    async destroyForOrganization(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org, 'owner');
      const row = await organizationToken(db, org.name);
      if (!row) throw new NotFound();
      await deleteToken(db, row.id);
      res.status(204).end();
    },
  };
}
