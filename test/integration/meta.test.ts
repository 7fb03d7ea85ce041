import { expect } from 'chai';
import { api, expectError } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';

describe('discovery, ping, health and the queue board', () => {
  it('serves /healthz and /readyz with Postgres and Redis reachable', async () => {
    expect((await api('GET', '/healthz', { token: null })).status).to.equal(200);
    const ready = await api('GET', '/readyz', { token: null });
    expect(ready.status).to.equal(200);
    expect(ready.body).to.deep.equal({ postgres: 'ok', redis: 'ok' });
  });

  it('answers ping with the headers the terraform CLI reads, with or without a token', async () => {
    for (const token of [null, 'not-a-token']) {
      const res = await api('GET', '/ping', { token });
      expect(res.status).to.equal(204);
      expect(res.headers.get('tfp-api-version')).to.equal('2.6');
      expect(res.headers.get('tfp-appname')).to.equal('Terraform Enterprise');
      expect(res.headers.get('x-ratelimit-limit')).to.equal('30');
      expect(res.headers.get('x-tfe-version')).to.match(/^v\d{6}-\d+$/);
    }
  });

  it('serves service discovery as application/json pointing tfe.v2 at /api/v2/', async () => {
    const res = await api('GET', '/.well-known/terraform.json', { token: null });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json\b/);
    expect(res.body['tfe.v2']).to.equal('/api/v2/');
    expect(res.body['modules.v1']).to.be.a('string');
  });

  it('answers unknown endpoints and missing tokens with JSON:API errors', async () => {
    expectError(await api('GET', '/no-such-thing'), 404);
    expectError(await api('GET', '/account/details', { token: null }), 401);
    expectError(await api('GET', '/account/details', { token: 'wrong' }), 401);
    expectError(await api('GET', '/account/details', { headers: { Authorization: 'Basic abc' }, token: null }), 401);
  });

  it('lets only the site admin open Bull Board, with the admin token as Basic password', async () => {
    const h = harness();
    const anonymous = await fetch(`${h.baseUrl}/admin/queues`);
    expect(anonymous.status).to.equal(401);
    expect(anonymous.headers.get('www-authenticate')).to.match(/^Basic/);
    const wrong = await fetch(`${h.baseUrl}/admin/queues`, {
      headers: { Authorization: `Basic ${Buffer.from('admin:nope').toString('base64')}` },
    });
    expect(wrong.status).to.equal(401);
    const auth = { Authorization: `Basic ${Buffer.from(`admin:${h.adminToken}`).toString('base64')}` };
    const page = await fetch(`${h.baseUrl}/admin/queues`, { headers: auth });
    expect(page.status).to.equal(200);
    expect(await page.text()).to.match(/<html/i);
    const queues = await fetch(`${h.baseUrl}/admin/queues/api/queues`, { headers: auth });
    expect(queues.status).to.equal(200);
    const names = ((await queues.json()) as { queues: { name: string }[] }).queues.map((q) => q.name).sort();
    expect(names).to.deep.equal([
      'deadline-expiry',
      'notification-delivery',
      'run-pipeline',
      'run-task-dispatch',
      'test-run-execution',
      'vcs',
      'verification',
    ]);
  });

  it('answers malformed paths and unstorable values with JSON:API 400/422 errors, not 500', async () => {
    const base = harness().baseUrl;
    for (const path of ['/v1/logs/%ZZ', '/api/v2/task-results/%ZZ/callback']) {
      const res = await fetch(`${base}${path}`, { method: path.includes('callback') ? 'PATCH' : 'GET' });
      expect(res.status, path).to.equal(400);
      const body = (await res.json()) as { errors: { status: string }[] };
      expect(body.errors[0].status).to.equal('400');
    }
    const org = (await api('GET', '/organizations', {})).body.data[0]?.id;
    const named =
      org ??
      (
        await api('POST', '/organizations', {
          body: {
            data: { type: 'organizations', attributes: { name: `nul-${Date.now()}`, email: 'nul@example.test' } },
          },
        })
      ).body.data.id;
    const res = await api('POST', `/organizations/${named}/workspaces`, {
      body: { data: { type: 'workspaces', attributes: { name: `nul-${Date.now()}`, description: 'a\u0000b' } } },
    });
    expectError(res, 422);
  });
});
