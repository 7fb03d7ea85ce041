import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

/** A person the test identity provider knows: their claims, groups included (changeable between sign-ins). */
export interface IdpAccount {
  sub: string;
  preferred_username: string;
  email: string;
  email_verified: boolean;
  groups: string[];
}

/**
 * How the provider's token answers are changed on their way to the service, to see each refused:
 * `tamper` alters the ID token's payload (its signature no longer holds); `expire` and `audience`
 * sign it again with the provider's own key, expired or for another client.
 */
export type TokenFault = 'none' | 'tamper' | 'expire' | 'audience';

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, IdpAccount>;
  fault: TokenFault;
  /** The OIDC_PROVIDERS entry for this provider. */
  providerConfig(extra?: Record<string, unknown>): Record<string, unknown>;
  close(): Promise<void>;
}

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

/**
 * A real OpenID provider (oidc-provider, with its development login and consent pages) on
 * loopback, behind a small proxy that is its public address: the proxy passes everything through
 * and, when `fault` says so, changes the ID token in the token endpoint's answer.
 */
export async function startTestIdp(redirectUri: string): Promise<TestIdp> {
  const front = createServer();
  const frontPort = await listen(front);
  const issuer = `http://127.0.0.1:${frontPort}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const accounts = new Map<string, IdpAccount>();
  const clientId = 'run-lifecycle-service';
  const clientSecret = 'test-client-secret-0123456789';
  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [jwk] as NonNullable<Configuration['jwks']>['keys'] },
    scopes: ['openid', 'profile', 'email', 'groups'],
    claims: {
      openid: ['sub'],
      profile: ['preferred_username'],
      email: ['email', 'email_verified'],
      groups: ['groups'],
    },
    // The ID token carries the claims too (as many providers' do), not only the userinfo endpoint.
    conformIdTokenClaims: false,
    findAccount: (_ctx, sub) => {
      const a = accounts.get(sub);
      return a ? { accountId: sub, claims: () => ({ ...a }) } : undefined;
    },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['test-cookie-key-0123456789'] },
  };
  const provider = new Provider(issuer, configuration);
  provider.proxy = true;
  const back = createServer(provider.callback());
  const backPort = await listen(back);
  const idp: TestIdp = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    fault: 'none',
    providerConfig: (extra = {}) => ({
      name: 'test-idp',
      label: 'Test IdP',
      issuer,
      clientId,
      clientSecret,
      scopes: ['openid', 'profile', 'email', 'groups'],
      ...extra,
    }),
    close: async () => {
      await new Promise<void>((r) => front.close(() => r()));
      await new Promise<void>((r) => back.close(() => r()));
    },
  };

  /** The ID token changed as `fault` says. */
  const faulty = async (token: string): Promise<string> => {
    if (idp.fault === 'tamper') {
      const [h, p, s] = token.split('.');
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
      return [h, Buffer.from(JSON.stringify({ ...claims, preferred_username: 'admin' })).toString('base64url'), s].join(
        '.',
      );
    }
    const claims = decodeJwt(token);
    const now = Math.floor(Date.now() / 1000);
    const changed =
      idp.fault === 'expire' ? { ...claims, iat: now - 7200, exp: now - 3600 } : { ...claims, aud: 'another-client' };
    return new SignJWT(changed)
      .setProtectedHeader({ alg: 'RS256', kid: decodeProtectedHeader(token).kid })
      .sign(privateKey);
  };

  front.on('request', (req, res) => {
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: backPort,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, 'x-forwarded-host': `127.0.0.1:${frontPort}`, 'x-forwarded-proto': 'http' },
      },
      (up) => {
        const isToken = req.url?.startsWith('/token') && idp.fault !== 'none';
        if (!isToken) {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', async () => {
          const body = JSON.parse(Buffer.concat(chunks).toString()) as { id_token?: string };
          if (body.id_token) body.id_token = await faulty(body.id_token);
          const text = JSON.stringify(body);
          const headers = { ...up.headers, 'content-length': String(Buffer.byteLength(text)) };
          res.writeHead(up.statusCode ?? 502, headers);
          res.end(text);
        });
      },
    );
    req.pipe(upstream);
  });
  return idp;
}
