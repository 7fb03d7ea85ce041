import * as client from 'openid-client';
import type { OidcProvider } from '../platform/config.js';

/** A provider's metadata is discovered again after this long, so a changed issuer is followed. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

const discovered = new Map<string, { at: number; config: Promise<client.Configuration> }>();

const onLoopback = (issuer: string) => {
  const u = new URL(issuer);
  return u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
};

/**
 * The provider's configuration from its discovery document (endpoints, keys' address), cached per
 * process; a failed discovery is tried again on the next sign-in. Signing keys are fetched from
 * the provider's JWKS as ID tokens name them, so a key it rotates in is picked up.
 */
function configurationOf(p: OidcProvider): Promise<client.Configuration> {
  const key = `${p.name}\n${p.issuer}\n${p.clientId}`;
  const cached = discovered.get(key);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
  const config = client.discovery(
    new URL(p.issuer),
    p.clientId,
    p.clientSecret ?? undefined,
    p.clientSecret ? undefined : client.None(),
    {
      // ID tokens are checked against the provider's keys even when they come straight from its
      // token endpoint, where the OIDC spec lets TLS alone vouch for them.
      execute: [client.enableNonRepudiationChecks, ...(onLoopback(p.issuer) ? [client.allowInsecureRequests] : [])],
      timeout: 10,
    },
  );
  config.catch(() => discovered.delete(key));
  discovered.set(key, { at: Date.now(), config });
  return config;
}

/** What a sign-in keeps until the provider sends the person back: checked then, used once. */
export interface SignInSecrets {
  state: string;
  nonce: string;
  verifier: string;
}

export const newSignInSecrets = (): SignInSecrets => ({
  state: client.randomState(),
  nonce: client.randomNonce(),
  verifier: client.randomPKCECodeVerifier(),
});

/** The provider's authorization URL for this sign-in (code flow with PKCE, S256). */
export async function authorizationUrl(p: OidcProvider, redirectUri: string, s: SignInSecrets): Promise<string> {
  const config = await configurationOf(p);
  return client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: p.scopes.join(' '),
    state: s.state,
    nonce: s.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(s.verifier),
    code_challenge_method: 'S256',
  }).href;
}

/**
 * Exchanges the code the provider sent back for tokens and validates the ID token (signature by
 * the provider's keys, issuer, audience, expiry with openid-client's clock tolerance, nonce); the
 * state must be this sign-in's. Its claims, with those the ID token lacks (username, email, groups)
 * from the userinfo endpoint, whose answer must be about the same subject.
 */
export async function validatedClaims(
  p: OidcProvider,
  callbackUrl: URL,
  s: SignInSecrets,
): Promise<Record<string, unknown>> {
  const config = await configurationOf(p);
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: s.verifier,
    expectedState: s.state,
    expectedNonce: s.nonce,
    idTokenExpected: true,
  });
  const claims = { ...tokens.claims()! } as Record<string, unknown>;
  // Many providers put only `sub` in the ID token and the rest behind the userinfo endpoint.
  const wanted = [p.usernameClaim, 'email', ...(p.groupsClaim ? [p.groupsClaim] : [])];
  if (wanted.some((c) => claims[c] === undefined) && config.serverMetadata().userinfo_endpoint) {
    const info = await client.fetchUserInfo(config, tokens.access_token, String(claims.sub));
    for (const [k, v] of Object.entries(info)) if (claims[k] === undefined) claims[k] = v;
  }
  return claims;
}
