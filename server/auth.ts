import type { NextFunction, Request, Response } from 'express';
import type { Db } from '../shared/platform/db.js';
import { EarlyGuardRead, type Principal, type EarlyGuardReadSpec } from '../shared/identity/access.queries.js';
import { NotFound, Unauthorized } from '../shared/platform/errors.js';
import {
  findLiveSession,
  findLiveTokenWithOwner,
  type LiveTokenRow,
  runOfTaskAccessToken,
  touchSession,
  touchToken,
} from '../shared/identity/index.js';
import { AUTHENTICATES } from './route-table.js';
import type { Config } from '../shared/platform/config.js';
import { assertCsrf, cookieNames, isSafeMethod, readCookies } from './session.js';

/** Reads the bearer token from an Authorization header. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1] : null;
}

/**
 * The credential a request presents: its bearer token, or with no Authorization header the
 * console's session cookie; null when it presents none (a malformed header is none).
 */
export function presentedCredential(
  req: Request,
  config: Pick<Config, 'baseUrl'>,
): { kind: 'token' | 'session'; secret: string } | null {
  const header = req.get('authorization');
  if (header !== undefined) {
    const secret = bearerToken(header);
    return secret ? { kind: 'token', secret } : null;
  }
  const secret = readCookies(req).get(cookieNames(config).session);
  return secret ? { kind: 'session', secret } : null;
}

/** The principal a live token authenticates, or null when its owner is gone. */
function principalOf(row: LiveTokenRow): Principal | null {
  if (row.auth_kind === 'user' && row.auth_user_id) {
    return {
      kind: 'user',
      tokenId: row.auth_token_id,
      user: {
        id: row.auth_user_id,
        username: row.auth_username,
        email: row.auth_email,
        is_admin: row.auth_is_admin,
        created_at: row.auth_user_created_at,
      },
    };
  }
  if (row.auth_kind === 'team' && row.auth_team) {
    return {
      kind: 'team',
      tokenId: row.auth_token_id,
      team: { ...row.auth_team, created_at: new Date(row.auth_team.created_at) },
    };
  }
  if (row.auth_kind === 'organization' && row.auth_org)
    return { kind: 'organization', tokenId: row.auth_token_id, organizationName: row.auth_org };
  if (row.auth_kind === 'run' && row.auth_run_id && row.auth_run_workspace_id) {
    return {
      kind: 'run',
      tokenId: row.auth_token_id,
      runId: row.auth_run_id,
      workspaceId: row.auth_run_workspace_id,
      runOrganization: row.auth_run_org,
      secretsWithheld: row.auth_run_secrets_withheld === true,
    };
  }
  return null;
}

/**
 * Resolves a token secret to its principal, or null when unknown or expired; with `ahead`, the
 * same statement makes that granted read too, whatever the token turns out to be
 * (docs/design-for-speed.md, "Read-ahead of the guard's row").
 */
export async function principalFor(
  db: Db,
  secret: string,
  ahead?: EarlyGuardReadSpec,
): Promise<{ principal: Principal; earlyGuardRead?: EarlyGuardRead } | null> {
  const found = await findLiveTokenWithOwner(db, secret, ahead && { statement: ahead.statement, bindings: ahead.key });
  if (!found) return null;
  const { token } = found;
  const recent = token.auth_last_used_at && Date.now() - new Date(token.auth_last_used_at).getTime() < 60_000;
  if (!recent) void touchToken(db, token.auth_token_id).catch(() => undefined);
  const principal = principalOf(token);
  if (!principal) return null;
  return {
    principal,
    ...(ahead ? { earlyGuardRead: new EarlyGuardRead(ahead.read, ahead.key, found.companion) } : {}),
  };
}

/**
 * What a run's token may call (GET only): what the `remote` backend reads for
 * `terraform_remote_state` (the organization's entitlements, the workspace by name, its current
 * state version, whose signed download URL needs no token) and the current outputs. The handlers
 * check the workspace (see stateReadableByRun); every other route answers 404 to a run token.
 */
const RUN_TOKEN_PATHS = [
  /^\/organizations\/[^/]+\/entitlement-set$/,
  /^\/organizations\/[^/]+\/workspaces\/[^/]+$/,
  /^\/workspaces\/[^/]+\/current-state-version(-outputs)?$/,
];

/**
 * What a run's token may call of the module registry protocol (mounted at /api/registry/v1): the
 * run's `terraform init` installs the organization's modules (see registryReadScope).
 */
export const RUN_TOKEN_REGISTRY_PATHS = [/^\/modules\/[^/]+\/[^/]+\/[^/]+(\/[^/]+)?(\/download|\/versions)?$/];

