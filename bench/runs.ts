/*
 * Run latency benchmark: time from POST /runs to status `planned` for a trivial configuration,
 * split into time inside Terraform and the service's own overhead. The service runs as its own
 * processes, as operators run it (BENCH_LAYOUT: `embedded`, the default, is `npm start`, API and
 * every worker in one process; `procfile` is the Procfile's web process and a run-pipeline worker
 * process), so the bench is a client apart, like the Terraform CLI: its requests, polls and
 * baseline do not share the service's event loop or memory. Both parts come from the same run:
 *
 * - TERRAFORM_BIN points at a wrapper (compiled C when a C compiler is at hand, else a bash
 *   script) that logs start and end of every Terraform invocation, so each run's init, plan and
 *   show -json are timed where the worker ran them;
 * - as a baseline, the bench itself runs the identical commands on an identical directory
 *   (the service's own prepareWorkdir) after every run, with the real binary.
 *
 * Runs are sequential on one workspace: each planned run is discarded so the next one can take
 * the workspace. That keeps every run on the path a real workspace takes (take the workspace
 * under its lock, then plan), and the discard happens outside the timed window.
 */
import { constants, openSync, rmSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Runtime } from '../shared/runtime.js';
import type { ObjectStore } from '../shared/platform/store/object-store.js';
import { prepareWorkdir, runTerraform, type TerraformSettings } from '../shared/platform/terraform/runner.js';
import { planCommand, spawnPhase, SpareShell } from '../shared/platform/terraform/phase-process.js';
import { createSandbox, sandboxSettings } from '../shared/platform/sandbox/sandbox.js';
import { loadConfig } from '../shared/platform/config.js';
import { startWorkers } from '../workers/bootstrap.js';
import {
  api,
  Cleanups,
  cleanupOnSignals,
  createCv,
  createFixture,
  doc,
  LAYOUTS,
  log,
  machine,
  memoryKiB,
  openSetupRuntime,
  output,
  percentile,
  pollUntil,
  putArchive,
  runMain,
  serviceSetup,
  sleep,
  startServiceOn,
  startServiceProcesses,
  tarGz,
  type Endpoint,
  type Fixture,
  type Layout,
  type Service,
  type ServiceProcesses,
} from './support.js';

const LAYOUT = (process.env.BENCH_LAYOUT ?? 'embedded') as Layout;
const RUNS = Number(process.env.BENCH_RUNS ?? '50');
// Untimed runs first: a service that has just started is slower for its first runs (code not yet
// optimised by the JIT, new database connections with cold catalog caches); operators run it for days.
const WARMUP_RUNS = Number(process.env.BENCH_WARMUP ?? '10');
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? '20');
const CONFIG = 'resource "terraform_data" "a" { input = "x" }\n';
/** Where the phases this process runs itself make their working directories (as a deployment's work root). */
const benchRoot = join(tmpdir(), `rls-bench-${process.pid}`);
process.on('exit', () => rmSync(benchRoot, { recursive: true, force: true }));
// How the service runs Terraform: in its run sandbox with the default `egress` network (the
// default for operators too), with `isolated` networking, or unsandboxed (`none`).
const SANDBOX_ENV = {
  egress: { RUN_SANDBOX: 'bwrap', RUN_NETWORK: 'egress' },
  isolated: { RUN_SANDBOX: 'bwrap', RUN_NETWORK: 'isolated' },
  none: { RUN_SANDBOX: 'none' },
} as const;
const SANDBOX = (process.env.BENCH_SANDBOX ?? 'egress') as keyof typeof SANDBOX_ENV;
if (!(SANDBOX in SANDBOX_ENV)) throw new Error(`BENCH_SANDBOX must be one of ${Object.keys(SANDBOX_ENV).join(', ')}`);

// The arguments executePlan passes for a run with default attributes, and for its log preamble.
const VERSION_ARGS = ['version', '-json'];
const INIT_ARGS = ['init', '-input=false', '-no-color', '-reconfigure'];
const PLAN_ARGS = ['plan', '-input=false', '-no-color', '-detailed-exitcode', '-out=plan.tfplan'];
const SHOW_ARGS = ['show', '-json', 'plan.tfplan'];

// ---------------------------------------------------------------- timing Terraform inside the worker

interface Wrapper {
  bin: string;
  logPath: string;
  /** What it is, for the report: a bash script, or compiled C (linked statically or not). */
  form: string;
}

