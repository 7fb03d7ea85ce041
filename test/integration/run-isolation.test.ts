import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { createCv, createOrg, createWorkspace, putArchive, tarGz } from '../helpers/fixtures.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import {
  startRun,
  startSlowStateServer,
  slowPlanConfig,
  terraformAvailable,
  uploadConfig,
  waitForRun,
  type SlowStateServer,
} from '../helpers/terraform.js';
import { readWholeLog } from '../helpers/module-tests.js';
import { createPolicy, createPolicySet, linkages, uploadCode } from '../helpers/policy-fixtures.js';
import { sandboxHost, startWitness, type Witness } from '../helpers/sandbox.js';

type Org = Awaited<ReturnType<typeof createOrg>>;

/** The log of a run's plan or apply, through its signed URL. */
async function phaseLog(runId: string, token: string, phase: 'plan' | 'apply'): Promise<string> {
  const run = await api('GET', `/runs/${runId}?include=${phase}`, { token });
  const row = run.body.included.find((r: { type: string }) => r.type === (phase === 'plan' ? 'plans' : 'applies'));
  return readWholeLog(row.attributes['log-read-url']);
}

/** Creates a workspace, uploads `files` and starts a run; returns the run id and the workspace id. */
async function runOf(
  org: Org,
  files: Record<string, string>,
  attrs: Record<string, unknown> = {},
  wsAttrs: Record<string, unknown> = {},
) {
  const ws = await createWorkspace(org, wsAttrs);
  await uploadConfig(ws.id, org.owner.token, files);
  return { runId: await startRun(ws.id, org.owner.token, attrs), workspaceId: ws.id };
}

/** A configuration of one resource, `name`, whose local-exec provisioner runs `command` when applied. */
const localExec = (name: string, command: string) => ({
  'main.tf': `resource "terraform_data" "${name}" {\n  provisioner "local-exec" {\n    command = "${command}"\n  }\n}\n`,
});

const ROOT = process.getuid?.() === 0;

