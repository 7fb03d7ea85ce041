import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { expect } from 'chai';
import { jobs } from '../../shared/platform/queues.js';
import { api, expectError } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { createOrg, createWorkspace, uniq } from '../helpers/fixtures.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import {
  planProcessesOf,
  runWorkdirs,
  workRootOf,
  stillRunning,
  slowPlanConfig,
  startRun,
  startSlowStateServer,
  terraformAvailable,
  uploadConfig,
  waitForRun,
  type SlowStateServer,
} from '../helpers/terraform.js';
import { startWitness, type Witness } from '../helpers/sandbox.js';

const WORKER_ENV = {
  RUN_LEASE_SECONDS: '3',
  RECONCILE_INTERVAL_MS: '1000',
  FORCE_CANCEL_COOLOFF_SECONDS: '1',
  SHUTDOWN_BUDGET_MS: '2000',
};

/** Reads a whole log through its pre-signed URL, without a token. */
async function readWholeLog(url: string): Promise<string> {
  const res = await fetch(`${url}?offset=0&limit=1048576`);
  return Buffer.from(await res.arrayBuffer()).toString('utf8');
}

async function planOf(runId: string, token: string) {
  const run = await api('GET', `/runs/${runId}?include=plan`, { token });
  return run.body.included.find((r: { type: string }) => r.type === 'plans');
}

