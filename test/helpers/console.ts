import { expect } from 'chai';
import { api, readResponse, type ApiResponse } from './api.js';
import { harness } from './harness.js';
import type { TestUser } from './fixtures.js';

/** A browser's session: the cookies sign-in set, as a Cookie header, and the CSRF token the console reads. */
export interface Session {
  cookie: string;
  csrf: string;
  setCookies: string[];
}

/** Calls the service as the console's scripts do: JSON bodies, the session's cookies, no Authorization header. */
export async function browser(
  method: string,
  path: string,
  opts: {
    session?: Session | null;
    body?: unknown;
    csrf?: string | null;
    origin?: string | null;
    headers?: Record<string, string>;
    base?: string;
  } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  if (opts.session) headers.Cookie = opts.session.cookie;
  const csrf = opts.csrf === undefined ? opts.session?.csrf : opts.csrf;
  if (csrf) headers['X-CSRF-Token'] = csrf;
  const base = opts.base ?? harness().baseUrl;
  const origin = opts.origin === undefined ? new URL(base).origin : opts.origin;
  if (origin) headers.Origin = origin;
  if (opts.body !== undefined) headers['Content-Type'] ??= 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    redirect: 'manual',
  });
  return readResponse(res);
}

/** The session a successful sign-in answer set. */
export function sessionOf(res: ApiResponse): Session {
  const setCookies = res.headers.getSetCookie();
  const value = (name: string) => {
    const line = setCookies.find((c) => c.startsWith(`${name}=`));
    expect(line, `Set-Cookie ${name}: ${setCookies.join(' | ')}`).to.be.a('string');
    return decodeURIComponent(line!.slice(name.length + 1).split(';')[0]);
  };
  const session = value('tfsession');
  const csrf = value('tfcsrf');
  return { cookie: `tfsession=${session}; tfcsrf=${csrf}`, csrf, setCookies };
}

export async function signIn(username: string, password: string, base?: string): Promise<Session> {
  const res = await browser('POST', '/api/console/session', { body: { username, password }, base });
  expect(res.status, res.text).to.equal(200);
  return sessionOf(res);
}

/** The token of a password link from its URL (`...?token=`). */
export const linkToken = (url: string): string => new URL(url).searchParams.get('token')!;

/** Gives a user a password through a site admin's reset link; returns the password. */
export async function givePassword(
  user: Pick<TestUser, 'id'>,
  password = `pw-${Math.random().toString(36).slice(2)}-long`,
): Promise<string> {
  const link = await api('POST', `/admin/users/${user.id}/actions/reset-password`);
  expect(link.status, link.text).to.equal(200);
  const set = await browser('POST', '/api/console/password', {
    body: { token: linkToken(link.body.data.attributes['reset-url']), password },
  });
  expect(set.status, set.text).to.equal(204);
  return password;
}

/** A user with a password, signed in. */
export async function signedIn(user: TestUser): Promise<Session> {
  return signIn(user.username, await givePassword(user));
}
