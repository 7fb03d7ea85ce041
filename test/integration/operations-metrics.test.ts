import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { dropDatabase } from '../../shared/platform/db.js';
import { migrateLatest } from '../../shared/platform/db/migrate.js';
import { api, doc } from '../helpers/api.js';
import { createOrg, createWorkspace, uniq } from '../helpers/fixtures.js';
import { flushQueueKeys, freePort, harness, startSecondApp } from '../helpers/harness.js';
import { logLines, spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { terraformAvailable, uploadConfig, waitForRun } from '../helpers/terraform.js';
import {
  answerThenCallBack,
  startTaskIntegration,
  type SentCallback,
  type TaskIntegration,
} from '../helpers/run-task-integration.js';
import { startReceiver, type NotificationReceiver } from '../helpers/notification-receiver.js';
import { exposes, scrapeMetrics, total } from '../helpers/metrics.js';

const QUEUES = ['run-pipeline', 'run-task-dispatch', 'deadline-expiry', 'notification-delivery', 'verification'];
const TASK_KEY = 'task-hmac-secret-value';
const NOTIFY_TOKEN = 'notify-secret-value';

describe('operations: metrics and logs follow a run with a task and a notification', function () {
  this.timeout(240_000);
  let integration: TaskIntegration;
  let receiver: NotificationReceiver;
  const sent: SentCallback[] = [];
  let worker: WorkerProcess | undefined;

  before(async function () {
    if (!terraformAvailable()) this.skip();
    integration = await startTaskIntegration(
      TASK_KEY,
      answerThenCallBack([{ status: 'running' }, { status: 'passed' }], sent),
    );
    receiver = await startReceiver(NOTIFY_TOKEN);
  });

  after(async () => {
    await worker?.stop();
    await integration?.close();
    await receiver?.close();
  });

  it('refuses a scrape of the API without the scrape token', async () => {
    const h = harness();
    expect((await fetch(`${h.baseUrl}/metrics`)).status).to.equal(401);
    expect(
      (await fetch(`${h.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${h.adminToken}` } })).status,
    ).to.equal(401);
  });

  it('moves the API and worker series, logs each job and move under the request id, and counts reconciler re-enqueues', async () => {
    const h = harness();
    const scrapeApi = () => scrapeMetrics(`${h.baseUrl}/metrics`, h.config.metricsToken);
    const port = await freePort();
    worker = spawnWorkers(QUEUES, { METRICS_PORT: String(port), RECONCILE_INTERVAL_MS: '1000' });
    await workersReady(worker);
    const workerUrl = `http://127.0.0.1:${port}/metrics`;
    // The worker's listener is protected by the same token.
    expect((await fetch(workerUrl)).status).to.equal(401);
    const apiBefore = await scrapeApi();

    const org = await createOrg();
    const token = org.owner.token;
    const task = await api('POST', `/organizations/${org.name}/tasks`, {
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
    const ws = await createWorkspace(org, { 'auto-apply': true });
    const attach = await api('POST', `/workspaces/${ws.id}/tasks`, {
      token,
      body: doc(
        'workspace-tasks',
        { 'enforcement-level': 'mandatory', stages: ['post_plan'] },
        { task: { data: { type: 'tasks', id: task.body.data.id } } },
      ),
    });
    expect(attach.status, attach.text).to.equal(201);
    const nc = await api('POST', `/workspaces/${ws.id}/notification-configurations`, {
      token,
      body: doc('notification-configuration', {
        'destination-type': 'generic',
        enabled: true,
        name: 'hook',
        token: NOTIFY_TOKEN,
        url: receiver.url,
        triggers: ['run:created', 'run:planning', 'run:completed'],
      }),
    });
    expect(nc.status, nc.text).to.equal(201);
    const cv = await uploadConfig(ws.id, token, { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' });

    const requestId = uniq('trace');
    const created = await api('POST', '/runs', {
      token,
      headers: { 'X-Request-Id': requestId },
      body: doc(
        'runs',
        {},
        {
          workspace: { data: { type: 'workspaces', id: ws.id } },
          'configuration-version': { data: { type: 'configuration-versions', id: cv } },
        },
      ),
    });
    expect(created.status, created.text).to.equal(201);
    expect(created.headers.get('x-request-id')).to.equal(requestId);
    const runId = created.body.data.id as string;
    await waitForRun(runId, token, ['applied'], 120_000);
    const forRun = () =>
      receiver.received.filter((r) => r.body.run_id === runId).map((r) => r.body.notifications[0].trigger as string);
    await waitFor(() => forRun().includes('run:completed'), 'the run:completed notification', 30_000);
    expect([...forRun()].sort()).to.deep.equal(['run:completed', 'run:created', 'run:planning']);
    expect(sent.map((s) => s.status)).to.deep.equal([200, 200]);

    // The API's series: its requests by route template, the run's creation, queues, backlog, pool, process.
    const apiAfter = await scrapeApi();
    const runsPosted = { route: '/api/v2/runs', method: 'POST', status: '201' };
    expect(total(apiAfter, 'rls_http_request_duration_seconds_count', runsPosted)).to.be.greaterThan(
      total(apiBefore, 'rls_http_request_duration_seconds_count', runsPosted),
    );
    expect(
      total(apiAfter, 'rls_http_request_duration_seconds_count', {
        route: '/api/v2/runs/:id',
        method: 'GET',
        status: '200',
      }),
    ).to.be.greaterThan(0);
    expect(
      total(apiAfter, 'rls_http_request_duration_seconds_count', { route: '/api/v2/task-results/:id/callback' }),
    ).to.be.greaterThan(0);
    expect(exposes(apiAfter, 'rls_http_request_duration_seconds_count', { route: `/api/v2/runs/${runId}` })).to.equal(
      false,
    );
    expect(total(apiAfter, 'rls_run_moves_total', { from: 'none', to: 'pending' })).to.be.greaterThan(
      total(apiBefore, 'rls_run_moves_total', { from: 'none', to: 'pending' }),
    );
    for (const state of ['waiting', 'active', 'delayed', 'failed'])
      expect(exposes(apiAfter, 'rls_queue_jobs', { queue: 'run-pipeline', state }), state).to.equal(true);
    expect(total(apiAfter, 'rls_db_pool_connections', { state: 'max' })).to.be.greaterThan(0);
    expect(exposes(apiAfter, 'rls_nodejs_eventloop_lag_seconds')).to.equal(true);
    expect(exposes(apiAfter, 'rls_process_cpu_user_seconds_total')).to.equal(true);

    // The worker's series: jobs and their waits, outbound attempts, run phases and moves, pool waits
    // (at least this run's: in a full test run the worker may also take work other suites left).
    const w = await scrapeMetrics(workerUrl, h.config.metricsToken);
    expect(total(w, 'rls_job_duration_seconds_count', { queue: 'run-pipeline', outcome: 'completed' })).to.be.at.least(
      1,
    );
    expect(
      total(w, 'rls_job_duration_seconds_count', { queue: 'run-task-dispatch', outcome: 'completed' }),
    ).to.be.at.least(1);
    expect(
      total(w, 'rls_job_duration_seconds_count', { queue: 'notification-delivery', outcome: 'completed' }),
    ).to.be.at.least(1);
    expect(total(w, 'rls_job_wait_seconds_count', { queue: 'run-pipeline' })).to.be.at.least(1);
    expect(total(w, 'rls_outbound_attempts_total', { kind: 'run_task', outcome: 'delivered' })).to.be.at.least(1);
    expect(total(w, 'rls_outbound_attempts_total', { kind: 'notification', outcome: 'delivered' })).to.be.at.least(3);
    expect(total(w, 'rls_outbound_attempts_total', { kind: 'verification', outcome: 'succeeded' })).to.be.at.least(2);
    expect(total(w, 'rls_run_phase_duration_seconds_count', { phase: 'planning' })).to.be.at.least(1);
    expect(total(w, 'rls_run_phase_duration_seconds_count', { phase: 'applying', to: 'applied' })).to.be.at.least(1);
    expect(total(w, 'rls_run_moves_total', { from: 'apply_queued', to: 'applying' })).to.be.at.least(1);
    expect(total(w, 'rls_db_pool_acquire_wait_seconds_count')).to.be.greaterThan(0);
    expect(exposes(w, 'rls_process_resident_memory_bytes', { process: 'workers' })).to.equal(true);

    // The worker's log: one line per job, and the run's moves, under the id of the request that created the run.
    const lines = logLines(worker.output());
    const traced = lines.filter((l) => l.requestId === requestId);
    const jobLines = traced.filter((l) => l.message === 'job');
    expect(jobLines.map((l) => l.queue)).to.include.members(['run-pipeline', 'run-task-dispatch']);
    for (const l of jobLines) expect(l).to.include.keys('jobId', 'row', 'outcome', 'ms');
    expect(jobLines.find((l) => l.queue === 'run-pipeline')!.row).to.equal(`run:${runId}`);
    const moves = lines
      .filter((l) => l.message === 'run moved' && l.runId === runId)
      .map((l) => `${String(l.from)}>${String(l.to)}`);
    expect(moves).to.include.members([
      'plan_queued>planning',
      'planning>post_plan_running',
      'apply_queued>applying',
      'applying>applied',
    ]);
    expect(traced.some((l) => l.message === 'run moved' && l.to === 'planning')).to.equal(true);
    // Secrets never reach a log line.
    for (const secret of [TASK_KEY, NOTIFY_TOKEN, token]) expect(worker.output()).to.not.include(secret);

    // A job lost with Redis is restored by the reconciler, and counted.
    await worker.stop();
    const lost = await api('POST', '/runs', {
      token,
      body: doc(
        'runs',
        { 'plan-only': true },
        {
          workspace: { data: { type: 'workspaces', id: ws.id } },
          'configuration-version': { data: { type: 'configuration-versions', id: cv } },
        },
      ),
    });
    expect(lost.status, lost.text).to.equal(201);
    await flushQueueKeys(h);
    const backlog = await scrapeApi();
    expect(
      total(backlog, 'rls_backlog_rows', { kind: 'runs', status: 'pending' }) +
        total(backlog, 'rls_backlog_rows', { kind: 'runs', status: 'plan_queued' }),
    ).to.be.at.least(1);
    worker = spawnWorkers(QUEUES, { METRICS_PORT: String(port), RECONCILE_INTERVAL_MS: '1000' });
    await workersReady(worker);
    await waitForRun(lost.body.data.id, token, ['planned_and_finished'], 120_000);
    const again = await scrapeMetrics(workerUrl, h.config.metricsToken);
    expect(total(again, 'rls_reconciler_requeues_total', { source: 'runs' })).to.be.at.least(1);
  });
});

describe('operations: the backlog gauges of a fresh service', () => {
  it('have a 0 sample for every kind of durable work and its statuses before any row exists', async () => {
    const h = harness();
    const databaseUrl = h.config.databaseUrl.replace(/[^/]+$/, `rls_fresh_${randomBytes(4).toString('hex')}`);
    await migrateLatest(databaseUrl);
    const app = await startSecondApp({ DATABASE_URL: databaseUrl });
    try {
      const samples = await scrapeMetrics(`${app.baseUrl}/metrics`, h.config.metricsToken);
      const expected: Record<string, string[]> = {
        runs: ['pending', 'plan_queued', 'planning', 'confirmed', 'apply_queued', 'applying', 'post_plan_running'],
        task_results: ['pending', 'sending'],
        notification_deliveries: ['pending', 'sending'],
        mail: ['pending', 'sending'],
        verifications: ['pending', 'running'],
        test_runs: ['pending', 'queued', 'running'],
      };
      for (const [kind, statuses] of Object.entries(expected)) {
        for (const status of statuses) {
          for (const series of ['rls_backlog_rows', 'rls_backlog_oldest_due_seconds']) {
            expect(exposes(samples, series, { kind, status }), `${series}{kind="${kind}",status="${status}"}`).to.equal(
              true,
            );
            expect(total(samples, series, { kind, status })).to.equal(0);
          }
        }
      }
      // A final status is no backlog.
      expect(exposes(samples, 'rls_backlog_rows', { kind: 'runs', status: 'applied' })).to.equal(false);
    } finally {
      await app.close();
      await dropDatabase(databaseUrl);
    }
  });
});
