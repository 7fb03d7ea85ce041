import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { secondAppForSuite } from '../helpers/harness.js';
import { createOrg, createWorkspace, uniq } from '../helpers/fixtures.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startScriptedReceiver, type ScriptedReceiver } from '../helpers/notification-receiver.js';
import { createTask } from '../helpers/run-task-fixtures.js';
import { startRun, uploadConfig } from '../helpers/terraform.js';

const CONFIG = { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' };
/** Jobs one worker process runs at once on each outbound queue, and one organization's default share of them. */
const CONCURRENCY = 8;
const SHARE = CONCURRENCY / 2;
/** Requests one delivery job has in flight at once (workers/notification-delivery.ts). */
const SENDS_PER_JOB = 8;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A destination that holds every request until `release()`, then answers 200 at once. */
async function heldDestination(): Promise<ScriptedReceiver & { release: () => void; hold: () => void }> {
  let open: () => void = () => undefined;
  let gate: Promise<void> | null = null;
  const hold = () => (gate = new Promise<void>((r) => (open = r)));
  hold();
  const receiver = await startScriptedReceiver(null, () => ({ status: 200, hold: gate ?? undefined }));
  return Object.assign(receiver, {
    release: () => {
      gate = null;
      open();
    },
    hold,
  });
}

const notificationConfig = (wsId: string, token: string, url: string, attrs: Record<string, unknown> = {}) =>
  api('POST', `/workspaces/${wsId}/notification-configurations`, {
    token,
    body: doc('notification-configuration', {
      'destination-type': 'generic',
      enabled: false,
      name: uniq('nc'),
      url,
      triggers: ['run:created'],
      ...attrs,
    }),
  });

describe('tenant fairness: one organization cannot fill the shared outbound queues', function () {
  this.timeout(120_000);
  let worker: WorkerProcess;
  const receivers: ScriptedReceiver[] = [];

  before(async () => {
    worker = spawnWorkers(['verification', 'notification-delivery']);
    await workersReady(worker);
  });

  after(async () => {
    await worker?.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it("verifies another organization's run task while one organization's 16 notification configurations wait on a slow destination", async () => {
    const slow = await heldDestination();
    const fast = await startScriptedReceiver(null);
    receivers.push(slow, fast);
    const orgA = await createOrg();
    const wsA = await createWorkspace(orgA);
    const configs: string[] = [];
    for (let i = 0; i < 16; i++) {
      const res = await notificationConfig(wsA.id, orgA.owner.token, slow.url);
      expect(res.status, res.text).to.equal(201);
      configs.push(res.body.data.id);
    }
    // All 16 verified at once: the slow destination holds every request it gets.
    const verifications = configs.map((id) =>
      api('POST', `/notification-configurations/${id}/actions/verify`, { token: orgA.owner.token }),
    );
    await waitFor(() => slow.received.length >= SHARE, "organization A's verifications to reach its destination");
    await pause(1500);

    // Organization B's run task is verified at once, while A's requests are still held.
    const orgB = await createOrg();
    const started = Date.now();
    const taskId = await createTask(orgB.name, orgB.owner.token, fast.url);
    const took = Date.now() - started;
    expect(taskId).to.match(/^task-/);
    expect(took, 'B waited for A').to.be.below(5_000);
    expect(fast.received).to.have.length(1);
    expect(fast.received[0].body.organization_name).to.equal(orgB.name);
    // A holds its share of the worker's slots, not all of them; its other jobs wait in the queue.
    expect(slow.received.length).to.equal(SHARE);

    // Once the destination answers, A's remaining verifications run too, each exactly once, within the API's wait.
    slow.release();
    const results = await Promise.all(verifications);
    for (const res of results) expect(res.status, res.text).to.equal(200);
    expect(slow.received).to.have.length(16);
    for (const res of results)
      expect(res.body.data.attributes['delivery-responses'][0]).to.include({ code: '200', successful: true });
  });

  it("delivers another organization's notification while one organization's deliveries wait on a slow destination, and loses none of them", async () => {
    const slow = await heldDestination();
    const fast = await startScriptedReceiver(null);
    receivers.push(slow, fast);
    slow.release();
    const orgA = await createOrg();
    const wsA = await createWorkspace(orgA);
    const configs: string[] = [];
    for (let i = 0; i < 16; i++) {
      const res = await notificationConfig(wsA.id, orgA.owner.token, slow.url, { enabled: true });
      expect(res.status, res.text).to.equal(201);
      configs.push(res.body.data.id);
    }
    const verified = slow.received.length;
    slow.hold();
    // Ten runs, each a delivery job of 16 notifications to the slow destination.
    const cvA = await uploadConfig(wsA.id, orgA.owner.token, CONFIG);
    const RUNS = 10;
    for (let i = 0; i < RUNS; i++) await startRun(wsA.id, orgA.owner.token, { message: `flood ${i}` }, cvA);
    await waitFor(
      () => slow.received.length - verified >= SHARE * SENDS_PER_JOB,
      "organization A's deliveries to reach its destination",
    );

    const orgB = await createOrg();
    const wsB = await createWorkspace(orgB);
    const ncB = await notificationConfig(wsB.id, orgB.owner.token, fast.url, { enabled: true });
    expect(ncB.status, ncB.text).to.equal(201);
    const cvB = await uploadConfig(wsB.id, orgB.owner.token, CONFIG);
    const started = Date.now();
    const runB = await startRun(wsB.id, orgB.owner.token, {}, cvB);
    await waitFor(() => fast.received.some((r) => r.body.run_id === runB), "organization B's notification", 8_000);
    expect(Date.now() - started, 'B waited for A').to.be.below(8_000);
    // Meanwhile A never had more than its share of delivery jobs in flight.
    expect(slow.received.length - verified).to.be.at.most(SHARE * SENDS_PER_JOB);

    slow.release();
    await waitFor(() => slow.received.length - verified >= RUNS * 16, "all of organization A's deliveries", 60_000);
    // Every delivery arrived once and counted one attempt: waiting for the share was not an attempt.
    // A delivery the destination has answered is recorded a moment later, so its row is waited for.
    for (const id of configs) {
      const read = async () => {
        const res = await api('GET', `/notification-configurations/${id}/deliveries`, { token: orgA.owner.token });
        expect(res.status, res.text).to.equal(200);
        return res.body.data as { attributes: { status: string; 'attempt-count': number } }[];
      };
      await waitFor(
        async () => (await read()).every((d) => d.attributes.status !== 'sending'),
        'the deliveries recorded',
      );
      const deliveries = await read();
      expect(deliveries).to.have.length(RUNS);
      for (const d of deliveries) expect(d.attributes).to.include({ status: 'delivered', 'attempt-count': 1 });
    }
    expect(slow.received.length - verified).to.equal(RUNS * 16);
  });
});

describe('tenant fairness: verification requests time out quickly', function () {
  this.timeout(60_000);
  const TIMEOUT_SECONDS = 2;
  const app = secondAppForSuite({ VERIFICATION_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) });
  let worker: WorkerProcess;
  let silent: ScriptedReceiver & { release: () => void };

  before(async () => {
    worker = spawnWorkers(['verification'], { VERIFICATION_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) });
    await workersReady(worker);
    silent = await heldDestination();
  });

  after(async () => {
    await worker?.stop();
    silent?.release();
    await silent?.close();
  });

  it('refuses a run task whose endpoint never answers with a timeout error, within the configured timeout', async () => {
    const org = await createOrg();
    const started = Date.now();
    const res = await api('POST', `${app.api}/organizations/${org.name}/tasks`, {
      token: org.owner.token,
      body: doc('tasks', { name: uniq('task'), url: silent.url, category: 'task' }),
    });
    const took = Date.now() - started;
    expectError(res, 422, new RegExp(`timed out after ${TIMEOUT_SECONDS * 1000} ms`));
    expect(took)
      .to.be.at.least(TIMEOUT_SECONDS * 1000)
      .and.below(TIMEOUT_SECONDS * 1000 + 3_000);
    expect(
      (await api('GET', `${app.api}/organizations/${org.name}/tasks`, { token: org.owner.token })).body.data,
    ).to.have.length(0);
  });

  it('refuses to enable a notification configuration whose destination never answers, with the same timeout', async () => {
    const org = await createOrg();
    const ws = await createWorkspace(org);
    const started = Date.now();
    const res = await api('POST', `${app.api}/workspaces/${ws.id}/notification-configurations`, {
      token: org.owner.token,
      body: doc('notification-configuration', {
        'destination-type': 'generic',
        enabled: true,
        name: uniq('nc'),
        url: silent.url,
        triggers: [],
      }),
    });
    expectError(res, 400, new RegExp(`timed out after ${TIMEOUT_SECONDS * 1000} ms`));
    expect(Date.now() - started).to.be.below(TIMEOUT_SECONDS * 1000 + 3_000);
  });
});
