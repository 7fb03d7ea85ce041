import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { api } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { createOrg, createWorkspace } from '../helpers/fixtures.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startRun, terraformAvailable, uploadConfig, waitForRun } from '../helpers/terraform.js';
import { readWholeLog } from '../helpers/module-tests.js';
import { cgroupParents, readHostCgroups, selectCgroups } from '../../shared/platform/sandbox/cgroups.js';
import { deploymentTag } from '../../shared/platform/terraform/work-root.js';

type Org = Awaited<ReturnType<typeof createOrg>>;

/** Small limits, so that each attack is quick and harmless on a small machine. */
const LIMITS = {
  RUN_CGROUPS: 'required',
  RUN_MEMORY_LIMIT_MB: '64',
  RUN_DISK_LIMIT_MB: '20',
  RUN_PROCESS_LIMIT: '100',
};

/** An HCL string literal of `s` (JSON's escapes, and no interpolation). */
const hclString = (s: string) => JSON.stringify(s).replace(/\$\{/g, '$${').replace(/%\{/g, '%%{');

/** A configuration of one resource whose local-exec provisioner runs `command` when applied. */
const localExec = (command: string) => ({
  'main.tf': `resource "terraform_data" "probe" {\n  provisioner "local-exec" {\n    command = ${hclString(command)}\n  }\n}\n`,
});

async function applyLog(runId: string, token: string): Promise<string> {
  const run = await api('GET', `/runs/${runId}?include=apply`, { token });
  const apply = run.body.included.find((r: { type: string }) => r.type === 'applies');
  return readWholeLog(apply.attributes['log-read-url']);
}

/** Starts an auto-applied run of `command` in a new workspace of `org`. */
async function applyOf(org: Org, command: string): Promise<string> {
  const ws = await createWorkspace(org, { 'auto-apply': true });
  await uploadConfig(ws.id, org.owner.token, localExec(command));
  return startRun(ws.id, org.owner.token);
}

const TAG = () => deploymentTag(harness().config);

/** The directories of the cgroups of worker process `pid`'s sandboxes (those of this deployment; the worker shares this process's cgroups). */
function sandboxCgroups(pid: number): string[] {
  const prefix = `rls-${TAG()}-${pid}-`;
  return cgroupParents(readHostCgroups(), TAG()).flatMap((parent) =>
    readdirSync(parent)
      .filter((name) => name.startsWith(prefix) && !name.endsWith('-worker'))
      .map((name) => join(parent, name)),
  );
}

const read = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

/** The processes of this host whose command line holds `marker` (the commands of one attack). */
function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid)
    .filter((n) => read(`/proc/${n}/cmdline`).includes(marker))
    .map(Number);
}

/** Tmpfs pages held by the processes of this test's cgroup and everything below it (the workers, their sandboxes). */
function shmemBytes(): number {
  const choice = selectCgroups(readHostCgroups());
  if (!choice.version) throw new Error(`this host gives no cgroups: ${choice.reason}`);
  const dir = choice.version === 2 ? choice.parent : choice.memory;
  const stat = read(join(dir, 'memory.stat'));
  return Number(new RegExp(`^${choice.version === 2 ? 'shmem' : 'total_shmem'} (\\d+)$`, 'm').exec(stat)?.[1] ?? NaN);
}

/**
 * Watches, while a run's attack goes on, which sandbox cgroups of worker `pid` hold a process of
 * `marker` (the run's own), and the most tmpfs memory held meanwhile.
 */
function watchRun(pid: number, marker: string) {
  const cgroups = new Set<string>();
  let peakShmem = 0;
  const timer = setInterval(() => {
    peakShmem = Math.max(peakShmem, shmemBytes());
    for (const dir of sandboxCgroups(pid)) {
      const procs = read(join(dir, 'cgroup.procs')).split('\n').filter(Boolean);
      if (procs.some((p) => read(`/proc/${p}/cmdline`).includes(marker))) cgroups.add(dir);
    }
  }, 20);
  return {
    seen: () => [...cgroups],
    stop: () => {
      clearInterval(timer);
      return { cgroups: [...cgroups], peakShmem };
    },
  };
}

/** The start of an attack's command: a second in which its shell (whose command line holds the marker) is seen in its cgroup. */
const SEEN_FIRST = 'sleep 1;';

