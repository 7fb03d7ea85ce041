import { newSecret, safeEqual, sha256Hex } from '../platform/crypto.js';
import type { Runtime } from '../runtime.js';
import { type FieldProblem, NotFound, Unauthorized, Unprocessable } from '../platform/errors.js';
import type { PasswordVerifier } from './passwords.js';
import { hashPassword } from './passwords.js';
import {
  passwordLinkUrl,
  passwordProblem,
  redirectWithCode,
  isTerraformRedirectUri,
  isPkceValue,
  s256Challenge,
  TERRAFORM_CLIENT_ID,
} from './sign-in.rules.js';
import { findUserById, type UserRow } from './users.repo.js';
import { activateMembership } from './memberships.repo.js';
import { issueToken } from './tokens.repo.js';
import { insertMail } from '../mail/index.js';
import { enqueueAfterCommit, jobs } from '../platform/queues.js';
import {
  claimOAuthCode,
  deleteEndedSignInRows,
  expireResetLinksOf,
  findLiveSession,
  findUsablePasswordLink,
  findUserForSignIn,
  askedForResetWithin,
  findPasswordUserByEmail,
  lockPasswordLinksOf,
  insertOAuthCode,
  insertPasswordLink,
  insertSession,
  markPasswordLinkUsed,
  revokeSession,
  revokeSessionsOf,
  setPasswordHash,
  userHasPassword,
  type SessionRow,
} from './sign-in.repo.js';

/** What a successful sign-in gives the browser: the session's cookie value and its CSRF token. */
export interface SignedIn {
  user: UserRow;
  session: SessionRow;
  secret: string;
  csrf: string;
}

/** The one answer to a failed sign-in, whatever failed (unknown user, no password yet, wrong password). */
const signInFailed = () => new Unauthorized('The username or password is incorrect.');

/**
 * Signs a person in by username or email and password; opens a session. Unknown users cost the
 * same hashing work as a wrong password (the verifier's dummy hash), so neither the answer nor its
 * time tells whether an account exists.
 */
export async function signIn(
  rt: Runtime,
  verifier: PasswordVerifier,
  login: string,
  password: string,
): Promise<SignedIn> {
  const found = await findUserForSignIn(rt.db, login);
  const ok = await verifier.verify(found?.password_hash ?? null, password);
  if (!found || !ok) throw signInFailed();
  // Said only to whoever knows the password: it tells nothing about an account to anyone else.
  if (found.suspended_at) throw new Unauthorized('This account is suspended: ask a site admin.');
  const { password_hash: _hash, suspended_at: _suspended, ...user } = found;
  if (rt.config.passwordSignIn === 'site-admins' && !user.is_admin)
    throw new Unauthorized('Sign in through your identity provider: password sign-in is for site admins only.');
  return { user, ...(await openSession(rt, user.id)) };
}

/** A new console session of a user: its cookie secret and CSRF token, each shown once. */
export async function openSession(rt: Pick<Runtime, 'db' | 'config'>, userId: string): Promise<Omit<SignedIn, 'user'>> {
  const secret = newSecret();
  const csrf = newSecret();
  const session = await insertSession(rt.db, {
    userId,
    secret,
    csrf,
    expiresAt: new Date(Date.now() + rt.config.sessionTtlSeconds * 1000),
  });
  return { session, secret, csrf };
}

/** The live session a cookie names, with its user; null when unknown, expired or revoked. */
export const sessionFor = (rt: Pick<Runtime, 'db'>, secret: string) => findLiveSession(rt.db, secret);

export const signOut = (rt: Pick<Runtime, 'db'>, sessionId: string): Promise<void> => revokeSession(rt.db, sessionId);

/**
 * Sets a password with a one-time link: an invitation's (which also accepts the invitation) or a
 * site admin's reset link. The link is used up; every session of the user ends (a reset also ends
 * the user's other reset links). An invitation to a user who already has a password sets nothing:
 * that user signs in and accepts the invitation.
 */
