import { expect } from 'chai';
import { api, doc, expectError, type ApiResponse } from '../helpers/api.js';
import { decryptSecret } from '../../shared/platform/crypto.js';
import { freePort, harness } from '../helpers/harness.js';
import {
  countRows,
  createOrg,
  createUser,
  createWorkspace,
  uniq,
  type TestUser,
  memberWithAccess,
} from '../helpers/fixtures.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startScriptedReceiver, type ScriptedReceiver } from '../helpers/notification-receiver.js';

const QUEUES = ['run-pipeline', 'notification-delivery', 'deadline-expiry', 'verification'];
const TABLES = ['notification_configurations', 'notification_configuration_users', 'notification_deliveries'];
const RESPONSE_KEYS = ['body', 'code', 'headers', 'sent-at', 'successful', 'url'];
type Org = { name: string; owner: TestUser };

const counts = async () =>
  Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await countRows(t)] as const)));

/** Asserts the request is refused with `status` and that no notification table changed. */
async function refused(call: () => Promise<ApiResponse>, status: number, detail?: RegExp): Promise<ApiResponse> {
  const before = await counts();
  const res = await call();
  expectError(res, status, detail);
  expect(await counts()).to.deep.equal(before);
  return res;
}

const ncDoc = (
  attrs: Record<string, unknown>,
  relationships?: Record<string, unknown>,
  type = 'notification-configuration',
) =>
  doc(
    type,
    { 'destination-type': 'generic', enabled: false, name: uniq('nc'), url: 'https://example.test/hook', ...attrs },
    relationships,
  );

const createNc = (
  wsId: string,
  token: string,
  attrs: Record<string, unknown> = {},
  relationships?: Record<string, unknown>,
) => api('POST', `/workspaces/${wsId}/notification-configurations`, { token, body: ncDoc(attrs, relationships) });

const patchNc = (
  id: string,
  token: string | null,
  attrs: Record<string, unknown>,
  relationships?: Record<string, unknown>,
) =>
  api('PATCH', `/notification-configurations/${id}`, {
    token,
    body: doc('notification-configuration', attrs, relationships),
  });

const page = (wsId: string, token: string, query: string) =>
  api('GET', `/workspaces/${wsId}/notification-configurations?${query}`, { token });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function created(wsId: string, token: string, attrs: Record<string, unknown> = {}): Promise<any> {
  const res = await createNc(wsId, token, attrs);
  expect(res.status, res.text).to.equal(201);
  return res.body.data;
}

/** A fresh organization member on a team with `access` to the workspace. */

