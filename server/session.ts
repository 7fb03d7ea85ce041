import type { Request, Response } from 'express';
import type { Config } from '../shared/platform/config.js';
import { Forbidden } from '../shared/platform/errors.js';
import { carriesCsrfToken } from '../shared/identity/index.js';
import type { SessionRow } from '../shared/identity/sign-in.repo.js';

export const CSRF_HEADER = 'X-CSRF-Token';

/** Methods that change nothing: no CSRF token needed. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const isSafeMethod = (method: string): boolean => SAFE_METHODS.has(method.toUpperCase());

/** The request's cookies by name (the first of duplicates; values percent-decoded when they can be). */
export function readCookies(req: Request): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // Kept as sent.
    }
    if (!out.has(name)) out.set(name, value);
  }
  return out;
}

const secure = (config: Pick<Config, 'baseUrl'>) => config.baseUrl.startsWith('https:');

/**
 * The session cookie (httpOnly) and the CSRF cookie (readable by the console's scripts). Over https
 * both carry the `__Host-` prefix: a browser then keeps only cookies set Secure, with Path=/ and no
 * Domain, by this very host, so a sibling subdomain cannot plant a matching pair.
 */
export function cookieNames(config: Pick<Config, 'baseUrl'>): { session: string; csrf: string } {
  return secure(config)
    ? { session: '__Host-tfsession', csrf: '__Host-tfcsrf' }
    : { session: 'tfsession', csrf: 'tfcsrf' };
}

/** Sets the session and CSRF cookies: path /, SameSite=Lax, Secure when BASE_URL is https, for the session's lifetime. */
export function setSessionCookies(
  res: Response,
  config: Pick<Config, 'baseUrl' | 'sessionTtlSeconds'>,
  secret: string,
  csrf: string,
): void {
  const common = {
    path: '/',
    sameSite: 'lax' as const,
    secure: secure(config),
    maxAge: config.sessionTtlSeconds * 1000,
  };
  const names = cookieNames(config);
  res.cookie(names.session, secret, { ...common, httpOnly: true });
  res.cookie(names.csrf, csrf, { ...common, httpOnly: false });
}

/**
 * The cookie that ties a sign-in through an identity provider to the browser that started it:
 * HttpOnly, SameSite=Lax (the provider's redirect back is a top-level navigation from its site),
 * until the sign-in expires.
 */
export const ssoCookieName = (config: Pick<Config, 'baseUrl'>) => (secure(config) ? '__Host-tfsso' : 'tfsso');

/** Sets the sign-in's browser key until the sign-in expires, or (null) clears it. */
export function setSsoCookie(
  res: Response,
  config: Pick<Config, 'baseUrl'>,
  key: { browserKey: string; expiresAt: Date } | null,
): void {
  const options = { path: '/', sameSite: 'lax' as const, secure: secure(config), httpOnly: true };
  if (key === null) res.clearCookie(ssoCookieName(config), options);
  else res.cookie(ssoCookieName(config), key.browserKey, { ...options, expires: key.expiresAt });
}

/** Clears both cookies (same attributes, expired). */
export function clearSessionCookies(res: Response, config: Pick<Config, 'baseUrl'>): void {
  const common = { path: '/', sameSite: 'lax' as const, secure: secure(config) };
  const names = cookieNames(config);
  res.clearCookie(names.session, { ...common, httpOnly: true });
  res.clearCookie(names.csrf, { ...common, httpOnly: false });
}

/** 403 unless the Origin header, when the browser sent one, is BASE_URL's origin. */
export function assertSameOrigin(req: Request, config: Pick<Config, 'baseUrl'>): void {
  const origin = req.get('origin');
  if (origin === undefined) return;
  if (origin !== new URL(config.baseUrl).origin)
    throw new Forbidden('The request comes from another site (Origin does not match this service).');
}

/**
 * The CSRF rule of a state-changing request authenticated by the session cookie: the X-CSRF-Token
 * header must equal the CSRF cookie and be the token issued with this session, and the Origin
 * header, if present, must be this service's. Otherwise 403.
 */
export function assertCsrf(
  req: Request,
  config: Pick<Config, 'baseUrl'>,
  session: Pick<SessionRow, 'csrf_digest'>,
): void {
  const header = req.get(CSRF_HEADER);
  const name = cookieNames(config).csrf;
  const cookie = readCookies(req).get(name);
  if (!header || !cookie || !carriesCsrfToken(header, cookie, session.csrf_digest)) {
    throw new Forbidden(
      `A state-changing request signed in by the session cookie must carry the ${CSRF_HEADER} header with the value of the ${name} cookie.`,
    );
  }
  assertSameOrigin(req, config);
}
