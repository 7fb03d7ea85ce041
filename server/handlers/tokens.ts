import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { BadRequest, NotFound } from '../../shared/platform/errors.js';
import type { Principal } from '../../shared/identity/access.queries.js';
import {
  deleteToken,
  findToken,
  findUserById,
  issueDescribedTeamToken,
  issueToken,
  replaceToken,
  singleToken,
  TEAM_TOKEN_SORTS,
  teamTokensOfOrganization,
  type TeamTokenSort,
  type TokenRow,
  tokensOfTeam,
  tokensOfUser,
} from '../../shared/identity/index.js';
import { check } from '../validate.js';
import { orgScope, teamScope } from '../guards.js';
import { paginate, readPageOrDefault, readParam, send, sendResource, type Page } from '../jsonapi.js';
import { attributesOf, hasDocument, type Req } from './body.js';
import { tokenResource } from '../serializers/foundation.js';

/** A user's own tokens are managed by that user or a site admin. */
const managesUser = (p: Principal, userId: string) => p.kind === 'user' && (p.user.id === userId || p.user.is_admin);
const creatorId = (p: Principal) => (p.kind === 'user' ? p.user.id : null);

/**
 * Optional body `{data:{type:'authentication-tokens', attributes:{description, expired-at}}}`; the
 * type may be left out, empty or singular (see the `token.create` schema).
 */
function tokenAttributes(req: Req): { description: string | null; expiredAt: Date | null } {
  if (!hasDocument(req)) return { description: null, expiredAt: null };
  check('token.create', req.body);
  const attrs = attributesOf(req) as { description?: string | null; 'expired-at'?: string | null };
  return {
    description: attrs.description ?? null,
    expiredAt: attrs['expired-at'] ? new Date(attrs['expired-at']) : null,
  };
}

/** Which of an organization's tokens a request names: `?token=audit-trails` its audit trail token, none its organization token. */
function organizationTokenKind(req: Req): 'organization' | 'audit-trail' {
  const named = readParam(req, 'token');
  if (named === undefined || named === '') return 'organization';
  if (named === 'audit-trails') return 'audit-trail';
  throw new BadRequest('token must be audit-trails, or left out for the organization token', 'token');
}

/** `sort` of a team token list: one of TEAM_TOKEN_SORTS, `-` first for descending. */
function teamTokenSort(req: Req): { by: TeamTokenSort; descending: boolean } | null {
  const raw = readParam(req, 'sort');
  if (!raw) return null;
  const descending = raw.startsWith('-');
  const by = (descending ? raw.slice(1) : raw) as TeamTokenSort;
  if (!TEAM_TOKEN_SORTS.includes(by))
    throw new BadRequest(`sort must be one of: ${TEAM_TOKEN_SORTS.join(', ')} (with - for descending)`, 'sort');
  return { by, descending };
}

