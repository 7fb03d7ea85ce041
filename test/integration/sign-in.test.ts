import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { harness, startSecondApp } from '../helpers/harness.js';
import { openMailBody } from '../../shared/mail/repo.js';
import { sweepSignIn } from '../../shared/identity/sign-in.js';
import { createOrg, createUser, createWorkspace, uniq } from '../helpers/fixtures.js';
import { startHttpsApp, httpsCall, type HttpsApp } from '../helpers/https-app.js';
import type { TestUser } from '../helpers/fixtures.js';
import { browser, givePassword, linkToken, sessionOf, signIn, signedIn, type Session } from '../helpers/console.js';

/*
 * Sign-in for people: passwords set through one-time links, console sessions in a cookie, the
 * CSRF rule of every state-changing request the cookie authenticates, and the own-token API the
 * console's token page uses. Every request goes over HTTP as a browser (or an attacker's page) sends it.
 */

const db = () => harness().rt.db;

describe('console sign-in', function () {
  this.timeout(60_000);

  describe('sign in and out', () => {
    it('signs in by username or email, answers the user, and GET /api/console/session answers the same user', async () => {
      const user = await createUser();
      const password = await givePassword(user);
      for (const login of [user.username, user.email.toUpperCase()]) {
        const res = await browser('POST', '/api/console/session', { body: { username: login, password } });
        expect(res.status, res.text).to.equal(200);
        expect(res.body.data).to.include({ id: user.id, type: 'users' });
        expect(res.body.data.attributes).to.include({
          username: user.username,
          email: user.email,
          'is-site-admin': false,
        });
        const session = sessionOf(res);
        const me = await browser('GET', '/api/console/session', { session });
        expect(me.status, me.text).to.equal(200);
        expect(me.body.data.id).to.equal(user.id);
        expect(me.body.data.attributes.username).to.equal(user.username);
      }
    });

    it('sets the session cookie httpOnly, SameSite=Lax, path /, not Secure over http; the CSRF cookie readable; only digests are stored', async () => {
      const user = await createUser();
      const password = await givePassword(user);
      const res = await browser('POST', '/api/console/session', { body: { username: user.username, password } });
      const { setCookies, csrf } = sessionOf(res);
      const session = setCookies.find((c) => c.startsWith('tfsession='))!;
      const csrfCookie = setCookies.find((c) => c.startsWith('tfcsrf='))!;
      expect(session)
        .to.match(/; HttpOnly/i)
        .and.match(/; SameSite=Lax/i)
        .and.match(/; Path=\//i)
        .and.match(/; Max-Age=\d+/i);
      expect(session).to.not.match(/; Secure/i);
      expect(csrfCookie).to.not.match(/HttpOnly/i);
      expect(csrfCookie)
        .to.match(/; SameSite=Lax/i)
        .and.match(/; Path=\//i);
      expect(csrf).to.have.length.greaterThan(30);
      const secret = decodeURIComponent(session.slice('tfsession='.length).split(';')[0]);
      const rows = await db()('console_sessions').where({ user_id: user.id });
      expect(rows).to.have.length(1);
      expect(JSON.stringify(rows)).to.not.include(secret).and.not.include(csrf);
      const hash = (await db()('users').where({ id: user.id }).first('password_hash')).password_hash as string;
      expect(hash).to.match(/^\$argon2id\$v=19\$m=\d+,p=\d+,t=\d+\$/);
      expect(hash).to.not.include(password);
      // The hash never leaves the database: not in the user's own documents, nor in the site admin's view.
      const own = await browser('GET', '/api/console/session', { session: sessionOf(res) });
      for (const answer of [
        await api('GET', '/account/details', { token: user.token }),
        await api('GET', `/users/${user.id}`),
        own,
      ]) {
        expect(answer.status, answer.text).to.equal(200);
        expect(answer.text).to.not.include('argon2').and.not.include('password');
      }
    });

    it('answers a wrong password, an unknown user and a user without a password alike (401), and sets no cookie', async () => {
      const user = await createUser();
      await givePassword(user);
      const noPassword = await createUser();
      const answers = [];
      for (const [username, password] of [
        [user.username, 'wrong-password-1'],
        [uniq('nobody'), 'whatever-123'],
        [noPassword.username, 'whatever-123'],
      ]) {
        const res = await browser('POST', '/api/console/session', { body: { username, password } });
        expectError(res, 401);
        expect(res.headers.getSetCookie()).to.deep.equal([]);
        answers.push(res.body.errors);
      }
      expect(answers[1]).to.deep.equal(answers[0]);
      expect(answers[2]).to.deep.equal(answers[0]);
      expect(await db()('console_sessions').whereIn('user_id', [user.id, noPassword.id])).to.deep.equal([]);
    });

    it('signs out: 204, cookies cleared, the session refused afterwards (console and API)', async () => {
      const user = await createUser();
      const session = await signedIn(user);
      const out = await browser('DELETE', '/api/console/session', { session });
      expect(out.status, out.text).to.equal(204);
      const cleared = out.headers.getSetCookie();
      expect(cleared.find((c) => c.startsWith('tfsession=;'))).to.match(/Expires=Thu, 01 Jan 1970/);
      expect(cleared.find((c) => c.startsWith('tfcsrf=;'))).to.match(/Expires=Thu, 01 Jan 1970/);
      expectError(await browser('GET', '/api/console/session', { session }), 401);
      expectError(await browser('GET', '/api/v2/account/details', { session }), 401);
      expect((await db()('console_sessions').where({ user_id: user.id }).first()).revoked_at).to.be.an.instanceOf(Date);
    });

    it('refuses an expired session and a revoked one', async () => {
      const user = await createUser();
      const a = await signedIn(user);
      const b = await signIn(user.username, await givePassword(user, 'second-password-1'));
      // givePassword revoked the first session (a new password signs everyone out).
      expectError(await browser('GET', '/api/console/session', { session: a }), 401);
      expect((await browser('GET', '/api/console/session', { session: b })).status).to.equal(200);
      await db()('console_sessions')
        .where({ user_id: user.id })
        .whereNull('revoked_at')
        .update({ expires_at: new Date(Date.now() - 1000) });
      expectError(await browser('GET', '/api/console/session', { session: b }), 401);
      expectError(await browser('GET', '/api/v2/account/details', { session: b }), 401);
    });

    it('the sweep deletes sessions, links and codes that ended over a week ago, and keeps the rest', async () => {
      const user = await createUser();
      const live = await signedIn(user);
      const old = await signIn(user.username, await givePassword(user, 'password-for-the-sweep'));
      const longAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
      await db()('console_sessions')
        .where({ user_id: user.id })
        .whereNotNull('revoked_at')
        .update({ revoked_at: longAgo });
      await db()('password_links').where({ user_id: user.id }).update({ used_at: longAgo });
      const before = await db()('console_sessions').where({ user_id: user.id });
      expect(before).to.have.length(2);
      // The sweeper's step (workers/sweeper.ts runs it on every sweep).
      expect(await sweepSignIn(harness().rt)).to.be.at.least(2);
      expect((await db()('console_sessions').where({ user_id: user.id })).map((r) => r.revoked_at)).to.deep.equal([
        null,
      ]);
      expect(await db()('password_links').where({ user_id: user.id })).to.deep.equal([]);
      expect((await browser('GET', '/api/console/session', { session: old })).status).to.equal(200);
      expectError(await browser('GET', '/api/console/session', { session: live }), 401);
    });

    it('limits sign-in attempts per client address (429 with Retry-After), before checking the password', async () => {
      const app = await startSecondApp({
        RATE_LIMIT_SIGN_IN_PER_MINUTE: '3',
        QUEUE_PREFIX: `${harness().config.queuePrefix}-signin`,
      });
      try {
        const user = await createUser();
        const password = await givePassword(user);
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++)
          statuses.push(
            (
              await browser('POST', '/api/console/session', {
                base: app.baseUrl,
                origin: null,
                body: { username: user.username, password: 'wrong-password' },
              })
            ).status,
          );
        expect(statuses).to.deep.equal([401, 401, 401, 429]);
        const limited = await browser('POST', '/api/console/session', {
          base: app.baseUrl,
          origin: null,
          body: { username: user.username, password },
        });
        expectError(limited, 429);
        expect(limited.headers.get('retry-after')).to.match(/^\d+$/);
        expect(limited.headers.getSetCookie()).to.deep.equal([]);
      } finally {
        await app.close();
      }
    });

    it("counts only failures against an account, per account and client address, whatever the name's case; a success spends nothing", async () => {
      const app = await startSecondApp({
        RATE_LIMIT_SIGN_IN_FAILURES_PER_HOUR: '2',
        QUEUE_PREFIX: `${harness().config.queuePrefix}-signin-account`,
      });
      try {
        const user = await createUser();
        const other = await createUser();
        const password = await givePassword(user);
        const otherPassword = await givePassword(other);
        const attempt = (username: string, pw: string) =>
          browser('POST', '/api/console/session', {
            base: app.baseUrl,
            origin: null,
            body: { username, password: pw },
          });
        // Successes are not counted: any number of them leaves the budget whole.
        for (let i = 0; i < 3; i++) expect((await attempt(user.username, password)).status).to.equal(200);
        expect((await attempt(user.username, 'wrong-password')).status).to.equal(401);
        expect((await attempt(user.username.toUpperCase(), 'wrong-password')).status).to.equal(401);
        const limited = await attempt(user.username, password);
        expectError(limited, 429, /failed sign-ins for this account from this address/);
        expect(limited.headers.get('retry-after')).to.match(/^\d+$/);
        expect((await attempt(other.username, otherPassword)).status).to.equal(200);
      } finally {
        await app.close();
      }
    });
  });

  describe('behind a reverse proxy (TRUST_PROXY)', () => {
    // The test is the proxy: it appends the address it saw (here: each client's) to X-Forwarded-For.
    const through = (base: string, client: string, sent?: string) => ({
      base,
      origin: null,
      headers: { 'X-Forwarded-For': sent ? `${sent}, ${client}` : client },
    });

    it('gives clients with different addresses their own sign-in budget, so junk from one blocks no one else', async () => {
      const app = await startSecondApp({
        RATE_LIMIT_SIGN_IN_PER_MINUTE: '3',
        TRUST_PROXY: 'loopback',
        QUEUE_PREFIX: `${harness().config.queuePrefix}-proxy`,
      });
      try {
        const user = await createUser();
        const password = await givePassword(user);
        const junk = { username: uniq('nobody'), password: 'junk-password' };
        const attacker = '203.0.113.10';
        expect(
          (await browser('POST', '/api/console/session', { ...through(app.baseUrl, attacker), body: junk })).status,
        ).to.equal(401);
        // A forged X-Forwarded-For prefix changes nothing: the proxy's entry is the one believed.
        for (const forged of ['198.51.100.1', '198.51.100.2']) {
          expect(
            (await browser('POST', '/api/console/session', { ...through(app.baseUrl, attacker, forged), body: junk }))
              .status,
          ).to.equal(401);
        }
        expectError(
          await browser('POST', '/api/console/session', {
            ...through(app.baseUrl, attacker, '198.51.100.3'),
            body: junk,
          }),
          429,
        );
        expectError(
          await browser('POST', '/api/console/password', {
            ...through(app.baseUrl, attacker),
            body: { token: 'not-a-link-token', password: 'some-password-1' },
          }),
          429,
        );
        const attackerToken = await fetch(`${app.baseUrl}/oauth/token`, {
          method: 'POST',
          headers: { 'X-Forwarded-For': attacker, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=authorization_code',
        });
        expect(attackerToken.status).to.equal(429);
        // Another client behind the same proxy: its own budget.
        const owner = '203.0.113.20';
        const res = await browser('POST', '/api/console/session', {
          ...through(app.baseUrl, owner),
          body: { username: user.username, password },
        });
        expect(res.status, res.text).to.equal(200);
        expectError(
          await browser('POST', '/api/console/password', {
            ...through(app.baseUrl, owner),
            body: { token: 'not-a-link-token', password: 'some-password-1' },
          }),
          404,
        );
        const ownerToken = await fetch(`${app.baseUrl}/oauth/token`, {
          method: 'POST',
          headers: { 'X-Forwarded-For': owner, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=authorization_code',
        });
        expect(ownerToken.status).to.equal(400);
        expect(await ownerToken.json()).to.include({ error: 'invalid_request' });
      } finally {
        await app.close();
      }
    });

    it('ignores X-Forwarded-For without TRUST_PROXY: a client cannot buy a fresh budget by sending the header', async () => {
      const app = await startSecondApp({
        RATE_LIMIT_SIGN_IN_PER_MINUTE: '2',
        QUEUE_PREFIX: `${harness().config.queuePrefix}-noproxy`,
      });
      try {
        const junk = { username: uniq('nobody'), password: 'junk-password' };
        expect(
          (await browser('POST', '/api/console/session', { ...through(app.baseUrl, '203.0.113.30'), body: junk }))
            .status,
        ).to.equal(401);
        expect(
          (await browser('POST', '/api/console/session', { ...through(app.baseUrl, '203.0.113.31'), body: junk }))
            .status,
        ).to.equal(401);
        expectError(
          await browser('POST', '/api/console/session', { ...through(app.baseUrl, '203.0.113.32'), body: junk }),
          429,
        );
      } finally {
        await app.close();
      }
    });

    it("a third party's failed sign-ins naming an account never lock its owner out", async () => {
      const app = await startSecondApp({
        RATE_LIMIT_SIGN_IN_FAILURES_PER_HOUR: '10',
        RATE_LIMIT_SIGN_IN_PER_ACCOUNT_PER_HOUR: '12',
        TRUST_PROXY: '127.0.0.1/8',
        QUEUE_PREFIX: `${harness().config.queuePrefix}-lockout`,
      });
      try {
        const user = await createUser();
        const password = await givePassword(user);
        const attempt = (client: string, username: string, pw: string) =>
          browser('POST', '/api/console/session', {
            ...through(app.baseUrl, client),
            body: { username, password: pw },
          });
        // 30 guesses naming the account from one address: refused once that address's failures are spent.
        const statuses: number[] = [];
        for (let i = 0; i < 30; i++)
          statuses.push(
            (await attempt('203.0.113.40', i % 2 ? user.username : user.username.toUpperCase(), `guess-${i}-password`))
              .status,
          );
        expect(statuses.slice(0, 10)).to.deep.equal(Array(10).fill(401));
        expect(statuses.slice(10)).to.deep.equal(Array(20).fill(429));
        // The same address is refused even with the right password (its own failures, not the owner's).
        expectError(await attempt('203.0.113.40', user.username, password), 429);
        // More addresses put the account under attack: each address then gets only a few failures.
        for (let i = 0; i < 3; i++)
          expect((await attempt('203.0.113.41', user.username, `guess-b${i}-password`)).status).to.equal(401);
        expectError(await attempt('203.0.113.41', user.username, 'guess-b3-password'), 429);
        expect((await attempt('203.0.113.42', user.username, 'guess-c-password')).status).to.equal(401);
        // The owner, from an address of their own, signs in, even after a typo.
        expect((await attempt('198.51.100.50', user.username, 'a-typo-password')).status).to.equal(401);
        const owner = await attempt('198.51.100.50', user.username, password);
        expect(owner.status, owner.text).to.equal(200);
        expect(sessionOf(owner).csrf).to.have.length.greaterThan(30);
      } finally {
        await app.close();
      }
    });
  });

  describe('over https: __Host- cookies', () => {
    let app: HttpsApp;
    before(async () => {
      app = await startHttpsApp();
    });
    after(async () => {
      await app.close();
    });
    const json = () => ({ 'Content-Type': 'application/json', Origin: app.baseUrl });
    const signInHttps = async (user: TestUser) => {
      const res = await httpsCall(app, 'POST', '/api/console/session', {
        headers: json(),
        body: JSON.stringify({ username: user.username, password: await givePassword(user) }),
      });
      expect(res.status, res.text).to.equal(200);
      const value = (name: string) =>
        decodeURIComponent(
          res.setCookies
            .find((c) => c.startsWith(`${name}=`))!
            .slice(name.length + 1)
            .split(';')[0],
        );
      return { res, secret: value('__Host-tfsession'), csrf: value('__Host-tfcsrf') };
    };

    it("names the cookies __Host-tfsession and __Host-tfcsrf (Secure, Path=/, no Domain) and tells the console the CSRF cookie's name", async () => {
      const user = await createUser();
      const { res, secret } = await signInHttps(user);
      expect(res.setCookies.map((c) => c.split('=')[0]).sort()).to.deep.equal(['__Host-tfcsrf', '__Host-tfsession']);
      for (const c of res.setCookies)
        expect(c)
          .to.match(/; Secure/i)
          .and.match(/; Path=\/(;|$)/i)
          .and.not.match(/Domain=/i);
      expect(res.body.meta).to.deep.equal({ 'csrf-cookie': '__Host-tfcsrf', 'csrf-header': 'X-CSRF-Token' });
      const me = await httpsCall(app, 'GET', '/api/console/session', {
        headers: { Cookie: `__Host-tfsession=${secret}` },
      });
      expect(me.status, me.text).to.equal(200);
      expect(me.body.meta['csrf-cookie']).to.equal('__Host-tfcsrf');
      // Over http the names stay unprefixed (browsers refuse __Host- cookies without Secure).
      const plain = await browser('GET', '/api/console/session', { session: await signedIn(await createUser()) });
      expect(plain.body.meta).to.deep.equal({ 'csrf-cookie': 'tfcsrf', 'csrf-header': 'X-CSRF-Token' });
    });

    it('ignores a tfsession/tfcsrf pair a sibling subdomain plants (no session fixation, no CSRF token of its choosing)', async () => {
      const victim = await createUser();
      const attacker = await createUser();
      const v = await signInHttps(victim);
      const a = await signInHttps(attacker);
      // The attacker's own valid session planted under the unprefixed names a sibling can set: not a session here.
      expect(
        (
          await httpsCall(app, 'GET', '/api/console/session', {
            headers: { Cookie: `tfsession=${a.secret}; tfcsrf=${a.csrf}` },
          })
        ).status,
      ).to.equal(401);
      // The victim's session with a planted CSRF cookie and a header to match: refused, the session survives.
      const planted = 'y'.repeat(43);
      const forged = await httpsCall(app, 'DELETE', '/api/console/session', {
        headers: {
          Origin: app.baseUrl,
          Cookie: `tfcsrf=${planted}; __Host-tfsession=${v.secret}`,
          'X-CSRF-Token': planted,
        },
      });
      expect(forged.status, forged.text).to.equal(403);
      expect(
        (await httpsCall(app, 'GET', '/api/console/session', { headers: { Cookie: `__Host-tfsession=${v.secret}` } }))
          .status,
      ).to.equal(200);
      // The real pair works, and signing out clears the prefixed cookies.
      const out = await httpsCall(app, 'DELETE', '/api/console/session', {
        headers: {
          Origin: app.baseUrl,
          Cookie: `__Host-tfsession=${v.secret}; __Host-tfcsrf=${v.csrf}`,
          'X-CSRF-Token': v.csrf,
        },
      });
      expect(out.status, out.text).to.equal(204);
      expect(out.setCookies.map((c) => c.split('=')[0]).sort()).to.deep.equal(['__Host-tfcsrf', '__Host-tfsession']);
      expect(
        (await httpsCall(app, 'GET', '/api/console/session', { headers: { Cookie: `__Host-tfsession=${v.secret}` } }))
          .status,
      ).to.equal(401);
    });
  });

  describe('the session cookie on the API', () => {
    it("authenticates /api/v2 as the user, with the user's permissions exactly (a token's answers and the cookie's agree)", async () => {
      const org = await createOrg();
      const ws = await createWorkspace(org);
      const session = await signedIn(org.owner);
      const outsider = await createUser();
      const outsiderSession = await signedIn(outsider);
      for (const path of [
        '/account/details',
        `/organizations/${org.name}`,
        `/workspaces/${ws.id}`,
        `/organizations/${org.name}/workspaces`,
      ]) {
        const byToken = await api('GET', path, { token: org.owner.token });
        const byCookie = await browser('GET', `/api/v2${path}`, { session });
        expect(byCookie.status, byCookie.text).to.equal(byToken.status);
        expect(byCookie.body.data.id ?? byCookie.body.data.length).to.equal(
          byToken.body.data.id ?? byToken.body.data.length,
        );
        const outsiderByToken = await api('GET', path, { token: outsider.token });
        const outsiderByCookie = await browser('GET', `/api/v2${path}`, { session: outsiderSession });
        expect(outsiderByCookie.status).to.equal(outsiderByToken.status);
      }
      expectError(await browser('GET', `/api/v2/workspaces/${ws.id}`, { session: outsiderSession }), 404);
    });

    it('lets the Authorization header win over the cookie', async () => {
      const user = await createUser();
      const session = await signedIn(user);
      const res = await browser('GET', '/api/v2/account/details', {
        session,
        headers: { Authorization: 'Bearer not-a-token' },
      });
      expectError(res, 401);
    });
  });

  describe('CSRF: state-changing requests authenticated by the cookie', () => {
    let org: { name: string; owner: Awaited<ReturnType<typeof createUser>> };
    let session: Session;
    before(async () => {
      org = await createOrg();
      session = await signedIn(org.owner);
    });

    const createWs = (name: string, opts: Parameters<typeof browser>[2]) =>
      browser('POST', `/api/v2/organizations/${org.name}/workspaces`, {
        ...opts,
        body: doc('workspaces', { name }),
        headers: { 'Content-Type': 'application/vnd.api+json' },
      });
    const exists = async (name: string) =>
      Boolean(await db()('workspaces').where({ organization_name: org.name, name }).first('id'));

    it('a cross-site form post (cookie, no header, foreign Origin) is refused with 403 and changes nothing', async () => {
      const name = uniq('ws');
      const res = await createWs(name, { session, csrf: null, origin: 'https://evil.example' });
      expectError(res, 403);
      // What an HTML form on another site sends: form-encoded, the cookie, no custom header.
      const form = await fetch(`${harness().baseUrl}/api/v2/organizations/${org.name}/workspaces`, {
        method: 'POST',
        headers: {
          Cookie: session.cookie,
          Origin: 'https://evil.example',
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ 'data[type]': 'workspaces', 'data[attributes][name]': name }).toString(),
      });
      expect(form.status).to.equal(403);
      const deleted = await fetch(`${harness().baseUrl}/api/v2/organizations/${org.name}`, {
        method: 'DELETE',
        headers: { Cookie: session.cookie, Origin: 'https://evil.example' },
      });
      expect(deleted.status).to.equal(403);
      expect(await db()('organizations').where({ name: org.name }).first('name')).to.deep.equal({ name: org.name });
      expect(await exists(name)).to.equal(false);
    });

    it('a request without the header is refused even from this origin', async () => {
      const name = uniq('ws');
      expectError(await createWs(name, { session, csrf: null }), 403);
      expect(await exists(name)).to.equal(false);
    });

    it('a wrong token is refused, and so is a matching cookie and header that the session did not issue', async () => {
      const name = uniq('ws');
      expectError(await createWs(name, { session, csrf: 'x'.repeat(43) }), 403);
      // An attacker who can plant a cookie (a sibling subdomain) sets tfcsrf and the header alike.
      const planted = { ...session, cookie: session.cookie.replace(/tfcsrf=[^;]+/, `tfcsrf=${'y'.repeat(43)}`) };
      expectError(await createWs(name, { session: planted, csrf: 'y'.repeat(43) }), 403);
      // Another session's CSRF token (cookie and header both of that session) does not fit this one.
      const otherUser = await createUser();
      const other = await signedIn(otherUser);
      const mixed = { ...session, cookie: session.cookie.replace(/tfcsrf=[^;]+/, `tfcsrf=${other.csrf}`) };
      expectError(await createWs(name, { session: mixed, csrf: other.csrf }), 403);
      expect(await exists(name)).to.equal(false);
    });

    it('the right token from a foreign Origin is refused', async () => {
      const name = uniq('ws');
      expectError(await createWs(name, { session, origin: 'http://127.0.0.1:1' }), 403);
      expectError(await createWs(name, { session, origin: 'null' }), 403);
      expect(await exists(name)).to.equal(false);
    });

    it('the same request with the header and this origin (or no Origin) succeeds; reads need no header', async () => {
      const name = uniq('ws');
      const res = await createWs(name, { session });
      expect(res.status, res.text).to.equal(201);
      const noOrigin = await createWs(uniq('ws'), { session, origin: null });
      expect(noOrigin.status, noOrigin.text).to.equal(201);
      const read = await browser('GET', `/api/v2/organizations/${org.name}/workspaces/${name}`, {
        session,
        csrf: null,
        origin: 'https://evil.example',
      });
      expect(read.status).to.equal(200);
    });

    it("the console's own state-changing routes follow the same rule (sign-out, consent)", async () => {
      const user = await createUser();
      const s = await signedIn(user);
      expectError(await browser('DELETE', '/api/console/session', { session: s, csrf: null }), 403);
      expectError(await browser('DELETE', '/api/console/session', { session: s, origin: 'https://evil.example' }), 403);
      const consent = {
        client_id: 'terraform-cli',
        redirect_uri: 'http://localhost:10000/login',
        state: 's',
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'S256',
        response_type: 'code',
      };
      expectError(
        await browser('POST', '/api/console/oauth/authorize', { session: s, csrf: null, body: consent }),
        403,
      );
      expect(await db()('oauth_codes').where({ user_id: user.id })).to.deep.equal([]);
      expect((await browser('GET', '/api/console/session', { session: s })).status).to.equal(200);
    });

    it('sign-in from a foreign Origin is refused (no login CSRF)', async () => {
      const user = await createUser();
      const password = await givePassword(user);
      const res = await browser('POST', '/api/console/session', {
        body: { username: user.username, password },
        origin: 'https://evil.example',
      });
      expectError(res, 403);
      expect(res.headers.getSetCookie()).to.deep.equal([]);
    });
  });

  describe('password links', () => {
    it("a site admin's reset link sets a password once; the old password and sessions stop working; the link cannot be reused", async () => {
      const user = await createUser();
      const old = await givePassword(user, 'the-old-password');
      const oldSession = await signIn(user.username, old);
      const link = await api('POST', `/admin/users/${user.id}/actions/reset-password`);
      expect(link.status, link.text).to.equal(200);
      const url: string = link.body.data.attributes['reset-url'];
      expect(url.startsWith(`${harness().baseUrl}/app/reset-password?token=`)).to.equal(true);
      const token = linkToken(url);
      const stored = await db()('password_links').where({ user_id: user.id, purpose: 'reset' });
      expect(JSON.stringify(stored)).to.not.include(token);
      expectError(
        await browser('POST', '/api/console/password', { body: { token, password: 'short' } }),
        422,
        /at least 10 characters/,
      );
      const set = await browser('POST', '/api/console/password', { body: { token, password: 'the-new-password' } });
      expect(set.status, set.text).to.equal(204);
      expectError(
        await browser('POST', '/api/console/session', { body: { username: user.username, password: old } }),
        401,
      );
      expectError(await browser('GET', '/api/console/session', { session: oldSession }), 401);
      await signIn(user.username, 'the-new-password');
      // Used up: the same link cannot set another password.
      expectError(
        await browser('POST', '/api/console/password', { body: { token, password: 'a-third-password' } }),
        404,
      );
      expectError(
        await browser('POST', '/api/console/session', {
          body: { username: user.username, password: 'a-third-password' },
        }),
        401,
      );
    });

    it('a newer reset link replaces an older one; an expired or unknown link sets nothing', async () => {
      const user = await createUser();
      const first = linkToken(
        (await api('POST', `/admin/users/${user.id}/actions/reset-password`)).body.data.attributes['reset-url'],
      );
      const second = linkToken(
        (await api('POST', `/admin/users/${user.id}/actions/reset-password`)).body.data.attributes['reset-url'],
      );
      expectError(
        await browser('POST', '/api/console/password', { body: { token: first, password: 'password-from-first' } }),
        404,
      );
      expectError(
        await browser('POST', '/api/console/password', {
          body: { token: 'not-a-link-token', password: 'password-from-nowhere' },
        }),
        404,
      );
      await db()('password_links')
        .where({ user_id: user.id })
        .update({ expires_at: new Date(Date.now() - 1000) });
      expectError(
        await browser('POST', '/api/console/password', { body: { token: second, password: 'password-from-second' } }),
        404,
      );
      expect((await db()('users').where({ id: user.id }).first('password_hash')).password_hash).to.equal(null);
    });

    it('only site admins get reset links (404 for anyone else, even for themselves, and for an unknown user)', async () => {
      const org = await createOrg();
      const member = await createUser();
      expectError(
        await api('POST', `/admin/users/${member.id}/actions/reset-password`, { token: org.owner.token }),
        404,
      );
      expectError(await api('POST', `/admin/users/${member.id}/actions/reset-password`, { token: member.token }), 404);
      expectError(await api('POST', '/admin/users/user-unknown/actions/reset-password'), 404);
      expect(await db()('password_links').where({ user_id: member.id })).to.deep.equal([]);
    });

    it("an invited person sets a password with the invitation's link, which accepts the invitation, and signs in", async () => {
      const org = await createOrg();
      const email = `${uniq('invitee')}@example.test`;
      const inv = await api('POST', `/organizations/${org.name}/organization-memberships`, {
        token: org.owner.token,
        body: doc('organization-memberships', { email }),
      });
      expect(inv.status, inv.text).to.equal(201);
      const mail = await db()('mail_messages').where({ ref_id: inv.body.data.id, kind: 'invitation' }).first();
      expect(mail.body_sealed).to.equal(true);
      const text = openMailBody(mail, harness().config.encryptionKey);
      expect(mail.body).to.not.include('accept-invitation');
      const match = /(http\S+\/app\/accept-invitation\?token=\S+)/.exec(text);
      expect(match, text).to.not.equal(null);
      expect(match![1].startsWith(`${harness().baseUrl}/app/accept-invitation?token=`)).to.equal(true);
      const token = linkToken(match![1]);
      expectError(await browser('POST', '/api/console/password', { body: { token, password: 'too-short' } }), 422);
      expect(
        (await api('GET', `/organization-memberships/${inv.body.data.id}`, { token: org.owner.token })).body.data
          .attributes.status,
      ).to.equal('invited');
      const set = await browser('POST', '/api/console/password', { body: { token, password: 'invitee-password' } });
      expect(set.status, set.text).to.equal(204);
      expect(
        (await api('GET', `/organization-memberships/${inv.body.data.id}`, { token: org.owner.token })).body.data
          .attributes.status,
      ).to.equal('active');
      const session = await signIn(email, 'invitee-password');
      const orgs = await browser('GET', `/api/v2/organizations/${org.name}`, { session });
      expect(orgs.status, orgs.text).to.equal(200);
      expectError(
        await browser('POST', '/api/console/password', { body: { token, password: 'another-password' } }),
        404,
      );
    });

    it('an invitation to someone who has a password sets no password (that person signs in and accepts)', async () => {
      const org = await createOrg();
      const user = await createUser();
      await givePassword(user, 'existing-password');
      const inv = await api('POST', `/organizations/${org.name}/organization-memberships`, {
        token: org.owner.token,
        body: doc('organization-memberships', { email: user.email }),
      });
      const mail = await db()('mail_messages').where({ ref_id: inv.body.data.id, kind: 'invitation' }).first();
      const token = linkToken(
        /(http\S+accept-invitation\S+)/.exec(openMailBody(mail, harness().config.encryptionKey))![1],
      );
      expectError(
        await browser('POST', '/api/console/password', { body: { token, password: 'takeover-password' } }),
        422,
      );
      await signIn(user.username, 'existing-password');
      expectError(
        await browser('POST', '/api/console/session', {
          body: { username: user.username, password: 'takeover-password' },
        }),
        401,
      );
      const session = await signIn(user.username, 'existing-password');
      // The console finds the pending invitation among the user's own memberships, and accepts it.
      const own = await browser('GET', '/api/v2/organization-memberships?filter[status]=invited', { session });
      expect(own.status, own.text).to.equal(200);
      expect(own.body.data.map((m: { id: string }) => m.id)).to.deep.equal([inv.body.data.id]);
      expect(own.body.data[0].relationships.organization.data.id).to.equal(org.name);
      const accept = await browser('POST', `/api/v2/organization-memberships/${inv.body.data.id}/actions/accept`, {
        session,
      });
      expect(accept.status, accept.text).to.equal(200);
      expect(accept.body.data.attributes.status).to.equal('active');
      expect(
        (await browser('GET', '/api/v2/organization-memberships?filter[status]=invited', { session })).body.data,
      ).to.deep.equal([]);
      const all = await browser('GET', '/api/v2/organization-memberships', { session });
      expect(all.body.data.map((m: { id: string }) => m.id)).to.deep.equal([inv.body.data.id]);
      expect(all.body.meta.pagination['total-count']).to.equal(1);
    });
  });

  describe('own API tokens through the session', () => {
    it('creates (value shown once), lists, shows and revokes a token; a revoked token is refused', async () => {
      const user = await createUser();
      const session = await signedIn(user);
      const jsonapi = { 'Content-Type': 'application/vnd.api+json' };
      const created = await browser('POST', `/api/v2/users/${user.id}/authentication-tokens`, {
        session,
        headers: jsonapi,
        body: doc('authentication-tokens', { description: 'laptop' }),
      });
      expect(created.status, created.text).to.equal(201);
      const { id } = created.body.data;
      const value: string = created.body.data.attributes.token;
      expect(value).to.be.a('string').with.length.greaterThan(20);
      expect(created.body.data.attributes).to.include({ description: 'laptop' });
      expect(created.body.data.attributes).to.have.property('created-at');
      const listed = await browser('GET', `/api/v2/users/${user.id}/authentication-tokens`, { session });
      expect(listed.status).to.equal(200);
      const mine = listed.body.data.find((t: { id: string }) => t.id === id);
      expect(mine.attributes).to.include.keys('description', 'created-at', 'last-used-at', 'expired-at');
      expect(mine.attributes.token ?? null).to.equal(null);
      expect(listed.text).to.not.include(value);
      const shown = await browser('GET', `/api/v2/authentication-tokens/${id}`, { session });
      expect(shown.status).to.equal(200);
      expect(shown.text).to.not.include(value);
      expect((await api('GET', '/account/details', { token: value })).body.data.id).to.equal(user.id);
      // Revoking needs the CSRF header like any change.
      expectError(await browser('DELETE', `/api/v2/authentication-tokens/${id}`, { session, csrf: null }), 403);
      expect((await api('GET', '/account/details', { token: value })).status).to.equal(200);
      const revoked = await browser('DELETE', `/api/v2/authentication-tokens/${id}`, { session });
      expect(revoked.status, revoked.text).to.equal(204);
      expectError(await api('GET', '/account/details', { token: value }), 401);
      expect(
        (await browser('GET', `/api/v2/users/${user.id}/authentication-tokens`, { session })).body.data.map(
          (t: { id: string }) => t.id,
        ),
      ).to.not.include(id);
    });

    it("another user's tokens are not there for a signed-in user (404)", async () => {
      const user = await createUser();
      const other = await createUser();
      const session = await signedIn(user);
      const otherToken = (
        await api('POST', `/users/${other.id}/authentication-tokens`, {
          token: other.token,
          body: doc('authentication-tokens', { description: 'x' }),
        })
      ).body.data.id;
      expectError(await browser('GET', `/api/v2/users/${other.id}/authentication-tokens`, { session }), 404);
      expectError(await browser('GET', `/api/v2/authentication-tokens/${otherToken}`, { session }), 404);
      expectError(await browser('DELETE', `/api/v2/authentication-tokens/${otherToken}`, { session }), 404);
      expectError(
        await browser('POST', `/api/v2/users/${other.id}/authentication-tokens`, {
          session,
          headers: { 'Content-Type': 'application/vnd.api+json' },
          body: doc('authentication-tokens', {}),
        }),
        404,
      );
    });
  });
});