export async function setPasswordWithLink(rt: Runtime, secret: string, password: string): Promise<void> {
  const problem = passwordProblem(password);
  if (problem) throw new Unprocessable(problem, { member: 'password' });
  const unusable = () => new NotFound('This link is not valid: it may have been used already or have expired.');
  // An unknown, used or expired link costs no hashing; the transaction checks the link again.
  if (!(await findUsablePasswordLink(rt.db, secret))) throw unusable();
  const hash = await hashPassword(password);
  await rt.db.transaction(async (tx) => {
    const link = await findUsablePasswordLink(tx, secret);
    if (!link) throw unusable();
    if (link.purpose === 'invitation' && (await userHasPassword(tx, link.user_id))) {
      throw new Unprocessable('This account already has a password: sign in and accept the invitation.', {
        member: 'token',
      });
    }
    if (!(await markPasswordLinkUsed(tx, link.id))) throw unusable();
    await setPasswordHash(tx, link.user_id, hash);
    await revokeSessionsOf(tx, link.user_id);
    if (link.purpose === 'reset') await expireResetLinksOf(tx, link.user_id);
    // Accepting an invitation already accepted (through the API) changes nothing.
    if (link.membership_id) await activateMembership(tx, link.membership_id);
  });
}

/** A site admin's password reset link for a user (replacing the user's earlier unused ones). */
export async function issueResetLink(
  rt: Runtime,
  adminId: string,
  userId: string,
): Promise<{ id: string; url: string; expiresAt: Date }> {
  const secret = newSecret();
  const link = await rt.db.transaction(async (tx) => {
    if (!(await findUserById(tx, userId))) throw new NotFound();
    await expireResetLinksOf(tx, userId);
    return insertPasswordLink(tx, {
      userId,
      purpose: 'reset',
      secret,
      createdById: adminId,
      expiresAt: new Date(Date.now() + rt.config.passwordResetTtlSeconds * 1000),
    });
  });
  return { id: link.id, url: passwordLinkUrl(rt.config.baseUrl, 'reset', secret), expiresAt: link.expires_at };
}

/** A person asks for a reset link at most this often; more asking sends nothing more. */
export const RESET_REQUEST_INTERVAL_SECONDS = 300;

/**
 * A person who forgot their password asks for a link by email. The answer never says whether the
 * account exists: a mail with a one-time reset link is queued only for an account with a password
 * that may sign in with it (not suspended; a site admin when passwords are for site admins only),
 * and at most once in RESET_REQUEST_INTERVAL_SECONDS. Returns the mail's id, or null.
 */
export async function requestPasswordReset(rt: Runtime, email: string): Promise<string | null> {
  const mailId = await rt.db.transaction(async (tx) => {
    const user = await findPasswordUserByEmail(tx, email);
    if (!user?.email || user.suspended_at) return null;
    if (rt.config.passwordSignIn === 'site-admins' && !user.is_admin) return null;
    await lockPasswordLinksOf(tx, user.id);
    if (await askedForResetWithin(tx, user.id, RESET_REQUEST_INTERVAL_SECONDS)) return null;
    const secret = newSecret();
    await expireResetLinksOf(tx, user.id);
    await insertPasswordLink(tx, {
      userId: user.id,
      purpose: 'reset',
      secret,
      expiresAt: new Date(Date.now() + rt.config.passwordResetTtlSeconds * 1000),
    });
    const mail = await insertMail(tx, {
      kind: 'password-reset',
      refId: user.id,
      to: user.email,
      subject: 'Reset your password',
      body:
        `Someone asked to reset the password of ${user.username}.\n\n` +
        `To choose a new one, open ${passwordLinkUrl(rt.config.baseUrl, 'reset', secret)}\n` +
        `(the link can be used once). If it was not you, ignore this mail: your password stays as it is.\n`,
      // The link is a credential: the mail is stored encrypted until it is sent.
      sealWith: rt.config.encryptionKey,
    });
    return mail.id;
  });
  if (mailId) await enqueueAfterCommit(rt.queues, jobs.mailDelivery(mailId), rt.logger);
  return mailId;
}

// ---- terraform login (OAuth 2.0 authorization code with PKCE) ----

/** An authorization code is usable this long after consent (the CLI exchanges it at once). */
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  codeChallengeMethod: string;
  responseType: string;
}

/** Why an authorization request is refused (the console shows it; nothing is redirected). */
function authorizationProblem(r: AuthorizationRequest): FieldProblem | null {
  if (r.clientId !== TERRAFORM_CLIENT_ID)
    return { detail: `unknown client_id (only ${TERRAFORM_CLIENT_ID} is known)`, field: { member: 'client_id' } };
  if (!isTerraformRedirectUri(r.redirectUri))
    return {
      detail: 'redirect_uri must be http://localhost:<port>/login (or 127.0.0.1) with a port from 10000 to 10010',
      field: { member: 'redirect_uri' },
    };
  if (r.responseType !== 'code') return { detail: 'response_type must be code', field: { member: 'response_type' } };
  if (r.codeChallengeMethod !== 'S256')
    return { detail: 'code_challenge_method must be S256', field: { member: 'code_challenge_method' } };
  if (!isPkceValue(r.codeChallenge))
    return {
      detail: 'code_challenge must be an S256 challenge (43 base64url characters)',
      field: { member: 'code_challenge' },
    };
  return null;
}