export function tokenHandlers(deps: AppDeps) {
  const { db } = deps;
  /**
   * A team whose tokens the caller may issue, read or revoke (manage-teams). The owners team's
   * tokens authenticate as an owner, so only owners may manage them; others get 404.
   */
  async function managedTeam(res: Response, teamId: string) {
    const { team, grant } = await teamScope(db, res.locals.principal, teamId, 'manage-teams');
    if (team.is_owners && !grant.isOwner) throw new NotFound();
    return team;
  }

  /** A user's or a team's token by id, when the caller manages its owner; 404 otherwise. */
  async function managedToken(res: Response, id: string): Promise<TokenRow> {
    const row = await findToken(db, id);
    if (row?.kind === 'user' && managesUser(res.locals.principal, row.user_id!)) return row;
    if (row?.kind === 'team') {
      await managedTeam(res, row.team_id!);
      return row;
    }
    throw new NotFound();
  }

  const sendPage = async (
    req: Req,
    res: Response,
    read: (page: Page) => Promise<{ rows: TokenRow[]; total: number }>,
  ) => {
    const page = readPageOrDefault(req);
    const { rows, total } = await read(page);
    send(res, 200, { data: rows.map((r) => tokenResource(r)), ...paginate(req, page, total) });
  };

  return {
    async createForUser(req: Req, res: Response) {
      const principal = res.locals.principal;
      const user = await findUserById(db, req.params.id);
      if (!user || !managesUser(principal, user.id)) throw new NotFound();
      const attrs = tokenAttributes(req);
      const { row, secret } = await issueToken(
        db,
        { kind: 'user', userId: user.id },
        { ...attrs, createdById: creatorId(principal) },
      );
      sendResource(res, 201, tokenResource(row, secret));
    },

    async listForUser(req: Req, res: Response) {
      if (!managesUser(res.locals.principal, req.params.id) || !(await findUserById(db, req.params.id)))
        throw new NotFound();
      const rows = await tokensOfUser(db, req.params.id);
      send(res, 200, { data: rows.map((r) => tokenResource(r)) });
    },

    /** GET /authentication-tokens/:id: a user's token (that user or a site admin) or a team's (its managers). */
    async show(req: Req, res: Response) {
      sendResource(res, 200, tokenResource(await managedToken(res, req.params.id)));
    },

    async destroy(req: Req, res: Response) {
      const row = await managedToken(res, req.params.id);
      if (row.from_configuration) throw new NotFound();
      await deleteToken(db, row.id);
      res.status(204).end();
    },

    /** POST /teams/:id/authentication-token: issues the team's legacy token (no description), replacing the previous one. */
    async createForTeam(req: Req, res: Response) {
      const team = await managedTeam(res, req.params.id);
      const attrs = tokenAttributes(req);
      const { row, secret } = await replaceToken(
        deps,
        { kind: 'team', teamId: team.id },
        { ...attrs, createdById: creatorId(res.locals.principal) },
      );
      sendResource(res, 201, tokenResource(row, secret));
    },

    /** POST /teams/:id/authentication-tokens: issues one more token of the team, with a description of its own. */
    async createDescribedForTeam(req: Req, res: Response) {
      const team = await managedTeam(res, req.params.id);
      const attrs = tokenAttributes(req);
      const { row, secret } = await issueDescribedTeamToken(deps, team.id, {
        ...attrs,
        createdById: creatorId(res.locals.principal),
      });
      sendResource(res, 201, tokenResource(row, secret));
    },

    /** GET /teams/:id/authentication-tokens: the team's tokens, legacy and described (never their secrets). */
    async listForTeam(req: Req, res: Response) {
      const team = await managedTeam(res, req.params.id);
      await sendPage(req, res, (page) => tokensOfTeam(db, team.id, page));
    },

    /** GET /organizations/:org/team-tokens: the tokens of the organization's teams (`q`: team name; `sort`); the owners team's for owners only. */
    async listForOrganization(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org, 'manage-teams');
      const sort = teamTokenSort(req);
      await sendPage(req, res, (page) =>
        teamTokensOfOrganization(
          db,
          org.name,
          { withOwners: grant.isOwner, search: readParam(req, 'q')?.trim() || null, sort },
          page,
        ),
      );
    },

    /** GET /teams/:id/authentication-token: the team's legacy token's metadata (never its secret). */
    async showForTeam(req: Req, res: Response) {
      const team = await managedTeam(res, req.params.id);
      const row = await singleToken(db, { kind: 'team', teamId: team.id });
      if (!row) throw new NotFound();
      sendResource(res, 200, tokenResource(row));
    },

    async destroyForTeam(req: Req, res: Response) {
      const team = await managedTeam(res, req.params.id);
      const row = await singleToken(db, { kind: 'team', teamId: team.id });
      if (!row) throw new NotFound();
      await deleteToken(db, row.id);
      res.status(204).end();
    },

    /** Issues the organization's token (or with `?token=audit-trails` its audit trail token), replacing any previous one. Owners only. */
    async createForOrganization(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org, 'owner');
      const kind = organizationTokenKind(req);
      const attrs = tokenAttributes(req);
      const { row, secret } = await replaceToken(
        deps,
        { kind, organizationName: org.name },
        { ...attrs, createdById: creatorId(res.locals.principal) },
      );
      sendResource(res, 201, tokenResource(row, secret));
    },

    /** GET /organizations/:org/authentication-token: the organization token's (or audit trail token's) metadata, never its secret. Owners only. */
    async showForOrganization(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org, 'owner');
      const row = await singleToken(db, { kind: organizationTokenKind(req), organizationName: org.name });
      if (!row) throw new NotFound();
      sendResource(res, 200, tokenResource(row));
    },

    async destroyForOrganization(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org, 'owner');
      const row = await singleToken(db, { kind: organizationTokenKind(req), organizationName: org.name });
      if (!row) throw new NotFound();
      await deleteToken(db, row.id);
      res.status(204).end();
    },
  };
}