/** One Terraform invocation as the wrapper logged it; times in ms since the epoch. */
interface Invocation {
  command: string;
  start: number;
  end: number;
}

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const cString = (s: string) => JSON.stringify(s);

/** How the timing wrapper is made: compiled when a C compiler is at hand (cheaper), else a bash script. */
type WrapperKind = 'c' | 'bash';

/** The C wrapper when `cc` is on PATH (BENCH_WRAPPER=bash forces the script). */
async function wrapperKind(): Promise<WrapperKind> {
  if (process.env.BENCH_WRAPPER === 'bash') return 'bash';
  return (await output('sh', ['-c', 'command -v cc || true'])) ? 'c' : 'bash';
}

/** The wrapper in C: stamps, forks and execs Terraform, waits, stamps, logs, and exits as Terraform did. */
function wrapperSource(realBin: string, logPath: string): string {
  return [
    '#include <signal.h>',
    '#include <stdio.h>',
    '#include <sys/wait.h>',
    '#include <time.h>',
    '#include <unistd.h>',
    'int main(int argc, char **argv) {',
    '  struct timespec a, b;',
    '  int status = 0;',
    '  clock_gettime(CLOCK_REALTIME, &a);',
    '  signal(SIGINT, SIG_IGN);',
    '  signal(SIGTERM, SIG_IGN);',
    '  pid_t pid = fork();',
    '  if (pid == 0) {',
    '    signal(SIGINT, SIG_DFL);',
    '    signal(SIGTERM, SIG_DFL);',
    `    execv(${cString(realBin)}, argv);`,
    '    _exit(127);',
    '  }',
    '  while (pid > 0 && waitpid(pid, &status, 0) < 0) {}',
    '  clock_gettime(CLOCK_REALTIME, &b);',
    `  FILE *log = fopen(${cString(logPath)}, "a");`,
    '  if (log) {',
    '    fprintf(log, "%ld.%06ld %ld.%06ld %s\\n", (long)a.tv_sec, a.tv_nsec / 1000, (long)b.tv_sec, b.tv_nsec / 1000, argc > 1 ? argv[1] : "");',
    '    fclose(log);',
    '  }',
    '  if (pid < 0) return 127;',
    '  if (WIFSIGNALED(status)) {',
    '    signal(WTERMSIG(status), SIG_DFL);',
    '    kill(getpid(), WTERMSIG(status));',
    '  }',
    '  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;',
    '}',
    '',
  ].join('\n');
}

/**
 * Where the service's wrapper writes its lines: a named pipe in a directory of its own that every
 * user may enter, which the bench reads as the lines come. A sandboxed Terraform sees the
 * wrapper's directory read-only (it is TERRAFORM_BIN's directory) and can write nothing there, but
 * writing into a pipe changes no file, so the wrapper's lines reach the bench from inside the
 * sandbox too.
 */
async function stampPipe(dir: string): Promise<{ dir: string; path: string; lines: () => string }> {
  const own = join(dir, 'stamps');
  // Entered (not listed) by the sandbox's user on the way to its own directory.
  await chmod(dir, 0o711);
  await mkdir(own, { mode: 0o755 });
  await chmod(own, 0o755);
  const path = join(own, 'terraform-timed.log');
  await output('mkfifo', ['-m', '0666', path]);
  // Opened for reading and writing: never at its end while no wrapper has it open.
  const socket = new Socket({
    fd: openSync(path, constants.O_RDWR | constants.O_NONBLOCK),
    readable: true,
    writable: false,
  });
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  socket.unref();
  return { dir: own, path, lines: () => text };
}

/**
 * A stand-in for TERRAFORM_BIN that runs `realBin` and appends a line per invocation to its log:
 * start and end (seconds since the epoch, to the microsecond), then the subcommand. What the
 * wrapper itself costs (its own start-up, the extra fork, its exit) lies outside the stamps and
 * lands in the overhead, so calibrate() measures it. The C form costs a fraction of the bash
 * one (which reads the clock through EPOCHREALTIME rather than forking `date`, but still starts
 * bash). Like bash, it ignores interrupts while it waits and leaves them to Terraform, which
 * shares its process group.
 */
