import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { api, doc, expectError, type ApiResponse } from '../helpers/api.js';
import { freePort, harness, secondAppForSuite, startSecondApp } from '../helpers/harness.js';
import { countRows, createOrg, createUser, createWorkspace, uniq } from '../helpers/fixtures.js';
import { tableCounts } from '../helpers/identity.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startScriptedReceiver, type ScriptedReceiver } from '../helpers/notification-receiver.js';

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
  expect(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${res.headers.get('retry-after')}`).to.equal(
    true,
  );
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
        const token = (
          await api('POST', `/users/${user.id}/authentication-tokens`, {
            body: doc('authentication-tokens', { description: 'burst' }),
          })
        ).body.data.attributes.token;
        const burst = await Promise.all(Array.from({ length: 7 }, () => call(app, 'GET', '/account/details', token)));
        expect(statuses(burst)).to.deep.equal([200, 200, 200, 200, 200, 429, 429]);
        for (const res of burst.filter((r) => r.status === 429)) expectTooMany(res);
        const orgsBefore = await countRows('organizations');
        const name = uniq('org');
        const create = await call(
          app,
          'POST',
          '/organizations',
          token,
          doc('organizations', { name, email: `${name}@example.test` }),
        );
        expectTooMany(create);
        expect(await countRows('organizations')).to.equal(orgsBefore);
      });
      // The window ends: the token works again.
      await new Promise((r) => setTimeout(r, 1100));
      const token = (
        await api('POST', `/users/${user.id}/authentication-tokens`, {
          body: doc('authentication-tokens', { description: 'again' }),
        })
      ).body.data.attributes.token;
      expect((await call(app, 'GET', '/account/details', token)).status).to.equal(200);
    });

    it('gives two tokens of one user separate budgets (keyed by token)', async () => {
      const user = await createUser();
      const newToken = async () =>
        (
          await api('POST', `/users/${user.id}/authentication-tokens`, {
            body: doc('authentication-tokens', { description: 'pair' }),
          })
        ).body.data.attributes.token as string;
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
        const onSecond = await Promise.all(
          Array.from({ length: 2 }, () => call(second, 'GET', '/account/details', token)),
        );
        expect(statuses([...onFirst, ...onSecond])).to.deep.equal([200, 200, 200, 200, 200]);
        expect(onSecond.map((r) => r.headers.get('x-ratelimit-remaining')).sort()).to.deep.equal(['0', '1']);
        expectTooMany(await call(second, 'GET', '/account/details', token));
        expectTooMany(await call(app, 'GET', '/account/details', token));
      });
    });
  });

  describe('stricter budgets of expensive actions', () => {
    const app = secondAppForSuite({
      RATE_LIMIT_PER_SECOND: '100',
      RATE_LIMIT_CONFIGURATION_VERSIONS_PER_MINUTE: '2',
      RATE_LIMIT_INVITATIONS_PER_MINUTE: '1',
    });

    it('configuration versions: the third creation in a minute is a 429 that creates nothing, while other requests and other tokens go on', async () => {
      const org = await createOrg();
      const ws = await createWorkspace(org);
      const create = (token: string) =>
        call(
          app,
          'POST',
          `/workspaces/${ws.id}/configuration-versions`,
          token,
          doc('configuration-versions', { 'auto-queue-runs': false }),
        );
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
      expect((await call(app, 'GET', `/workspaces/${ws.id}/configuration-versions`, org.owner.token)).status).to.equal(
        200,
      );
      const other = (
        await api('POST', `/users/${org.owner.id}/authentication-tokens`, {
          body: doc('authentication-tokens', { description: 'ci' }),
        })
      ).body.data.attributes.token;
      expect((await create(other)).status).to.equal(201);
    });

    it('invitations: the second in a minute with one token is a 429 that creates no user, membership or mail', async () => {
      const org = await createOrg();
      const invite = (email: string) =>
        call(
          app,
          'POST',
          `/organizations/${org.name}/organization-memberships`,
          org.owner.token,
          doc('organization-memberships', { email }),
        );
      expect((await invite(`${uniq('first')}@example.test`)).status).to.equal(201);
      const before = await tableCounts();
      const res = await invite(`${uniq('second')}@example.test`);
      expectTooMany(res);
      expect(res.body.errors[0].detail).to.match(/invitations sent with this token/);
      expect(await tableCounts()).to.deep.equal(before);
    });
  });

  describe('failed authentications, per client address (behind a trusted proxy)', () => {
    const app = secondAppForSuite({ RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '5', TRUST_PROXY: 'loopback' });
    // The test is the proxy: X-Forwarded-For names each client's address.
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    const guess = () => `guess-${randomBytes(16).toString('hex')}`;
    const board = (address: string, password: string) =>
      api('GET', `${app.baseUrl}/admin/queues/`, {
        token: null,
        headers: {
          ...from(address),
          Authorization: `Basic ${Buffer.from(`x:${password}`).toString('base64')}`,
          Accept: 'text/html',
        },
      });

    it('refuses an address that guessed too many tokens (429, Retry-After), its good tokens too, while other addresses go on', async () => {
      const user = await createUser();
      const [attacker, other] = ['203.0.113.70', '198.51.100.70'];
      for (let i = 0; i < 5; i++)
        expectError(await api('GET', `${app.api}/account/details`, { token: guess(), headers: from(attacker) }), 401);
      const refused = await api('GET', `${app.api}/account/details`, { token: guess(), headers: from(attacker) });
      expectTooMany(refused);
      expect(refused.body.errors[0].detail).to.match(/failed authentications from this address \(at most 5\)/);
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
      // Past the budget a guess tells nothing: the right token from that address is refused alike.
      expectTooMany(await api('GET', `${app.api}/account/details`, { token: user.token, headers: from(attacker) }));
      // The registry protocol shares the budget.
      expectTooMany(
        await api('GET', `${app.baseUrl}/api/registry/v1/modules/acme/vpc/aws/versions`, {
          token: guess(),
          headers: from(attacker),
        }),
      );
      // Another address: its own budget, and its good token works.
      const ok = await api('GET', `${app.api}/account/details`, { token: user.token, headers: from(other) });
      expect(ok.status, ok.text).to.equal(200);
      expect(ok.body.data.id).to.equal(user.id);
      expectError(await api('GET', `${app.api}/account/details`, { token: guess(), headers: from(other) }), 401);
      // A request with no credential is no guess: it is answered 401 as ever.
      expectError(await api('GET', `${app.api}/account/details`, { token: null, headers: from(attacker) }), 401);
    });

    it("counts the queue board's wrong passwords the same way; the site admin signs in from another address", async () => {
      const [attacker, admin] = ['203.0.113.200', '198.51.100.200'];
      for (let i = 0; i < 5; i++) expect((await board(attacker, guess())).status).to.equal(401);
      const refused = await board(attacker, guess());
      expect(refused.status, refused.text).to.equal(429);
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
      expect((await board(attacker, harness().adminToken)).status).to.equal(429);
      const page = await board(admin, harness().adminToken);
      expect(page.status, page.text).to.equal(200);
      // The API's budget of that address is the same one.
      expectTooMany(await api('GET', `${app.api}/account/details`, { token: guess(), headers: from(attacker) }));
    });

    it('counts guesses sent all at once: past the budget they answer 429, never 401, on the API and the board', async () => {
      const [apiAttacker, boardAttacker] = ['203.0.113.71', '203.0.113.201'];
      const apiBurst = await Promise.all(
        Array.from({ length: 30 }, () =>
          api('GET', `${app.api}/account/details`, { token: guess(), headers: from(apiAttacker) }),
        ),
      );
      const apiStatuses = apiBurst.map((r) => r.status);
      expect(apiStatuses.filter((st) => st === 401)).to.have.lengthOf(5);
      expect(apiStatuses.filter((st) => st === 429)).to.have.lengthOf(25);
      // The board checks a password only after taking its point: of a burst of 30, at most 5 are checked.
      const boardBurst = await Promise.all(Array.from({ length: 30 }, () => board(boardAttacker, guess())));
      const boardStatuses = boardBurst.map((r) => r.status);
      expect(boardStatuses.filter((st) => st === 401)).to.have.lengthOf(5);
      expect(boardStatuses.filter((st) => st === 429)).to.have.lengthOf(25);
      // A good password gives its point back: the site admin uses the board far past the budget.
      const admin = '198.51.100.201';
      for (let i = 0; i < 8; i++) expect((await board(admin, harness().adminToken)).status).to.equal(200);
    });
  });

  describe('verifications, per destination host', function () {
    this.timeout(120_000);
    let worker: WorkerProcess;
    const receivers: ScriptedReceiver[] = [];
    before(async () => {
      worker = spawnWorkers(['verification']);
      await workersReady(worker);
    });
    after(async () => {
      await worker?.stop();
      for (const r of receivers) await r.close();
    });
    const receiver = async (host: string, answer?: Parameters<typeof startScriptedReceiver>[1]) => {
      const r = await startScriptedReceiver(null, answer, host);
      receivers.push(r);
      return r;
    };
    const notification = (app: { api: string }, wsId: string, token: string, url: string, enabled = true) =>
      call(
        app,
        'POST',
        `/workspaces/${wsId}/notification-configurations`,
        token,
        doc('notification-configuration', {
          'destination-type': 'generic',
          enabled,
          name: uniq('nc'),
          url,
          triggers: ['run:created'],
        }),
      );

    // The default limits; the per-token budget is set out of the way, as only verification is measured here.
    const defaults = secondAppForSuite({
      RATE_LIMIT_PER_SECOND: '1000',
      RATE_LIMIT_VERIFICATIONS_PER_HOST_PER_MINUTE: '',
      MAX_CONCURRENT_VERIFICATIONS_PER_HOST: '',
    });

    it('lets one token create 40 verified notification configurations in a minute, ten at a time, all to one destination host', async () => {
      const sink = await receiver('127.0.0.1');
      const org = await createOrg();
      // A workspace holds at most 20 configurations.
      const workspaces = [await createWorkspace(org), await createWorkspace(org)];
      const started = Date.now();
      const statuses: number[] = [];
      for (let batch = 0; batch < 4; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            notification(defaults, workspaces[(batch * 10 + i) % 2].id, org.owner.token, sink.url),
          ),
        );
        for (const res of answers) expect(res.status, res.text).to.equal(201);
        statuses.push(...answers.map((r) => r.status));
      }
      expect(statuses).to.have.length(40);
      expect(Date.now() - started).to.be.below(60_000);
      expect(sink.received.filter((r) => r.body.notifications?.[0]?.trigger === 'verification')).to.have.length(40);
    });

    it('bounds a flood to one destination host, whoever sends it: 429 with Retry-After and nothing saved; other hosts and unverified saves go on', async () => {
      const app = await startSecondApp({ RATE_LIMIT_VERIFICATIONS_PER_HOST_PER_MINUTE: '5' });
      try {
        const flooded = await receiver('127.0.0.2');
        const elsewhere = await receiver('127.0.0.3');
        const org = await createOrg();
        const ws = await createWorkspace(org);
        for (let i = 0; i < 5; i++) {
          const res = await notification(app, ws.id, org.owner.token, flooded.url);
          expect(res.status, res.text).to.equal(201);
        }
        const before = await countRows('notification_configurations');
        const refused = await notification(app, ws.id, org.owner.token, flooded.url);
        expectTooMany(refused);
        expect(refused.body.errors[0].detail).to.match(/verifications of this destination host \(at most 5\)/);
        expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
        expect(await countRows('notification_configurations')).to.equal(before);
        // Another organization's token meets the same budget: it is the destination's.
        const stranger = await createOrg();
        expectTooMany(await notification(app, (await createWorkspace(stranger)).id, stranger.owner.token, flooded.url));
        // Run tasks verify through the same budget.
        const tasksBefore = await countRows('tasks');
        expectTooMany(
          await call(
            app,
            'POST',
            `/organizations/${org.name}/tasks`,
            org.owner.token,
            doc('tasks', { name: uniq('task'), url: flooded.url, category: 'task' }),
          ),
        );
        expect(await countRows('tasks')).to.equal(tasksBefore);
        expect(flooded.received).to.have.length(5);
        // Another host is verified as usual, and a disabled configuration calls nobody.
        expect((await notification(app, ws.id, org.owner.token, elsewhere.url)).status).to.equal(201);
        expect((await notification(app, ws.id, org.owner.token, flooded.url, false)).status).to.equal(201);
      } finally {
        await app.close();
      }
    });

    it('bounds the verifications of one host waiting for their answer at once', async () => {
      const app = await startSecondApp({ MAX_CONCURRENT_VERIFICATIONS_PER_HOST: '2' });
      try {
        let release = () => {};
        const held = new Promise<void>((r) => (release = r));
        const slow = await receiver('127.0.0.4', () => ({ status: 200, hold: held }));
        const org = await createOrg();
        const ws = await createWorkspace(org);
        const answers = Array.from({ length: 4 }, () => notification(app, ws.id, org.owner.token, slow.url));
        await waitFor(() => slow.received.length === 2, 'two verifications to reach the destination');
        // The other two are refused while those two wait, and ask to come back shortly.
        const first = await Promise.race(answers);
        expectTooMany(first);
        expect(first.headers.get('retry-after')).to.equal('1');
        expect(first.body.errors[0].detail).to.match(
          /too many verifications of 127\.0\.0\.4 under way at once \(at most 2\)/,
        );
        release();
        expect(statuses(await Promise.all(answers))).to.deep.equal([201, 201, 429, 429]);
        expect(slow.received).to.have.length(2);
        // Once they are answered, the host takes verifications again.
        expect((await notification(app, ws.id, org.owner.token, slow.url)).status).to.equal(201);
      } finally {
        await app.close();
      }
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
      expect((await api('GET', '/account/details')).headers.get('x-ratelimit-limit')).to.equal(
        harness().config.rateLimitPerSecond.toString(),
      );
    });
  });
});