describe('notification configurations: verification', function () {
  this.timeout(60_000);
  let worker: WorkerProcess;
  const receivers: ScriptedReceiver[] = [];
  let org: Org;
  let ws: { id: string; name: string };

  before(async () => {
    worker = spawnWorkers(QUEUES);
    await workersReady(worker);
    org = await createOrg();
    ws = await createWorkspace(org);
  });

  after(async () => {
    await worker?.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  async function receiver(token: string | null, status = 200) {
    const headers = { 'X-Receiver-Note': 'Hello', 'Set-Cookie': ['a=1', 'b=2'] };
    const r = await startScriptedReceiver(token, () => ({ status, body: `answer ${status}`, headers }));
    receivers.push(r);
    return r;
  }

  it('refuses to create an enabled configuration whose destination answers 500, and saves nothing', async () => {
    const rx = await receiver('s3cret', 500);
    const verificationsBefore = await countRows('verifications');
    const attrs = { enabled: true, token: 's3cret', url: rx.url, triggers: ['run:created'] };
    await refused(() => createNc(ws.id, org.owner.token, attrs), 400, /500/);
    expect(rx.received).to.have.length(1);
    expect(rx.received[0].signatureValid).to.equal(true);
    expect(await countRows('verifications')).to.equal(verificationsBefore + 1);
    const list = await api('GET', `/workspaces/${ws.id}/notification-configurations`, { token: org.owner.token });
    expect(list.body.data.filter((c: { attributes: { url: string } }) => c.attributes.url === rx.url)).to.have.length(
      0,
    );
  });

  it('creates an enabled configuration whose destination answers 200, with the delivery response filled', async () => {
    const rx = await receiver('s3cret');
    const started = Date.now();
    const attrs = { enabled: true, token: 's3cret', url: rx.url, triggers: ['run:created', 'run:errored'] };
    const res = await createNc(ws.id, org.owner.token, attrs);
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.type).to.equal('notification-configurations');
    expect(res.body.data.attributes).to.include({
      'destination-type': 'generic',
      enabled: true,
      url: rx.url,
      token: null,
    });
    expect(res.body.data.attributes.triggers).to.deep.equal(['run:created', 'run:errored']);
    expect(res.body.data.relationships.subscribable.data).to.deep.equal({ type: 'workspaces', id: ws.id });

    // The test payload: the run notification's form with run and workspace values null.
    expect(rx.received).to.have.length(1);
    const test = rx.received[0];
    expect(test.signatureValid).to.equal(true);
    expect(test.body.payload_version).to.equal(1);
    expect(test.body.notification_configuration_id).to.equal(res.body.data.id);
    const nulls = [
      'run_url',
      'run_id',
      'run_message',
      'run_created_at',
      'run_created_by',
      'workspace_id',
      'workspace_name',
      'organization_name',
    ];
    for (const k of nulls) expect(test.body[k], k).to.equal(null);
    expect(test.body.notifications).to.have.length(1);

    const responses = res.body.data.attributes['delivery-responses'];
    expect(responses).to.have.length(1);
    const [r] = responses;
    expect(Object.keys(r).sort()).to.deep.equal(RESPONSE_KEYS);
    expect(r.body).to.equal('answer 200');
    expect(r.code).to.equal('200');
    expect(r.successful).to.equal(true);
    expect(r.url).to.equal(rx.url);
    expect(r.headers['x-receiver-note']).to.deep.equal(['Hello']);
    expect(r.headers['set-cookie']).to.deep.equal(['a=1', 'b=2']);
    for (const [name, values] of Object.entries(r.headers)) {
      expect(name).to.equal(name.toLowerCase());
      expect(values).to.be.an('array').that.is.not.empty;
      for (const v of values as unknown[]) expect(v).to.be.a('string');
    }
    const sentAt = Date.parse(r['sent-at']);
    expect(r['sent-at']).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(sentAt).to.be.within(started - 2000, Date.now() + 1000);

    const shown = await api('GET', `/notification-configurations/${res.body.data.id}`, { token: org.owner.token });
    expect(shown.status).to.equal(200);
    expect(shown.body.data.attributes['delivery-responses']).to.deep.equal(responses);
  });

  it('answers 400 to the verify action on a dead URL, keeping the configuration, and 200 on a live one', async () => {
    const deadUrl = `http://127.0.0.1:${await freePort()}/hook`;
    const c = await created(ws.id, org.owner.token, { url: deadUrl });
    expect(c.attributes['delivery-responses']).to.deep.equal([]);
    await refused(
      () => api('POST', `/notification-configurations/${c.id}/actions/verify`, { token: org.owner.token }),
      400,
    );
    const after = await api('GET', `/notification-configurations/${c.id}`, { token: org.owner.token });
    expect(after.status).to.equal(200);
    expect(after.body.data.attributes.url).to.equal(deadUrl);

    const rx = await receiver(null);
    const live = await created(ws.id, org.owner.token, { url: rx.url });
    expect(rx.received).to.have.length(0);
    const verified = await api('POST', `/notification-configurations/${live.id}/actions/verify`, {
      token: org.owner.token,
    });
    expect(verified.status, verified.text).to.equal(200);
    expect(verified.body.data.type).to.equal('notification-configurations');
    expect(rx.received).to.have.length(1);
    expect(verified.body.data.attributes['delivery-responses']).to.have.length(1);
    expect(verified.body.data.attributes['delivery-responses'][0]).to.include({
      code: '200',
      successful: true,
      url: rx.url,
    });
    // Verifying does not enable the configuration.
    expect(verified.body.data.attributes.enabled).to.equal(false);
  });

  it('saves an enabled email configuration without any HTTP call', async () => {
    const before = await countRows('verifications');
    const res = await api('POST', `/workspaces/${ws.id}/notification-configurations`, {
      token: org.owner.token,
      body: doc(
        'notification-configuration',
        { 'destination-type': 'email', enabled: true, name: uniq('mail'), triggers: ['run:completed'] },
        { users: { data: [{ type: 'users', id: org.owner.id }] } },
      ),
    });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.attributes).to.include({ 'destination-type': 'email', enabled: true, url: null });
    expect(res.body.data.attributes['delivery-responses']).to.deep.equal([]);
    expect(res.body.data.relationships.users.data).to.deep.equal([{ type: 'users', id: org.owner.id }]);
    expect(await countRows('verifications')).to.equal(before);
  });

  it('keeps omitted attributes on PATCH and never returns or stores the token in plaintext', async () => {
    const secret = uniq('plain-token');
    const rx = await receiver(secret);
    const triggers = ['run:planning', 'workspace:auto_destro_reminder'];
    const c = await created(ws.id, org.owner.token, { enabled: true, token: secret, url: rx.url, triggers });
    expect(c.attributes.token).to.equal(null);
    const row = await harness().rt.db('notification_configurations').where({ id: c.id }).first();
    expect(row.token_sealed).to.be.a('string').and.not.equal('');
    expect(row.token_sealed).to.not.include(secret);
    expect(JSON.stringify(row)).to.not.include(secret);

    const newName = uniq('renamed');
    const patched = await patchNc(c.id, org.owner.token, { name: newName });
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body.data.type).to.equal('notification-configurations');
    const a = patched.body.data.attributes;
    expect(a).to.include({ name: newName, 'destination-type': 'generic', enabled: true, url: rx.url, token: null });
    expect(a.triggers).to.deep.equal(triggers);
    // Still enabled, so the save verified again, signed with the token kept from before.
    expect(rx.received).to.have.length(2);
    expect(rx.received[1].signatureValid).to.equal(true);
    expect(a['delivery-responses']).to.have.length(1);
    expect(a['delivery-responses'][0]['sent-at']).to.not.equal(c.attributes['delivery-responses'][0]['sent-at']);

    const triggersOnly = await api('PATCH', `/notification-configurations/${c.id}`, {
      token: org.owner.token,
      body: doc('notification-configurations', { enabled: false, triggers: ['run:errored'] }),
    });
    expect(triggersOnly.status, triggersOnly.text).to.equal(200);
    expect(triggersOnly.body.data.attributes).to.include({ name: newName, enabled: false, url: rx.url, token: null });
    expect(triggersOnly.body.data.attributes.triggers).to.deep.equal(['run:errored']);
    expect(rx.received).to.have.length(2);
    // The token is kept (sealed afresh on each save) and still never stored in plaintext.
    const stored = await harness().rt.db('notification_configurations').where({ id: c.id }).first();
    expect(stored.token_sealed).to.not.include(secret);
    expect(decryptSecret(harness().config.encryptionKey, stored.token_sealed)).to.equal(secret);

    const listed = await api('GET', `/workspaces/${ws.id}/notification-configurations`, { token: org.owner.token });
    for (const item of listed.body.data) expect(item.attributes.token).to.equal(null);
    expect(listed.text).to.not.include(secret);
  });

  it('refuses to enable on PATCH when the destination fails, changing nothing', async () => {
    const rx = await receiver(null, 503);
    const c = await created(ws.id, org.owner.token, { url: rx.url, name: uniq('stay') });
    await refused(() => patchNc(c.id, org.owner.token, { enabled: true, name: 'changed' }), 400);
    expect(rx.received).to.have.length(1);
    const after = await harness().rt.db('notification_configurations').where({ id: c.id }).first();
    expect(after).to.include({ enabled: false, name: c.attributes.name });
  });
});