async function writeWrapper(
  dir: string,
  name: string,
  realBin: string,
  kind: WrapperKind,
  logPath = join(dir, `${name}.log`),
): Promise<Wrapper> {
  const bin = join(dir, name);
  let form = 'bash script';
  if (kind === 'c') {
    await writeFile(`${bin}.c`, wrapperSource(realBin, logPath));
    // Linked statically where the C library's static archive is installed: each start then skips
    // the dynamic loader, which costs about 0.3 ms a start on a 2-core VM (the wrapper starts in
    // the gap before every Terraform command, where its cost lands in the service's overhead).
    const linked = await output('cc', ['-O2', '-static', '-o', bin, `${bin}.c`]).then(
      () => true,
      async () => {
        await output('cc', ['-O2', '-o', bin, `${bin}.c`]);
        return false;
      },
    );
    form = linked ? 'compiled C, linked statically' : 'compiled C';
  } else {
    const script = [
      '#!/bin/bash',
      'start=$EPOCHREALTIME',
      `${shQuote(realBin)} "$@"`,
      'code=$?',
      'end=$EPOCHREALTIME',
      `echo "$start $end $1" >> ${shQuote(logPath)}`,
      'exit $code',
    ];
    await writeFile(bin, script.join('\n') + '\n');
    await chmod(bin, 0o755);
  }
  await writeFile(logPath, '', { flag: 'a' });
  return { bin, logPath, form };
}

function parseInvocations(text: string): Invocation[] {
  const lines = text.split('\n').filter(Boolean);
  return lines.map((line) => {
    const [start, end, command] = line.split(' ');
    return { command: command ?? '', start: Number(start) * 1000, end: Number(end) * 1000 };
  });
}

/** Invocations of the calibration loop (see calibrate). */
const CALIBRATION_INVOCATIONS = 200;

/**
 * The wrapper's own cost per invocation, as it lands in the overhead: a shell runs the wrapper
 * around `true` in a loop, as the phase's shell runs Terraform's commands, and the cost is the
 * median gap between one invocation's end stamp and the next one's start stamp. That gap is the
 * wrapper's own process around the stamped one: the wrapper writing its line and exiting, the
 * shell waking, forking and starting the next wrapper. Without the wrapper, the shell's fork and
 * Terraform's start and exit are the process's lifetime that the bench's baseline times as
 * Terraform's (spawn to exit); the wrapper adds a process of its own around that, whose time lies
 * outside its stamps; only the shell's loop test between two commands (microseconds) would be the
 * service's. Timed from this process instead, spawning `true` through the wrapper and directly, the
 * difference hid under this process's own latency from spawn to the exit event (1.8 ms either way).
 */
async function calibrate(dir: string, kind: WrapperKind): Promise<number> {
  const trueBin = await output('sh', ['-c', 'command -v true']);
  const wrapped = await writeWrapper(dir, 'true-timed', trueBin, kind);
  await output('sh', [
    '-c',
    `i=0; while [ "$i" -lt ${CALIBRATION_INVOCATIONS} ]; do "$1" calibration; i=$((i + 1)); done`,
    'sh',
    wrapped.bin,
  ]);
  const stamps = parseInvocations(await readFile(wrapped.logPath, 'utf8'));
  const gaps = stamps.slice(1).map((s, i) => s.start - stamps[i].end);
  return Math.max(0, percentile(gaps, 50));
}

// ---------------------------------------------------------------- one run through the service

/** Client-side instants and the run's status timestamps, all in ms since the epoch. */
interface RunSample {
  runId: string;
  sent: number;
  answered: number;
  observed: number;
  runTimes: Record<string, number>;
}

const epochTimes = (attrs: Record<string, unknown>): Record<string, number> =>
  Object.fromEntries(
    Object.entries((attrs['status-timestamps'] ?? {}) as Record<string, string>).map(([k, v]) => [k, Date.parse(v)]),
  );

/** POST /runs, poll until planned, read its timestamps, then discard it to free the workspace. */
async function serviceRun(svc: Endpoint, fx: Fixture): Promise<RunSample> {
  const call = (method: 'GET' | 'POST', path: string, body?: unknown) => api(svc.baseUrl, fx.token, method, path, body);
  const sent = Date.now();
  const created = (await call(
    'POST',
    '/runs',
    doc('runs', {}, { workspace: { data: { type: 'workspaces', id: fx.workspaceId } } }),
  ))!;
  const answered = Date.now();
  const runId = created.data.id;
  const planned = await pollUntil(
    async () => (await call('GET', `/runs/${runId}`))!,
    (d) => d.data.attributes.status === 'planned',
    {
      intervalMs: POLL_MS,
      timeoutMs: 60_000,
      failed: ['errored', 'canceled', 'force_canceled', 'discarded', 'planned_and_finished'],
    },
  );
  const observed = Date.now();
  await call('POST', `/runs/${runId}/actions/discard`);
  return { runId, sent, answered, observed, runTimes: epochTimes(planned.data.attributes) };
}

