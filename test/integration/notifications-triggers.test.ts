import { expect } from 'chai';
import { api, doc } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { createOrg, createWorkspace, uniq, type TestUser } from '../helpers/fixtures.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startRun, terraformAvailable, uploadConfig, waitForRun } from '../helpers/terraform.js';
import {
  startScriptedReceiver,
  type ScriptedReceiver,
  type ScriptedRequest,
} from '../helpers/notification-receiver.js';

const QUEUES = ['run-pipeline', 'notification-delivery', 'deadline-expiry', 'verification'];
const RUN_TRIGGERS = [
  'run:created',
  'run:planning',
  'run:needs_attention',
  'run:applying',
  'run:completed',
  'run:errored',
];
const GOOD_CONFIG = { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' };
const FAILING_CONFIG = { 'main.tf': 'resource "terraform_data" "a" { input = var.missing }\n' };

const PAYLOAD_KEYS = [
  'notification_configuration_id',
  'notifications',
  'organization_name',
  'payload_version',
  'run_created_at',
  'run_created_by',
  'run_id',
  'run_message',
  'run_url',
  'workspace_id',
  'workspace_name',
];
const NOTIFICATION_KEYS = ['message', 'run_status', 'run_updated_at', 'run_updated_by', 'trigger'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const settle = (ms = 1500) => new Promise((r) => setTimeout(r, ms));

/** Asserts one run notification is exactly the run notification payload: key set, types, one notification. */
interface PayloadContext {
  configurationId: string;
  runId: string;
  ws: { id: string; name: string };
  org: string;
  creator: TestUser;
}

function expectRunPayload(n: ScriptedRequest, ctx: PayloadContext) {
  const p = n.body;
  expect(Object.keys(p).sort()).to.deep.equal(PAYLOAD_KEYS);
  expect(p.payload_version).to.equal(1);
  expect(p.notification_configuration_id).to.equal(ctx.configurationId);
  expect(p.run_id).to.equal(ctx.runId);
  expect(p.run_url)
    .to.be.a('string')
    .and.match(/^https?:\/\//)
    .and.include(ctx.runId);
  expect(p.run_message).to.be.a('string').and.not.equal('');
  expect(p.run_created_at).to.be.a('string').and.match(ISO);
  expect(p.run_created_by).to.equal(ctx.creator.username);
  expect(p.workspace_id).to.equal(ctx.ws.id);
  expect(p.workspace_name).to.equal(ctx.ws.name);
  expect(p.organization_name).to.equal(ctx.org);
  expect(p.notifications).to.be.an('array').with.length(1);
  const [e] = p.notifications;
  expect(Object.keys(e).sort()).to.deep.equal(NOTIFICATION_KEYS);
  expect(e.message).to.be.a('string').and.not.equal('');
  expect(RUN_TRIGGERS).to.include(e.trigger);
  expect(e.run_status).to.be.a('string').and.not.equal('');
  expect(e.run_updated_at).to.be.a('string').and.match(ISO);
  expect(e.run_updated_by).to.be.a('string').and.not.equal('');
}

describe('notifications: run triggers reach a signed generic destination exactly once each', function () {
  this.timeout(180_000);
  let worker: WorkerProcess;
  const receivers: ScriptedReceiver[] = [];

  before(async function () {
    if (!terraformAvailable()) this.skip();
    worker = spawnWorkers(QUEUES, { RECONCILE_INTERVAL_MS: '2000' });
    await workersReady(worker);
  });

  after(async () => {
    await worker?.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  async function receiver(token: string | null) {
    const r = await startScriptedReceiver(token);
    receivers.push(r);
    return r;
  }

  async function setup(attrs: Record<string, unknown> = {}) {
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    const secret = uniq('secret');
    const rx = await receiver(secret);
    const created = await api('POST', `/workspaces/${ws.id}/notification-configurations`, {
      token,
      body: doc('notification-configuration', {
        'destination-type': 'generic',
        enabled: true,
        name: uniq('hook'),
        token: secret,
        url: rx.url,
        triggers: RUN_TRIGGERS,
        ...attrs,
      }),
    });
    expect(created.status, created.text).to.equal(201);
    return { org, token, ws, rx, secret, configurationId: created.body.data.id as string };
  }

  const forRun = (rx: ScriptedReceiver, runId: string) => rx.received.filter((r) => r.body.run_id === runId);

  it('sends created, planning, needs_attention, applying and completed once each, signed, with the exact run payload', async () => {
    const s = await setup();
    // The verification request came first, signed with the same token, with no run context.
    expect(s.rx.received).to.have.length(1);
    expect(s.rx.received[0].signatureValid).to.equal(true);
    expect(s.rx.received[0].body.run_id).to.equal(null);

    await uploadConfig(s.ws.id, s.token, GOOD_CONFIG);
    const runId = await startRun(s.ws.id, s.token, { message: 'notify me' });
    const planned = await waitForRun(runId, s.token, ['planned']);
    expect((await api('POST', `/runs/${runId}/actions/apply`, { token: s.token, body: {} })).status).to.equal(202);
    await waitForRun(runId, s.token, ['applied']);
    await waitFor(() => forRun(s.rx, runId).length >= 5, 'five run notifications');
    await settle();

    const got = forRun(s.rx, runId);
    const expected = ['run:created', 'run:planning', 'run:needs_attention', 'run:applying', 'run:completed'];
    expect(got.map((n) => n.body.notifications[0].trigger)).to.have.members(expected);
    expect(got).to.have.length(5);
    const statusOf = Object.fromEntries(
      got.map((n) => [n.body.notifications[0].trigger, n.body.notifications[0].run_status]),
    );
    expect(statusOf).to.deep.equal({
      'run:created': 'pending',
      'run:planning': 'planning',
      'run:needs_attention': planned.attributes.status,
      'run:applying': 'applying',
      'run:completed': 'applied',
    });
    const ids = new Set<string>();
    for (const n of got) {
      expect(n.signatureValid, 'signature').to.equal(true);
      expect(n.headers['x-tfe-notification-signature']).to.equal(n.signature);
      expect(n.headers['content-type']).to.match(/^application\/json/);
      expectRunPayload(n, {
        configurationId: s.configurationId,
        runId,
        ws: s.ws,
        org: s.org.name,
        creator: s.org.owner,
      });
      expect(n.body.run_message).to.equal('notify me');
      ids.add(n.headers['x-svc-delivery-id'] as string);
    }
    // One delivery per (event, configuration): five distinct delivery ids, all recorded as delivered.
    expect(ids.size).to.equal(5);
    const rows = await harness()
      .rt.db('notification_deliveries')
      .where({ configuration_id: s.configurationId, run_id: runId });
    expect(rows.map((r) => r.id).sort()).to.deep.equal([...ids].sort());
    expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1)).to.equal(true);
  });

  it('sends created, planning and one errored for a run whose plan fails', async () => {
    const s = await setup();
    await uploadConfig(s.ws.id, s.token, FAILING_CONFIG);
    const runId = await startRun(s.ws.id, s.token);
    await waitForRun(runId, s.token, ['errored']);
    await waitFor(
      () => forRun(s.rx, runId).some((n) => n.body.notifications[0].trigger === 'run:errored'),
      'the errored notification',
    );
    await settle();
    const got = forRun(s.rx, runId);
    expect(got.map((n) => n.body.notifications[0].trigger)).to.have.members([
      'run:created',
      'run:planning',
      'run:errored',
    ]);
    expect(got).to.have.length(3);
    const errored = got.find((n) => n.body.notifications[0].trigger === 'run:errored')!;
    expect(errored.body.notifications[0].run_status).to.equal('errored');
    for (const n of got) {
      expect(n.signatureValid).to.equal(true);
      expectRunPayload(n, {
        configurationId: s.configurationId,
        runId,
        ws: s.ws,
        org: s.org.name,
        creator: s.org.owner,
      });
    }
  });

  it('notifies nothing for a speculative (plan-only) run', async () => {
    const s = await setup();
    await uploadConfig(s.ws.id, s.token, GOOD_CONFIG);
    const speculative = await startRun(s.ws.id, s.token, { 'plan-only': true });
    await waitForRun(speculative, s.token, ['planned_and_finished']);
    // A regular run afterwards proves the pipeline delivers in this workspace.
    const regular = await startRun(s.ws.id, s.token);
    await waitForRun(regular, s.token, ['planned']);
    await waitFor(() => forRun(s.rx, regular).length >= 3, 'the regular run notifications');
    await settle();
    expect(forRun(s.rx, speculative)).to.have.length(0);
    expect(await harness().rt.db('notification_deliveries').where({ run_id: speculative })).to.have.length(0);
    await api('POST', `/runs/${regular}/actions/discard`, { token: s.token, body: {} });
  });

  it('sends nothing to a disabled configuration while an enabled one in the same workspace is notified', async () => {
    const s = await setup({ triggers: ['run:created', 'run:planning'] });
    const quiet = await receiver(s.secret);
    const disabled = await api('POST', `/workspaces/${s.ws.id}/notification-configurations`, {
      token: s.token,
      body: doc('notification-configuration', {
        'destination-type': 'generic',
        enabled: false,
        name: uniq('off'),
        token: s.secret,
        url: quiet.url,
        triggers: RUN_TRIGGERS,
      }),
    });
    expect(disabled.status, disabled.text).to.equal(201);
    expect(disabled.body.data.attributes.enabled).to.equal(false);
    await uploadConfig(s.ws.id, s.token, GOOD_CONFIG);
    const runId = await startRun(s.ws.id, s.token);
    await waitForRun(runId, s.token, ['planned']);
    await waitFor(() => forRun(s.rx, runId).length >= 2, 'the enabled configuration notifications');
    await settle();
    expect(forRun(s.rx, runId)).to.have.length(2);
    expect(quiet.received).to.have.length(0);
    const rows = await harness().rt.db('notification_deliveries').where({ configuration_id: disabled.body.data.id });
    expect(rows).to.have.length(0);
    await api('POST', `/runs/${runId}/actions/discard`, { token: s.token, body: {} });
  });

  it('resends a delivered notification with the same delivery id and body', async () => {
    const s = await setup({ triggers: ['run:created'] });
    await uploadConfig(s.ws.id, s.token, GOOD_CONFIG);
    const runId = await startRun(s.ws.id, s.token);
    await waitFor(() => forRun(s.rx, runId).length === 1, 'the created notification');
    const deliveries = await api('GET', `/notification-configurations/${s.configurationId}/deliveries`, {
      token: s.token,
    });
    expect(deliveries.status, deliveries.text).to.equal(200);
    expect(deliveries.body.data).to.have.length(1);
    const delivery = deliveries.body.data[0];
    expect(delivery.type).to.equal('notification-deliveries');
    const row = () => harness().rt.db('notification_deliveries').where({ id: delivery.id }).first();
    await waitFor(async () => (await row()).status === 'delivered', 'delivered');

    const resent = await api('POST', `/notification-deliveries/${delivery.id}/actions/resend`, { token: s.token });
    expect(resent.status, resent.text).to.equal(200);
    expect(resent.body.data.id).to.equal(delivery.id);
    await waitFor(() => forRun(s.rx, runId).length === 2, 'the resent notification');
    const [first, second] = forRun(s.rx, runId);
    expect(second.headers['x-svc-delivery-id']).to.equal(delivery.id);
    expect(first.headers['x-svc-delivery-id']).to.equal(delivery.id);
    expect(second.raw.equals(first.raw)).to.equal(true);
    expect(second.signatureValid).to.equal(true);
    await waitFor(async () => {
      const log = await api('GET', `/notification-configurations/${s.configurationId}/deliveries`, { token: s.token });
      const d = log.body.data[0];
      return (
        d.attributes.status === 'delivered' && d.attributes['attempt-count'] === 2 && d.attributes.attempts.length === 2
      );
    }, 'the delivery log to show two delivered attempts');
    await waitForRun(runId, s.token, ['planned']);
    await api('POST', `/runs/${runId}/actions/discard`, { token: s.token, body: {} });
  });
});