describe('notification configurations: API rules', function () {
  this.timeout(60_000);
  let org: Org;
  let ws: { id: string; name: string };

  before(async () => {
    org = await createOrg();
    ws = await createWorkspace(org);
  });

  it('lists unpaginated without page parameters and in pages of 20 by default with them', async () => {
    const full = await createWorkspace(org);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++)
      ids.push((await created(full.id, org.owner.token, { name: `nc-${String(i).padStart(2, '0')}` })).id);

    const all = await api('GET', `/workspaces/${full.id}/notification-configurations`, { token: org.owner.token });
    expect(all.status, all.text).to.equal(200);
    expect(all.body.data.map((d: { id: string }) => d.id).sort()).to.deep.equal([...ids].sort());
    expect(all.body.meta?.pagination).to.equal(undefined);

    const first = await page(full.id, org.owner.token, 'page%5Bnumber%5D=1');
    expect(first.status).to.equal(200);
    expect(first.body.data).to.have.length(20);
    expect(first.body.meta.pagination).to.deep.include({
      'current-page': 1,
      'page-size': 20,
      'total-pages': 1,
      'total-count': 20,
      'next-page': null,
      'prev-page': null,
    });

    const sized = await page(full.id, org.owner.token, 'page%5Bsize%5D=7&page%5Bnumber%5D=2');
    expect(sized.body.data).to.have.length(7);
    const p = sized.body.meta.pagination;
    expect(p).to.deep.include({
      'current-page': 2,
      'total-pages': 3,
      'total-count': 20,
      'next-page': 3,
      'prev-page': 1,
    });
    for (const k of ['current-page', 'total-pages', 'total-count', 'next-page', 'prev-page'])
      expect(p[k], k).to.be.a('number');
    const last = await page(full.id, org.owner.token, 'page%5Bsize%5D=7&page%5Bnumber%5D=3');
    expect(last.body.data).to.have.length(6);
    const pageIds = [...first.body.data].map((d: { id: string }) => d.id);
    expect(new Set(pageIds).size).to.equal(20);

    // The 21st configuration in the workspace is refused.
    await refused(() => createNc(full.id, org.owner.token), 422, /20/);
    // Other workspaces are not affected.
    await created(ws.id, org.owner.token);
  });

  it('never lets concurrent creates exceed 20 configurations in a workspace', async () => {
    const busy = await createWorkspace(org);
    for (let i = 0; i < 18; i++) await created(busy.id, org.owner.token);
    const racing = await Promise.all(Array.from({ length: 8 }, () => createNc(busy.id, org.owner.token)));
    expect(racing.map((r) => r.status).sort()).to.deep.equal([201, 201, 422, 422, 422, 422, 422, 422]);
    for (const r of racing.filter((x) => x.status === 422)) expectError(r, 422, /20/);
    const all = await api('GET', `/workspaces/${busy.id}/notification-configurations`, { token: org.owner.token });
    expect(all.body.data).to.have.length(20);
  });

  it('requires admin access to the workspace: a writer gets 404 everywhere, an admin team member may manage', async () => {
    const c = await created(ws.id, org.owner.token);
    const writer = await memberWithAccess(org, ws.id, 'write');
    const t = writer.token;
    await refused(() => createNc(ws.id, t), 404);
    await refused(() => api('GET', `/workspaces/${ws.id}/notification-configurations`, { token: t }), 404);
    await refused(() => api('GET', `/notification-configurations/${c.id}`, { token: t }), 404);
    await refused(() => patchNc(c.id, t, { name: 'x' }), 404);
    await refused(() => api('POST', `/notification-configurations/${c.id}/actions/verify`, { token: t }), 404);
    await refused(() => api('GET', `/notification-configurations/${c.id}/deliveries`, { token: t }), 404);
    await refused(() => api('DELETE', `/notification-configurations/${c.id}`, { token: t }), 404);
    const outsider = await createUser();
    await refused(() => api('GET', `/notification-configurations/${c.id}`, { token: outsider.token }), 404);
    await refused(() => createNc(ws.id, outsider.token), 404);
    await refused(() => createNc('ws-doesnotexist', org.owner.token), 404);

    const admin = await memberWithAccess(org, ws.id, 'admin');
    const mine = await created(ws.id, admin.token);
    expect((await api('GET', `/notification-configurations/${c.id}`, { token: admin.token })).status).to.equal(200);
    expect((await api('DELETE', `/notification-configurations/${mine.id}`, { token: admin.token })).status).to.equal(
      204,
    );
    await refused(() => api('GET', `/notification-configurations/${mine.id}`, { token: admin.token }), 404);
  });

  it('refuses malformed bodies with 422, malformed JSON with 400 and missing credentials with 401, writing nothing', async () => {
    const token = org.owner.token;
    const post = (body: unknown) => () =>
      api('POST', `/workspaces/${ws.id}/notification-configurations`, { token, body });
    await refused(post(ncDoc({}, undefined, 'workspaces')), 422);
    await refused(
      post({ data: { attributes: { 'destination-type': 'generic', name: 'n', url: 'https://example.test/' } } }),
      422,
    );
    await refused(post(ncDoc({ triggers: ['run:exploded'] })), 422, /triggers/);
    await refused(post(ncDoc({ triggers: 'run:created' })), 422);
    await refused(post(ncDoc({ 'destination-type': 'pager' })), 422, /destination-type/);
    await refused(post(ncDoc({ name: undefined })), 422, /name/);
    await refused(post(ncDoc({ 'destination-type': undefined })), 422, /destination-type/);
    await refused(post(ncDoc({ enabled: 'yes' })), 422);
    for (const type of ['generic', 'slack', 'microsoft-teams']) {
      await refused(post(ncDoc({ 'destination-type': type, url: undefined })), 422, /url/);
      await refused(post(ncDoc({ 'destination-type': type, url: null })), 422, /url/);
    }
    await refused(post(ncDoc({ url: 'ftp://example.test/hook' })), 422, /url/);
    await refused(post(ncDoc({ url: 'not a url' })), 422, /url/);
    for (const raw of ['{"data":', '{"data": {"type": "notification-configuration",}}']) {
      await refused(() => api('POST', `/workspaces/${ws.id}/notification-configurations`, { token, raw }), 400);
    }
    await refused(
      () => api('POST', `/workspaces/${ws.id}/notification-configurations`, { token: null, body: ncDoc({}) }),
      401,
    );
    await refused(
      () => api('POST', `/workspaces/${ws.id}/notification-configurations`, { token: 'not-a-token', body: ncDoc({}) }),
      401,
    );
    await refused(() => api('GET', `/workspaces/${ws.id}/notification-configurations`, { token: null }), 401);

    const c = await created(ws.id, token);
    const patch = (body: unknown) => () => api('PATCH', `/notification-configurations/${c.id}`, { token, body });
    await refused(patch(doc('workspaces', { name: 'x' })), 422);
    await refused(patch(doc('notification-configuration', { triggers: ['workspace:auto_destroyed'] })), 422);
    await refused(patch(doc('notification-configuration', { url: null })), 422, /url/);
    await refused(() => api('PATCH', `/notification-configurations/${c.id}`, { token, raw: '{"data":' }), 400);
    await refused(() => patchNc(c.id, null, { name: 'x' }), 401);
    await refused(() => api('DELETE', `/notification-configurations/${c.id}`, { token: null }), 401);
    await refused(() => api('GET', '/notification-configurations/nc-doesnotexist', { token }), 404);
  });

  it('accepts every trigger value as TFE spells it, including workspace:auto_destro_reminder, and the plural type', async () => {
    const triggers = [
      'run:created',
      'run:planning',
      'run:needs_attention',
      'run:applying',
      'run:completed',
      'run:errored',
      'assessment:drifted',
      'assessment:check_failure',
      'assessment:failed',
      'workspace:auto_destro_reminder',
      'workspace:auto_destroy_run_results',
    ];
    const c = await created(ws.id, org.owner.token, { triggers });
    expect(c.attributes.triggers).to.deep.equal(triggers);
    const plural = await api('POST', `/workspaces/${ws.id}/notification-configurations`, {
      token: org.owner.token,
      body: ncDoc({ triggers: ['workspace:auto_destro_reminder'] }, undefined, 'notification-configurations'),
    });
    expect(plural.status, plural.text).to.equal(201);
    expect(plural.body.data.attributes.triggers).to.deep.equal(['workspace:auto_destro_reminder']);
    // Defaults (spec 2.4): enabled false, triggers [], token null.
    const minimal = await api('POST', `/workspaces/${ws.id}/notification-configurations`, {
      token: org.owner.token,
      body: doc('notification-configuration', {
        'destination-type': 'generic',
        name: uniq('min'),
        url: 'https://example.test/x',
      }),
    });
    expect(minimal.status, minimal.text).to.equal(201);
    expect(minimal.body.data.attributes).to.include({ enabled: false, token: null });
    expect(minimal.body.data.attributes.triggers).to.deep.equal([]);
    const row = await harness().rt.db('notification_configurations').where({ id: minimal.body.data.id }).first();
    expect(row.token_sealed).to.equal(null);
  });
});