/** Where one run's time went, in ms; consecutive segments, so they add up to the observed total. */
interface Timeline {
  queueStep: number;
  planPickup: number;
  prepare: number;
  version: number;
  init: number;
  initToPlan: number;
  plan: number;
  planToShow: number;
  show: number;
  finish: number;
  observe: number;
}

/** What each segment covers, in the report's words. */
const SEGMENTS: Record<keyof Timeline, string> = {
  queueStep:
    'POST /runs -> plan_queued (request; the run inserted straight into plan_queued by one statement on a free workspace)',
  planPickup:
    'plan_queued -> planning (commit, plan job enqueued and picked up, directory prepared, init started, claim starts)',
  prepare: 'planning -> `init` starts (the shell starting init, while the claim goes on), less `version`',
  version: '`terraform version -json` for the log preamble (when the worker asks)',
  init: '`terraform init` **[Terraform]**',
  initToPlan: '`init` ends -> `plan` starts',
  plan: '`terraform plan` **[Terraform]**',
  planToShow: '`plan` ends -> `show` starts',
  show: '`terraform show -json` **[Terraform]**',
  finish: '`show` ends -> planned (plan JSON + file, closed log and the move in one transaction)',
  observe: `planned -> seen by the client (poll every ${POLL_MS} ms)`,
};

function timeline(s: RunSample, all: Invocation[]): Timeline {
  const mine = all.filter((i) => i.start >= s.sent && i.end <= s.observed);
  const find = (command: string, optional = false): Invocation | undefined => {
    const found = mine.filter((i) => i.command === command);
    if (found.length > 1 || (!optional && !found.length))
      throw new Error(`run ${s.runId}: expected one terraform ${command}, saw ${found.length}`);
    return found[0];
  };
  const [init, plan, show] = ['init', 'plan', 'show'].map((c) => find(c)!);
  // The worker may remember the version between plans, so a run need not invoke it.
  const version = find('version', true);
  const versionMs = version ? version.end - version.start : 0;
  const at = (key: string) => {
    const t = s.runTimes[key];
    if (!Number.isFinite(t)) throw new Error(`run ${s.runId}: no ${key} timestamp`);
    return t;
  };
  return {
    queueStep: at('plan-queued-at') - s.sent,
    planPickup: at('planning-at') - at('plan-queued-at'),
    prepare: init.start - at('planning-at') - versionMs,
    version: versionMs,
    init: init.end - init.start,
    initToPlan: plan.start - init.end,
    plan: plan.end - plan.start,
    planToShow: show.start - plan.end,
    show: show.end - show.start,
    finish: at('planned-at') - show.end,
    observe: s.observed - at('planned-at'),
  };
}

// ---------------------------------------------------------------- baseline: the same commands, directly

interface ReplaySample {
  prepare: number;
  version: number;
  init: number;
  plan: number;
  show: number;
}

/** Runs one Terraform command and returns its wall time; an unexpected exit code is fatal. */
async function timed(
  settings: TerraformSettings,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  okCodes = [0],
): Promise<number> {
  const t0 = performance.now();
  const result = await runTerraform(settings, args, cwd, env);
  if (!okCodes.includes(result.code ?? -1))
    throw new Error(`terraform ${args[0]} exited ${result.code}: ${result.output}`);
  return performance.now() - t0;
}