describe('runs: cancel, force-cancel and workers dying mid-run', function () {
  this.timeout(180_000);
  const workers: WorkerProcess[] = [];
  const servers: SlowStateServer[] = [];
  let org: Awaited<ReturnType<typeof createOrg>>;

  const startWorker = async () => {
    const w = spawnWorkers(['run-pipeline', 'deadline-expiry'], WORKER_ENV);
    workers.push(w);
    await workersReady(w);
    return w;
  };
  const slowServer = async (delayMs: number) => {
    const s = await startSlowStateServer(delayMs);
    servers.push(s);
    return s;
  };
  const scratch: string[] = [];

  /**
   * Starts a worker whose Terraform is the real binary (`$tf`) except that the subcommand `step`
   * first runs the shell code `code`, and a run of a trivial configuration. The wrapper runs in
   * the run's sandbox, so it tells what happened through the witness: `mark NAME` reports NAME,
   * which `saw(NAME)` then finds; `$flags` is a directory it may write to (the run's home). Every
   * `plan` marks `plan-started`.
   */
  async function runWith(
    step: 'init' | 'show',
    code: string,
  ): Promise<{ runId: string; saw: (name: string) => boolean; worker: WorkerProcess }> {
    const dir = await mkdtemp(join(tmpdir(), 'rls-step-'));
    scratch.push(dir);
    // The sandbox's user binds the wrapper's directory read-only: it must be able to enter it.
    await chmod(dir, 0o755);
    const key = basename(dir);
    const real = execFileSync('sh', ['-c', 'command -v terraform'], { encoding: 'utf8' }).trim();
    const bin = join(dir, 'terraform');
    const mark = `mark() { curl -s --max-time 5 -X POST '${witness.url}/${key}/'"$1" >/dev/null; }`;
    const script = `#!/bin/sh\ntf='${real}' flags="$HOME"\n${mark}\n[ "$1" = plan ] && mark plan-started\nif [ "$1" = ${step} ]; then ${code}; fi\nexec "$tf" "$@"\n`;
    await writeFile(bin, script, { mode: 0o755 });
    const w = spawnWorkers(['run-pipeline'], { ...WORKER_ENV, TERRAFORM_BIN: bin });
    workers.push(w);
    await workersReady(w);
    const ws = await createWorkspace(org);
    await uploadConfig(ws.id, org.owner.token, { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' });
    return { runId: await startRun(ws.id, org.owner.token), saw: (name) => witness.saw(`/${key}/${name}`), worker: w };
  }

  let witness: Witness;

  before(async function () {
    if (!terraformAvailable()) this.skip();
    org = await createOrg();
    witness = await startWitness();
  });
  after(async () => {
    await witness?.close();
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop('SIGKILL')));
    await Promise.all(servers.splice(0).map((s) => s.close()));
    await Promise.all(scratch.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });

  it('cancels a running plan: Terraform is interrupted, stops, and the run ends canceled', async () => {
    const token = org.owner.token;
    const server = await slowServer(3000);
    const worker = await startWorker();
    const ws = await createWorkspace(org);
    await uploadConfig(ws.id, token, { 'main.tf': slowPlanConfig(server.address) });
    const runId = await startRun(ws.id, token);
    await waitForRun(runId, token, ['planning']);
    await waitFor(() => server.requests > 0, 'terraform to reach the slow backend');
    const plans = planProcessesOf(worker.proc.pid!);
    // Terraform, and the sandbox processes whose command line carries its arguments.
    expect(plans).to.not.be.empty;

    expect((await api('POST', `/runs/${runId}/actions/cancel`, { token, body: {} })).status).to.equal(202);
    const run = await waitForRun(runId, token, ['canceled', 'errored']);
    expect(run.attributes.status).to.equal('canceled');
    expect(stillRunning(plans)).to.equal(0);
    const plan = await planOf(runId, token);
    expect(plan.attributes.status).to.equal('canceled');
    const log = await readWholeLog(plan.attributes['log-read-url']);
    expect(log.charCodeAt(0)).to.equal(2);
    expect(log.charCodeAt(log.length - 1)).to.equal(3);
    expectError(await api('POST', `/runs/${runId}/actions/cancel`, { token, body: {} }), 409);
  });

  it('force-cancels a plan that does not stop on interrupt: only after cancel and its cool-off; the process is killed', async () => {
    const token = org.owner.token;
    const server = await slowServer(120_000);
    const worker = await startWorker();
    const ws = await createWorkspace(org);
    await uploadConfig(ws.id, token, { 'main.tf': slowPlanConfig(server.address) });
    const runId = await startRun(ws.id, token);
    await waitForRun(runId, token, ['planning']);
    await waitFor(() => server.requests > 0, 'terraform to reach the slow backend');
    const plans = planProcessesOf(worker.proc.pid!);
    // Terraform, and the sandbox processes whose command line carries its arguments.
    expect(plans).to.not.be.empty;

    expectError(await api('POST', `/runs/${runId}/actions/force-cancel`, { token, body: {} }), 409);
    expect((await api('POST', `/runs/${runId}/actions/cancel`, { token })).status).to.equal(202);
    const requested = await api('GET', `/runs/${runId}`, { token });
    expect(requested.body.data.attributes.status).to.equal('planning');
    expect(requested.body.data.attributes['force-cancel-available-at']).to.match(/Z$/);
    expectError(await api('POST', `/runs/${runId}/actions/force-cancel`, { token, body: {} }), 409);

    await waitFor(
      async () => (await api('GET', `/runs/${runId}`, { token })).body.data.attributes.actions['is-force-cancelable'],
      'force-cancel to become available',
    );
    expect(
      (await api('POST', `/runs/${runId}/actions/force-cancel`, { token, body: { comment: 'stuck' } })).status,
    ).to.equal(202);
    expect((await api('GET', `/runs/${runId}`, { token })).body.data.attributes.status).to.equal('force_canceled');
    await waitFor(() => server.abandoned > 0 && stillRunning(plans) === 0, 'the terraform process to be killed');
    const events = await api('GET', `/runs/${runId}/run-events`, { token });
    expect(events.body.data.map((e: { attributes: { action: string } }) => e.attributes.action)).to.include.members([
      'cancel_requested',
      'force_cancel',
    ]);
  });

  it('errors a run whose `terraform show -json` fails after a successful plan, recording none of what the plan began to record', async () => {
    const token = org.owner.token;
    // As on a corrupt plan file.
    const { runId } = await runWith('show', `echo 'plan file unreadable' >&2; exit 1`);
    const run = await waitForRun(runId, token, ['planned', 'errored']);
    expect(run.attributes.status).to.equal('errored');
    expect(run.attributes['error-message']).to.equal('the plan could not be run');
    const events = await api('GET', `/runs/${runId}/run-events`, { token });
    expect(events.body.data.map((e: { attributes: { action: string } }) => e.attributes.action)).to.deep.equal([
      'created',
      'queue_plan',
      'start_plan',
      'error',
    ]);
    const plan = await planOf(runId, token);
    expect(plan.attributes.status).to.equal('errored');
    const log = await readWholeLog(plan.attributes['log-read-url']);
    expect(log).to.include('Plan: 1 to add');
    expect(log).to.include('terraform show failed: plan file unreadable');
    expect(log.charCodeAt(log.length - 1)).to.equal(3);
    expect(log.split('\u0003')).to.have.length(2);
    const row = await harness().rt.db('plans').where({ run_id: runId }).first();
    expect([row.file_object_id, row.json_object_id, row.has_changes]).to.deep.equal([null, null, null]);
    expect((await harness().rt.db('runs').where({ id: runId }).first()).lease_owner).to.equal(null);
  });

  it('keeps its lease on the run while `terraform show -json` runs after the plan, under an owner of its own', async () => {
    const token = org.owner.token;
    // Longer than the lease (RUN_LEASE_SECONDS=3): only renewals keep it.
    const { runId, saw } = await runWith('show', `mark show-started; sleep 5`);
    await waitFor(() => saw('show-started'), 'show to start');
    const samples: { status: string; lease_owner: string | null; held: boolean }[] = [];
    for (let i = 0; i < 8; i++) {
      const { rows } = await harness().rt.db.raw(
        'select status, lease_owner, lease_until > now() as held from runs where id = ?',
        [runId],
      );
      samples.push(rows[0]);
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(
      samples.every((s) => s.status === 'planning' && s.held),
      JSON.stringify(samples),
    ).to.equal(true);
    expect(samples[0].lease_owner).to.match(/^[^/]+:\d+\/[0-9a-f]{12}$/);
    expect((await waitForRun(runId, token, ['planned', 'errored'])).attributes.status).to.equal('planned');
    expect((await harness().rt.db('runs').where({ id: runId }).first()).lease_owner).to.equal(null);
  });

  it('takes a cancel request while `terraform show -json` still runs after the plan (nothing holds the run meanwhile) and cancels the run when show ends', async () => {
    const token = org.owner.token;
    // Show says when it starts and ends, and takes a few seconds.
    const { runId, saw } = await runWith(
      'show',
      `mark show-started; sleep 4; "$tf" "$@"; code=$?; mark show-ended; exit $code`,
    );
    await waitFor(() => saw('show-started'), 'show to start');
    const res = await api('POST', `/runs/${runId}/actions/cancel`, { token, body: {} });
    expect(res.status, res.text).to.equal(202);
    expect(saw('show-ended'), 'the cancel waited for show').to.equal(false);
    const run = await waitForRun(runId, token, ['planned', 'canceled', 'errored']);
    expect(run.attributes.status).to.equal('canceled');
    expect(saw('show-ended'), 'show ran to its end').to.equal(true);
    const events = await api('GET', `/runs/${runId}/run-events`, { token });
    expect(events.body.data.map((e: { attributes: { action: string } }) => e.attributes.action)).to.deep.equal([
      'created',
      'queue_plan',
      'start_plan',
      'cancel_requested',
      'cancel',
    ]);
    const row = await harness()
      .rt.db('runs')
      .where({ id: runId })
      .first('cancel_requested_at', 'force_cancel_available_at', 'lease_owner');
    expect(row).to.deep.equal({ cancel_requested_at: null, force_cancel_available_at: null, lease_owner: null });
    const plan = await planOf(runId, token);
    expect(plan.attributes.status).to.equal('finished');
    const log = await readWholeLog(plan.attributes['log-read-url']);
    expect(log.charCodeAt(log.length - 1), 'the log is closed').to.equal(3);
  });

  it('cancels a run during init: an interrupt that init survives still keeps the plan from starting', async () => {
    const token = org.owner.token;
    // Init announces itself, notes the interrupt, waits for it, and then runs the real init to success.
    const { runId, saw, worker } = await runWith(
      'init',
      `trap 'touch "$flags/interrupted"; mark interrupted' INT; mark init-started; while [ ! -e "$flags/interrupted" ]; do sleep 0.1; done; trap - INT`,
    );
    await waitFor(() => saw('init-started'), 'init to start');
    await waitForRun(runId, token, ['planning']);
    const res = await api('POST', `/runs/${runId}/actions/cancel`, { token, body: {} });
    expect(res.status, res.text).to.equal(202);
    const run = await waitForRun(runId, token, ['planned', 'canceled', 'errored']);
    expect(run.attributes.status).to.equal('canceled');
    expect(saw('interrupted'), 'init was interrupted').to.equal(true);
    expect(saw('plan-started'), 'the plan never started').to.equal(false);
    expect((await planOf(runId, token)).attributes.status).to.equal('canceled');
    expect(planProcessesOf(worker.proc.pid!)).to.have.length(0);
  });

  it('finishes a plan whose worker was killed mid-plan, once another worker takes over', async () => {
    const token = org.owner.token;
    const server = await slowServer(2500);
    const first = await startWorker();
    const ws = await createWorkspace(org);
    await uploadConfig(ws.id, token, { 'main.tf': slowPlanConfig(server.address) });
    const runId = await startRun(ws.id, token);
    await waitForRun(runId, token, ['planning']);
    await waitFor(() => server.requests > 0, 'terraform to reach the slow backend');
    await first.stop('SIGKILL');

    await startWorker();
    const run = await waitForRun(runId, token, ['planned', 'errored', 'canceled'], 90_000);
    expect(run.attributes.status).to.equal('planned');
    expect(run.attributes['has-changes']).to.equal(true);
    const plan = await planOf(runId, token);
    expect(plan.attributes.status).to.equal('finished');
    const log = await readWholeLog(plan.attributes['log-read-url']);
    expect(log).to.include('planning again');
    expect(log).to.include('Plan: 1 to add');
    expect((await harness().rt.db('plans').where({ run_id: runId }).first()).attempts).to.equal(2);
  });

  it('a second plan job for a run that is planning starts init before its claim, then stops it and removes its directory', async () => {
    const token = org.owner.token;
    const tmp = await mkdtemp(join(tmpdir(), 'rls-worker-tmp-'));
    // Sandboxes enter their run's directory through it (each run's own directory is private).
    await chmod(tmp, 0o711);
    try {
      // Both of the process's slots open to the one organization, so the duplicate runs alongside.
      const w = spawnWorkers(['run-pipeline'], { ...WORKER_ENV, TMPDIR: tmp, RUN_SLOTS_PER_ORGANIZATION: '2' });
      workers.push(w);
      await workersReady(w);
      const server = await slowServer(2500);
      const ws = await createWorkspace(org);
      await uploadConfig(ws.id, token, { 'main.tf': slowPlanConfig(server.address) });
      const runId = await startRun(ws.id, token);
      await waitForRun(runId, token, ['planning']);
      await waitFor(() => server.requests > 0, 'terraform to reach the slow backend');
      const workdirs = () => runWorkdirs(workRootOf({ TMPDIR: tmp }));
      expect(await workdirs()).to.have.length(1);

      // The same step again under another job id, as a duplicate delivery would bring it.
      const spec = jobs.runStep(runId, 'plan');
      const duplicate = await harness().rt.queues[spec.queue].add(spec.name, spec.data, {
        jobId: `${spec.jobId}-again`,
      });
      await waitFor(async () => (await duplicate.getState()) === 'completed', 'the duplicate job to finish');
      expect(await workdirs(), 'only the first job keeps a directory').to.have.length(1);

      const run = await waitForRun(runId, token, ['planned', 'errored'], 60_000);
      expect(run.attributes.status).to.equal('planned');
      expect((await harness().rt.db('plans').where({ run_id: runId }).first()).attempts).to.equal(1);
      const events = await api('GET', `/runs/${runId}/run-events`, { token });
      expect(
        events.body.data.filter((e: { attributes: { action: string } }) => e.attributes.action === 'start_plan'),
      ).to.have.length(1);
      await waitFor(async () => (await workdirs()).length === 0, 'the first job to remove its directory');
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  });

  it('errors an apply whose saved plan is missing, saying so in the apply log, and removes its directory', async () => {
    const token = org.owner.token;
    await startWorker();
    const ws = await createWorkspace(org);
    await uploadConfig(ws.id, token, { 'main.tf': `resource "terraform_data" "a" { input = "${uniq('x')}" }\n` });
    const runId = await startRun(ws.id, token);
    await waitForRun(runId, token, ['planned']);
    await harness().rt.db('plans').where({ run_id: runId }).update({ file_object_id: null });
    const dirsBefore = new Set(await runWorkdirs(workRootOf()));

    expect((await api('POST', `/runs/${runId}/actions/apply`, { token, body: {} })).status).to.equal(202);
    const run = await waitForRun(runId, token, ['errored', 'applied']);
    expect(run.attributes.status).to.equal('errored');
    expect(run.attributes['error-message']).to.equal('the apply could not be run');
    const res = await api('GET', `/runs/${runId}?include=apply`, { token });
    const apply = res.body.included.find((r: { type: string }) => r.type === 'applies');
    expect(apply.attributes.status).to.equal('errored');
    expect(await readWholeLog(apply.attributes['log-read-url'])).to.include('Error: the saved plan is missing');
    expect((await harness().rt.db('runs').where({ id: runId }).first()).lease_owner).to.equal(null);
    await waitFor(
      async () => (await runWorkdirs(workRootOf())).every((d) => dirsBefore.has(d)),
      'the apply directory to be removed',
    );
  });

  /**
   * A run-pipeline worker keeping refused states in a scratch directory, and a planned run on a
   * new workspace whose state versions PostgreSQL refuses: every insert, or only the first (a
   * sequence counts them: a refused transaction does not roll it back). Undone by `cleanup`.
   */
  async function refusedStates(refuse: 'always' | 'once') {
    const token = org.owner.token;
    const recovery = await mkdtemp(join(tmpdir(), 'rls-recovery-'));
    scratch.push(recovery);
    const w = spawnWorkers(['run-pipeline'], { ...WORKER_ENV, STATE_RECOVERY_DIR: recovery });
    workers.push(w);
    await workersReady(w);
    const ws = await createWorkspace(org);
    const db = harness().rt.db;
    const fn = `refuse_state_${ws.id.replace(/[^A-Za-z0-9]/g, '_').toLowerCase()}`;
    await db.raw(`create sequence ${fn}`);
    const when = refuse === 'once' ? `nextval('${fn}') = 1` : 'true';
    await db.raw(
      `create function ${fn}() returns trigger language plpgsql as $$ begin if ${when} then raise exception 'no room for this state'; end if; return new; end $$`,
    );
    await db.raw(
      `create trigger ${fn} before insert on state_versions for each row when (new.workspace_id = '${ws.id}') execute function ${fn}()`,
    );
    const cleanup = async () => {
      await db.raw(`drop trigger if exists ${fn} on state_versions`);
      await db.raw(`drop function if exists ${fn}()`);
      await db.raw(`drop sequence if exists ${fn}`);
    };
    try {
      await uploadConfig(ws.id, token, { 'main.tf': `resource "terraform_data" "a" { input = "${uniq('x')}" }\n` });
      const runId = await startRun(ws.id, token);
      await waitForRun(runId, token, ['planned']);
      return { token, recovery, ws, runId, counter: fn, cleanup };
    } catch (err) {
      await cleanup();
      throw err;
    }
  }

  it("keeps the state an apply wrote on the worker's disk when the database refuses it, and says where in the apply log", async () => {
    const { token, recovery, ws, runId, cleanup } = await refusedStates('always');
    try {
      expect((await api('POST', `/runs/${runId}/actions/apply`, { token, body: {} })).status).to.equal(202);
      const run = await waitForRun(runId, token, ['errored', 'applied']);
      expect(run.attributes.status).to.equal('errored');
      const kept = (await readdir(recovery)).filter((f) => f.startsWith(`${runId}-`) && f.endsWith('.tfstate'));
      expect(kept).to.have.length(1);
      const path = join(recovery, kept[0]);
      // The run's error says where the state is, and the workspace waits until it is pushed.
      expect(run.attributes['error-message']).to.include(`It was kept at ${path}`).and.include('terraform state push');
      const locked = (await api('GET', `/workspaces/${ws.id}`, { token })).body.data;
      expect(locked.relationships['locked-by'].data).to.deep.equal({ type: 'runs', id: runId });
      expect((await stat(path)).mode & 0o777).to.equal(0o600);
      const state = JSON.parse(await readFile(path, 'utf8'));
      expect(state.resources.map((r: { type: string }) => r.type)).to.deep.equal(['terraform_data']);

      const res = await api('GET', `/runs/${runId}?include=apply`, { token });
      const apply = res.body.included.find((r: { type: string }) => r.type === 'applies');
      const log = await readWholeLog(apply.attributes['log-read-url']);
      expect(log).to.include('Apply complete!');
      expect(log).to.include(`could not be stored (database error P0001). It was kept at ${path}`);
      expect(log).to.include('terraform state push');
      expect(log).to.not.include('no room for this state');
      expectError(await api('GET', `/workspaces/${ws.id}/current-state-version`, { token }), 404);
    } finally {
      await cleanup();
    }
  });

  it('stores the state of an apply on a second attempt when the database refuses the first', async () => {
    const { token, recovery, ws, runId, counter, cleanup } = await refusedStates('once');
    try {
      expect((await api('POST', `/runs/${runId}/actions/apply`, { token, body: {} })).status).to.equal(202);
      expect((await waitForRun(runId, token, ['errored', 'applied'])).attributes.status).to.equal('applied');
      const sv = await api('GET', `/workspaces/${ws.id}/current-state-version`, { token });
      expect(sv.status, sv.text).to.equal(200);
      expect((await harness().rt.db.raw(`select last_value from ${counter}`)).rows[0].last_value).to.equal(2);
      expect(await readdir(recovery)).to.deep.equal([]);
    } finally {
      await cleanup();
    }
  });

  it('fails, rather than repeats, an apply whose worker was killed mid-apply', async () => {
    const token = org.owner.token;
    const first = await startWorker();
    const ws = await createWorkspace(org);
    await uploadConfig(ws.id, token, {
      'main.tf': `resource "terraform_data" "slow" {\n  input = "${uniq('x')}"\n  provisioner "local-exec" { command = "sleep 8" }\n}\n`,
    });
    const runId = await startRun(ws.id, token);
    await waitForRun(runId, token, ['planned']);
    expect((await api('POST', `/runs/${runId}/actions/apply`, { token, body: {} })).status).to.equal(202);
    await waitForRun(runId, token, ['applying']);
    await waitFor(
      async () => (await harness().rt.db('applies').where({ run_id: runId }).first()).started_at,
      'the apply start to be recorded',
    );
    await first.stop('SIGKILL');

    await startWorker();
    const run = await waitForRun(runId, token, ['errored', 'applied'], 90_000);
    expect(run.attributes.status).to.equal('errored');
    expect(run.attributes['error-message']).to.match(/stopped unexpectedly.*not started again/);
    const events = await api('GET', `/runs/${runId}/run-events`, { token });
    expect(
      events.body.data.filter((e: { attributes: { action: string } }) => e.attributes.action === 'start_apply'),
    ).to.have.length(1);
  });
});
