import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { flushQueueKeys, harness } from '../helpers/harness.js';
import { countRows, createOrg, createWorkspace, uniq } from '../helpers/fixtures.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startRun, terraformAvailable, uploadConfig, waitForRun } from '../helpers/terraform.js';
import {
  startScriptedReceiver,
  type ScriptedAnswer,
  type ScriptedReceiver,
  type ScriptedRequest,
} from '../helpers/notification-receiver.js';

const ALL_QUEUES = ['run-pipeline', 'notification-delivery', 'deadline-expiry', 'verification'];
const RUN_TRIGGERS = [
  'run:created',
  'run:planning',
  'run:needs_attention',
  'run:applying',
  'run:completed',
  'run:errored',
];
const CONFIG = { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' };

const isRun = (r: ScriptedRequest) => typeof r.body.run_id === 'string';
const deliveryRow = (id: string) => harness().rt.db('notification_deliveries').where({ id }).first();
const deliveriesOf = (configurationId: string) =>
  harness().rt.db('notification_deliveries').where({ configuration_id: configurationId }).orderBy('created_at');
const idOf = (r: ScriptedRequest) => r.headers['x-svc-delivery-id'] as string;

describe('notifications: reliable delivery', function () {
  this.timeout(150_000);
  const workers: WorkerProcess[] = [];
  const receivers: ScriptedReceiver[] = [];
  const runs: { id: string; token: string }[] = [];

  const startWorker = async (queues = ALL_QUEUES, env: NodeJS.ProcessEnv = {}) => {
    const w = spawnWorkers(queues, env);
    workers.push(w);
    await workersReady(w);
    return w;
  };

  before(function () {
    if (!terraformAvailable()) this.skip();
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop('SIGKILL')));
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    // Runs left waiting for confirmation are discarded so no later test's worker picks them up.
    for (const r of runs.splice(0)) await api('POST', `/runs/${r.id}/actions/discard`, { token: r.token, body: {} });
  });

  /** A workspace with an uploaded configuration and an enabled, signed generic configuration whose run answers are scripted. */
  async function setup(runAnswer: (req: ScriptedRequest, index: number) => ScriptedAnswer, triggers = ['run:created']) {
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    const secret = uniq('secret');
    const rx = await startScriptedReceiver(secret, (req, i) => (isRun(req) ? runAnswer(req, i) : { status: 200 }));
    receivers.push(rx);
    const created = await api('POST', `/workspaces/${ws.id}/notification-configurations`, {
      token,
      body: doc('notification-configuration', {
        'destination-type': 'generic',
        enabled: true,
        name: uniq('hook'),
        token: secret,
        url: rx.url,
        triggers,
      }),
    });
    expect(created.status, created.text).to.equal(201);
    await uploadConfig(ws.id, token, CONFIG);
    return { org, token, ws, rx, secret, configurationId: created.body.data.id as string };
  }

  async function run(s: { ws: { id: string }; token: string }, attrs: Record<string, unknown> = {}) {
    const id = await startRun(s.ws.id, s.token, attrs);
    runs.push({ id, token: s.token });
    return id;
  }

  it('retries a failed delivery after the schedule (Retry-After never shortens it) and records both attempts', async () => {
    await startWorker();
    let runRequests = 0;
    const s = await setup(() =>
      ++runRequests === 1 ? { status: 503, headers: { 'Retry-After': '1' } } : { status: 200 },
    );
    const runId = await run(s);
    await waitFor(() => s.rx.received.filter(isRun).length === 2, 'the retried delivery', 20_000);
    const [first, second] = s.rx.received.filter(isRun);
    // First retry is 5 s with ±20% jitter: Retry-After 1 does not bring it forward.
    expect(second.at - first.at).to.be.within(3900, 8000);
    expect(second.headers['x-svc-delivery-id']).to.equal(first.headers['x-svc-delivery-id']);
    expect(second.raw.equals(first.raw)).to.equal(true);
    expect(first.signatureValid && second.signatureValid).to.equal(true);
    expect(first.body.run_id).to.equal(runId);

    const log = (await waitFor(async () => {
      const res = await api('GET', `/notification-configurations/${s.configurationId}/deliveries`, { token: s.token });
      return res.body.data[0]?.attributes.status === 'delivered' ? res : null;
    }, 'the delivery to be delivered'))!;
    expect(log.body.data).to.have.length(1);
    const d = log.body.data[0];
    expect(d.id).to.equal(first.headers['x-svc-delivery-id']);
    expect(d.attributes).to.include({
      trigger: 'run:created',
      status: 'delivered',
      'attempt-count': 2,
      'last-status-code': 200,
    });
    const attempts = d.attributes.attempts.map((a: { attempt: number; 'status-code': number }) => [
      a.attempt,
      a['status-code'],
    ]);
    expect(attempts).to.deep.equal([
      [1, 503],
      [2, 200],
    ]);
    expect(log.body.meta.pagination['total-count']).to.equal(1);
  });

  it('honours a Retry-After longer than the schedule', async () => {
    await startWorker();
    let runRequests = 0;
    const s = await setup(() =>
      ++runRequests === 1 ? { status: 503, headers: { 'Retry-After': '9' } } : { status: 200 },
    );
    await run(s);
    await waitFor(() => s.rx.received.filter(isRun).length === 1, 'the first attempt');
    const [first] = s.rx.received.filter(isRun);
    const pending = await waitFor(async () => {
      const row = await deliveryRow(first.headers['x-svc-delivery-id'] as string);
      return row.status === 'pending' && row.attempts === 1 ? row : null;
    }, 'the retry to be scheduled');
    expect(new Date(pending.next_attempt_at).getTime() - first.at).to.be.at.least(8000);
    await waitFor(() => s.rx.received.filter(isRun).length === 2, 'the retried delivery', 20_000);
    const [, second] = s.rx.received.filter(isRun);
    expect(second.at - first.at).to.be.at.least(8500);
    await waitFor(
      async () => (await deliveryRow(first.headers['x-svc-delivery-id'] as string)).status === 'delivered',
      'delivered',
    );
  });

  it('disables the configuration when the destination answers 410, and sends it nothing more', async () => {
    await startWorker();
    const s = await setup(() => ({ status: 410 }));
    const control = await startScriptedReceiver(null);
    receivers.push(control);
    const other = await api('POST', `/workspaces/${s.ws.id}/notification-configurations`, {
      token: s.token,
      body: doc('notification-configuration', {
        'destination-type': 'generic',
        enabled: true,
        name: uniq('control'),
        url: control.url,
        triggers: ['run:created'],
      }),
    });
    expect(other.status, other.text).to.equal(201);

    const firstRun = await run(s);
    await waitFor(
      async () => (await deliveriesOf(s.configurationId))[0]?.status === 'failed',
      'the 410 delivery to fail',
    );
    const shown = await api('GET', `/notification-configurations/${s.configurationId}`, { token: s.token });
    expect(shown.body.data.attributes.enabled).to.equal(false);
    const [d] = await deliveriesOf(s.configurationId);
    expect(d).to.include({ run_id: firstRun, attempts: 1, last_status_code: 410 });
    expect(s.rx.received.filter(isRun)).to.have.length(1);

    await waitForRun(firstRun, s.token, ['planned']);
    const secondRun = await run(s);
    await waitFor(
      () => control.received.filter((r) => r.body.run_id === secondRun).length === 1,
      'the control configuration notification',
    );
    await new Promise((r) => setTimeout(r, 1000));
    expect(s.rx.received.filter(isRun)).to.have.length(1);
    expect(await deliveriesOf(s.configurationId)).to.have.length(1);
  });

  it("settles each of one event's deliveries on its own outcome, sent by one job", async () => {
    await startWorker();
    const s = await setup(() => ({ status: 200 }));
    const answers: Record<string, ScriptedAnswer> = {
      retry: { status: 503, body: 'busy\u0000now' },
      gone: { status: 410 },
    };
    const others: Record<string, string> = {};
    for (const [name, answer] of Object.entries(answers)) {
      const rx = await startScriptedReceiver(null, (req) => (isRun(req) ? answer : { status: 200 }));
      receivers.push(rx);
      const created = await api('POST', `/workspaces/${s.ws.id}/notification-configurations`, {
        token: s.token,
        body: doc('notification-configuration', {
          'destination-type': 'generic',
          enabled: true,
          name: uniq(name),
          url: rx.url,
          triggers: ['run:created'],
        }),
      });
      expect(created.status, created.text).to.equal(201);
      others[name] = created.body.data.id;
    }
    const runId = await run(s);
    const rowOf = async (configurationId: string) => (await deliveriesOf(configurationId))[0];
    await waitFor(
      async () =>
        (await rowOf(others.gone))?.status === 'failed' && (await rowOf(s.configurationId))?.status === 'delivered',
      'the deliveries to settle',
    );
    const retry = await waitFor(async () => {
      const row = await rowOf(others.retry);
      return row?.attempts === 1 && row.status === 'pending' ? row : null;
    }, 'the retry to be scheduled');
    expect(retry).to.include({ run_id: runId, last_status_code: 503 });
    expect(new Date(retry.next_attempt_at).getTime() - Date.now()).to.be.greaterThan(1000);
    const [attempt] = await harness().rt.db('notification_delivery_attempts').where({ delivery_id: retry.id });
    // A NUL in the destination's answer is dropped (Postgres text cannot hold it); the rest is kept.
    expect(attempt).to.include({ attempt: 1, status_code: 503, response_body: 'busynow' });
    expect(await rowOf(others.gone)).to.include({ attempts: 1, last_status_code: 410 });
    const gone = await api('GET', `/notification-configurations/${others.gone}`, { token: s.token });
    expect(gone.body.data.attributes.enabled).to.equal(false);
    expect(s.rx.received.filter(isRun)).to.have.length(1);

    // The run's three first tries went out in one job. The job completes in Redis a moment after
    // its deliveries settle in Postgres (it queues the retry first), so its completion is awaited.
    const ids = await Promise.all(
      [s.configurationId, others.retry, others.gone].map(async (c) => (await rowOf(c)).id as string),
    );
    const carriers = async () =>
      (await harness().rt.queues['notification-delivery'].getJobs(['completed']))
        .map((j) => (j.data as { deliveryIds?: string[] }).deliveryIds ?? [])
        .filter((list) => list.includes(retry.id));
    await waitFor(async () => (await carriers()).length > 0, 'the job that carried them to complete');
    const carried = await carriers();
    expect(carried).to.have.length(1);
    expect(carried[0]).to.have.members(ids);
  });

  it('drops a queued retry once its configuration is disabled', async () => {
    await startWorker();
    const s = await setup(() => ({ status: 503 }));
    await run(s);
    const pending = await waitFor(async () => {
      const [row] = await deliveriesOf(s.configurationId);
      return row?.status === 'pending' && row.attempts === 1 ? row : null;
    }, 'the first failed attempt');
    const off = await api('PATCH', `/notification-configurations/${s.configurationId}`, {
      token: s.token,
      body: doc('notification-configuration', { enabled: false }),
    });
    expect(off.status, off.text).to.equal(200);
    await waitFor(async () => (await deliveryRow(pending.id)).status === 'dropped', 'the retry to be dropped', 15_000);
    expect(s.rx.received.filter(isRun)).to.have.length(1);
    expect(await countRows('notification_delivery_attempts')).to.be.greaterThan(0);
    expect(await harness().rt.db('notification_delivery_attempts').where({ delivery_id: pending.id })).to.have.length(
      1,
    );
  });

  it('delivers everything after the sender is killed mid-delivery and Redis is flushed; duplicates share a delivery id', async () => {
    const h = harness();
    await startWorker(['run-pipeline', 'deadline-expiry', 'verification'], { RECONCILE_INTERVAL_MS: '1000' });
    const sender = await startWorker(['notification-delivery']);
    let release: () => void = () => undefined;
    const never = new Promise<void>((r) => (release = r));
    let down = true;
    const s = await setup(() => (down ? { status: 200, hold: never } : { status: 200 }), RUN_TRIGGERS);

    const runId = await run(s, { 'auto-apply': true });
    await waitFor(() => s.rx.received.some(isRun), 'a notification held by the receiver');
    await sender.stop('SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    const held = new Set(s.rx.received.filter(isRun).map((r) => r.headers['x-svc-delivery-id'] as string));
    expect(held.size).to.be.greaterThan(0);

    await waitForRun(runId, s.token, ['applied']);
    const rows = await deliveriesOf(s.configurationId);
    expect(rows.map((r) => r.trigger)).to.have.members([
      'run:created',
      'run:planning',
      'run:applying',
      'run:completed',
    ]);
    // Deliveries are waiting: some never tried, the held ones leased to the dead worker.
    expect(rows.filter((r) => r.status === 'pending').length).to.be.greaterThan(0);
    const leased = rows.filter((r) => r.status === 'sending').map((r) => r.id);
    for (const id of held) expect(leased).to.include(id);
    expect(await flushQueueKeys(h)).to.be.greaterThan(0);

    down = false;
    release();
    await startWorker(['notification-delivery', 'deadline-expiry'], { RECONCILE_INTERVAL_MS: '1000' });
    const allDelivered = async () => (await deliveriesOf(s.configurationId)).every((r) => r.status === 'delivered');
    await waitFor(allDelivered, 'every delivery to be delivered', 90_000);
    await new Promise((r) => setTimeout(r, 1500));

    const got = s.rx.received.filter(isRun);
    const byId = new Map<string, ScriptedRequest[]>();
    for (const r of got) byId.set(idOf(r), [...(byId.get(idOf(r)) ?? []), r]);
    expect([...byId.keys()].sort()).to.deep.equal(rows.map((r) => r.id).sort());
    // One logical notification per trigger: each trigger under exactly one delivery id.
    const triggerOf = [...byId.values()].map((copies) => copies[0].body.notifications[0].trigger);
    expect(triggerOf).to.have.members(['run:created', 'run:planning', 'run:applying', 'run:completed']);
    for (const [id, copies] of byId) {
      for (const c of copies) {
        expect(c.signatureValid).to.equal(true);
        expect(c.raw.equals(copies[0].raw), `copies of ${id} carry the same body`).to.equal(true);
      }
      // Only the deliveries in flight when the worker died arrive twice.
      expect(copies.length, id).to.equal(held.has(id) ? 2 : 1);
    }
    // The delivery log shows the killed sender's attempt, abandoned, before the one that delivered.
    const log = await api('GET', `/notification-configurations/${s.configurationId}/deliveries?page[size]=100`, {
      token: s.token,
    });
    for (const d of log.body.data.filter((x: { id: string }) => held.has(x.id))) {
      expect(d.attributes['attempt-count'], d.id).to.equal(2);
      expect(d.attributes.attempts.map((a: { attempt: number; state: string }) => [a.attempt, a.state])).to.deep.equal([
        [1, 'abandoned'],
        [2, 'ended'],
      ]);
      expect(d.attributes.attempts[0].error).to.match(/stopped before this attempt ended/);
      expect(d.attributes.attempts[1]['status-code']).to.equal(200);
    }
  });
});