/** What the worker runs for a plan, on an identical directory (built by the same code), with the real binary. */
async function replay(store: ObjectStore, settings: TerraformSettings, archiveObjectId: string): Promise<ReplaySample> {
  const version = await timed(settings, VERSION_ARGS, process.cwd(), { PATH: process.env.PATH ?? '' });
  const t0 = performance.now();
  const wd = await prepareWorkdir(settings, {
    archive: await store.get(archiveObjectId),
    workingDirectory: '',
    state: null,
    variables: [],
  });
  const prepare = performance.now() - t0;
  try {
    const init = await timed(settings, INIT_ARGS, wd.dir, wd.env);
    // -detailed-exitcode: 2 means "succeeded, with changes", which this configuration always has.
    const plan = await timed(settings, PLAN_ARGS, wd.dir, wd.env, [2]);
    const show = await timed(settings, SHOW_ARGS, wd.dir, wd.env);
    return { prepare, version, init, plan, show };
  } finally {
    await wd.cleanup();
  }
}

// ---------------------------------------------------------------- report

const fmt = (x: number) => x.toFixed(1);
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const stats = (xs: number[]) => [percentile(xs, 50), percentile(xs, 99), mean(xs)].map(fmt).join(' | ');

interface Measured {
  timelines: Timeline[];
  samples: RunSample[];
  replays: ReplaySample[];
  wrapperCostMs: number;
  wrapperForm: string;
}

function summaryTable(m: Measured): string {
  const total = m.samples.map((s) => s.runTimes['planned-at'] - s.sent);
  const observed = m.samples.map((s) => s.observed - s.sent);
  const terraform = m.timelines.map((t) => t.init + t.plan + t.show);
  const overhead = total.map((x, i) => x - terraform[i]);
  const share = overhead.map((x, i) => x / total[i]);
  // The wrapper's start-up is the bench's doing, not the service's: also show the split without it.
  const instrumentation = m.timelines.map((t) => (t.version > 0 ? 4 : 3) * m.wrapperCostMs);
  const netOverhead = overhead.map((x, i) => x - instrumentation[i]);
  const netShare = netOverhead.map((x, i) => x / (total[i] - instrumentation[i]));
  const replayTf = m.replays.map((r) => r.init + r.plan + r.show);
  const rows = [
    ['Total: POST /runs sent -> `planned-at`', stats(total)],
    [`Total as the client saw it (poll every ${POLL_MS} ms)`, stats(observed)],
    ['Terraform: init + plan + show -json, timed inside the worker', stats(terraform)],
    ['Service overhead: total - Terraform', stats(overhead)],
    ["Service overhead less the timing wrapper's own cost", stats(netOverhead)],
    ['Baseline: init + plan + show -json run directly by the bench', stats(replayTf)],
    ['POST /runs response time', stats(m.samples.map((s) => s.answered - s.sent))],
  ];
  const lines = [
    '| Measure (ms) | p50 | p99 | mean |',
    '|---|---:|---:|---:|',
    ...rows.map(([name, v]) => `| ${name} | ${v} |`),
  ];
  const aggregate = mean(overhead) / mean(total);
  const netAggregate = mean(netOverhead) / (mean(total) - mean(instrumentation));
  const verdict = (x: number) => (x < 0.1 ? 'met' : 'NOT met');
  lines.push(
    '',
    `Overhead share of the total: p50 ${pct(percentile(share, 50))}, p99 ${pct(percentile(share, 99))}, over all runs ${pct(aggregate)} (target under 10 %: ${verdict(aggregate)}).`,
    `Less the wrapper's cost: p50 ${pct(percentile(netShare, 50))}, p99 ${pct(percentile(netShare, 99))}, over all runs ${pct(netAggregate)} (target under 10 %: ${verdict(netAggregate)}).`,
    `Runs that invoked \`terraform version\`: ${m.timelines.filter((t) => t.version > 0).length} of ${m.timelines.length}.`,
    `Wrapper's own cost (${m.wrapperForm}; the gap between two wrapped \`true\` in a shell loop): ${m.wrapperCostMs.toFixed(2)} ms per invocation (counted in the overhead).`,
  );
  return lines.join('\n');
}

function segmentTable(m: Measured): string {
  const totalMean = mean(m.samples.map((s) => s.observed - s.sent));
  const lines = ['| Segment | p50 ms | p99 ms | mean ms | share of mean |', '|---|---:|---:|---:|---:|'];
  for (const key of Object.keys(SEGMENTS) as (keyof Timeline)[]) {
    const xs = m.timelines.map((t) => t[key]);
    lines.push(`| ${SEGMENTS[key]} | ${stats(xs)} | ${pct(mean(xs) / totalMean)} |`);
  }
  return lines.join('\n');
}

