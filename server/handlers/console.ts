import type { NextFunction, Request, Response } from 'express';
import type { AppDeps } from '../context.js';
import { Unauthorized } from '../../shared/platform/errors.js';
import {
  authorizeTerraformLogin,
  PasswordVerifier,
  requestPasswordReset,
  setPasswordWithLink,
  signIn,
  signOut,
} from '../../shared/identity/index.js';
import { finishProviderSignIn, ProviderSignInRefused, startProviderSignIn } from '../../shared/sso/index.js';
import { clientAddress, enforceLimit, signInAttempt } from '../rate-limit.js';
import { send } from '../jsonapi.js';
import { userResource } from '../serializers/foundation.js';
import { sessionPrincipal } from '../auth.js';
import {
  assertSameOrigin,
  clearSessionCookies,
  cookieNames,
  CSRF_HEADER,
  setSessionCookies,
  readCookies,
  setSsoCookie,
  ssoCookieName,
} from '../session.js';

/** The console's sign-in endpoints under /api/console (JSON bodies, session cookie). */
export function consoleHandlers(deps: AppDeps) {
  const { config, rateLimits } = deps;
  const verifier = new PasswordVerifier();

  /**
   * The signed-in user, with where the console finds its CSRF token: the cookie's name (which is
   * `__Host-` prefixed when BASE_URL is https) and the header to copy it into.
   */
  const sendSignedIn = (res: Response, user: Parameters<typeof userResource>[0]) => {
    res.set('Cache-Control', 'no-store');
    send(res, 200, {
      data: userResource(user, config.organizationCreation, { self: true }),
      meta: { 'csrf-cookie': cookieNames(config).csrf, 'csrf-header': CSRF_HEADER },
    });
  };

  /** The session and user a `session` middleware found. */
  function signedIn(res: Response) {
    if (!res.locals.session || res.locals.principal.kind !== 'user')
      throw new Unauthorized('Sign in first: no valid session.');
    return { session: res.locals.session, user: res.locals.principal.user };
  }

  /** A sign-in through a provider that was refused: back to the sign-in page, which shows why. */
  const backToSignIn = (res: Response, err: unknown) => {
    if (!(err instanceof ProviderSignInRefused)) throw err;
    res.redirect(303, `/app/sign-in?error=${encodeURIComponent(err.message)}`);
  };

  return {
    /** Middleware: 401 unless a live session cookie authenticates the request (403 when a change fails the CSRF rule). */
    async session(req: Request, res: Response, next: NextFunction) {
      if (!(await sessionPrincipal(deps.db, config, req, res)))
        throw new Unauthorized('Sign in first: no valid session.');
      next();
    },

    /** Signs in with a username (or email) and password; sets the session and CSRF cookies. */
    async signIn(req: Request, res: Response) {
      assertSameOrigin(req, config);
      const { username, password } = req.body as { username: string; password: string };
      const address = clientAddress(req);
      await enforceLimit(rateLimits, 'sign-in', address);
      // Only failures count against an account, and per address first (docs/security.md "Sign-in").
      const attempt = await signInAttempt(rateLimits, username.toLowerCase(), address);
      const signedIn = await signIn(deps, verifier, username, password).catch(async (err: unknown) => {
        if (err instanceof Unauthorized) await attempt.failed();
        throw err;
      });
      setSessionCookies(res, config, signedIn.secret, signedIn.csrf);
      sendSignedIn(res, signedIn.user);
    },

    async show(_req: Request, res: Response) {
      sendSignedIn(res, signedIn(res).user);
    },

    /** Signs out: revokes the session and clears both cookies. */
    async signOut(_req: Request, res: Response) {
      const { session } = signedIn(res);
      await signOut(deps, session.id);
      clearSessionCookies(res, config);
      res.status(204).end();
    },

    /** Sets a password with an invitation's or a reset's one-time token. */
    async setPassword(req: Request, res: Response) {
      assertSameOrigin(req, config);
      await enforceLimit(rateLimits, 'sign-in', clientAddress(req));
      const { token, password } = req.body as { token: string; password: string };
      await setPasswordWithLink(deps, token, password);
      res.status(204).end();
    },

    /** Forgot password: a one-time link by email, if there is such an account; the answer is the same either way. */
    async requestReset(req: Request, res: Response) {
      assertSameOrigin(req, config);
      await enforceLimit(rateLimits, 'sign-in', clientAddress(req));
      await requestPasswordReset(deps, (req.body as { email: string }).email);
      res.status(202).json({ message: 'If an account has this email, a link to reset its password is on its way.' });
    },

    /** The consent button of `terraform login`: a code for the CLI's redirect URI. */
    async authorize(req: Request, res: Response) {
      const { user } = signedIn(res);
      const b = req.body as {
        client_id: string;
        redirect_uri: string;
        state?: string;
        code_challenge: string;
        code_challenge_method: string;
        response_type: string;
      };
      const out = await authorizeTerraformLogin(deps, user.id, {
        clientId: b.client_id,
        redirectUri: b.redirect_uri,
        state: b.state ?? null,
        codeChallenge: b.code_challenge,
        codeChallengeMethod: b.code_challenge_method,
        responseType: b.response_type,
      });
      res.set('Cache-Control', 'no-store');
      res.status(200).json(out);
    },

    /** The identity providers the sign-in page offers, and whether passwords are for site admins only. */
    async providers(_req: Request, res: Response) {
      res.status(200).json({
        providers: config.oidcProviders.map((p) => ({
          name: p.name,
          label: p.label,
          start: `/api/console/sso/${p.name}/start`,
        })),
        'password-sign-in': config.passwordSignIn,
      });
    },

    /** Sends the browser to the provider, to come back to `callback` (`next`: where to go once signed in). */
    async startSso(req: Request<{ provider: string }>, res: Response) {
      await enforceLimit(rateLimits, 'sign-in', clientAddress(req));
      const next = typeof req.query.next === 'string' ? req.query.next : null;
      try {
        res.set('Cache-Control', 'no-store');
        const started = await startProviderSignIn(deps, req.params.provider, next);
        setSsoCookie(res, config, started);
        res.redirect(303, started.url);
      } catch (err) {
        backToSignIn(res, err);
      }
    },

    /**
     * The provider's redirect back: a session and its cookies when the sign-in holds, then on to the
     * page it started from; otherwise the sign-in page with the reason, and no session.
     */
    async ssoCallback(req: Request<{ provider: string }>, res: Response) {
      await enforceLimit(rateLimits, 'sign-in', clientAddress(req));
      res.set('Cache-Control', 'no-store');
      const browserKey = readCookies(req).get(ssoCookieName(config)) ?? '';
      setSsoCookie(res, config, null);
      try {
        const signedIn = await finishProviderSignIn(
          deps,
          req.params.provider,
          new URL(req.originalUrl, config.baseUrl),
          browserKey,
        );
        setSessionCookies(res, config, signedIn.secret, signedIn.csrf);
        res.redirect(303, signedIn.next);
      } catch (err) {
        backToSignIn(res, err);
      }
    },
  };
}