/** The signed-in user consents: a single-use, short-lived code bound to the redirect URI and the PKCE challenge. */
export async function authorizeTerraformLogin(
  rt: Runtime,
  userId: string,
  request: AuthorizationRequest,
): Promise<{ redirect: string }> {
  const problem = authorizationProblem(request);
  if (problem) throw new Unprocessable(problem.detail, problem.field);
  const code = newSecret();
  await insertOAuthCode(rt.db, {
    userId,
    secret: code,
    clientId: request.clientId,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    expiresAt: new Date(Date.now() + AUTHORIZATION_CODE_TTL_SECONDS * 1000),
  });
  return { redirect: redirectWithCode(request.redirectUri, code, request.state) };
}

/** An OAuth 2.0 token endpoint error (RFC 6749 section 5.2): the code says what, the description why. */
export class OAuthError extends Error {
  constructor(
    readonly code: 'invalid_request' | 'invalid_grant' | 'invalid_client' | 'unsupported_grant_type',
    readonly description: string,
  ) {
    super(description);
  }
}

export interface TokenRequest {
  grantType: string | undefined;
  code: string | undefined;
  redirectUri: string | undefined;
  clientId: string | undefined;
  codeVerifier: string | undefined;
}

/**
 * Exchanges an authorization code for a new user API token. The code is spent by this attempt
 * whatever its outcome; it must have been issued to the same client and redirect URI, and the
 * verifier must match its S256 challenge.
 */
export async function exchangeAuthorizationCode(rt: Runtime, r: TokenRequest): Promise<{ token: string }> {
  if (r.grantType !== 'authorization_code')
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code');
  if (!r.code || !r.redirectUri || !r.codeVerifier)
    throw new OAuthError('invalid_request', 'code, redirect_uri and code_verifier are required');
  if (r.clientId !== TERRAFORM_CLIENT_ID) throw new OAuthError('invalid_client', 'unknown client_id');
  if (!isPkceValue(r.codeVerifier)) throw new OAuthError('invalid_request', 'code_verifier is malformed');
  const out = await rt.db.transaction(async (tx): Promise<{ token: string } | { refused: OAuthError }> => {
    const code = await claimOAuthCode(tx, r.code!);
    const invalid = () =>
      new OAuthError(
        'invalid_grant',
        'the authorization code is invalid, expired or already used, or does not match this request',
      );
    if (!code) throw invalid();
    if (
      code.client_id !== r.clientId ||
      code.redirect_uri !== r.redirectUri ||
      s256Challenge(r.codeVerifier!) !== code.code_challenge
    ) {
      // The code stays spent: commit its use, then refuse.
      return { refused: invalid() };
    }
    const { secret } = await issueToken(
      tx,
      { kind: 'user', userId: code.user_id },
      { description: 'terraform login', createdById: code.user_id },
    );
    return { token: secret };
  });
  if ('refused' in out) throw out.refused;
  return out;
}

/** Ended sign-in rows are kept this long (to tell what happened to a session or link), then deleted. */
export const ENDED_SIGN_IN_KEEP_SECONDS = 7 * 24 * 3600;

/** The sweeper's part: deletes sessions, links and codes that ended a while ago. */
export async function sweepSignIn(rt: Pick<Runtime, 'db' | 'logger'>): Promise<number> {
  const removed = await deleteEndedSignInRows(rt.db, ENDED_SIGN_IN_KEEP_SECONDS);
  if (removed) rt.logger.info('removed ended sessions, password links and authorization codes', { count: removed });
  return removed;
}

/**
 * Whether a console request carries its session's CSRF token: the header equals the CSRF cookie
 * and is the token issued with the session (kept as a digest).
 */
export const carriesCsrfToken = (header: string, cookie: string, csrfDigest: string): boolean =>
  safeEqual(header, cookie) && safeEqual(sha256Hex(header), csrfDigest);

/** A credential as rate limits key it: a digest, so no budget key holds a secret. */
export const credentialDigest = (secret: string): string => sha256Hex(secret);