function replayTable(m: Measured): string {
  const keys: (keyof ReplaySample)[] = ['version', 'prepare', 'init', 'plan', 'show'];
  const lines = ['| Baseline step (run by the bench) | p50 ms | p99 ms | mean ms |', '|---|---:|---:|---:|'];
  for (const k of keys)
    lines.push(
      `| ${k === 'prepare' ? 'prepareWorkdir (archive from the store, unpack)' : `terraform ${k}`} | ${stats(m.replays.map((r) => r[k]))} |`,
    );
  return lines.join('\n');
}

// ---------------------------------------------------------------- query census

/**
 * Counts the SQL statements the service issues for one run, POST to planned. The counting needs
 * the service's knex instance, so this runs after the timed part, with the service's processes
 * stopped, against a service and run-pipeline worker started in this process on the same
 * database and queues. This run is watched through a separate pg connection rather than the API,
 * so no poll adds statements, and it is not timed.
 */
async function queryCensus(svc: Service, fx: Fixture): Promise<Record<string, number>> {
  const counts: Record<string, number> = { total: 0 };
  const onQuery = (q: { sql?: string }) => {
    const verb = (q.sql ?? '').trim().split(/\s+/)[0].toLowerCase().replace(/;$/, '');
    counts[verb] = (counts[verb] ?? 0) + 1;
    counts.total++;
    if (process.env.BENCH_CENSUS_SQL) console.log(`census: ${(q.sql ?? '').replace(/\s+/g, ' ').slice(0, 220)}`);
  };
  const watcher = new pg.Client({ connectionString: svc.databaseUrl });
  await watcher.connect();
  svc.rt.db.on('query', onQuery);
  try {
    const body = doc('runs', {}, { workspace: { data: { type: 'workspaces', id: fx.workspaceId } } });
    const runId = (await api(svc.baseUrl, fx.token, 'POST', '/runs', body))!.data.id;
    const status = async () =>
      (await watcher.query<{ status: string }>('select status from runs where id = $1', [runId])).rows[0]?.status;
    for (const deadline = Date.now() + 60_000; (await status()) !== 'planned';) {
      if (Date.now() > deadline) throw new Error(`census run ${runId} did not reach planned`);
      await sleep(10);
    }
    svc.rt.db.off('query', onQuery); // the discard is not part of the run
    await api(svc.baseUrl, fx.token, 'POST', `/runs/${runId}/actions/discard`);
    return counts;
  } finally {
    svc.rt.db.off('query', onQuery);
    await watcher.end();
  }
}

// ---------------------------------------------------------------- orchestration

// ---------------------------------------------------------------- the sandbox's cost per phase

const SANDBOX_ROUNDS = Number(process.env.BENCH_SANDBOX_ROUNDS ?? '20');

/**
 * What the run sandbox costs one plan phase: the worker's own prepareWorkdir and spawnPhase
 * (init, plan, show -json), timed from the directory's making to show's end, without a sandbox
 * (`none`) and in each network mode, all alternating in every round so the machine's drift falls
 * on all of them alike. Each variant has a worker's SpareShell of its own, so its phases take what
 * the worker keeps started ahead (the plain shell; in a sandbox mode the whole sandbox on an empty
 * directory); the "started per phase" variants start each sandbox on the phase's path instead.
 */
