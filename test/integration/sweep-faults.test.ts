import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { jobs } from '../../shared/platform/queues.js';
import { api, doc } from '../helpers/api.js';
import { flushQueueKeys, freePort, harness, startDeployment, type Deployment } from '../helpers/harness.js';
import { createCv, createOrg, createWorkspace, onTestServer, putArchive, tarGz, uniq } from '../helpers/fixtures.js';
import { logLines, spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
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
  type SlowStateServer,
} from '../helpers/terraform.js';
import { scrapeMetrics, total } from '../helpers/metrics.js';
import { callback, startTaskIntegration, type TaskIntegration } from '../helpers/run-task-integration.js';
import { taskSetup } from '../helpers/run-task-fixtures.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { readWholeLog } from '../helpers/module-tests.js';

/** Uploads a trivial configuration to a workspace of `dep`; returns the version id. */
async function uploadTo(dep: Deployment, workspaceId: string, token: string): Promise<string> {
  const cv = await createCv(workspaceId, token, { 'auto-queue-runs': false }, dep.api);
  const put = await putArchive(cv.uploadUrl, await tarGz({ 'main.tf': 'output "ok" { value = true }\n' }), dep.baseUrl);
  expect(put.status, put.text).to.equal(200);
  return cv.id;
}

/** An organization of `dep` with two workspaces, each with an uploaded configuration: one to lock, one left open. */
async function twoWorkspaces(dep: Deployment) {
  const org = await createOrg(undefined, dep.api);
  const token = org.owner.token;
  const [locked, open] = [await createWorkspace(org, {}, dep.api), await createWorkspace(org, {}, dep.api)];
  return {
    token,
    locked,
    open,
    lockedCv: await uploadTo(dep, locked.id, token),
    openCv: await uploadTo(dep, open.id, token),
  };
}

/** Creates `n` runs of `dep`'s workspace through its API, `parallel` requests at a time; their ids in order of creation. */
async function createRuns(
  dep: Deployment,
  workspaceId: string,
  cvId: string,
  token: string,
  n: number,
  attrs: Record<string, unknown>,
  parallel = 1,
): Promise<string[]> {
  const ids: string[] = new Array<string>(n);
  let next = 0;
  const one = async () => {
    for (let i = next++; i < n; i = next++) {
      const res = await api('POST', `${dep.api}/runs`, {
        token,
        body: doc('runs', attrs, {
          workspace: { data: { type: 'workspaces', id: workspaceId } },
          'configuration-version': { data: { type: 'configuration-versions', id: cvId } },
        }),
      });
      expect(res.status, res.text).to.equal(201);
      ids[i] = res.body.data.id;
    }
  };
  await Promise.all(Array.from({ length: parallel }, one));
  return ids;
}

/** Waits until a worker process has logged `count` more sweeps than it had when called (it logs each at level debug). */
async function sweeps(w: WorkerProcess, count: number): Promise<void> {
  const swept = () => logLines(w.output()).filter((l) => l.message === 'swept').length;
  const target = swept() + count;
  await waitFor(() => swept() >= target, `${count} sweeps`, 30_000);
}