describe('run isolation: what a hostile configuration can reach', function () {
  this.timeout(120_000);
  let witness: Witness;
  let worker: WorkerProcess | undefined;
  const servers: SlowStateServer[] = [];

  /** One worker at a time (each test chooses its settings), on the run pipeline. */
  const startWorker = async (env: Record<string, string> = {}) => {
    await worker?.stop('SIGKILL');
    worker = spawnWorkers(['run-pipeline'], env);
    await workersReady(worker);
    return worker;
  };
  /** A worker whose runs may not reach this host at all (no allow-list): the production default. */
  const hostileWorld = () => startWorker({ RUN_NETWORK_ALLOWED_CIDRS: '' });

  before(async function () {
    if (!terraformAvailable()) this.skip();
    witness = await startWitness();
  });
  afterEach(async () => {
    // Killed, not stopped: a worker waits for its phases on SIGTERM, and some tests leave one
    // waiting on a server that never answers. Its sandboxes die with it.
    await worker?.stop('SIGKILL');
    worker = undefined;
  });
  after(async () => {
    await witness?.close();
    for (const s of servers) await s.close();
  });

  it("a plan cannot read the worker's environment, working directory or key file: nothing of the service appears in the log", async () => {
    const w = await hostileWorld();
    const pid = w.proc.pid!;
    const org = await createOrg();
    const targets = {
      worker_environ: `/proc/${pid}/environ`,
      worker_key: `/proc/${pid}/cwd/.data/encryption.key`,
      worker_cmdline: `/proc/${pid}/cmdline`,
      api_environ: `/proc/${process.pid}/environ`,
      key_by_path: join(process.cwd(), '.data', 'encryption.key'),
      service_file: join(process.cwd(), 'package.json'),
      host_file: '/etc/hostname',
      init_environ: '/proc/1/environ',
    };
    const outputs = Object.entries(targets).map(
      ([name, path]) => `output "${name}" { value = try(file("${path}"), "unreadable") }`,
    );
    // A positive control: the sandbox's own environment is readable, so file() did run.
    outputs.push('output "own_environ" { value = try(file("/proc/self/environ"), "unreadable") }');
    const { runId } = await runOf(org, { 'main.tf': outputs.join('\n') + '\n' }, { 'plan-only': true });
    const run = await waitForRun(runId, org.owner.token, ['planned_and_finished', 'errored']);
    expect(run.attributes.status).to.equal('planned_and_finished');
    const log = await phaseLog(runId, org.owner.token, 'plan');
    expect(log).to.include('TF_IN_AUTOMATION');
    for (const name of [
      'worker_environ',
      'worker_key',
      'worker_cmdline',
      'api_environ',
      'key_by_path',
      'service_file',
      'host_file',
    ])
      expect(log).to.match(new RegExp(`\\+ ${name}\\s+= "unreadable"`));
    const h = harness();
    for (const secret of [
      h.childEnv.DATABASE_URL!,
      h.childEnv.ENCRYPTION_KEY!,
      h.adminToken,
      h.childEnv.REDIS_URL!,
      h.childEnv.QUEUE_PREFIX!,
    ])
      expect(log).not.to.include(secret);
    expect(log).not.to.match(/DATABASE_URL|ENCRYPTION_KEY|SITE_ADMIN_TOKEN|REDIS_URL|QUEUE_PREFIX/);
    const shown = await api('GET', `/runs/${runId}`, { token: org.owner.token });
    expect(shown.text).not.to.include(h.childEnv.DATABASE_URL!);
  });

  it('terraform_remote_state over http cannot reach this host (loopback, the user-mode gateway, its own address) or link-local metadata', async () => {
    await hostileWorld();
    const org = await createOrg();
    const host = sandboxHost();
    const targets = [
      `http://127.0.0.1:${witness.port}/loopback`,
      `http://10.0.2.2:${witness.port}/gateway`,
      `http://${host}:${witness.port}/host`,
      'http://169.254.169.254/latest/meta-data',
    ];
    for (const address of targets) {
      const { runId } = await runOf(org, { 'main.tf': slowPlanConfig(address) }, { 'plan-only': true });
      const run = await waitForRun(runId, org.owner.token, ['planned_and_finished', 'errored']);
      expect(run.attributes.status, address).to.equal('errored');
      expect(await phaseLog(runId, org.owner.token, 'plan'), address).to.match(/Error/);
    }
    expect(witness.sightings, 'no request reached this host').to.deep.equal([]);

    // The same request from a worker that allow-lists this host's address does arrive: the attack was real.
    await startWorker({ RUN_NETWORK_ALLOWED_CIDRS: `${host}/32` });
    const { runId } = await runOf(
      org,
      { 'main.tf': slowPlanConfig(`http://${host}:${witness.port}/allowed`) },
      { 'plan-only': true },
    );
    await waitForRun(runId, org.owner.token, ['planned_and_finished', 'errored']);
    expect(witness.saw('/allowed')).to.equal(true);
  });

  it("local-exec runs as the sandbox's unprivileged user and cannot write outside the run's directory (the root and /dev are read-only)", async () => {
    await startWorker();
    const org = await createOrg();
    const marker = `rlsiso${randomBytes(5).toString('hex')}`;
    const hostTmp = join(tmpdir(), `${marker}-tmp`);
    const hostRepo = join(process.cwd(), `${marker}-repo`);
    const command = [
      'echo uid=$(id -u) gid=$(id -g)',
      `touch /etc/${marker} 2>/dev/null || echo cannot-write-etc`,
      `touch /${marker} 2>/dev/null || echo cannot-write-root`,
      `touch /dev/${marker} 2>/dev/null || echo cannot-write-dev`,
      `touch ${hostRepo} 2>/dev/null || echo cannot-write-repo`,
      `touch ${hostTmp} && echo wrote-private-tmp`,
      'touch here && echo wrote-run-directory',
    ].join('; ');
    const { runId } = await runOf(org, localExec('probe', command), {}, { 'auto-apply': true });
    const run = await waitForRun(runId, org.owner.token, ['applied', 'errored']);
    expect(run.attributes.status).to.equal('applied');
    const log = await phaseLog(runId, org.owner.token, 'apply');
    const uid = Number(/uid=(\d+)/.exec(log)?.[1]);
    expect(uid, log).to.be.a('number').and.not.equal(0);
    if (ROOT) expect(uid).to.be.at.least(600000);
    expect(log)
      .to.include('cannot-write-etc')
      .and.include('cannot-write-root')
      .and.include('cannot-write-dev')
      .and.include('cannot-write-repo')
      .and.include('wrote-private-tmp')
      .and.include('wrote-run-directory');
    expect(existsSync(hostTmp), "the sandbox's /tmp is its own").to.equal(false);
    expect(existsSync(hostRepo)).to.equal(false);
    expect(existsSync(`/etc/${marker}`)).to.equal(false);
    await rm(hostTmp, { force: true });
  });

  it("a run's programs are scheduled SCHED_IDLE and cannot leave it; RUN_CPU_SCHEDULING=normal keeps the worker's priority", async () => {
    // What a configuration sees of its own scheduling, and what it gets when it asks for the
    // normal policy back (`chrt -p 0`: the policy of chrt itself, a child of the command's shell).
    const command = 'chrt -p 0; chrt --other 0 chrt -p 0 2>&1 || echo refused-normal';
    const policyLog = async () => {
      const org = await createOrg();
      const { runId } = await runOf(org, localExec('probe', command), {}, { 'auto-apply': true });
      const run = await waitForRun(runId, org.owner.token, ['applied', 'errored']);
      expect(run.attributes.status).to.equal('applied');
      return phaseLog(runId, org.owner.token, 'apply');
    };
    await startWorker();
    const idle = await policyLog();
    expect(idle, idle).to.include('current scheduling policy: SCHED_IDLE').and.include('refused-normal');
    expect(idle).not.to.include('SCHED_OTHER');
    await startWorker({ RUN_CPU_SCHEDULING: 'normal' });
    const normal = await policyLog();
    expect(normal, normal).to.include('current scheduling policy: SCHED_OTHER');
    expect(normal).not.to.include('SCHED_IDLE');
  });

  it('the sandbox a worker starts ahead serves one phase: a fresh directory and user, nothing of the run before it', async () => {
    const w = await startWorker();
    const org = await createOrg();
    // What the plan itself sees: its directory, its user, the files beside its configuration.
    const probe =
      [
        'output "root" { value = abspath(path.root) }',
        'output "uid" { value = regex("Uid:\\\\s+(\\\\d+)", file("/proc/self/status"))[0] }',
        'output "files" { value = join(",", sort(fileset(path.root, "**"))) }',
      ].join('\n') + '\n';
    const seen = async (files: Record<string, string>) => {
      const { runId } = await runOf(org, files, { 'plan-only': true });
      const run = await waitForRun(runId, org.owner.token, ['planned_and_finished', 'errored']);
      expect(run.attributes.status).to.equal('planned_and_finished');
      const log = await phaseLog(runId, org.owner.token, 'plan');
      const value = (name: string) => new RegExp(`\\+ ${name}\\s+= "([^"]*)"`).exec(log)?.[1] ?? '';
      return { root: value('root'), uid: value('uid'), files: value('files').split(',') };
    };
    const first = await seen({ 'main.tf': probe, 'first-only.txt': 'left behind?\n' });
    expect(first.files).to.include('first-only.txt');
    // Once the first phase is over, one sandbox waits on an empty directory of the worker's.
    const tmp = dirname(dirname(first.root));
    const ahead = await waitFor(async () => {
      const mine = (await readdir(tmp)).filter((name) => name.startsWith(`rls-run-${w.proc.pid}-`));
      return mine.length === 1 && !first.root.startsWith(join(tmp, mine[0])) ? join(tmp, mine[0]) : undefined;
    }, 'a sandbox started ahead');
    const second = await seen({ 'main.tf': probe });
    expect(dirname(second.root), 'the second phase ran in the directory made ahead').to.equal(ahead);
    expect(second.root).not.to.equal(first.root);
    expect(second.files).not.to.include('first-only.txt');
    if (ROOT) expect(second.uid).not.to.equal(first.uid);
  });

  it("one run cannot see another's directory while both run, and each directory is private to its own user", async () => {
    await startWorker();
    const [a, b] = [await createOrg(), await createOrg()];
    const secret = `rlssecret${randomBytes(6).toString('hex')}`;
    const aCommand = `echo ${secret} > secret.txt; ${witness.report(`/${secret}/a-ready`, 'pwd')}; sleep 15`;
    const first = await runOf(a, localExec('a', aCommand), {}, { 'auto-apply': true });
    await waitFor(() => witness.saw(`/${secret}/a-ready`), 'the first run to write its secret', 60_000);

    // It looks where run directories are on the host: its own directory's parent (its deployment's work root), and /tmp (no quotes: the command is an HCL string).
    const look =
      'pwd; root=$(dirname $(dirname $PWD)); ls -d $root/rls-run-* 2>&1; ls -a /tmp 2>&1; cat $root/rls-run-*/config/secret.txt 2>&1';
    const bCommand = `${witness.report(`/${secret}/b-saw`, look)}; sleep 5`;
    const second = await runOf(b, localExec('b', bCommand), {}, { 'auto-apply': true });
    await waitFor(() => witness.saw(`/${secret}/b-saw`), 'the second run to look around', 60_000);
    const seen = witness.sightings.find((s) => s.path === `/${secret}/b-saw`)!.body;
    expect(
      seen.match(/\/rls-run-[A-Za-z0-9-]+/g)?.filter((v, i, all) => all.indexOf(v) === i),
      seen,
    ).to.have.length(1);
    expect(seen).not.to.include(secret);
    expect(seen).to.include('No such file');
    expect((await api('GET', `/runs/${first.runId}`, { token: a.owner.token })).body.data.attributes.status).to.equal(
      'applying',
    );

    // Both are running now: on the host, each run's directory is private (0700), and with a root
    // worker each belongs to a user of its own, neither of them root.
    const roots = [witness.sightings.find((s) => s.path === `/${secret}/a-ready`)!.body, seen.split('\n')[0]].map(
      (cwd) => dirname(cwd.trim()),
    );
    expect(roots[0]).not.to.equal(roots[1]);
    const stats = await Promise.all(roots.map((r) => stat(r)));
    for (const st of stats) expect(st.mode & 0o777).to.equal(0o700);
    if (ROOT) {
      expect(stats[0].uid).not.to.equal(stats[1].uid);
      expect(stats.map((st) => st.uid)).not.to.include(0);
    }
    await waitForRun(first.runId, a.owner.token, ['applied']);
    await waitForRun(second.runId, b.owner.token, ['applied']);
  });

  it('a plan that never ends is stopped at the plan time limit and the run errors, saying why', async () => {
    await startWorker({ RUN_PLAN_TIMEOUT_SECONDS: '3', RUN_TIMEOUT_GRACE_SECONDS: '2' });
    const server = await startSlowStateServer(600_000);
    servers.push(server);
    const org = await createOrg();
    const { runId } = await runOf(org, { 'main.tf': slowPlanConfig(server.address) }, { 'plan-only': true });
    await waitFor(() => server.requests > 0, 'the plan to call the slow backend', 30_000);
    const run = await waitForRun(runId, org.owner.token, ['errored', 'planned_and_finished', 'canceled'], 30_000);
    expect(run.attributes.status).to.equal('errored');
    expect(await phaseLog(runId, org.owner.token, 'plan')).to.match(
      /exceeded its time limit of 3 seconds \(RUN_PLAN_TIMEOUT_SECONDS\)/,
    );
    await waitFor(() => server.abandoned > 0, 'Terraform to give up the request (its sandbox is gone)');
  });

  it('cancel interrupts a sandboxed plan: Terraform inside sees the interrupt and the run ends canceled within seconds', async () => {
    await startWorker();
    // The backend answers after 4 s: a plan the interrupt did not reach would then finish.
    const server = await startSlowStateServer(4_000);
    servers.push(server);
    const org = await createOrg();
    const { runId } = await runOf(org, { 'main.tf': slowPlanConfig(server.address) }, { 'plan-only': true });
    await waitFor(() => server.requests > 0, 'the plan to call the slow backend', 30_000);
    const asked = Date.now();
    expect((await api('POST', `/runs/${runId}/actions/cancel`, { token: org.owner.token, body: {} })).status).to.equal(
      202,
    );
    const run = await waitForRun(runId, org.owner.token, ['canceled', 'errored', 'planned_and_finished'], 20_000);
    expect(run.attributes.status).to.equal('canceled');
    expect(Date.now() - asked).to.be.below(10_000);
    expect(await phaseLog(runId, org.owner.token, 'plan')).to.include('Interrupt received');
  });

  it("one organization's slow speculative runs leave a slot for another organization's run", async () => {
    await startWorker({ RUN_CONCURRENCY: '2' });
    const server = await startSlowStateServer(600_000);
    servers.push(server);
    const [busy, other] = [await createOrg(), await createOrg()];
    const ws = await createWorkspace(busy);
    await uploadConfig(ws.id, busy.owner.token, { 'main.tf': slowPlanConfig(server.address) });
    const slow: string[] = [];
    for (let i = 0; i < 4; i++) slow.push(await startRun(ws.id, busy.owner.token, { 'plan-only': true }));
    await waitFor(() => server.requests > 0, 'the first slow plan to start', 30_000);

    const { runId } = await runOf(other, { 'main.tf': 'output "ok" { value = true }\n' }, { 'plan-only': true });
    const done = await waitForRun(runId, other.owner.token, ['planned_and_finished', 'errored'], 20_000);
    expect(done.attributes.status).to.equal('planned_and_finished');
    const statuses = await Promise.all(
      slow.map(
        async (id) => (await api('GET', `/runs/${id}`, { token: busy.owner.token })).body.data.attributes.status,
      ),
    );
    expect(
      statuses.filter((s) => s === 'planning'),
      statuses.join(','),
    ).to.have.length(1);
    // The waiting ones are canceled at once; the planning one goes with its worker (see afterEach).
    for (const id of slow) await api('POST', `/runs/${id}/actions/cancel`, { token: busy.owner.token, body: {} });
  });

  it("caps a workspace's unfinished speculative runs: one more is refused with 409, through the API and through an upload", async () => {
    // No worker: the runs wait in plan_queued.
    const org = await createOrg();
    const ws = await createWorkspace(org);
    const uploaded = await uploadConfig(ws.id, org.owner.token, { 'main.tf': 'output "ok" { value = true }\n' });
    const max = harness().config.maxQueuedSpeculativeRuns;
    for (let i = 0; i < max; i++) await startRun(ws.id, org.owner.token, { 'plan-only': true });
    const refused = await api('POST', '/runs', {
      token: org.owner.token,
      body: doc('runs', { 'plan-only': true }, { workspace: { data: { type: 'workspaces', id: ws.id } } }),
    });
    expectError(refused, 409, /MAX_QUEUED_SPECULATIVE_RUNS/);
    const cv = await createCv(ws.id, org.owner.token, { speculative: true });
    const put = await putArchive(cv.uploadUrl, await tarGz({ 'main.tf': 'output "ok" { value = 1 }\n' }));
    expect(put.status, put.text).to.equal(409);
    const runs = await api('GET', `/workspaces/${ws.id}/runs?page[size]=100`, { token: org.owner.token });
    expect(runs.body.data).to.have.length(max);
    // A non-speculative run is not capped by it (of the uploaded version: the refused one, still
    // pending, became the workspace's current version when it was created).
    const real = await api('POST', '/runs', {
      token: org.owner.token,
      body: doc(
        'runs',
        {},
        {
          workspace: { data: { type: 'workspaces', id: ws.id } },
          'configuration-version': { data: { type: 'configuration-versions', id: uploaded } },
        },
      ),
    });
    expect(real.status, real.text).to.equal(201);
    // Leave nothing queued for the suites after this one.
    for (const r of [...runs.body.data, real.body.data])
      await api('POST', `/runs/${r.id}/actions/cancel`, { token: org.owner.token, body: {} });
  });

  it('refuses an archive with more entries than MAX_ARCHIVE_ENTRIES when the run unpacks it', async () => {
    await startWorker({ MAX_ARCHIVE_ENTRIES: '20' });
    const org = await createOrg();
    const files: Record<string, string> = { 'main.tf': 'output "ok" { value = true }\n' };
    for (let i = 0; i < 30; i++) files[`empty-${i}.txt`] = '';
    const { runId } = await runOf(org, files, { 'plan-only': true });
    const run = await waitForRun(runId, org.owner.token, ['planned_and_finished', 'errored']);
    expect(run.attributes.status).to.equal('errored');
    expect(await phaseLog(runId, org.owner.token, 'plan')).to.include('more than 20 entries (MAX_ARCHIVE_ENTRIES)');
  });

  it('stops an apply whose working directory grows past RUN_DISK_LIMIT_MB', async () => {
    await startWorker({ RUN_DISK_LIMIT_MB: '1' });
    const org = await createOrg();
    const command = 'for i in 1 2 3; do head -c 900000 /dev/zero > fill-$i; done; sleep 20';
    const { runId } = await runOf(org, localExec('fill', command), {}, { 'auto-apply': true });
    const run = await waitForRun(runId, org.owner.token, ['applied', 'errored'], 30_000);
    expect(run.attributes.status).to.equal('errored');
    const log = await phaseLog(runId, org.owner.token, 'apply');
    expect(log, log).to.include('grew past 1 MiB (RUN_DISK_LIMIT_MB)');
  });

  it('a policy runtime runs with no network and nothing of the worker visible', async () => {
    // A stand-in for OPA that does what a hostile policy could (http.send, reading files), then answers.
    const dir = await mkdtemp(join(tmpdir(), 'rls-hostile-opa-'));
    await chmod(dir, 0o755);
    const opa = join(dir, 'opa');
    const probe = [
      '#!/bin/sh',
      'if [ "$1" = version ]; then echo "Version: 0.70.0"; exit 0; fi',
      `curl -s --max-time 3 -X POST ${witness.url}/policy-called >/dev/null 2>&1 && net=reached || net=unreachable`,
      `cat /proc/${process.pid}/environ >/dev/null 2>&1 && host=visible || host=hidden`,
      `[ -e ${join(process.cwd(), 'package.json')} ] && files=visible || files=hidden`,
      'msg="net=$net host=$host files=$files uid=$(id -u)"',
      'printf \'{"result":[{"expressions":[{"value":["%s"],"text":"q","location":{"row":1,"col":1}}]}]}\\n\' "$msg"',
    ].join('\n');
    await writeFile(opa, probe + '\n', { mode: 0o755 });
    try {
      await startWorker({ OPA_PATH: opa, RUN_NETWORK_ALLOWED_CIDRS: `${sandboxHost()}/32` });
      const org = await createOrg();
      const token = org.owner.token;
      const pol = await createPolicy(org.name, token, {
        name: `p${randomBytes(3).toString('hex')}`,
        kind: 'opa',
        'enforcement-level': 'advisory',
        query: 'data.probe.deny',
      });
      expect((await uploadCode(pol.id, token, 'package probe\n\ndeny := []\n')).status).to.equal(204);
      const ps = await createPolicySet(org.name, token, { kind: 'opa', global: true });
      expect(
        (
          await api('POST', `/policy-sets/${ps.id}/relationships/policies`, {
            token,
            body: linkages('policies', [pol.id]),
          })
        ).status,
      ).to.equal(204);
      const { runId } = await runOf(
        org,
        { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' },
        { 'plan-only': true },
      );
      await waitForRun(runId, token, ['planned_and_finished', 'errored'], 60_000);
      // OPA sets report through the policy evaluation of the run's post-plan stage.
      const stages = await api('GET', `/runs/${runId}/task-stages?include=policy_evaluations`, { token });
      const outcomes = await api('GET', `/policy-evaluations/${stages.body.included[0].id}/policy-set-outcomes`, {
        token,
      });
      const out = JSON.stringify(outcomes.body.data[0].attributes.outcomes);
      // Even with this host allow-listed for runs, a policy has no network at all.
      expect(out).to.include('net=unreachable').and.include('host=hidden').and.include('files=hidden');
      expect(out).not.to.include('uid=0 ');
      expect(witness.saw('/policy-called')).to.equal(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a worker that cannot make a sandbox says so at start and refuses runs, saying why in the run's log", async () => {
    // bubblewrap lives in /usr/bin: a PATH without it is a machine without it.
    const w = await startWorker({ PATH: '/usr/local/bin', TERRAFORM_BIN: join('/usr/local/bin', 'terraform') });
    expect(w.output()).to.match(
      /runs will be refused: the run sandbox does not work here .*apt-get install -y bubblewrap slirp4netns nftables/,
    );
    const org = await createOrg();
    const { runId } = await runOf(org, { 'main.tf': 'output "ok" { value = true }\n' }, { 'plan-only': true });
    const run = await waitForRun(runId, org.owner.token, ['planned_and_finished', 'errored']);
    expect(run.attributes.status).to.equal('errored');
    expect(await phaseLog(runId, org.owner.token, 'plan')).to.include('the run sandbox does not work here');
  });
});