/**
 * What the token of a run whose secrets are withheld may call: nothing of the API (no workspace, no
 * state, no outputs); of the registry, what RUN_TOKEN_REGISTRY_PATHS allow, which every member of
 * its organization reads with their own token (see shared/runs/withheld-secrets.ts).
 */
const WITHHELD_RUN_TOKEN_PATHS: readonly RegExp[] = [];

/** Whether a run token may make this request at all. */
const runTokenMay = (req: Request, paths: readonly RegExp[]) =>
  (req.method === 'GET' || req.method === 'HEAD') && paths.some((p) => p.test(req.path));

// What a run task's access token may read besides its callback: the run's JSON plan and its
// configuration archive (checked against the run by the handlers).
const TASK_TOKEN_PATHS = [/^\/plans\/[^/]+\/json-output(-redacted)?$/, /^\/configuration-versions\/[^/]+\/download$/];

/** The run a task result's access token belongs to, while the result is not final. */
async function taskAccessFor(db: Db, secret: string): Promise<{ runId: string } | null> {
  const runId = await runOfTaskAccessToken(db, secret);
  return runId ? { runId } : null;
}

/**
 * The console's session, when the request carries no Authorization header and a live session
 * cookie: the principal is its user, exactly as with a user token (its session id stands in for a
 * token id). A state-changing request must pass the CSRF rule (403 otherwise).
 */
export async function sessionPrincipal(
  db: Db,
  config: Pick<Config, 'baseUrl'>,
  req: Request,
  res: Response,
): Promise<boolean> {
  const secret = readCookies(req).get(cookieNames(config).session);
  const found = secret ? await findLiveSession(db, secret) : null;
  if (!found) return false;
  if (!isSafeMethod(req.method)) assertCsrf(req, config, found.session);
  const recent = found.session.last_seen_at && Date.now() - new Date(found.session.last_seen_at).getTime() < 60_000;
  if (!recent) void touchSession(db, found.session.id).catch(() => undefined);
  res.locals.principal = { kind: 'user', tokenId: `session:${found.session.id}`, user: found.user };
  res.locals.session = found.session;
  return true;
}

/** What authenticate may be told besides the database and the configuration. */
export interface AuthenticateOptions {
  /** The paths a run's token may call (see runTokenMay); the API's by default. */
  runTokenPaths?: readonly RegExp[];
  /** The paths the token of a run whose secrets are withheld may call; none of the API's by default. */
  withheldRunTokenPaths?: readonly RegExp[];
  /** The granted read a request's guard makes first, when its method and path (or its body, when read already) tell (read with the token). */
  earlyGuardReadOf?: (method: string, path: string, body?: unknown) => EarlyGuardReadSpec | null;
  /** The failed-authentication budget of the request's client address (authAttempt in rate-limit.ts), for requests presenting a token. */
  failures?: (req: Request) => { admit(): Promise<void>; failed(): Promise<void> };
}

/** Middleware: 401 unless the request carries a valid bearer token (or, without any Authorization header, a live session cookie). */
export const authenticate = (
  db: Db,
  config: Pick<Config, 'baseUrl'>,
  {
    runTokenPaths = RUN_TOKEN_PATHS,
    withheldRunTokenPaths = WITHHELD_RUN_TOKEN_PATHS,
    earlyGuardReadOf,
    failures,
  }: AuthenticateOptions = {},
) =>
  Object.assign(
    async (req: Request, res: Response, next: NextFunction): Promise<void> => {
      const credential = presentedCredential(req, config);
      if (credential?.kind === 'session' && (await sessionPrincipal(db, config, req, res))) return next();
      const secret = credential?.kind === 'token' ? credential.secret : null;
      // A stale session cookie is no guess (sessions expire as a matter of course): only tokens count.
      const attempt = secret ? failures?.(req) : undefined;
      const found = secret
        ? await principalFor(db, secret, earlyGuardReadOf?.(req.method, req.path, req.body) ?? undefined)
        : null;
      await attempt?.admit();
      if (found) {
        const { principal, earlyGuardRead } = found;
        if (
          principal.kind === 'run' &&
          !runTokenMay(req, principal.secretsWithheld ? withheldRunTokenPaths : runTokenPaths)
        )
          throw new NotFound();
        res.locals.principal = principal;
        res.locals.earlyGuardRead = earlyGuardRead;
        return next();
      }
      const taskAccess =
        secret && TASK_TOKEN_PATHS.some((p) => p.test(req.path)) ? await taskAccessFor(db, secret) : null;
      if (!taskAccess) {
        await attempt?.failed();
        throw new Unauthorized();
      }
      res.locals.taskAccess = taskAccess;
      next();
    },
    { [AUTHENTICATES]: true },
  );
