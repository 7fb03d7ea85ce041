import express, { Router } from 'express';
import type { AppDeps } from '../context.js';
import { validate } from '../validate.js';
import { consoleHandlers } from '../handlers/console.js';
import { oauthHandlers } from '../handlers/oauth.js';

/**
 * The console's sign-in API under /api/console (session cookie; JSON bodies). Each handler
 * authenticates by itself: sign-in and password links need no session, the others a live one.
 */
export function consoleRoutes(deps: AppDeps): Router {
  const r = Router();
  const c = consoleHandlers(deps);
  r.use(express.json({ limit: '16kb', strict: true }));
  r.post('/session', validate('console.session'), c.signIn);
  r.get('/session', c.session, c.show);
  r.delete('/session', c.session, c.signOut);
  r.post('/password', validate('console.password'), c.setPassword);
  r.post('/password-reset', validate('console.password-reset'), c.requestReset);
  r.post('/oauth/authorize', c.session, validate('console.oauth-authorize'), c.authorize);
  r.get('/sso', c.providers);
  r.get('/sso/:provider/start', c.startSso);
  r.get('/sso/:provider/callback', c.ssoCallback);
  return r;
}

/** The token endpoint of `terraform login` (form-encoded). */
export function oauthRoutes(deps: AppDeps): Router {
  const r = Router();
  r.post('/oauth/token', express.urlencoded({ extended: false, limit: '16kb' }), oauthHandlers(deps).token);
  return r;
}
