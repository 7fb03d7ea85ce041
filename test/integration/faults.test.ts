import { existsSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { api, doc } from '../helpers/api.js';
import { flushQueueKeys, harness, startSecondApp } from '../helpers/harness.js';
import { startOwnRedis } from '../helpers/redis-server.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { readWholeLog } from '../helpers/module-tests.js';
import { createOrg, createWorkspace, uniq } from '../helpers/fixtures.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import {
  runWorkdirs,
  workRootOf,
  slowApplyConfig,
  slowPlanConfig,
  startRun,
  startSlowStateServer,
  terraformAvailable,
  uploadConfig,
  waitForRun,
} from '../helpers/terraform.js';
import { callback, startTaskIntegration, type TaskIntegration } from '../helpers/run-task-integration.js';
import { attachTask, createTask, taskSetup } from '../helpers/run-task-fixtures.js';
import { startReceiver, type NotificationReceiver } from '../helpers/notification-receiver.js';

const INTERVAL_MS = 1500;
const QUEUES = ['run-pipeline', 'run-task-dispatch', 'notification-delivery', 'deadline-expiry', 'verification'];

describe('faults: Redis loses its data while the workers keep running', function () {
  this.timeout(180_000);
  let worker: WorkerProcess | undefined;
  let integration: TaskIntegration;
  let receiver: NotificationReceiver;

  before(async function () {
    if (!terraformAvailable()) this.skip();
    // The integration answers at once and calls back passed a moment later.
    integration = await startTaskIntegration(null, (req) => {
      if (req.body.stage === 'test') return 200;
      const body = req.body as { task_result_callback_url: string; access_token: string };
      setTimeout(() => void callback(body.task_result_callback_url, body.access_token, { status: 'passed' }), 200);
      return 200;
    });
    receiver = await startReceiver('f4ults');
  });
  after(async () => {
    await worker?.stop('SIGKILL');
    await integration?.close();
    await receiver?.close();
  });

  /** Subscribes the workspace to `triggers`, delivered to the suite's receiver (through the API at `base`). */
  const notifyReceiver = async (workspaceId: string, token: string, triggers: string[], base = '') => {
    const nc = await api('POST', `${base}/workspaces/${workspaceId}/notification-configurations`, {
      token,
      body: doc('notification-configuration', {
        'destination-type': 'generic',
        enabled: true,
        name: uniq('faults'),
        token: 'f4ults',
        url: receiver.url,
        triggers,
      }),
    });
    expect(nc.status, nc.text).to.equal(201);
  };

  it('every run ends, every task request and notification arrives, with no process restarted, after the queue keys are wiped twice mid-flight', async () => {
    const h = harness();
    worker = spawnWorkers(QUEUES, { RECONCILE_INTERVAL_MS: String(INTERVAL_MS), RUN_LEASE_SECONDS: '3' });
    await workersReady(worker);
    const org = await createOrg();
    const token = org.owner.token;
    const taskId = await createTask(org.name, token, integration.url);

    const runs: { runId: string; workspaceId: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const ws = await createWorkspace(org, { 'auto-apply': true });
      await attachTask(ws.id, token, taskId, { 'enforcement-level': 'mandatory', stages: ['post_plan'] });
      await notifyReceiver(ws.id, token, ['run:planning', 'run:completed']);
      await uploadConfig(ws.id, token, { 'main.tf': `resource "terraform_data" "a" { input = "${uniq('x')}" }\n` });
      runs.push({ runId: await startRun(ws.id, token), workspaceId: ws.id });
    }

    // First wipe: runs queued or planning, their jobs gone.
    expect(await flushQueueKeys(h)).to.be.greaterThan(0);
    // Second wipe once some task request is out: dispatches, callbacks' next steps and deliveries in flight go too.
    await waitFor(() => integration.requests.some((r) => r.body.stage === 'post_plan'), 'a first task request', 60_000);
    await flushQueueKeys(h);

    for (const { runId } of runs) {
      const run = await waitForRun(runId, token, ['applied', 'errored', 'canceled'], 120_000);
      expect(run.attributes.status, runId).to.equal('applied');
    }
    // Every run's task was asked (at least once; a retry carries the same result id).
    const asked = new Set(integration.requests.filter((r) => r.body.stage === 'post_plan').map((r) => r.body.run_id));
    expect([...asked].sort()).to.deep.equal(runs.map((r) => r.runId).sort());
    // Every run's notifications arrived: duplicates only with the same delivery id.
    await waitFor(
      () =>
        runs.every(({ runId }) =>
          receiver.received.some(
            (n) => n.body.run_id === runId && n.body.notifications?.[0]?.trigger === 'run:completed',
          ),
        ),
      'every run:completed notification',
      60_000,
    );
    for (const { runId } of runs) {
      const planning = receiver.received.filter(
        (n) => n.body.run_id === runId && n.body.notifications?.[0]?.trigger === 'run:planning',
      );
      expect(planning.length, `run:planning of ${runId}`).to.be.at.least(1);
      expect(new Set(planning.map((n) => n.headers['x-svc-delivery-id'])).size).to.equal(1);
    }
    expect(worker.proc.exitCode, 'the worker process was never restarted').to.equal(null);
  });

  it('a real redis-server killed and started again empty: every run ends and every notification arrives, with no process restarted', async () => {
    const redis = await startOwnRedis();
    const env = { REDIS_URL: redis.url, QUEUE_PREFIX: uniq('own') };
    const app = await startSecondApp(env);
    await worker?.stop('SIGKILL');
    worker = spawnWorkers(QUEUES, { ...env, RECONCILE_INTERVAL_MS: String(INTERVAL_MS), RUN_LEASE_SECONDS: '3' });
    try {
      await workersReady(worker);
      const org = await createOrg();
      const token = org.owner.token;
      const runs: string[] = [];
      for (let i = 0; i < 3; i++) {
        const ws = await createWorkspace(org, { 'auto-apply': true });
        await notifyReceiver(ws.id, token, ['run:completed'], app.api);
        await uploadConfig(ws.id, token, { 'main.tf': `resource "terraform_data" "a" { input = "${uniq('x')}" }\n` });
        const run = await api('POST', `${app.api}/runs`, {
          token,
          body: doc('runs', {}, { workspace: { data: { type: 'workspaces', id: ws.id } } }),
        });
        expect(run.status, run.text).to.equal(201);
        runs.push(run.body.data.id);
      }
      await redis.restart();
      for (const runId of runs) {
        const run = await waitForRun(runId, token, ['applied', 'errored', 'canceled'], 120_000);
        expect(run.attributes.status, runId).to.equal('applied');
      }
      await waitFor(
        () =>
          runs.every((runId) =>
            receiver.received.some(
              (n) => n.body.run_id === runId && n.body.notifications?.[0]?.trigger === 'run:completed',
            ),
          ),
        'every run:completed notification',
        60_000,
      );
      expect(worker.proc.exitCode, 'the worker process was never restarted').to.equal(null);
    } finally {
      await worker.stop('SIGKILL');
      worker = undefined;
      await app.close();
      await redis.stop();
    }
  });

  it('a worker killed with SIGKILL mid-apply: its Terraform dies with it, the state so far is stored, the workspace stays locked with the reason and holds the next run until unlocked', async () => {
    await worker?.stop('SIGKILL');
    const env = { RECONCILE_INTERVAL_MS: '1000', RUN_LEASE_SECONDS: '3' };
    worker = spawnWorkers(['run-pipeline', 'notification-delivery', 'verification'], env);
    let next: WorkerProcess | undefined;
    try {
      await workersReady(worker);
      const org = await createOrg();
      const token = org.owner.token;
      const ws = await createWorkspace(org, { 'auto-apply': true });
      await notifyReceiver(ws.id, token, ['run:errored']);
      await uploadConfig(ws.id, token, { 'main.tf': slowApplyConfig(uniq('slowapply')) });
      const runId = await startRun(ws.id, token);
      await waitForRun(runId, token, ['applying'], 60_000);
      // The first resource is created and Terraform wrote its state; the second one's provisioner sleeps.
      const stored = await waitFor(
        async () => harness().rt.db('state_versions').where({ run_id: runId }).first(),
        "the apply's state so far to be stored",
        30_000,
      );
      const dir = join(workRootOf(), (await runWorkdirs(workRootOf(), worker.proc.pid))[0]);
      expect(await processesIn(dir)).to.not.deep.equal([]);

      await worker.stop('SIGKILL');
      await waitFor(
        async () => (await processesIn(dir)).length === 0,
        'Terraform and its provisioner to die with the worker',
        10_000,
      );
      const shown = await api('GET', `/workspaces/${ws.id}/current-state-version`, { token });
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.data.id).to.equal(stored.id);
      const state = JSON.parse(
        (await fetch(shown.body.data.attributes['hosted-state-download-url']).then((r) => r.text())) || '{}',
      );
      expect(state.resources.map((r: { name: string }) => r.name)).to.include('first');

      // Another worker finds the apply abandoned: the run errors (never applied twice) and the
      // workspace stays locked by it, with the reason, until a person unlocks it.
      next = spawnWorkers(['run-pipeline', 'notification-delivery'], env);
      await workersReady(next);
      const errored = await waitForRun(runId, token, ['errored', 'applied'], 60_000);
      expect(errored.attributes.status).to.equal('errored');
      const locked = (await api('GET', `/workspaces/${ws.id}`, { token })).body.data;
      expect(locked.attributes.locked).to.equal(true);
      expect(locked.attributes['locked-reason']).to.match(/stopped unexpectedly/);
      expect(locked.relationships['locked-by'].data).to.deep.equal({ type: 'runs', id: runId });
      await waitFor(
        () =>
          receiver.received.some(
            (n) => n.body.run_id === runId && n.body.notifications?.[0]?.trigger === 'run:errored',
          ),
        'run:errored to arrive',
        30_000,
      );

      await uploadConfig(ws.id, token, { 'main.tf': 'output "ok" { value = true }\n' });
      const held = await startRun(ws.id, token);
      await new Promise((r) => setTimeout(r, 2000));
      expect((await api('GET', `/runs/${held}`, { token })).body.data.attributes.status).to.equal('pending');
      const unlock = await api('POST', `/workspaces/${ws.id}/actions/unlock`, { token, body: {} });
      expect(unlock.status, unlock.text).to.equal(409);
      expect((await api('POST', `/workspaces/${ws.id}/actions/force-unlock`, { token, body: {} })).status).to.equal(
        200,
      );
      expect((await waitForRun(held, token, ['applied', 'errored'], 60_000)).attributes.status).to.equal('applied');
    } finally {
      await worker?.stop('SIGKILL');
      await next?.stop('SIGKILL');
      worker = undefined;
    }
  });

  it('a run task request whose sender was killed shows as an abandoned attempt before the one that was delivered', async () => {
    await worker?.stop('SIGKILL');
    let answered = 0;
    const held = await startTaskIntegration(null, (req) => {
      if (req.body.stage === 'test') return 200;
      // The first request is never answered: its sender dies waiting.
      if (answered++ === 0) return new Promise<number>(() => undefined);
      const body = req.body as { task_result_callback_url: string; access_token: string };
      setTimeout(() => void callback(body.task_result_callback_url, body.access_token, { status: 'passed' }), 100);
      return 200;
    });
    const env = { RECONCILE_INTERVAL_MS: '1000', RUN_LEASE_SECONDS: '3' };
    worker = spawnWorkers(['run-pipeline', 'run-task-dispatch', 'verification'], env);
    let next: WorkerProcess | undefined;
    try {
      await workersReady(worker);
      const { token, ws } = await taskSetup(held.url, { level: 'mandatory', stages: ['post_plan'] });
      await uploadConfig(ws.id, token, { 'main.tf': 'output "ok" { value = true }\n' });
      const runId = await startRun(ws.id, token);
      await waitFor(() => held.requests.some((r) => r.body.stage === 'post_plan'), 'the first task request', 60_000);
      await worker.stop('SIGKILL');
      next = spawnWorkers(['run-pipeline', 'run-task-dispatch'], env);
      await workersReady(next);
      // The dispatch lease (30 s) runs out, and the request goes again.
      const run = await waitForRun(runId, token, ['planned', 'post_plan_completed', 'errored'], 90_000);
      expect(run.attributes.status).to.be.oneOf(['planned', 'post_plan_completed']);
      const result = await harness().rt.db('task_results').where({ run_id: runId }).first('id');
      const shown = await api('GET', `/task-results/${result.id}`, { token });
      const attempts = shown.body.data.attributes['delivery-attempts'];
      expect(attempts.map((a: { attempt: number; state: string }) => [a.attempt, a.state])).to.deep.equal([
        [1, 'abandoned'],
        [2, 'ended'],
      ]);
      expect(attempts[0].error).to.match(/stopped before this attempt ended/);
      expect(attempts[1]['status-code']).to.equal(200);
    } finally {
      await worker?.stop('SIGKILL');
      await next?.stop('SIGKILL');
      worker = undefined;
      await held.close();
    }
  });

  it('SIGTERM during a long plan: the worker stops it when its budget runs out, exits, and another worker plans the run', async () => {
    // The backend answers after 20 s: a worker that waited for its plan would exit only then.
    const server = await startSlowStateServer(20_000);
    await worker?.stop('SIGKILL');
    const leaving = spawnWorkers(['run-pipeline'], { SHUTDOWN_BUDGET_MS: '1500', RECONCILE_INTERVAL_MS: '3600000' });
    let taking: WorkerProcess | undefined;
    try {
      await workersReady(leaving);
      const org = await createOrg();
      const token = org.owner.token;
      const ws = await createWorkspace(org);
      await uploadConfig(ws.id, token, { 'main.tf': slowPlanConfig(server.address) });
      const runId = await startRun(ws.id, token, { 'plan-only': true });
      await waitFor(() => server.requests > 0, 'the plan to call the slow backend', 30_000);

      taking = spawnWorkers(['run-pipeline'], { RECONCILE_INTERVAL_MS: '1000' });
      await workersReady(taking);
      expect(await leaving.stop('SIGTERM')).to.equal(0);
      // It left before its plan could have ended by itself: the backend's answer had not come.
      expect(server.abandoned, 'the first plan was stopped mid-request').to.be.at.least(1);
      expect(leaving.output()).to.include('shutdown budget exceeded');

      const run = await waitForRun(runId, token, ['planned_and_finished', 'errored'], 90_000);
      expect(run.attributes.status).to.equal('planned_and_finished');
      const plan = (await api('GET', `/runs/${runId}?include=plan`, { token })).body.included[0];
      expect(await readWholeLog(plan.attributes['log-read-url'])).to.include(
        'shutting down; another worker will plan again',
      );
    } finally {
      await leaving.stop('SIGKILL');
      await taking?.stop('SIGKILL');
      await server.close();
    }
  });

  it('sends run:planning while the plan still runs, not when it ends', async () => {
    const server = await startSlowStateServer(600_000);
    await worker?.stop('SIGKILL');
    worker = spawnWorkers(['run-pipeline', 'notification-delivery', 'verification'], {
      RECONCILE_INTERVAL_MS: '3600000',
    });
    try {
      await workersReady(worker);
      const org = await createOrg();
      const token = org.owner.token;
      const ws = await createWorkspace(org);
      await notifyReceiver(ws.id, token, ['run:planning']);
      await uploadConfig(ws.id, token, { 'main.tf': slowPlanConfig(server.address) });
      // Not speculative: plan-only runs send no run notifications.
      const runId = await startRun(ws.id, token);
      await waitFor(
        () =>
          receiver.received.some(
            (n) => n.body.run_id === runId && n.body.notifications?.[0]?.trigger === 'run:planning',
          ),
        'run:planning to arrive',
        20_000,
      );
      expect((await api('GET', `/runs/${runId}`, { token })).body.data.attributes.status).to.equal('planning');
    } finally {
      await worker?.stop('SIGKILL');
      worker = undefined;
      await server.close();
    }
  });

  it('a web process stopping answers requests on its keep-alive connections with Connection: close, never a reset', async () => {
    const app = await startSecondApp({});
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    const url = new URL(`${app.api}/ping`);
    const get = () =>
      new Promise<{ status: number; connection: string | undefined } | { error: string }>((resolve) => {
        const req = request({ host: url.hostname, port: url.port, path: url.pathname, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        });
        req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
        req.end();
      });
    try {
      // Warm keep-alive connections, then keep them busy while the process stops.
      for (let i = 0; i < 5; i++) expect(await get()).to.deep.include({ status: 204 });
      // The process starts stopping between two requests (the keep-alive connection then idle and
      // open), so the request after it arrives on that connection while the process stops.
      let stopping = false;
      let closed: Promise<void> | undefined;
      const results: { during: boolean; result: Awaited<ReturnType<typeof get>> }[] = [];
      for (let i = 0; i < 200; i++) {
        if (i === 20) {
          stopping = true;
          closed = app.close();
        }
        results.push({ during: stopping, result: await get() });
        await new Promise((r) => setTimeout(r, 5));
      }
      await closed;
      const errors = results
        .map((r) => r.result)
        .filter((r): r is { error: string } => 'error' in r)
        .map((r) => r.error);
      // Once the process stopped listening, a new connection is refused; an open one is never reset.
      expect(
        errors.filter((e) => e !== 'ECONNREFUSED'),
        errors.join(','),
      ).to.deep.equal([]);
      const answeredWhileStopping = results
        .filter((r) => r.during && 'status' in r.result)
        .map((r) => r.result as { connection?: string });
      expect(answeredWhileStopping.length).to.be.at.least(1);
      expect(answeredWhileStopping.every((r) => r.connection === 'close')).to.equal(true);
    } finally {
      agent.destroy();
    }
  });

  it('Postgres unreachable for 10 s: every request is answered 503 with Retry-After, never 500, nothing is written, and the API recovers', async () => {
    const h = harness();
    const url = new URL(h.config.databaseUrl);
    const proxy = await startTcpProxy(Number(url.port || 5432), url.hostname);
    url.port = String(proxy.port);
    const app = await startSecondApp({ DATABASE_URL: url.toString() });
    try {
      const org = await createOrg();
      const token = org.owner.token;
      expect((await api('GET', `${app.api}/organizations/${org.name}`, { token })).status).to.equal(200);

      await proxy.cut();
      const statuses = new Map<number, number>();
      const refused: string[] = [];
      const until = Date.now() + 10_000;
      while (Date.now() < until) {
        const name = uniq('down');
        for (const res of [
          await api('GET', `${app.api}/organizations/${org.name}`, { token }),
          await api('GET', `${app.api}/organizations/${org.name}/workspaces`, { token }),
          await api('POST', `${app.api}/organizations/${org.name}/workspaces`, {
            token,
            body: doc('workspaces', { name }),
          }),
        ]) {
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 503) {
            expect(res.headers.get('retry-after')).to.match(/^\d+$/);
            expect(res.body.errors[0].status).to.equal('503');
          }
        }
        refused.push(name);
        await new Promise((r) => setTimeout(r, 250));
      }
      expect([...statuses.keys()], JSON.stringify([...statuses])).to.deep.equal([503]);
      expect((await api('GET', `${app.baseUrl}/readyz`)).status).to.equal(503);

      await proxy.restore();
      await waitFor(
        async () => (await api('GET', `${app.api}/organizations/${org.name}`, { token })).status === 200,
        'the API to recover',
        30_000,
      );
      const created = await api('POST', `${app.api}/organizations/${org.name}/workspaces`, {
        token,
        body: doc('workspaces', { name: uniq('up') }),
      });
      expect(created.status, created.text).to.equal(201);
      expect(
        await h.rt
          .db('workspaces')
          .whereIn('name', refused)
          .count<{ n: string }[]>('* as n')
          .first()
          .then((r) => Number(r?.n)),
      ).to.equal(0);
    } finally {
      await app.close();
      await proxy.close();
    }
  });

  it('a worker killed with SIGKILL mid-plan leaves no process of its run behind, and the next worker on the host removes its directory', async () => {
    const server = await startSlowStateServer(600_000);
    await worker?.stop('SIGKILL');
    worker = spawnWorkers(['run-pipeline'], { RECONCILE_INTERVAL_MS: '3600000' });
    try {
      await workersReady(worker);
      const org = await createOrg();
      const ws = await createWorkspace(org);
      await uploadConfig(ws.id, org.owner.token, { 'main.tf': slowPlanConfig(server.address) });
      await startRun(ws.id, org.owner.token, { 'plan-only': true });
      await waitFor(() => server.requests > 0, 'the plan to call the slow backend', 30_000);
      const found = (await runWorkdirs(workRootOf(), worker.proc.pid))[0];
      const dir = found && join(workRootOf(), found);
      expect(dir, "the run's directory").to.be.a('string');
      const inRun = await processesIn(dir!);
      expect(inRun.length, 'Terraform and its shell run in the directory').to.be.at.least(2);

      await worker.stop('SIGKILL');
      await waitFor(
        async () => (await processesIn(dir!)).length === 0,
        'every process of the run to die with its worker',
        10_000,
      );
      expect(existsSync(dir!), 'the directory is left behind by the kill').to.equal(true);

      worker = spawnWorkers(['notification-delivery'], { RECONCILE_INTERVAL_MS: '3600000' });
      await workersReady(worker);
      await waitFor(() => !existsSync(dir!), "the next worker to remove the dead one's directory", 10_000);
    } finally {
      await worker?.stop('SIGKILL');
      worker = undefined;
      await server.close();
    }
  });
});

/** Processes (pids) whose working directory is `dir` or below it. */
async function processesIn(dir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => '');
    if (cwd === dir || cwd.startsWith(`${dir}/`)) pids.push(Number(entry));
  }
  return pids;
}
