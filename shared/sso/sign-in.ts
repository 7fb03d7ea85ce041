import type { Runtime } from '../runtime.js';
import type { OidcProvider } from '../platform/config.js';
import { decryptSecret, encryptSecret, newSecret } from '../platform/crypto.js';
import { NotFound } from '../platform/errors.js';
import { isUniqueViolation } from '../platform/db.js';
import {
  createUserFromProvider,
  findUserByEmail,
  findUserById,
  openSession,
  syncTeamsWithGroups,
  type UserRow,
} from '../identity/index.js';
import { authorizationUrl, newSignInSecrets, validatedClaims } from './oidc.js';
import { findIdentity, insertIdentity, insertSignInRequest, takeSignInRequest, touchIdentity } from './repo.js';
import { SIGN_IN_WINDOW_SECONDS, emailOf, groupsOf, safeNext, wantedUsername } from './rules.js';

/** A sign-in through a provider that did not succeed, in words the sign-in page shows. Nothing was opened. */
export class ProviderSignInRefused extends Error {}

/** Where a provider sends the person back to (the redirect URI an operator registers at the IdP). */
export const callbackUrlOf = (baseUrl: string, provider: string) => `${baseUrl}/api/console/sso/${provider}/callback`;

export function providerNamed(rt: Pick<Runtime, 'config'>, name: string): OidcProvider {
  const p = rt.config.oidcProviders.find((x) => x.name === name);
  if (!p) throw new NotFound('no such identity provider');
  return p;
}

/**
 * Starts a sign-in: remembers its state, nonce and PKCE verifier (sealed), and answers the
 * provider's URL to go to and the key the browser must keep (a cookie) for the sign-in to finish
 * there: a callback URL taken to another browser (a forced sign-in into someone else's account)
 * finds nothing.
 */
export async function startProviderSignIn(
  rt: Runtime,
  name: string,
  next: string | null,
): Promise<{ url: string; browserKey: string; expiresAt: Date }> {
  const p = providerNamed(rt, name);
  const secrets = newSignInSecrets();
  const browserKey = newSecret();
  let url: string;
  try {
    url = await authorizationUrl(p, callbackUrlOf(rt.config.baseUrl, p.name), secrets);
  } catch (err) {
    rt.logger.warn('identity provider unreachable', { provider: p.name, error: (err as Error).message });
    throw new ProviderSignInRefused(`${p.label} cannot be reached just now: try again in a moment.`);
  }
  const expiresAt = new Date(Date.now() + SIGN_IN_WINDOW_SECONDS * 1000);
  await insertSignInRequest(rt.db, {
    state: secrets.state,
    browserKey,
    provider: p.name,
    verifierSealed: encryptSecret(rt.config.encryptionKey, secrets.verifier),
    nonce: secrets.nonce,
    next: safeNext(next),
    expiresAt,
  });
  return { url, browserKey, expiresAt };
}

/**
 * The account of a provider's subject: the one linked to it before; else, when the provider may
 * link by email and says it verified the email, the account with that email; else a new one.
 */
async function accountFor(rt: Runtime, p: OidcProvider, claims: Record<string, unknown>): Promise<UserRow> {
  const subject = String(claims.sub);
  const linked = await findIdentity(rt.db, p.name, subject);
  if (linked) {
    await touchIdentity(rt.db, p.name, subject);
    return (await findUserById(rt.db, linked.user_id))!;
  }
  const { email, verified } = emailOf(claims);
  const existing = email ? await findUserByEmail(rt.db, email) : undefined;
  if (existing && !(p.linkByEmail && verified))
    throw new ProviderSignInRefused(
      'An account with this email exists already: sign in to it as before, or ask a site admin to allow linking.',
    );
  const user =
    existing ?? (await createUserFromProvider(rt, { wantedUsername: wantedUsername(claims, p.usernameClaim), email }));
  try {
    await insertIdentity(rt.db, p.name, subject, user.id);
  } catch (err) {
    // Two first sign-ins of one person at once: the other one linked the subject first.
    if (isUniqueViolation(err)) throw new ProviderSignInRefused('This sign-in raced another one: sign in again.');
    throw err;
  }
  rt.logger.info('account linked to identity provider', { provider: p.name, userId: user.id, created: !existing });
  return user;
}

export interface ProviderSignedIn {
  user: UserRow;
  secret: string;
  csrf: string;
  next: string;
}

/**
 * Finishes a sign-in from the provider's redirect: the state must name a sign-in under way that
 * this browser started (each is used once), the code is exchanged and the ID token validated; then
 * the account is found or made, its teams follow its groups, and a session is opened.
 */
export async function finishProviderSignIn(
  rt: Runtime,
  name: string,
  callbackUrl: URL,
  browserKey: string,
): Promise<ProviderSignedIn> {
  const p = providerNamed(rt, name);
  const q = callbackUrl.searchParams;
  if (q.get('error'))
    throw new ProviderSignInRefused(`${p.label} did not sign you in: ${q.get('error_description') || q.get('error')}.`);
  const state = q.get('state');
  const request = state ? await takeSignInRequest(rt.db, state, browserKey) : undefined;
  if (!state || !request || request.provider !== p.name || request.expires_at.getTime() < Date.now())
    throw new ProviderSignInRefused('This sign-in is unknown, used or expired: start it again.');
  let claims: Record<string, unknown>;
  try {
    claims = await validatedClaims(p, callbackUrl, {
      state,
      nonce: request.nonce,
      verifier: decryptSecret(rt.config.encryptionKey, request.verifier_sealed),
    });
  } catch (err) {
    rt.logger.warn('identity provider answer refused', { provider: p.name, error: (err as Error).message });
    throw new ProviderSignInRefused(`${p.label}'s answer could not be verified: ${(err as Error).message}`);
  }
  const user = await accountFor(rt, p, claims);
  if (user.suspended_at) throw new ProviderSignInRefused('This account is suspended: ask a site admin.');
  const changes = await syncTeamsWithGroups(rt, user.id, p.teamOrganizations, groupsOf(claims, p.groupsClaim));
  const named = (list: { organization_name: string; name: string }[]) =>
    list.map((t) => `${t.organization_name}/${t.name}`);
  if (changes.joined.length || changes.left.length || changes.keptLastOwner.length)
    rt.logger.info('teams changed by identity provider groups', {
      provider: p.name,
      userId: user.id,
      joined: named(changes.joined),
      left: named(changes.left),
      keptAsLastOwner: named(changes.keptLastOwner),
    });
  const { secret, csrf } = await openSession(rt, user.id);
  return { user, secret, csrf, next: request.next };
}
