import { expect } from 'chai';
import { api, doc } from '../helpers/api.js';
import { flushQueueKeys, harness } from '../helpers/harness.js';
import { createOrg, createWorkspace, uniq } from '../helpers/fixtures.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startRun, terraformAvailable, uploadConfig, waitForRun } from '../helpers/terraform.js';
import { callback, startTaskIntegration, type TaskIntegration } from '../helpers/run-task-integration.js';

const WORKER_ENV = { RECONCILE_INTERVAL_MS: '1000', RUN_TASK_DEADLINE_SECONDS: '30', RUN_LEASE_SECONDS: '3' };
const QUEUES = ['run-pipeline', 'run-task-dispatch', 'deadline-expiry', 'verification'];

describe('run tasks survive a killed dispatch worker and a flushed Redis', function () {
  this.timeout(120_000);
  const workers: WorkerProcess[] = [];
  const integrations: TaskIntegration[] = [];

  const startWorker = async () => {
    const w = spawnWorkers(QUEUES, WORKER_ENV);
    workers.push(w);
    await workersReady(w);
    return w;
  };

  before(function () {
    if (!terraformAvailable()) this.skip();
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop('SIGKILL')));
    await Promise.all(integrations.splice(0).map((i) => i.close()));
  });

  /** A workspace with two mandatory post-plan tasks: one that fails its first delivery, one that never calls back. */
  async function setup(token: string, org: string, flaky: TaskIntegration, silent: TaskIntegration) {
    const ws = await createWorkspace({ name: org, owner: { token } });
    for (const [name, integration] of [
      [uniq('flaky'), flaky],
      [uniq('silent'), silent],
    ] as const) {
      const task = await api('POST', `/organizations/${org}/tasks`, {
        token,
        body: doc('tasks', { name, url: integration.url, category: 'task' }),
      });
      expect(task.status, task.text).to.equal(201);
      const attach = await api('POST', `/workspaces/${ws.id}/tasks`, {
        token,
        body: doc(
          'workspace-tasks',
          { 'enforcement-level': 'mandatory', stages: ['post_plan'] },
          { task: { data: { type: 'tasks', id: task.body.data.id } } },
        ),
      });
      expect(attach.status, attach.text).to.equal(201);
    }
    await uploadConfig(ws.id, token, { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' });
    return ws;
  }

  it('ends every result final: the retried delivery completes and the silent task errors at its deadline', async () => {
    const h = harness();
    const org = await createOrg();
    const token = org.owner.token;
    let runRequests = 0;
    const flaky = await startTaskIntegration(null, (req) => {
      if (req.body.stage === 'test') return 200;
      runRequests++;
      if (runRequests === 1) return 500;
      const body = req.body as { task_result_callback_url: string; access_token: string };
      setTimeout(() => void callback(body.task_result_callback_url, body.access_token, { status: 'passed' }), 100);
      return 200;
    });
    const silent = await startTaskIntegration(null, () => 200);
    integrations.push(flaky, silent);
    const first = await startWorker();
    const ws = await setup(token, org.name, flaky, silent);
    const runId = await startRun(ws.id, token);
    await waitForRun(runId, token, ['post_plan_running']);
    await waitFor(() => runRequests === 1, 'the first (failing) delivery');
    await waitFor(
      async () =>
        (await h.rt
          .db('task_results')
          .where({ run_id: runId, dispatch_status: 'pending' })
          .whereNotNull('next_dispatch_at')
          .where('dispatch_attempts', 1)
          .first('id')) !== undefined,
      'the retry to be scheduled',
    );
    // Mid-retry: the second attempt waits as a delayed job; kill the worker and lose every job.
    await first.stop('SIGKILL');
    expect(await flushQueueKeys(h)).to.be.greaterThan(0);

    await startWorker();
    const run = await waitForRun(runId, token, ['errored', 'post_plan_completed', 'planned'], 90_000);
    const results = await h.rt.db('task_results').where({ run_id: runId }).orderBy('task_name');
    expect(results.map((r) => r.status).sort()).to.deep.equal(['errored', 'passed']);
    expect(runRequests).to.equal(2);
    const attempts = await h.rt
      .db('task_result_attempts')
      .whereIn(
        'task_result_id',
        results.map((r) => r.id),
      )
      .orderBy('seq');
    expect(attempts.filter((a) => a.status_code === 500)).to.have.length(1);
    // The silent mandatory task errored at its deadline, which fails the run.
    expect(run.attributes.status).to.equal('errored');
    const stage = await h.rt.db('task_stages').where({ run_id: runId }).first();
    expect(stage.status).to.equal('failed');
  });
});