/** After a run at a limit: nothing of it is left on the host, neither a process nor its cgroup. */
async function expectNothingLeft(marker: string, cgroups: string[]) {
  expect(cgroups, 'the run ran in a cgroup of its own').to.have.length.greaterThan(0);
  await waitFor(
    () => processesWith(marker).length === 0,
    () => `the run's processes to be gone (left: ${processesWith(marker).join(', ')})`,
    10_000,
  );
  await waitFor(
    () => cgroups.every((dir) => !existsSync(dir)),
    () => `the run's cgroup to be removed (${cgroups.filter((d) => existsSync(d)).join(', ')})`,
    10_000,
  );
}

/** Applies `command` in a run of `org` under worker `w`, watching its cgroup; the run must error. What was seen, and the apply's log. */
async function erroredAttack(
  w: WorkerProcess,
  org: Awaited<ReturnType<typeof createOrg>>,
  command: string,
  marker: string,
) {
  const runId = await applyOf(org, command);
  const watch = watchRun(w.proc.pid!, marker);
  const run = await waitForRun(runId, org.owner.token, ['applied', 'errored'], 60_000);
  const seen = watch.stop();
  expect(run.attributes.status).to.equal('errored');
  return { seen, log: await applyLog(runId, org.owner.token) };
}

describe("run limits: a run is bounded as a whole by its sandbox's cgroup and tmpfs sizes", function () {
  this.timeout(120_000);
  let worker: WorkerProcess | undefined;

  const startWorker = async (env: Record<string, string> = LIMITS, wrapper: string[] = []) => {
    await worker?.stop('SIGKILL');
    worker = spawnWorkers(['run-pipeline'], { RUN_NETWORK_ALLOWED_CIDRS: '', ...env }, wrapper);
    await workersReady(worker);
    return worker;
  };

  before(function () {
    if (!terraformAvailable()) this.skip();
  });
  afterEach(async () => {
    await worker?.stop('SIGKILL');
    worker = undefined;
  });

  it('a run writing past its disk limit in /tmp errors naming the disk limit, and the tmpfs memory it held is given back', async () => {
    const w = await startWorker();
    const org = await createOrg();
    const marker = `rlsdisk${randomBytes(4).toString('hex')}`;
    // 200 MB into /tmp: before, all of it was host memory whatever RUN_DISK_LIMIT_MB said.
    const before = shmemBytes();
    const { seen, log } = await erroredAttack(
      w,
      org,
      `${SEEN_FIRST} head -c 200000000 /dev/zero > /tmp/${marker}; sleep 30 # ${marker}`,
      marker,
    );
    expect(log, log).to.include(
      'the apply was stopped: it filled /tmp up to the disk limit of 20 MB (RUN_DISK_LIMIT_MB)',
    );
    expect(log).to.include('No space left on device');
    // The attack did fill /tmp (17.5 MB of the 20 MB go to it), and not a page past it.
    expect(seen.peakShmem - before, 'tmpfs memory held during the run')
      .to.be.above(15 * 1048576)
      .and.below(21 * 1048576);
    await expectNothingLeft(marker, seen.cgroups);
    await waitFor(
      () => shmemBytes() - before < 1048576,
      () => `the run's tmpfs pages to be freed (${shmemBytes() - before} bytes more than before)`,
      10_000,
    );
  });

  it('three processes past the memory limit together (each under it alone) error the run naming the memory limit', async () => {
    const w = await startWorker();
    const org = await createOrg();
    // One holding 24 MB (some 29 MB with perl itself), under the 64 MB limit with Terraform beside it: the run applies.
    const hold = (marker: string) => `perl -e 'my $x = "a"; $x x= 24 * 1048576; sleep 30' ${marker}`;
    const alone = `rlsmem${randomBytes(4).toString('hex')}`;
    const control = await applyOf(org, hold(alone).replace('sleep 30', 'sleep 1'));
    const ok = await waitForRun(control, org.owner.token, ['applied', 'errored'], 60_000);
    expect(ok.attributes.status, await applyLog(control, org.owner.token)).to.equal('applied');

    const marker = `rlsmem${randomBytes(4).toString('hex')}`;
    const { seen, log } = await erroredAttack(
      w,
      org,
      `${SEEN_FIRST} for i in 1 2 3; do ${hold(marker)} & done; wait`,
      marker,
    );
    expect(log, log).to.include(
      'the apply was stopped: its processes together reached the memory limit of 64 MB (RUN_MEMORY_LIMIT_MB)',
    );
    await expectNothingLeft(marker, seen.cgroups);
  });

  it('a fork bomb is stopped at the process limit and the run errors naming it', async () => {
    const w = await startWorker();
    const org = await createOrg();
    const marker = `rlsbomb${randomBytes(4).toString('hex')}`;
    const { seen, log } = await erroredAttack(
      w,
      org,
      `${SEEN_FIRST} ${marker}() { ${marker} | ${marker} & }; ${marker}; sleep 30`,
      marker,
    );
    expect(log, log.slice(-2000)).to.include(
      'the apply was stopped: it reached the process limit of 100 processes and threads (RUN_PROCESS_LIMIT)',
    );
    await expectNothingLeft(marker, seen.cgroups);
  });

  it("the cgroups of a worker that was killed are removed by the next worker's sweep", async () => {
    const w = await startWorker();
    const dead = w.proc.pid!;
    const org = await createOrg();
    const marker = `rlskill${randomBytes(4).toString('hex')}`;
    const runId = await applyOf(org, `sleep 60 # ${marker}`);
    const watch = watchRun(dead, marker);
    await waitFor(() => processesWith(marker).length > 0, 'the apply to start its command', 60_000);
    await waitFor(() => watch.seen().length > 0, "the run's cgroup");
    await w.stop('SIGKILL');
    const left = sandboxCgroups(dead);
    expect(left, 'a killed worker cannot remove its cgroups').to.have.length.greaterThan(0);
    // A worker of this deployment removes them at start; its sandboxes died with the worker.
    await startWorker();
    await waitFor(
      () => sandboxCgroups(dead).length === 0,
      () => `the dead worker's cgroups to be removed (${sandboxCgroups(dead).join(', ')})`,
      20_000,
    );
    await expectNothingLeft(marker, watch.stop().cgroups);
    await api('POST', `/runs/${runId}/actions/force-cancel`, { token: org.owner.token, body: {} });
  });

  it('RUN_CGROUPS=required on a host where the worker cannot make cgroups: it says so at start and refuses runs, saying why in the log', async () => {
    // The cgroup filesystems read-only in a mount namespace of the worker's own: a host without delegation.
    const readOnlyCgroups = [
      'unshare',
      '--mount',
      '--propagation',
      'private',
      'sh',
      '-c',
      'for m in /sys/fs/cgroup /sys/fs/cgroup/*; do mountpoint -q "$m" && mount -o remount,bind,ro "$m"; done; exec "$@"',
      'sh',
    ];
    const w = await startWorker(LIMITS, readOnlyCgroups);
    expect(w.output()).to.match(
      /runs will be refused: the run sandbox cannot bound a run's processes together \(RUN_CGROUPS=required\): cgroup v2: .*cgroup v1: .* is not writable by this process/,
    );
    const org = await createOrg();
    const runId = await applyOf(org, 'echo never');
    const run = await waitForRun(runId, org.owner.token, ['planned', 'applied', 'errored'], 60_000);
    expect(run.attributes.status).to.equal('errored');
    const plan = await api('GET', `/runs/${runId}?include=plan`, { token: org.owner.token });
    const planLog = await readWholeLog(
      plan.body.included.find((r: { type: string }) => r.type === 'plans').attributes['log-read-url'],
    );
    expect(planLog).to.include('RUN_CGROUPS=required');

    // With auto, the same worker runs, bounded per process only, and says so once at start.
    const auto = await startWorker({ ...LIMITS, RUN_CGROUPS: 'auto', RUN_MEMORY_LIMIT_MB: '4096' }, readOnlyCgroups);
    expect(auto.output().match(/runs are not bounded as a whole \(RUN_CGROUPS=auto\)/g)).to.have.length(1);
    const fine = await applyOf(org, 'echo bounded-per-process');
    const done = await waitForRun(fine, org.owner.token, ['applied', 'errored'], 60_000);
    expect(done.attributes.status, await applyLog(fine, org.owner.token)).to.equal('applied');
    expect(auto.output().match(/runs are not bounded as a whole/g)).to.have.length(1);
  });
});
