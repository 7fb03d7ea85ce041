import type { Request, Response } from 'express';
import type { AppDeps } from '../context.js';
import { exchangeAuthorizationCode, OAuthError } from '../../shared/identity/index.js';
import { clientAddress, enforceLimit } from '../rate-limit.js';

const field = (body: unknown, name: string): string | undefined => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};

/** A client id sent as HTTP Basic credentials (RFC 6749 section 2.3.1: a public client has an empty secret). */
function basicClientId(header: string | undefined): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  try {
    return decodeURIComponent((colon < 0 ? decoded : decoded.slice(0, colon)).replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** The OAuth 2.0 token endpoint of `terraform login` (form-encoded; answers in RFC 6749's JSON, not JSON:API). */
export function oauthHandlers(deps: AppDeps) {
  return {
    async token(req: Request, res: Response) {
      await enforceLimit(deps.rateLimits, 'sign-in', clientAddress(req));
      res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
      try {
        const { token } = await exchangeAuthorizationCode(deps, {
          grantType: field(req.body, 'grant_type'),
          code: field(req.body, 'code'),
          redirectUri: field(req.body, 'redirect_uri'),
          clientId: field(req.body, 'client_id') ?? basicClientId(req.get('authorization')),
          codeVerifier: field(req.body, 'code_verifier'),
        });
        res.status(200).json({ access_token: token, token_type: 'bearer' });
      } catch (err) {
        if (!(err instanceof OAuthError)) throw err;
        res
          .status(err.code === 'invalid_client' ? 401 : 400)
          .json({ error: err.code, error_description: err.description });
      }
    },
  };
}