describe('notifications: outbound address guard (SSRF)', function () {
  this.timeout(90_000);
  const workers: WorkerProcess[] = [];
  let receiver: ScriptedReceiver;

  before(async () => {
    receiver = await startScriptedReceiver(null);
  });

  after(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop('SIGKILL')));
    await receiver?.close();
  });

  const create = (wsId: string, token: string, url: string) =>
    api('POST', `/workspaces/${wsId}/notification-configurations`, {
      token,
      body: doc('notification-configuration', {
        'destination-type': 'generic',
        enabled: true,
        name: uniq('ssrf'),
        url,
        triggers: ['run:created'],
      }),
    });

  async function refusedCreate(wsId: string, token: string, url: string) {
    const before = await countRows('notification_configurations');
    expectError(await create(wsId, token, url), 400, /not allowed/);
    expect(await countRows('notification_configurations')).to.equal(before);
  }

  it('refuses link-local and metadata addresses even when loopback is allowed', async () => {
    const w = spawnWorkers(ALL_QUEUES);
    workers.push(w);
    await workersReady(w);
    const org = await createOrg();
    const ws = await createWorkspace(org);
    // Loopback is allowed to this worker: the receiver is reachable.
    const ok = await create(ws.id, org.owner.token, receiver.url);
    expect(ok.status, ok.text).to.equal(201);
    expect(receiver.received).to.have.length(1);
    const metadata = [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/hook',
      'http://100.100.100.200/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
    ];
    for (const url of metadata) await refusedCreate(ws.id, org.owner.token, url);
    const del = await api('DELETE', `/notification-configurations/${ok.body.data.id}`, { token: org.owner.token });
    expect(del.status).to.equal(204);
    await w.stop();
  });

  it('refuses loopback and private addresses with the default (empty) allow-list, for verification and for deliveries', async function () {
    if (!terraformAvailable()) this.skip();
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    // Saved (and verified) while loopback was still allowed...
    const permissive = spawnWorkers(['verification']);
    workers.push(permissive);
    await workersReady(permissive);
    const saved = await create(ws.id, token, receiver.url);
    expect(saved.status, saved.text).to.equal(201);
    await permissive.stop();
    const seen = receiver.received.length;

    // ...then every worker runs with the default allow-list.
    const strict = spawnWorkers(ALL_QUEUES, { OUTBOUND_ALLOWED_CIDRS: '' });
    workers.push(strict);
    await workersReady(strict);
    const port = new URL(receiver.url).port;
    const internal = [
      receiver.url,
      `http://localhost:${port}/hook`,
      `http://[::1]:${port}/hook`,
      'http://10.0.0.1/hook',
      'http://192.168.1.1/hook',
      'http://169.254.169.254/',
    ];
    for (const url of internal) await refusedCreate(ws.id, token, url);
    const verify = await api('POST', `/notification-configurations/${saved.body.data.id}/actions/verify`, { token });
    expectError(verify, 400, /not allowed/);

    await uploadConfig(ws.id, token, CONFIG);
    const runId = await startRun(ws.id, token);
    // An attempt is listed from its claim (state in-progress) until it ends.
    const attempt = await waitFor(async () => {
      const res = await api('GET', `/notification-configurations/${saved.body.data.id}/deliveries`, { token });
      const first = res.body.data[0]?.attributes.attempts[0];
      return first?.state === 'ended' ? first : null;
    }, 'the refused delivery attempt to end');
    expect(attempt['status-code']).to.equal(null);
    expect(attempt.error).to.match(/not allowed/);
    expect(receiver.received).to.have.length(seen);
    await waitForRun(runId, token, ['planned']);
    await api('POST', `/runs/${runId}/actions/discard`, { token, body: {} });
    expect((await api('DELETE', `/notification-configurations/${saved.body.data.id}`, { token })).status).to.equal(204);
  });
});
