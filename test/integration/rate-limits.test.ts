import { expect } from 'chai';
import { api, doc, expectError, type ApiResponse } from '../helpers/api.js';
import { freePort, harness, secondAppForSuite, startSecondApp } from '../helpers/harness.js';
import { countRows, createOrg, createUser, createWorkspace, uniq } from '../helpers/fixtures.js';
import { tableCounts } from '../helpers/identity.js';

/*
 * Rate limits, as a client meets them: every API below is a real web process on this run's database
 * and Redis prefix, started with small budgets. Each test spends the budgets of fresh tokens, so
 * the harness's own API (whose budgets no test reaches) never interferes.
 */

const call = (app: { api: string }, method: string, path: string, token: string, body?: unknown) =>
  api(method, `${app.api}${path}`, { token, ...(body === undefined ? {} : { body }) });

const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status).sort();

/**
 * Runs `attempt` (which must finish inside one one-second window to say anything) until it does: on a
 * busy machine a burst can straddle two windows, and a new window's budget would let more through.
 */
async function withinOneWindow(attempt: () => Promise<void>): Promise<void> {
  for (let i = 0; ; i++) {
    const started = Date.now();
    try {
      await attempt();
      return;
    } catch (err) {
      if (Date.now() - started < 800 || i >= 4) throw err;
    }
  }
}