describe('faults the sweep must survive: no work stranded', function () {
  this.timeout(240_000);
  const workers: WorkerProcess[] = [];
  const deployments: Deployment[] = [];
  const servers: SlowStateServer[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  const start = (queues: string[], env: NodeJS.ProcessEnv) => {
    const w = spawnWorkers(queues, env);
    workers.push(w);
    return w;
  };

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop('SIGKILL')));
    for (const d of deployments.splice(0)) await d.close();
    await Promise.all(servers.splice(0).map((s) => s.close()));
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('after a Redis flush, each of more than a thousand due runs gets its job back, however many runs wait behind a locked workspace', async () => {
    // A deployment of its own, so that the sweep's count is this test's rows alone.
    const dep = await startDeployment({ MAX_QUEUED_SPECULATIVE_RUNS: '5000' });
    deployments.push(dep);
    const { token, locked, open, lockedCv, openCv } = await twoWorkspaces(dep);
    const lock = await api('POST', `${dep.api}/workspaces/${locked.id}/actions/lock`, {
      token,
      body: { reason: 'maintenance' },
    });
    expect(lock.status, lock.text).to.equal(200);
    // The oldest rows wait behind the lock (each request takes the workspace's lock: one at a time).
    const waiting = await createRuns(dep, locked.id, lockedCv, token, 200, {});
    const due = await createRuns(dep, open.id, openCv, token, 1100, { 'plan-only': true }, 16);
    const statuses = await dep.rt
      .db('runs')
      .select('status')
      .count<{ status: string; count: string }[]>('* as count')
      .groupBy('status');
    expect(Object.fromEntries(statuses.map((s) => [s.status, Number(s.count)]))).to.deep.equal({
      pending: 200,
      plan_queued: 1100,
    });

    expect(await flushQueueKeys(harness(), dep.rt.config.queuePrefix)).to.be.greaterThan(0);
    // No worker of the run pipeline: the jobs the sweep adds stay in the queue to be counted.
    const w = start(['verification'], { ...dep.env, RECONCILE_INTERVAL_MS: '3600000', LOG_LEVEL: 'debug' });
    await sweeps(w, 1);
    const queue = dep.rt.queues['run-pipeline'];
    const missing: string[] = [];
    for (const id of due) if (!(await queue.getJob(jobs.runStep(id, 'plan').jobId))) missing.push(id);
    expect(missing, 'due runs left without a job').to.deep.equal([]);
    const restored = logLines(w.output()).filter((l) => l.message === 'reconciler restored jobs');
    expect(restored.map((l) => [l.source, l.count])).to.deep.equal([['runs', 1100]]);
    // The runs behind the lock need no job until the lock goes: its removal queues the oldest.
    for (const id of waiting) expect(await queue.getJob(jobs.runStep(id, 'queue').jobId), id).to.equal(undefined);
    expect(
      (await api('POST', `${dep.api}/workspaces/${locked.id}/actions/unlock`, { token, body: {} })).status,
    ).to.equal(200);
    await waitFor(
      async () => (await queue.getJob(jobs.runStep(waiting[0], 'queue').jobId)) !== undefined,
      'the oldest waiting run to be queued once unlocked',
    );
  });

  it('counts as restored only the jobs that were missing: runs waiting behind a lock are not re-queued sweep after sweep', async () => {
    const dep = await startDeployment({ MAX_QUEUED_SPECULATIVE_RUNS: '100' });
    deployments.push(dep);
    const { token, locked, open, lockedCv, openCv } = await twoWorkspaces(dep);
    expect((await api('POST', `${dep.api}/workspaces/${locked.id}/actions/lock`, { token, body: {} })).status).to.equal(
      200,
    );

    // The pipeline takes each waiting run's queue step, which finds the lock and ends, as in production.
    const pipeline = start(['run-pipeline'], { ...dep.env, RECONCILE_INTERVAL_MS: '3600000' });
    await workersReady(pipeline);
    const waiting = await createRuns(dep, locked.id, lockedCv, token, 6, {});
    const queue = dep.rt.queues['run-pipeline'];
    for (const id of waiting)
      await waitFor(
        async () => (await (await queue.getJob(jobs.runStep(id, 'queue').jobId))?.getState()) === 'completed',
        `the queue step of ${id} to end`,
      );
    expect(await pipeline.stop('SIGTERM')).to.equal(0);
    // Runs with a job waiting in the queue (no pipeline runs now).
    const queued = await createRuns(dep, open.id, openCv, token, 4, { 'plan-only': true });

    const port = await freePort();
    const w = start(['verification'], {
      ...dep.env,
      RECONCILE_INTERVAL_MS: '300',
      LOG_LEVEL: 'debug',
      METRICS_PORT: String(port),
    });
    const restored = async () =>
      total(
        await scrapeMetrics(`http://127.0.0.1:${port}/metrics`, harness().config.metricsToken),
        'rls_reconciler_requeues_total',
      );
    await sweeps(w, 2);
    expect(await restored(), 'restored with nothing lost').to.equal(0);
    await sweeps(w, 2);
    expect(await restored(), 'restored with nothing lost').to.equal(0);

    await flushQueueKeys(harness(), dep.rt.config.queuePrefix);
    await sweeps(w, 2);
    // What the flush took that a row needs: the queued runs' plan steps. The waiting runs need none.
    expect(await restored()).to.equal(queued.length);
    for (const id of queued) expect(await queue.getJob(jobs.runStep(id, 'plan').jobId), id).to.not.equal(undefined);
    for (const id of waiting) expect(await queue.getJob(jobs.runStep(id, 'queue').jobId), id).to.equal(undefined);
    expect(
      logLines(w.output())
        .filter((l) => l.message === 'reconciler restored jobs')
        .map((l) => [l.source, l.count]),
    ).to.deep.equal([['runs', queued.length]]);
  });

  describe('with Terraform', () => {
    before(function () {
      if (!terraformAvailable()) this.skip();
    });

    /** A directory of this test's own as the workers' TMPDIR, so that no other process on the host takes what it leaves there. */
    const privateTmp = async () => {
      const dir = await mkdtemp(join(tmpdir(), 'rls-faults-tmp-'));
      // Open to the sandbox's users, as /tmp is: what a sandbox binds from it must be reachable.
      await chmod(dir, 0o1777);
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      return dir;
    };

    /** A filesystem of 64 KiB, filled up with `filler`: keeping a state there fails with ENOSPC, as on a full disk. */
    const fullRecoveryDir = async () => {
      const recovery = await mkdtemp(join(tmpdir(), 'rls-faults-recovery-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', recovery]);
      cleanups.push(async () => {
        execFileSync('umount', [recovery]);
        await rm(recovery, { recursive: true, force: true });
      });
      await writeFile(join(recovery, 'filler'), Buffer.alloc(64 * 1024)).catch((err: NodeJS.ErrnoException) =>
        expect(err.code).to.equal('ENOSPC'),
      );
      await writeFile(join(recovery, 'probe'), 'x').then(
        () => expect.fail('the recovery directory should be full'),
        (err: NodeJS.ErrnoException) => expect(err.code).to.equal('ENOSPC'),
      );
      await rm(join(recovery, 'probe'), { force: true });
      return recovery;
    };

    it("a full STATE_RECOVERY_DIR fails only the clean-up step: a killed worker's apply is still handed on, and its state waits in its directory until there is room", async () => {
      const tmp = await privateTmp();
      const recovery = await fullRecoveryDir();

      const env = { TMPDIR: tmp, RUN_LEASE_SECONDS: '3', RECONCILE_INTERVAL_MS: '3600000' };
      const applying = start(['run-pipeline'], env);
      await workersReady(applying);
      const org = await createOrg();
      const token = org.owner.token;
      const ws = await createWorkspace(org, { 'auto-apply': true });
      await uploadConfig(ws.id, token, { 'main.tf': slowApplyConfig(uniq('full')) });
      const runId = await startRun(ws.id, token);
      await waitForRun(runId, token, ['applying'], 60_000);
      await waitFor(
        async () => harness().rt.db('state_versions').where({ run_id: runId }).first(),
        "the apply's first state to be stored",
        30_000,
      );
      const root = workRootOf({ TMPDIR: tmp });
      const [name] = await runWorkdirs(root, applying.proc.pid);
      expect(name, "the apply's directory").to.be.a('string');
      await applying.stop('SIGKILL');
      // And a run whose job Redis loses, with no pipeline to take it meanwhile.
      const other = await createWorkspace(org);
      await uploadConfig(other.id, token, { 'main.tf': 'output "ok" { value = true }\n' });
      const queuedRun = await startRun(other.id, token, { 'plan-only': true });
      cleanups.push(async () => void (await api('POST', `/runs/${queuedRun}/actions/cancel`, { token, body: {} })));
      const planStep = jobs.runStep(queuedRun, 'plan');
      await flushQueueKeys(harness());
      expect(await harness().rt.queues[planStep.queue].getJob(planStep.jobId)).to.equal(undefined);

      // A worker without the run pipeline: only its sweep can hand the run on and restore the job.
      const port = await freePort();
      const sweeping = start(['deadline-expiry'], {
        ...env,
        STATE_RECOVERY_DIR: recovery,
        RECONCILE_INTERVAL_MS: '1000',
        METRICS_PORT: String(port),
      });
      await workersReady(sweeping);
      await waitFor(
        async () => (await harness().rt.queues[planStep.queue].getJob(planStep.jobId)) !== undefined,
        'the lost job to be restored',
        10_000,
      );
      const errored = await waitForRun(runId, token, ['errored', 'applied'], 30_000);
      expect(errored.attributes.status).to.equal('errored');
      expect(errored.attributes['error-message']).to.match(/stopped unexpectedly/);
      const shown = (await api('GET', `/workspaces/${ws.id}`, { token })).body.data;
      expect(shown.relationships['locked-by'].data).to.deep.equal({ type: 'runs', id: runId });

      const failures = logLines(sweeping.output()).filter((l) => l.message === 'a sweep step failed; the others go on');
      expect(failures.length, sweeping.output()).to.be.at.least(1);
      expect(failures.every((l) => l.step === 'leftovers')).to.equal(true);
      expect(logLines(sweeping.output()).some((l) => String(l.error).includes('ENOSPC'))).to.equal(true);
      const samples = await scrapeMetrics(`http://127.0.0.1:${port}/metrics`, harness().config.metricsToken);
      expect(total(samples, 'rls_sweep_step_failures_total', { step: 'leftovers' })).to.be.at.least(1);
      // The state is not lost: the directory holding it stays while it cannot be kept.
      expect(
        (await readdir(join(root, name), { recursive: true })).some((f) => f.endsWith('zz_rls_state.tfstate')),
      ).to.equal(true);

      // Room again: the next sweep keeps the state and removes the directory.
      await rm(join(recovery, 'filler'));
      await waitFor(() => !existsSync(join(root, name)), 'the directory to be removed once its state is kept', 15_000);
      const kept = JSON.parse(await readFile(join(recovery, `${name}.tfstate`), 'utf8'));
      expect(kept.resources.map((r: { name: string }) => r.name)).to.include('first');
    });

    it('hands on an abandoned apply and an abandoned plan within seconds of their leases running out, while every Terraform slot is busy', async () => {
      const tmp = await privateTmp();
      const server = await startSlowStateServer(600_000);
      servers.push(server);
      const env = { TMPDIR: tmp, RUN_LEASE_SECONDS: '3', RECONCILE_INTERVAL_MS: '3600000' };
      const dying = start(['run-pipeline'], { ...env, RUN_CONCURRENCY: '2', RUN_SLOTS_PER_ORGANIZATION: '2' });
      await workersReady(dying);
      const org = await createOrg();
      const token = org.owner.token;
      const applyWs = await createWorkspace(org, { 'auto-apply': true });
      await uploadConfig(applyWs.id, token, { 'main.tf': slowApplyConfig(uniq('slot')) });
      const applyRun = await startRun(applyWs.id, token);
      await waitForRun(applyRun, token, ['applying'], 60_000);
      const planWs = await createWorkspace(org);
      await uploadConfig(planWs.id, token, { 'main.tf': slowPlanConfig(server.address) });
      const planRun = await startRun(planWs.id, token, { 'plan-only': true });
      await waitFor(() => server.requests >= 1, 'the plan to call the slow backend', 30_000);

      // The surviving worker's one slot is taken by a plan that waits for minutes.
      const busy = start(['run-pipeline'], { ...env, RUN_CONCURRENCY: '1', RECONCILE_INTERVAL_MS: '1000' });
      await workersReady(busy);
      const busyWs = await createWorkspace(org);
      await uploadConfig(busyWs.id, token, { 'main.tf': slowPlanConfig(server.address) });
      const busyRun = await startRun(busyWs.id, token, { 'plan-only': true });
      await waitFor(() => server.requests >= 2, "the busy worker's plan to call the slow backend", 30_000);

      await dying.stop('SIGKILL');
      const killedAt = Date.now();
      const errored = await waitForRun(applyRun, token, ['errored', 'applied'], 20_000);
      const requeued = await waitForRun(planRun, token, ['plan_queued'], 20_000);
      const seconds = (Date.now() - killedAt) / 1000;
      // The lease (3 s) and a sweep (1 s) later, with a margin for a busy machine.
      expect(seconds, 'seconds from the kill to both runs handed on').to.be.below(12);
      expect(errored.attributes.status).to.equal('errored');
      expect(errored.attributes['error-message']).to.match(/stopped unexpectedly.*not started again/);
      const ws = (await api('GET', `/workspaces/${applyWs.id}`, { token })).body.data;
      expect(ws.attributes.locked).to.equal(true);
      expect(ws.relationships['locked-by'].data).to.deep.equal({ type: 'runs', id: applyRun });
      expect(requeued.attributes.status).to.equal('plan_queued');
      const events = (await api('GET', `/runs/${planRun}/run-events`, { token })).body.data.map(
        (e: { attributes: { action: string } }) => e.attributes.action,
      );
      expect(events).to.include('requeue_plan');
      // The slot was never freed meanwhile.
      expect((await api('GET', `/runs/${busyRun}`, { token })).body.data.attributes.status).to.equal('planning');
    });

    it('SIGTERM during an apply: the apply is errored saying the state must be checked, the workspace stays locked by it and the next run does not start', async () => {
      const tmp = await privateTmp();
      const leaving = start(['run-pipeline'], {
        TMPDIR: tmp,
        SHUTDOWN_BUDGET_MS: '1500',
        RECONCILE_INTERVAL_MS: '3600000',
      });
      await workersReady(leaving);
      const org = await createOrg();
      const token = org.owner.token;
      const ws = await createWorkspace(org, { 'auto-apply': true });
      await uploadConfig(ws.id, token, { 'main.tf': slowApplyConfig(uniq('term')) });
      const first = await startRun(ws.id, token);
      await waitForRun(first, token, ['applying'], 60_000);
      await waitFor(
        async () => harness().rt.db('state_versions').where({ run_id: first }).first(),
        "the apply's first state to be stored",
        30_000,
      );
      await uploadConfig(ws.id, token, { 'main.tf': 'output "ok" { value = true }\n' });
      const second = await startRun(ws.id, token);
      // Another worker, which would start the second run as soon as the workspace is free.
      const staying = start(['run-pipeline'], { TMPDIR: tmp, RECONCILE_INTERVAL_MS: '1000' });
      await workersReady(staying);
      expect((await api('GET', `/runs/${second}`, { token })).body.data.attributes.status).to.equal('pending');

      expect(await leaving.stop('SIGTERM')).to.equal(0);
      const errored = await waitForRun(first, token, ['errored', 'applied'], 30_000);
      expect(errored.attributes.status).to.equal('errored');
      expect(errored.attributes['error-message']).to.match(/shut down.*check the workspace's state/);
      const locked = (await api('GET', `/workspaces/${ws.id}`, { token })).body.data;
      expect(locked.attributes.locked).to.equal(true);
      expect(locked.relationships['locked-by'].data).to.deep.equal({ type: 'runs', id: first });
      expect(locked.attributes['locked-reason']).to.match(/check the workspace's state.*force-unlock/);
      await new Promise((r) => setTimeout(r, 4000));
      expect((await api('GET', `/runs/${second}`, { token })).body.data.attributes.status).to.equal('pending');

      // Once a person has checked the state and unlocked, the next run goes.
      expect((await api('POST', `/workspaces/${ws.id}/actions/force-unlock`, { token, body: {} })).status).to.equal(
        200,
      );
      expect((await waitForRun(second, token, ['applied', 'errored'], 60_000)).attributes.status).to.equal('applied');
    });

    it("PostgreSQL down at an apply's end with STATE_RECOVERY_DIR full: the final state is kept in the run's directory, the logs say where, and the living worker records the run itself once the database is back", async () => {
      const tmp = await privateTmp();
      const recovery = await fullRecoveryDir();
      const url = new URL(harness().config.databaseUrl);
      const proxy = await startTcpProxy(Number(url.port || 5432), url.hostname);
      cleanups.push(() => proxy.close());
      url.port = String(proxy.port);
      const applying = start(['run-pipeline'], {
        TMPDIR: tmp,
        DATABASE_URL: url.toString(),
        STATE_RECOVERY_DIR: recovery,
        STATE_SAVE_RETRY_SECONDS: '2',
        RECONCILE_INTERVAL_MS: '3600000',
      });
      await workersReady(applying);
      const org = await createOrg();
      const token = org.owner.token;
      const ws = await createWorkspace(org, { 'auto-apply': true });
      await uploadConfig(ws.id, token, { 'main.tf': slowApplyConfig(uniq('pgdown'), 6) });
      const runId = await startRun(ws.id, token);
      await waitForRun(runId, token, ['applying'], 60_000);
      await waitFor(
        async () => harness().rt.db('state_versions').where({ run_id: runId }).first(),
        "the apply's first state to be stored",
        30_000,
      );
      await proxy.cut();
      const keptLine = await waitFor(
        () =>
          logLines(applying.output()).find(
            (l) => l.message === 'the state an apply wrote could not be stored; it was kept on disk',
          ),
        'the worker to say where it kept the state',
        60_000,
      );
      const path = String(keptLine!.path);
      expect(path.startsWith(workRootOf({ TMPDIR: tmp, DATABASE_URL: url.toString() })), path).to.equal(true);
      expect(
        logLines(applying.output()).some(
          (l) => String(l.message).startsWith('STATE_RECOVERY_DIR could not take') && l.error === 'ENOSPC',
        ),
      ).to.equal(true);
      // Nothing half written where the state could not go.
      expect((await readdir(recovery)).filter((f) => f !== 'filler')).to.deep.equal([]);
      const kept = JSON.parse(await readFile(path, 'utf8'));
      expect(kept.resources.map((r: { name: string }) => r.name)).to.include.members(['first', 'second']);
      await new Promise((r) => setTimeout(r, 3000));
      await proxy.restore();

      const errored = await waitForRun(runId, token, ['errored', 'applied'], 60_000);
      expect(errored.attributes.status).to.equal('errored');
      const message = String(errored.attributes['error-message']);
      expect(message)
        .to.include(path)
        .and.match(/could not be stored.*terraform state push/);
      expect(message).to.not.match(/stopped unexpectedly/);
      const apply = (await api('GET', `/applies/${errored.relationships.apply.data.id}`, { token })).body.data;
      expect(apply.attributes.status).to.equal('errored');
      expect(await readWholeLog(apply.attributes['log-read-url'])).to.include(path);
      const shown = (await api('GET', `/workspaces/${ws.id}`, { token })).body.data;
      expect(shown.relationships['locked-by'].data).to.deep.equal({ type: 'runs', id: runId });
      expect(shown.attributes['locked-reason']).to.include(path);
      // Kept while the worker lives, as the worker said.
      expect(existsSync(path)).to.equal(true);
    });

    it('two deployments sharing a TMPDIR: each cleans up only the directories its own dead workers left', async () => {
      const tmp = await privateTmp();
      const server = await startSlowStateServer(600_000);
      servers.push(server);
      const other = await startDeployment();
      deployments.push(other);
      const ours = workRootOf({ TMPDIR: tmp });
      const theirs = workRootOf({ ...other.env, TMPDIR: tmp });
      expect(dirname(ours)).to.equal(tmp);
      expect(dirname(theirs)).to.equal(tmp);
      expect(ours).to.not.equal(theirs);

      const dying = start(['run-pipeline'], { TMPDIR: tmp, RUN_LEASE_SECONDS: '3', RECONCILE_INTERVAL_MS: '3600000' });
      await workersReady(dying);
      const org = await createOrg();
      const ws = await createWorkspace(org);
      await uploadConfig(ws.id, org.owner.token, { 'main.tf': slowPlanConfig(server.address) });
      await startRun(ws.id, org.owner.token, { 'plan-only': true });
      await waitFor(() => server.requests > 0, 'the plan to call the slow backend', 30_000);
      const [name] = await runWorkdirs(ours, dying.proc.pid);
      expect(name, "the plan's directory").to.be.a('string');
      await dying.stop('SIGKILL');

      // The other deployment's worker on this host sweeps its own root, never this one's.
      const theirWorker = start(['verification'], {
        ...other.env,
        TMPDIR: tmp,
        RECONCILE_INTERVAL_MS: '300',
        LOG_LEVEL: 'debug',
      });
      await sweeps(theirWorker, 3);
      expect(existsSync(join(ours, name)), "the other deployment left this one's directory").to.equal(true);
      expect((await stat(theirs)).mode & 0o777).to.equal(0o711);
      // This deployment's next worker removes it.
      start(['verification'], { TMPDIR: tmp, RECONCILE_INTERVAL_MS: '3600000' });
      await waitFor(
        () => !existsSync(join(ours, name)),
        "this deployment's worker to remove its dead worker's directory",
        15_000,
      );
    });

    it('refuses a work root another user planted as a link in the shared TMPDIR: the run errors saying why, and nothing is written where the link points', async () => {
      const tmp = await privateTmp();
      const dep = await startDeployment();
      deployments.push(dep);
      const elsewhere = await mkdtemp(join(tmpdir(), 'rls-faults-elsewhere-'));
      cleanups.push(() => rm(elsewhere, { recursive: true, force: true }));
      // The deployment's root is a predictable name: planted first, as a link to a directory of the planter's.
      await symlink(elsewhere, workRootOf({ ...dep.env, TMPDIR: tmp }));

      const w = start(['run-pipeline'], { ...dep.env, TMPDIR: tmp, RECONCILE_INTERVAL_MS: '3600000' });
      await workersReady(w);
      const org = await createOrg(undefined, dep.api);
      const token = org.owner.token;
      const ws = await createWorkspace(org, {}, dep.api);
      const cv = await uploadTo(dep, ws.id, token);
      const [runId] = await createRuns(dep, ws.id, cv, token, 1, { 'plan-only': true });
      const run = await waitFor(
        async () => {
          const res = await api('GET', `${dep.api}/runs/${runId}?include=plan`, { token });
          return ['errored', 'planned_and_finished'].includes(res.body.data.attributes.status) ? res.body : null;
        },
        'the run to end',
        60_000,
      );
      expect(run.data.attributes.status).to.equal('errored');
      const logUrl = await onTestServer(run.included[0].attributes['log-read-url'], dep.baseUrl);
      const log = await (await fetch(`${logUrl}${logUrl.includes('?') ? '&' : '?'}offset=0&limit=1048576`)).text();
      expect(log).to.match(/run directory root .* is not a directory of this process's user/);
      expect(await readdir(elsewhere)).to.deep.equal([]);
    });

    it('a run task request whose sender died after the integration called back is closed by the sweep, not left sending', async () => {
      let called = false;
      const integration: TaskIntegration = await startTaskIntegration(null, async (req) => {
        if (req.body.stage === 'test') return 200;
        // Called back at once; the answer to the request itself never comes, so its sender still waits when it dies.
        const body = req.body as { task_result_callback_url: string; access_token: string };
        const res = await callback(body.task_result_callback_url, body.access_token, { status: 'passed' });
        expect(res.status, res.text).to.equal(200);
        called = true;
        return new Promise<number>(() => undefined);
      });
      cleanups.push(() => integration.close());
      const sender = start(['run-pipeline', 'run-task-dispatch', 'verification'], {
        OUTBOUND_LEASE_SECONDS: '3',
        RECONCILE_INTERVAL_MS: '3600000',
      });
      await workersReady(sender);
      const { token, ws } = await taskSetup(integration.url, { level: 'mandatory', stages: ['post_plan'] });
      await uploadConfig(ws.id, token, { 'main.tf': 'output "ok" { value = true }\n' });
      const runId = await startRun(ws.id, token);
      await waitFor(() => called, 'the integration to call back', 60_000);
      await waitForRun(runId, token, ['planned', 'post_plan_completed'], 30_000);
      await sender.stop('SIGKILL');

      const result = await harness().rt.db('task_results').where({ run_id: runId }).first('id');
      const attempts = async () =>
        (await api('GET', `/task-results/${result.id}`, { token })).body.data.attributes['delivery-attempts'].map(
          (a: { attempt: number; state: string }) => [a.attempt, a.state],
        );
      // What the killed sender left: its attempt open, as if it still sent.
      expect(await attempts()).to.deep.equal([[1, 'in-progress']]);

      start(['deadline-expiry'], { RECONCILE_INTERVAL_MS: '1000' });
      await waitFor(
        async () => JSON.stringify(await attempts()) === JSON.stringify([[1, 'abandoned']]),
        'the attempt to be closed as abandoned',
        20_000,
      );
      expect(
        (await harness().rt.db('task_results').where({ id: result.id }).first('dispatch_status')).dispatch_status,
      ).to.equal('delivered');
      // The result had its answer: the request is not sent again.
      expect(integration.requests.filter((r) => r.body.stage === 'post_plan')).to.have.length(1);
    });
  });
});
