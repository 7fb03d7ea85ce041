import { expect } from 'chai';
import { api, doc } from '../helpers/api.js';
import { createOrg, createWorkspace, uniq } from '../helpers/fixtures.js';
import { freePort, harness } from '../helpers/harness.js';
import {
  logLines,
  spawnWeb,
  spawnWorkers,
  waitFor,
  webReady,
  workersReady,
  type WorkerProcess,
} from '../helpers/processes.js';
import { sandboxHost } from '../helpers/sandbox.js';
import { terraformAvailable, uploadConfig, waitForRun } from '../helpers/terraform.js';
import {
  answerThenCallBack,
  startTaskIntegration,
  type SentCallback,
  type TaskIntegration,
} from '../helpers/run-task-integration.js';
import { startReceiver, type NotificationReceiver } from '../helpers/notification-receiver.js';
import { QUEUE_NAMES } from '../../shared/platform/queues.js';

const WORKSPACES = 6;
const RUNS_PER_WORKSPACE = 2;
const TRIGGERS = ['run:created', 'run:planning', 'run:completed'];
const TASK_KEY = 'scale-task-hmac-key';
const NOTIFY_TOKEN = 'scale-notify-token';

/**
 * The Procfile scaled out: two web processes and two processes of every worker type (real child
 * processes of dist/bin/web.js and dist/bin/workers.js) on one database and one Redis. Runs with a
 * run task and notifications are driven through both web processes; every piece of work is done,
 * and none twice.
 */