function expectTooMany(res: ApiResponse): void {
  expectError(res, 429, /rate limit exceeded/i);
  expect(res.body.errors[0].title).to.equal('too many requests');
  expect(res.headers.get('content-type')).to.match(/^application\/vnd\.api\+json/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${res.headers.get('retry-after')}`).to.equal(true);
  expect(res.headers.get('x-ratelimit-remaining')).to.equal('0');
}

describe('rate limits', function () {
  this.timeout(60_000);

  describe('per token, 5 requests a second', () => {
    const app = secondAppForSuite({ RATE_LIMIT_PER_SECOND: '5' });
    const second = secondAppForSuite({ RATE_LIMIT_PER_SECOND: '5' });

    it('sends X-RateLimit-Limit, -Remaining and -Reset (seconds, fractional) on authenticated answers, also on a 404, not on a 401', async () => {
      await withinOneWindow(async () => {
        const user = await createUser();
        const first = await call(app, 'GET', '/account/details', user.token);
        expect(first.status, first.text).to.equal(200);
        expect(first.headers.get('x-ratelimit-limit')).to.equal('5');
        expect(first.headers.get('x-ratelimit-remaining')).to.equal('4');
        const reset = first.headers.get('x-ratelimit-reset') ?? '';
        expect(reset).to.match(/^\d+\.\d{3}$/);
        expect(Number(reset)).to.be.greaterThan(0).and.at.most(1);
        const missing = await call(app, 'GET', `/workspaces/${uniq('ws')}`, user.token);
        expect(missing.status).to.equal(404);
        expect(missing.headers.get('x-ratelimit-limit')).to.equal('5');
        expect(missing.headers.get('x-ratelimit-remaining')).to.equal('3');
      });
      const anonymous = await api('GET', `${app.api}/account/details`, { token: null });
      expectError(anonymous, 401);
      expect(anonymous.headers.get('x-ratelimit-limit')).to.equal(null);
    });

    it('answers 429 with a JSON:API error and Retry-After once the budget is spent, and the refused request writes nothing', async () => {
      const user = await createUser();
      await withinOneWindow(async () => {
        const token = (await api('POST', `/users/${user.id}/authentication-tokens`, { body: doc('authentication-tokens', { description: 'burst' }) })).body.data.attributes.token;
        const burst = await Promise.all(Array.from({ length: 7 }, () => call(app, 'GET', '/account/details', token)));
        expect(statuses(burst)).to.deep.equal([200, 200, 200, 200, 200, 429, 429]);
        for (const res of burst.filter((r) => r.status === 429)) expectTooMany(res);
        const orgsBefore = await countRows('organizations');
        const name = uniq('org');
        const create = await call(app, 'POST', '/organizations', token, doc('organizations', { name, email: `${name}@example.test` }));
        expectTooMany(create);
        expect(await countRows('organizations')).to.equal(orgsBefore);
      });
      // The window ends: the token works again.
      await new Promise((r) => setTimeout(r, 1100));
      const token = (await api('POST', `/users/${user.id}/authentication-tokens`, { body: doc('authentication-tokens', { description: 'again' }) })).body.data.attributes.token;
      expect((await call(app, 'GET', '/account/details', token)).status).to.equal(200);
    });

    it('gives two tokens of one user separate budgets (keyed by token)', async () => {
      const user = await createUser();
      const newToken = async () => (await api('POST', `/users/${user.id}/authentication-tokens`, { body: doc('authentication-tokens', { description: 'pair' }) })).body.data.attributes.token as string;
      const a = await newToken();
      const b = await newToken();
      await withinOneWindow(async () => {
        const burst = await Promise.all(Array.from({ length: 6 }, () => call(app, 'GET', '/account/details', a)));
        expect(statuses(burst)).to.deep.equal([200, 200, 200, 200, 200, 429]);
        const other = await call(app, 'GET', '/account/details', b);
        expect(other.status, other.text).to.equal(200);
        expect(other.headers.get('x-ratelimit-remaining')).to.equal('4');
        expect((await call(app, 'GET', '/account/details', a)).status).to.equal(429);
      });
    });

    it('shares one budget between two web processes on the same Redis prefix', async () => {
      await withinOneWindow(async () => {
        const { token } = await createUser();
        const onFirst = await Promise.all(Array.from({ length: 3 }, () => call(app, 'GET', '/account/details', token)));
        const onSecond = await Promise.all(Array.from({ length: 2 }, () => call(second, 'GET', '/account/details', token)));
        expect(statuses([...onFirst, ...onSecond])).to.deep.equal([200, 200, 200, 200, 200]);
        expect(onSecond.map((r) => r.headers.get('x-ratelimit-remaining')).sort()).to.deep.equal(['0', '1']);
        expectTooMany(await call(second, 'GET', '/account/details', token));
        expectTooMany(await call(app, 'GET', '/account/details', token));
      });
    });
  });

  describe('stricter budgets of expensive actions', () => {
    const app = secondAppForSuite({ RATE_LIMIT_PER_SECOND: '100', RATE_LIMIT_CONFIGURATION_VERSIONS_PER_MINUTE: '2', RATE_LIMIT_VERIFICATIONS_PER_MINUTE: '1', RATE_LIMIT_INVITATIONS_PER_MINUTE: '1' });

    it('configuration versions: the third creation in a minute is a 429 that creates nothing, while other requests and other tokens go on', async () => {
      const org = await createOrg();
      const ws = await createWorkspace(org);
      const create = (token: string) => call(app, 'POST', `/workspaces/${ws.id}/configuration-versions`, token, doc('configuration-versions', { 'auto-queue-runs': false }));
      for (let i = 0; i < 2; i++) {
        const ok = await create(org.owner.token);
        expect(ok.status, ok.text).to.equal(201);
        // The general budget's headers, not the creation budget's, on an allowed creation.
        expect(ok.headers.get('x-ratelimit-limit')).to.equal('100');
      }
      const before = await countRows('configuration_versions');
      const refused = await create(org.owner.token);
      expectTooMany(refused);
      expect(refused.headers.get('x-ratelimit-limit')).to.equal('2');
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
      expect(Number(refused.headers.get('x-ratelimit-reset'))).to.be.within(0, 60);
      expect(await countRows('configuration_versions')).to.equal(before);
      // Reading is not held back, and another token of the same user has its own budget.
      expect((await call(app, 'GET', `/workspaces/${ws.id}/configuration-versions`, org.owner.token)).status).to.equal(200);
      const other = (await api('POST', `/users/${org.owner.id}/authentication-tokens`, { body: doc('authentication-tokens', { description: 'ci' }) })).body.data.attributes.token;
      expect((await create(other)).status).to.equal(201);
    });

    it('notification configurations that may verify: the second save in a minute is a 429 that saves nothing', async () => {
      const org = await createOrg();
      const ws = await createWorkspace(org);
      const body = () => doc('notification-configurations', { 'destination-type': 'generic', enabled: false, name: uniq('nc'), url: 'https://example.test/hook' });
      const first = await call(app, 'POST', `/workspaces/${ws.id}/notification-configurations`, org.owner.token, body());
      expect(first.status, first.text).to.equal(201);
      const before = await countRows('notification_configurations');
      expectTooMany(await call(app, 'POST', `/workspaces/${ws.id}/notification-configurations`, org.owner.token, body()));
      expectTooMany(await call(app, 'POST', `/notification-configurations/${first.body.data.id}/actions/verify`, org.owner.token));
      expect(await countRows('notification_configurations')).to.equal(before);
    });

    it('invitations: the second in a minute with one token is a 429 that creates no user, membership or mail', async () => {
      const org = await createOrg();
      const invite = (email: string) => call(app, 'POST', `/organizations/${org.name}/organization-memberships`, org.owner.token, doc('organization-memberships', { email }));
      expect((await invite(`${uniq('first')}@example.test`)).status).to.equal(201);
      const before = await tableCounts();
      const res = await invite(`${uniq('second')}@example.test`);
      expectTooMany(res);
      expect(res.body.errors[0].detail).to.match(/invitations sent with this token/);
      expect(await tableCounts()).to.deep.equal(before);
    });
  });

  describe('disabled and unreachable', () => {
    it('RATE_LIMIT_PER_SECOND=0 turns the per-token budget off: no headers, no 429', async () => {
      const app = await startSecondApp({ RATE_LIMIT_PER_SECOND: '0' });
      try {
        const { token } = await createUser();
        const burst = await Promise.all(Array.from({ length: 12 }, () => call(app, 'GET', '/account/details', token)));
        expect(new Set(statuses(burst))).to.deep.equal(new Set([200]));
        expect(burst[0].headers.get('x-ratelimit-limit')).to.equal(null);
      } finally {
        await app.close();
      }
    });

    it('fails open when Redis cannot be reached: requests are answered (no 500, no 429), without the headers', async () => {
      const deadRedis = `redis://127.0.0.1:${await freePort()}`;
      const app = await startSecondApp({ RATE_LIMIT_PER_SECOND: '1', REDIS_URL: deadRedis });
      try {
        const user = await createUser();
        for (let i = 0; i < 3; i++) {
          const res = await call(app, 'GET', '/account/details', user.token);
          expect(res.status, res.text).to.equal(200);
          expect(res.body.data.id).to.equal(user.id);
          expect(res.headers.get('x-ratelimit-limit')).to.equal(null);
        }
      } finally {
        await app.close();
      }
      // The harness's API, on the working Redis, still limits and says so.
      expect((await api('GET', '/account/details')).headers.get('x-ratelimit-limit')).to.equal(harness().config.rateLimitPerSecond.toString());
    });
  });
});