async function sandboxTable(store: ObjectStore, realBin: string, archiveObjectId: string): Promise<string> {
  const base = sandboxSettings(loadConfig({ ENCRYPTION_KEY: '0'.repeat(64) }));
  const sandboxes = {
    none: createSandbox({ ...base, mode: 'none' }),
    isolated: createSandbox({ ...base, network: 'isolated' }),
    egress: createSandbox({ ...base, network: 'egress' }),
  };
  for (const [name, sandbox] of Object.entries(sandboxes)) {
    const problem = await sandbox.check();
    if (problem) return `sandbox cost per phase: not measured (${name}: ${problem})`;
  }
  const variant = (name: string, sandbox: keyof typeof sandboxes, ahead: boolean) => ({
    name,
    settings: {
      bin: realBin,
      cliConfigFile: null,
      sandbox: sandboxes[sandbox],
      maxArchiveEntries: 50_000,
      workRoot: benchRoot,
    } satisfies TerraformSettings,
    spare: ahead ? new SpareShell() : undefined,
    times: [] as number[],
  });
  const variants = [
    variant('none', 'none', true),
    variant('isolated', 'isolated', true),
    variant('isolated, started per phase', 'isolated', false),
    variant('egress', 'egress', true),
    variant('egress, started per phase', 'egress', false),
  ];
  for (let round = -2; round < SANDBOX_ROUNDS; round++) {
    for (const { name, settings, spare, times } of round % 2 ? variants : [...variants].reverse()) {
      const t0 = performance.now();
      const wd = await prepareWorkdir(
        settings,
        { archive: await store.get(archiveObjectId), workingDirectory: '', state: null, variables: [] },
        spare?.place(settings),
      );
      try {
        const phase = spawnPhase(settings, wd, { command: planCommand(), show: true }, spare);
        phase.go();
        const [init, main, show] = [await phase.init, await phase.main, await phase.show];
        if (init.code !== 0 || main.code !== 2 || show.code !== 0)
          throw new Error(`the ${name} phase failed: ${init.output} ${show.output}`);
        // The first two rounds warm the page cache and the binary's first runs.
        if (round >= 0) times.push(performance.now() - t0);
      } finally {
        await wd.cleanup();
      }
    }
  }
  await Promise.all(variants.map((v) => v.spare?.close()));
  const p50none = percentile(variants[0].times, 50);
  const lines = [
    `sandbox cost per plan phase (prepareWorkdir + init + plan + show -json, ${SANDBOX_ROUNDS} rounds, alternating):`,
    '',
    '| sandbox | p50 ms | p90 ms | p50 vs none |',
    '|---|---|---|---|',
  ];
  for (const { name, times } of variants) {
    const p50 = percentile(times, 50);
    lines.push(
      `| ${name} | ${fmt(p50)} | ${fmt(percentile(times, 90))} | ${name === 'none' ? '1.00' : `${(p50 / p50none).toFixed(2)} (+${fmt(p50 - p50none)} ms)`} |`,
    );
  }
  return lines.join('\n');
}

async function archiveOf(rt: Runtime, cvId: string): Promise<string> {
  const row = await rt.db('configuration_versions').where({ id: cvId }).first('archive_object_id');
  if (!row?.archive_object_id) throw new Error('the uploaded configuration has no archive');
  return row.archive_object_id as string;
}

/** Service run and baseline alternate, swapping order every round, so drift hits both. */
async function measure(
  svc: Endpoint,
  store: ObjectStore,
  fx: Fixture,
  settings: TerraformSettings,
  archiveObjectId: string,
  rounds: number,
  quiet: boolean,
) {
  const samples: RunSample[] = [];
  const replays: ReplaySample[] = [];
  for (let i = 0; i < rounds; i++) {
    const runService = async () => samples.push(await serviceRun(svc, fx));
    const runReplay = async () => replays.push(await replay(store, settings, archiveObjectId));
    if (i % 2 === 0) await runService().then(runReplay);
    else await runReplay().then(runService);
    const s = samples[i];
    if (!quiet && (i + 1) % 10 === 0) log(`  ${i + 1}/${rounds}: last run ${fmt(s.observed - s.sent)} ms`);
  }
  return { samples, replays };
}

const COMMANDS: Record<Layout, string> = {
  embedded: 'API and every worker in one process, `node dist/bin/all.js` as `npm start` runs it',
  procfile:
    'API and run-pipeline worker apart, `node dist/bin/web.js` and `node dist/bin/workers.js run-pipeline` as in the Procfile (at its niceness)',
};

/** Each service process's pid and memory, read while it still runs. */
/** A process's own CPU time so far (user + system, its children's not counted), in ms. */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime (fields 14 and 15 of the whole line) are in clock ticks, 100 a second on Linux.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function processesLine(procs: ServiceProcesses): Promise<string> {
  const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;
  const parts = await Promise.all(
    procs.processes.map(async (p) => {
      const mem = await memoryKiB(p.pid);
      return `${p.role} pid ${p.pid}${mem ? `, RSS ${mib(mem.rss)} (peak ${mib(mem.peak)})` : ''}`;
    }),
  );
  return `service processes at the end: ${parts.join('; ')}`;
}