describe('scale-out: two web processes and two of every worker type', function () {
  this.timeout(300_000);
  const processes: WorkerProcess[] = [];
  const webs: string[] = [];
  let integration: TaskIntegration;
  let receiver: NotificationReceiver;
  const sent: SentCallback[] = [];

  before(async function () {
    if (!terraformAvailable()) this.skip();
    integration = await startTaskIntegration(TASK_KEY, answerThenCallBack([{ status: 'passed' }], sent));
    receiver = await startReceiver(NOTIFY_TOKEN);
    const ports = [await freePort(), await freePort()];
    // Both web processes build their URLs on the first one's, as behind one load balancer address.
    const env = {
      BASE_URL: `http://127.0.0.1:${ports[0]}`,
      RUN_API_URL: `http://${sandboxHost()}:${ports[0]}`,
      LOG_LEVEL: 'info',
    };
    for (const port of ports) {
      processes.push(spawnWeb({ ...env, PORT: String(port) }));
      webs.push(`http://127.0.0.1:${port}/api/v2`);
    }
    for (const queue of QUEUE_NAMES)
      for (let i = 0; i < 2; i++) processes.push(spawnWorkers([queue], { ...env, RECONCILE_INTERVAL_MS: '2000' }));
    // Sixteen processes starting at once on a small machine take a while.
    await Promise.all(processes.map((p, i) => (i < 2 ? webReady(p, 90_000) : workersReady(p, 90_000))));
  });

  after(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await integration?.close();
    await receiver?.close();
  });

  it('does every run, task request and delivery once, whichever process takes it', async () => {
    const h = harness();
    const org = await createOrg();
    const token = org.owner.token;
    const task = await api('POST', `${webs[0]}/organizations/${org.name}/tasks`, {
      token,
      body: doc('tasks', {
        name: uniq('scan'),
        url: integration.url,
        category: 'task',
        'hmac-key': TASK_KEY,
        enabled: true,
      }),
    });
    expect(task.status, task.text).to.equal(201);

    // Set up one workspace after another (an organization has a few upload slots at once).
    const workspaces: { id: string; cv: string }[] = [];
    for (let i = 0; i < WORKSPACES; i++) {
      const web = webs[i % 2];
      const ws = await createWorkspace(org, { 'auto-apply': true });
      const attach = await api('POST', `${web}/workspaces/${ws.id}/tasks`, {
        token,
        body: doc(
          'workspace-tasks',
          { 'enforcement-level': 'mandatory', stages: ['post_plan'] },
          { task: { data: { type: 'tasks', id: task.body.data.id } } },
        ),
      });
      expect(attach.status, attach.text).to.equal(201);
      const nc = await api('POST', `${web}/workspaces/${ws.id}/notification-configurations`, {
        token,
        body: doc('notification-configuration', {
          'destination-type': 'generic',
          enabled: true,
          name: 'hook',
          token: NOTIFY_TOKEN,
          url: receiver.url,
          triggers: TRIGGERS,
        }),
      });
      expect(nc.status, nc.text).to.equal(201);
      workspaces.push({
        id: ws.id,
        cv: await uploadConfig(ws.id, token, { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' }),
      });
    }

    // Each workspace's runs go through both web processes, all at once.
    const runIds = await Promise.all(
      workspaces.flatMap((ws, w) =>
        Array.from({ length: RUNS_PER_WORKSPACE }, async (_, r) => {
          const res = await api('POST', `${webs[(w + r) % 2]}/runs`, {
            token,
            // Each run replaces the resource, so every run has changes to apply.
            body: doc(
              'runs',
              { 'replace-addrs': ['terraform_data.a'] },
              {
                workspace: { data: { type: 'workspaces', id: ws.id } },
                'configuration-version': { data: { type: 'configuration-versions', id: ws.cv } },
              },
            ),
          });
          expect(res.status, res.text).to.equal(201);
          return res.body.data.id as string;
        }),
      ),
    );
    const total = runIds.length;
    for (const runId of runIds) await waitForRun(runId, token, ['applied', 'errored'], 240_000);
    for (const runId of runIds)
      expect((await api('GET', `${webs[1]}/runs/${runId}`, { token })).body.data.attributes.status, runId).to.equal(
        'applied',
      );

    // Every notification arrived, and once: one per run and trigger, one per delivery row.
    await waitFor(
      () => receiver.received.filter((n) => runIds.includes(n.body.run_id)).length >= total * TRIGGERS.length,
      'every notification',
      60_000,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    const notifications = receiver.received.filter((n) => runIds.includes(n.body.run_id));
    expect(notifications).to.have.length(total * TRIGGERS.length);
    const perEvent = new Set(notifications.map((n) => `${n.body.run_id} ${n.body.notifications[0].trigger}`));
    expect(perEvent.size).to.equal(total * TRIGGERS.length);
    expect(new Set(notifications.map((n) => n.headers['x-svc-delivery-id'])).size).to.equal(notifications.length);
    for (const n of notifications) expect(n.signatureValid).to.equal(true);
    const deliveries = await h.rt
      .db('notification_deliveries')
      .whereIn('run_id', runIds)
      .select('configuration_id', 'event_key', 'status', 'attempts');
    expect(deliveries).to.have.length(total * TRIGGERS.length);
    for (const d of deliveries) expect(d, JSON.stringify(d)).to.include({ status: 'delivered', attempts: 1 });

    // One run task request per task result (each was answered 200 on its first attempt), one callback each.
    const requests = integration.requests.filter((r) => r.body.stage === 'post_plan');
    expect(requests).to.have.length(total);
    expect(new Set(requests.map((r) => r.body.task_result_id)).size).to.equal(total);
    expect(new Set(requests.map((r) => r.body.run_id))).to.deep.equal(new Set(runIds));
    const results = await h.rt
      .db('task_results')
      .whereIn('run_id', runIds)
      .select('status', 'dispatch_status', 'dispatch_attempts');
    expect(results).to.have.length(total);
    for (const r of results)
      expect(r).to.include({ status: 'passed', dispatch_status: 'delivered', dispatch_attempts: 1 });
    expect(sent.filter((s) => s.stage === 'post_plan').map((s) => s.status)).to.deep.equal(Array(total).fill(200));

    // Each run planned once and applied once, whichever worker process took each step.
    const moves = await h.rt
      .db('run_events')
      .whereIn('run_id', runIds)
      .whereIn('to_status', ['planning', 'applying', 'applied'])
      .select('run_id', 'to_status');
    expect(moves).to.have.length(total * 3);
    for (const runId of runIds)
      expect(
        moves
          .filter((m) => m.run_id === runId)
          .map((m) => m.to_status)
          .sort(),
      ).to.deep.equal(['applied', 'applying', 'planning']);
    const outputs = processes.map((p) => logLines(p.output()));
    const planned = outputs.flatMap((lines) =>
      lines.filter((l) => l.message === 'run moved' && l.to === 'planning' && runIds.includes(String(l.runId))),
    );
    expect(planned).to.have.length(total);

    // Both web processes served the runs, each request logged with its route, status and principal, never a token.
    const webLines = outputs
      .slice(0, 2)
      .map((lines) =>
        lines.filter((l) => l.message === 'request' && l.route === '/api/v2/runs' && l.method === 'POST'),
      );
    for (const lines of webLines) {
      expect(lines.length).to.be.at.least(1);
      for (const l of lines)
        expect(l)
          .to.include({ status: 201, principal: `user:${org.owner.id}` })
          .and.to.include.keys('requestId', 'ms');
    }
    for (const p of processes)
      for (const secret of [token, TASK_KEY, NOTIFY_TOKEN, h.adminToken]) expect(p.output()).to.not.include(secret);
  });
});
