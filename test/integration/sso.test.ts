import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { api } from '../helpers/api.js';
import { createOrg, createTeam, createUser, uniq, type TestUser } from '../helpers/fixtures.js';
import { freePort, startSecondApp } from '../helpers/harness.js';
import { checkAtEveryWidth, chromiumAvailable, landed, openBrowser, type ConsoleBrowser } from '../helpers/browser.js';
import { startTestIdp, type TestIdp } from '../helpers/oidc-provider.js';
import { spawnWorkers, workersReady } from '../helpers/processes.js';
import { terraformAvailable } from '../helpers/terraform.js';
import { planWithStoredToken, terraformLogin } from '../helpers/terraform-login.js';

/*
 * Single sign-on through a real OpenID provider (oidc-provider on loopback), driven in Chromium as
 * a person signs in: accounts made on the first sign-in, teams that follow the provider's groups,
 * and each kind of forged or stale answer refused with words and no session.
 */
describe('single sign-on with an OpenID Connect provider (Chromium)', function () {
  this.timeout(120_000);
  let idp: TestIdp;
  let app: Awaited<ReturnType<typeof startSecondApp>>;
  let browser: ConsoleBrowser;
  let org: { name: string; owner: TestUser };
  let ownedOrg: { name: string; owner: TestUser };
  const teams: Record<string, string> = {};

  before(async function () {
    if (!chromiumAvailable()) this.skip();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    idp = await startTestIdp(`${base}/api/console/sso/test-idp/callback`);
    org = await createOrg();
    for (const name of ['developers', 'operators', 'readers']) teams[name] = await createTeam(org, { name });
    // A team that follows a group of another name (its SSO team id).
    teams.platform = await createTeam(org, { name: 'platform', 'sso-team-id': 'ops-group' });
    ownedOrg = await createOrg();
    app = await startSecondApp(
      {
        BASE_URL: base,
        OIDC_PROVIDERS: JSON.stringify([idp.providerConfig({ teamOrganizations: [org.name, ownedOrg.name] })]),
      },
      port,
    );
    const idpOrigin = new URL(idp.issuer).origin;
    browser = await openBrowser(base, {
      // The provider's pages, and terraform login's own listener for the consent's redirect.
      allow: (u) =>
        u.origin === idpOrigin ||
        (u.hostname === 'localhost' && u.pathname === '/login' && Number(u.port) >= 10000 && Number(u.port) <= 10010),
    });
  });

  after(async () => {
    await browser?.close();
    await app?.close();
    await idp?.close();
  });

  /**
   * Signs in through the provider's own login (and consent) pages, from the sign-in page (the one
   * the browser is on, or the service's own); resolves once back on the service.
   */
  async function throughProvider(page: Page, sub: string, fromCurrentPage = false): Promise<void> {
    if (!fromCurrentPage) await page.goto(`${app.baseUrl}/app/sign-in`);
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await page.waitForURL((u) => u.origin === new URL(idp.issuer).origin);
    await page.locator('input[name=login]').fill(sub);
    await page.locator('input[name=password]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.waitForURL((u) => u.origin === app.baseUrl || u.pathname.includes('/interaction/'));
    if (new URL(page.url()).origin !== app.baseUrl) {
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((u) => u.origin === app.baseUrl);
    }
  }

  /** The session the page has: the signed-in user, or null (401). */
  const sessionOf = async (page: Page) =>
    page.evaluate(async () => {
      const res = await fetch('/api/console/session', { credentials: 'same-origin' });
      return res.status === 200
        ? ((await res.json()) as { data: { id: string; attributes: { username: string } } }).data
        : null;
    });

  const signOut = async (page: Page) => {
    await page.context().clearCookies();
  };

  const teamsOf = async (userId: string) => {
    const names: string[] = [];
    for (const [name, id] of Object.entries(teams)) {
      const team = await api('GET', `/teams/${id}?include=users`, { token: org.owner.token });
      const ids = (team.body.data.relationships.users.data as { id: string }[]).map((u) => u.id);
      if (ids.includes(userId)) names.push(name);
    }
    return names.sort();
  };

  let alice: { sub: string; username: string; id: string };

  it('signs a new person in through the provider, as a member of the teams their groups name', async () => {
    const { page } = browser;
    const username = uniq('alice');
    alice = { sub: uniq('sub'), username, id: '' };
    idp.accounts.set(alice.sub, {
      sub: alice.sub,
      preferred_username: username,
      email: `${username}@example.test`,
      email_verified: true,
      groups: ['developers', 'ops-group', 'not-a-team'],
    });
    await throughProvider(page, alice.sub);
    await page.getByRole('heading', { level: 1, name: 'Organizations' }).waitFor();
    await page.getByRole('link', { name: org.name }).waitFor();
    const me = await sessionOf(page);
    expect(me?.attributes.username).to.equal(username);
    alice.id = me!.id;
    expect(await teamsOf(alice.id)).to.deep.equal(['developers', 'platform']);
  });

  it('moves the team memberships at the next sign-in after a group change, and keeps those given by hand', async () => {
    const { page } = browser;
    const add = await api('POST', `/teams/${teams.readers}/relationships/users`, {
      token: org.owner.token,
      body: { data: [{ type: 'users', id: alice.username }] },
    });
    expect(add.status, add.text).to.equal(204);
    idp.accounts.get(alice.sub)!.groups = ['operators'];
    await signOut(page);
    await throughProvider(page, alice.sub);
    await page.getByRole('heading', { level: 1, name: 'Organizations' }).waitFor();
    expect((await sessionOf(page))?.id, 'the same account').to.equal(alice.id);
    expect(await teamsOf(alice.id)).to.deep.equal(['operators', 'readers']);
  });

  it('gives a second person with a taken username the next free one, and refuses a taken email', async () => {
    const { page } = browser;
    const sub = uniq('sub');
    idp.accounts.set(sub, {
      sub,
      preferred_username: alice.username,
      email: `${uniq('bob')}@example.test`,
      email_verified: true,
      groups: [],
    });
    await signOut(page);
    await throughProvider(page, sub);
    await page.getByRole('heading', { level: 1, name: 'Organizations' }).waitFor();
    expect((await sessionOf(page))?.attributes.username).to.equal(`${alice.username}-2`);

    const existing = await createUser();
    const other = uniq('sub');
    idp.accounts.set(other, {
      sub: other,
      preferred_username: uniq('carol'),
      email: existing.email,
      email_verified: true,
      groups: [],
    });
    await signOut(page);
    await throughProvider(page, other);
    await page
      .getByRole('alert')
      .getByText(/An account with this email exists already/)
      .waitFor();
    expect(await sessionOf(page)).to.equal(null);
  });

  it("never takes the owners team's last member away, even when the groups stop naming it", async () => {
    const { page } = browser;
    const owners = (
      await api('GET', `/organizations/${ownedOrg.name}/teams?filter[names]=owners`, { token: ownedOrg.owner.token })
    ).body.data[0].id as string;
    const members = async () =>
      (
        (await api('GET', `/teams/${owners}?include=users`, { token: ownedOrg.owner.token })).body.data.relationships
          .users.data as { id: string }[]
      ).map((u) => u.id);
    const sub = uniq('sub');
    const username = uniq('dana');
    idp.accounts.set(sub, {
      sub,
      preferred_username: username,
      email: `${username}@example.test`,
      email_verified: true,
      groups: ['owners'],
    });
    await signOut(page);
    await throughProvider(page, sub);
    await page.getByRole('heading', { level: 1, name: 'Organizations' }).waitFor();
    const dana = (await sessionOf(page))!.id;
    expect(await members()).to.include(dana);
    // The creator leaves: the person the group put there is the owners team's one member.
    const leave = await api('DELETE', `/teams/${owners}/relationships/users`, {
      token: ownedOrg.owner.token,
      body: { data: [{ type: 'users', id: ownedOrg.owner.username }] },
    });
    expect(leave.status, leave.text).to.equal(204);
    idp.accounts.get(sub)!.groups = [];
    await signOut(page);
    await throughProvider(page, sub);
    await page.getByRole('heading', { level: 1, name: 'Organizations' }).waitFor();
    expect(await members()).to.deep.equal([dana]);
  });

  for (const fault of ['tamper', 'expire', 'audience'] as const) {
    it(`refuses an ID token that was ${{ tamper: 'tampered with', expire: 'expired', audience: 'issued for another client' }[fault]}, with words and no session`, async () => {
      const { page } = browser;
      idp.fault = fault;
      try {
        await signOut(page);
        await throughProvider(page, alice.sub);
        await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
        await page
          .getByRole('alert')
          .getByText(/answer could not be verified/)
          .waitFor();
        expect(await sessionOf(page)).to.equal(null);
      } finally {
        idp.fault = 'none';
      }
    });
  }

  it('refuses a forged state and a replayed callback, with words and no session', async () => {
    const { page } = browser;
    await signOut(page);
    await page.goto(`${app.baseUrl}/api/console/sso/test-idp/callback?code=made-up&state=forged`);
    await page
      .getByRole('alert')
      .getByText(/unknown, used or expired/)
      .waitFor();
    expect(await sessionOf(page)).to.equal(null);

    // A real callback, taken as it passes, is refused when it comes again.
    let callback = '';
    page.on('request', (r) => {
      if (r.url().includes('/api/console/sso/test-idp/callback?')) callback = r.url();
    });
    await throughProvider(page, alice.sub);
    await page.getByRole('heading', { level: 1, name: 'Organizations' }).waitFor();
    expect(callback).to.include('code=');
    await signOut(page);
    await page.goto(callback);
    await page
      .getByRole('alert')
      .getByText(/unknown, used or expired/)
      .waitFor();
    expect(await sessionOf(page)).to.equal(null);
  });

  it("refuses a callback taken from another person's browser (a forced sign-in into the attacker's account)", async () => {
    // The attacker signs in with their own account and keeps the provider's redirect back, unused.
    const attacker = await openBrowser(app.baseUrl, { allow: (u) => u.origin === new URL(idp.issuer).origin });
    try {
      const sub = uniq('mallory');
      idp.accounts.set(sub, {
        sub,
        preferred_username: sub,
        email: `${sub}@example.test`,
        email_verified: true,
        groups: [],
      });
      await attacker.page.goto(`${app.baseUrl}/app/sign-in`);
      await attacker.page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
      await attacker.page.locator('input[name=login]').fill(sub);
      await attacker.page.locator('input[name=password]').fill('any password');
      await attacker.page.getByRole('button', { name: 'Sign-in' }).click();
      // Consent is given by hand, and the redirects that follow are read, not followed, up to the service's.
      const action = await attacker.page
        .locator('form', { has: attacker.page.getByRole('button', { name: 'Continue' }) })
        .getAttribute('action');
      let answer = await attacker.page.request.post(new URL(action!, attacker.page.url()).href, {
        form: { prompt: 'consent' },
        maxRedirects: 0,
      });
      let taken = answer.headers().location ?? '';
      while (taken && !taken.startsWith(app.baseUrl)) {
        answer = await attacker.page.request.get(new URL(taken, idp.issuer).href, { maxRedirects: 0 });
        taken = answer.headers().location ?? '';
      }
      expect(taken).to.include('/api/console/sso/test-idp/callback?code=');

      // The victim's browser is made to open it: no session, and the attacker's account is not theirs.
      const { page } = browser;
      await signOut(page);
      await page.goto(taken);
      await page
        .getByRole('alert')
        .getByText(/unknown, used or expired/)
        .waitFor();
      expect(await sessionOf(page)).to.equal(null);
    } finally {
      await attacker.close();
    }
  });

  it('terraform login through the provider, then a remote plan with the token it saved', async function () {
    if (!terraformAvailable()) this.skip();
    const workers = spawnWorkers(['run-pipeline', 'deadline-expiry'], { RECONCILE_INTERVAL_MS: '2000' });
    await workersReady(workers);
    const { page } = browser;
    await signOut(page);
    const login = await terraformLogin(app.baseUrl, async (url) => {
      // Signed out: the consent page sends the browser to sign in first, and back afterwards.
      await page.goto(url);
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await throughProvider(page, alice.sub, true);
      await page.getByRole('heading', { level: 1, name: 'Authorize Terraform CLI' }).waitFor();
      await page.getByRole('button', { name: 'Allow and create token' }).click();
    });
    try {
      const me = await api('GET', '/account/details', { token: login.token });
      expect(me.body.data.id).to.equal(alice.id);
      const own = await createOrg({ id: alice.id, username: alice.username, email: '', token: login.token });
      await planWithStoredToken(login, own.name);
    } finally {
      await login.close();
      await workers.stop();
    }
  });

  it('shows the providers on the sign-in page and the forgotten-password page, accessibly at both widths', async () => {
    const { page } = browser;
    await signOut(page);
    await page.goto(`${app.baseUrl}/app/sign-in`);
    await landed(page, 'Sign in', 'sign-in with providers');
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).waitFor();
    await checkAtEveryWidth(page, 'sign-in-providers');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await landed(page, 'Forgot your password?', 'forgot password');
    await page.getByLabel('Email').fill(`${uniq('someone')}@example.test`);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page
      .getByRole('status')
      .getByText(/If an account has this email/)
      .waitFor();
    await checkAtEveryWidth(page, 'forgot-password');
  });

  it('lists the providers for the sign-in page, and answers 404 for one that is not configured', async () => {
    const list = await fetch(`${app.baseUrl}/api/console/sso`);
    expect(await list.json()).to.deep.equal({
      providers: [{ name: 'test-idp', label: 'Test IdP', start: '/api/console/sso/test-idp/start' }],
      'password-sign-in': 'everyone',
    });
    const unknown = await fetch(`${app.baseUrl}/api/console/sso/nobody/start`, { redirect: 'manual' });
    expect(unknown.status).to.equal(404);
  });
});