async function main(): Promise<void> {
  if (!LAYOUTS.includes(LAYOUT)) throw new Error(`BENCH_LAYOUT must be one of ${LAYOUTS.join(', ')}, not ${LAYOUT}`);
  const started = Date.now();
  const cleanups = new Cleanups();
  cleanupOnSignals(cleanups);
  try {
    const dir = await mkdtemp(join(tmpdir(), 'bench-runs-'));
    cleanups.add(() => rm(dir, { recursive: true, force: true }));
    const realBin = process.env.BENCH_TERRAFORM_BIN ?? (await output('sh', ['-c', 'command -v terraform']));
    const kind = await wrapperKind();
    const stamps = await stampPipe(dir);
    const wrapper = await writeWrapper(stamps.dir, 'terraform-timed', realBin, kind, stamps.path);
    const setup = await serviceSetup(cleanups, { TERRAFORM_BIN: wrapper.bin, ...SANDBOX_ENV[SANDBOX] });
    // The bench's own connections to the service's database and Redis: the archive's id, the
    // baseline's prepareWorkdir and the count of workers; no API, no worker.
    const rt = openSetupRuntime(cleanups, setup);
    const procs = await startServiceProcesses(cleanups, setup, rt, LAYOUT, ['run-pipeline']);
    const layoutLine = `layout: ${LAYOUT} (${COMMANDS[LAYOUT]}; pid ${procs.processes.map((p) => p.pid).join(', ')}); run sandbox: ${SANDBOX}`;

    const fx = await createFixture(setup);
    const cv = await createCv(setup, fx);
    await putArchive(cv.uploadUrl, await tarGz({ 'main.tf': CONFIG }));
    const archiveObjectId = await archiveOf(rt, cv.id);
    const settings: TerraformSettings = {
      bin: realBin,
      cliConfigFile: null,
      sandbox: createSandbox({ ...sandboxSettings(loadConfig({ ENCRYPTION_KEY: '0'.repeat(64) })), mode: 'none' }),
      maxArchiveEntries: 50_000,
      workRoot: benchRoot,
    };
    const tfVersion = JSON.parse(await output(realBin, VERSION_ARGS)) as { terraform_version: string };
    const before = `terraform ${tfVersion.terraform_version}, ${machine()}`;
    log(`${before}; ${layoutLine}; ${WARMUP_RUNS} warm-up + ${RUNS} runs`);

    let cpuLine = '';
    // A service process that dies ends the bench at once, with its output, instead of a poll's timeout.
    const { wrapperCostMs, samples, replays } = await Promise.race([
      procs.failed,
      (async () => {
        const wrapperCostMs = await calibrate(dir, kind);
        await measure(setup, rt.store, fx, settings, archiveObjectId, WARMUP_RUNS, true);
        const cpuBefore = await Promise.all(procs.processes.map((p) => cpuMs(p.pid)));
        const measured = await measure(setup, rt.store, fx, settings, archiveObjectId, RUNS, false);
        const cpuAfter = await Promise.all(procs.processes.map((p) => cpuMs(p.pid)));
        cpuLine = `service processes' own CPU time per run (user + system, Terraform excluded): ${((cpuAfter.reduce((a, b) => a + b, 0) - cpuBefore.reduce((a, b) => a + b, 0)) / RUNS).toFixed(1)} ms`;
        return { wrapperCostMs, ...measured };
      })(),
    ]);
    const memoryLine = `${await processesLine(procs)}\n${cpuLine}`;
    await procs.stop();
    const invocations = parseInvocations(stamps.lines());
    const m: Measured = {
      samples,
      replays,
      wrapperCostMs,
      wrapperForm: wrapper.form,
      timelines: samples.map((s) => timeline(s, invocations)),
    };
    const sandboxLine = await sandboxTable(rt.store, realBin, archiveObjectId);

    const svc = await startServiceOn(cleanups, setup);
    const workers = await startWorkers(svc.rt, ['run-pipeline']);
    cleanups.add(() => workers.stop(5_000));
    // The sweep a worker process runs once at start is not part of a run: let it finish first.
    await sleep(2_000);
    const census = await queryCensus(svc, fx);
    const censusLine = `SQL statements for one run, POST to planned: ${Object.entries(census)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`;
    const tables = [summaryTable(m), segmentTable(m), replayTable(m), sandboxLine, censusLine].join('\n\n');
    process.stdout.write(
      `\n${tables}\n\n${layoutLine}\n${memoryLine}\nbefore: ${before}\nafter:  ${machine()}\ntotal ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );
  } finally {
    await cleanups.run();
  }
}

runMain(main);
