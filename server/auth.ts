import type { NextFunction, Request, Response } from 'express';
import type { Db } from '../shared/db.js';
import type { Principal } from '../shared/access.js';
import { NotFound, Unauthorized } from '../shared/errors.js';
import { findLiveTokenWithOwner, runOfTaskAccessToken, touchToken } from '../shared/repos/tokens.js';
import { AUTHENTICATES } from './route-table.js';
import type { Config } from '../shared/config.js';
import { findLiveSession, touchSession } from '../shared/repos/sign-in.js';
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
export function presentedCredential(req: Request, config: Pick<Config, 'baseUrl'>): { kind: 'token' | 'session'; secret: string } | null {
  const header = req.get('authorization');
  if (header !== undefined) {
    const secret = bearerToken(header);
    return secret ? { kind: 'token', secret } : null;
  }
  const secret = readCookies(req).get(cookieNames(config).session);
  return secret ? { kind: 'session', secret } : null;
}

/** Resolves a token secret to its principal, or null when unknown or expired. */
export async function principalFor(db: Db, secret: string): Promise<Principal | null> {
  const row = await findLiveTokenWithOwner(db, secret);
  if (!row) return null;
  const recent = row.last_used_at && Date.now() - new Date(row.last_used_at).getTime() < 60_000;
  if (!recent) void touchToken(db, row.token_id).catch(() => undefined);
  if (row.kind === 'user' && row.u_id) {
    return {
      kind: 'user',
      tokenId: row.token_id,
      user: { id: row.u_id, username: row.u_username, email: row.u_email, is_admin: row.u_is_admin, created_at: row.u_created_at },
    };
  }
  if (row.kind === 'team' && row.team) {
    return { kind: 'team', tokenId: row.token_id, team: { ...row.team, created_at: new Date(row.team.created_at) } };
  }
  if (row.kind === 'organization' && row.token_org) return { kind: 'organization', tokenId: row.token_id, organizationName: row.token_org };
  if (row.kind === 'run' && row.run_id && row.run_workspace_id) {
    return { kind: 'run', tokenId: row.token_id, runId: row.run_id, workspaceId: row.run_workspace_id, runOrganization: row.run_org };
  }
  return null;
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

/** Whether a run token may make this request at all. */
const runTokenMay = (req: Request, paths: readonly RegExp[]) => (req.method === 'GET' || req.method === 'HEAD') && paths.some((p) => p.test(req.path));

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
export async function sessionPrincipal(db: Db, config: Pick<Config, 'baseUrl'>, req: Request, res: Response): Promise<boolean> {
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

/** Middleware: 401 unless the request carries a valid bearer token (or, without any Authorization header, a live session cookie). */
export const authenticate = (db: Db, config: Pick<Config, 'baseUrl'>, runTokenPaths: readonly RegExp[] = RUN_TOKEN_PATHS) =>
  Object.assign(async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const credential = presentedCredential(req, config);
    if (credential?.kind === 'session' && (await sessionPrincipal(db, config, req, res))) return next();
    const secret = credential?.kind === 'token' ? credential.secret : null;
    const principal = secret ? await principalFor(db, secret) : null;
    if (principal) {
      if (principal.kind === 'run' && !runTokenMay(req, runTokenPaths)) throw new NotFound();
      res.locals.principal = principal;
      return next();
    }
    const taskAccess = secret && TASK_TOKEN_PATHS.some((p) => p.test(req.path)) ? await taskAccessFor(db, secret) : null;
    if (!taskAccess) throw new Unauthorized();
    res.locals.taskAccess = taskAccess;
    next();
  }, { [AUTHENTICATES]: true });
