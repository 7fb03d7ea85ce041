/*
 * Shared pieces of the end-to-end benchmarks (upload.ts, runs.ts): a throwaway database and queue
 * prefix with the real service listening on 127.0.0.1 (in the bench's process, or as its own
 * processes), a small JSON:API client, and the numbers.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../shared/platform/config.js';
import { dropDatabase } from '../shared/platform/db.js';
import { migrateLatest } from '../shared/platform/db/migrate.js';
import { createLogger } from '../shared/platform/logger.js';
import { bullPrefix, type QueueName } from '../shared/platform/queues.js';
import { closeRuntime, openRuntime, type Runtime } from '../shared/runtime.js';
import { createRunLifecycle } from '../shared/lifecycle-areas.js';
import { startWeb, type WebHandle } from '../server/web.js';

export const HOST = '127.0.0.1';
const PG_URL = `postgres://postgres@${HOST}:5432`;
const REDIS_URL = `redis://${HOST}:6379`;
const JSON_API = 'application/vnd.api+json';

const execFileP = promisify(execFile);
/** Clock ticks per second of /proc's CPU times (USER_HZ; 100 on Linux unless built otherwise). */
let clockTicks: number | undefined;

/** User + system CPU in ms of a process, or of one of its threads (`pid/task/tid`), or NaN when it cannot be read. */
export async function procCpuMs(target: number | string): Promise<number> {
  clockTicks ??= Number(await output('getconf', ['CLK_TCK'])) || 100;
  try {
    const stat = await readFile(`/proc/${target}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return NaN;
  }
}

/** PostgreSQL backends serving the database `watcher` is connected to (its own excepted). */
export async function backendPids(watcher: pg.Client): Promise<number[]> {
  const { rows } = await watcher.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  return rows.map((r) => r.pid);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const log = (line: string) => void process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------- the service under test

/** Where a client reaches the service, and as whom it creates users. */
export interface Endpoint {
  baseUrl: string;
  adminToken: string;
}

export interface Service extends Endpoint {
  rt: Runtime;
  web: WebHandle;
  databaseUrl: string;
}

/** A throwaway database, queue prefix and port, and the service's environment naming them. */
export interface ServiceSetup extends Endpoint {
  /** The service's configuration variables (shared/platform/config.ts), complete: nothing else is read. */
  env: Record<string, string>;
  databaseUrl: string;
  port: number;
}

/** A port that was free a moment ago: BASE_URL, and so the signed upload URLs, must name it before listening. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Cleanup steps, run last-registered first; each is best effort so one failure leaves nothing
 * behind. A call to run() while another is under way waits for it, then runs any steps added
 * since, so a signal handler and the bench's own `finally` can both call it.
 */
export class Cleanups {
  private readonly steps: (() => Promise<unknown>)[] = [];
  private running: Promise<void> = Promise.resolve();

  add(step: () => Promise<unknown>): void {
    this.steps.unshift(step);
  }

  run(): Promise<void> {
    this.running = this.running.then(async () => {
      for (let step = this.steps.shift(); step; step = this.steps.shift())
        await step().catch((err: unknown) => log(`cleanup: ${String(err)}`));
    });
    return this.running;
  }
}

/**
 * Names a fresh `rls_bench_<id>` database (its drop is registered; it is not created here), a
 * queue prefix and a free port, and returns the service's environment for them.
 */
export async function serviceSetup(cleanups: Cleanups, extraEnv: Record<string, string> = {}): Promise<ServiceSetup> {
  const runId = randomBytes(5).toString('hex');
  const databaseUrl = `${PG_URL}/rls_bench_${runId}`;
  cleanups.add(() => dropDatabase(databaseUrl));
  const port = await freePort();
  const adminToken = `bench-admin-${randomBytes(16).toString('hex')}`;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    QUEUE_PREFIX: `bench-${runId}`,
    // Benchmarks drive the service with few tokens, faster than the default budgets allow: the
    // limits are counted as usual (their cost is part of what is measured) but set out of reach.
    // BENCH_RATE_LIMITS=off turns the per-request budget off, to measure what counting it costs.
    RATE_LIMIT_PER_SECOND: process.env.BENCH_RATE_LIMITS === 'off' ? '0' : '1000000',
    RATE_LIMIT_CONFIGURATION_VERSIONS_PER_MINUTE: '1000000',
    RATE_LIMIT_VERIFICATIONS_PER_HOST_PER_MINUTE: '1000000',
    MAX_CONCURRENT_VERIFICATIONS_PER_HOST: '0',
    RATE_LIMIT_INVITATIONS_PER_MINUTE: '1000000',
    RATE_LIMIT_INVITATIONS_PER_HOUR: '1000000',
    // Explicit so the run never creates a development key file in the working directory.
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SITE_ADMIN_TOKEN: adminToken,
    PORT: String(port),
    BASE_URL: `http://${HOST}:${port}`,
    ...extraEnv,
  };
  return { env, databaseUrl, port, baseUrl: loadConfig(env).baseUrl, adminToken };
}

/**
 * Opens the service's connections (database, Redis, queues, object store) in this process, without
 * the API or any worker; registers the deletion of the queue prefix's Redis keys and the close.
 */
export function openSetupRuntime(cleanups: Cleanups, setup: ServiceSetup): Runtime {
  const config = loadConfig(setup.env);
  const rt = openRuntime(config, createRunLifecycle(config), createLogger(config.logLevel));
  cleanups.add(() => closeRuntime(rt));
  cleanups.add(() => flushQueueKeys(rt));
  return rt;
}

/** A fresh setup (see serviceSetup) whose database is created and migrated, with its runtime opened in this process (see openSetupRuntime). */
export async function migratedSetup(cleanups: Cleanups): Promise<{ setup: ServiceSetup; rt: Runtime }> {
  const setup = await serviceSetup(cleanups);
  await migrateLatest(setup.databaseUrl);
  return { setup, rt: openSetupRuntime(cleanups, setup) };
}

/** Starts the real API in this process on an already migrated setup's database; registers its teardown. */
export async function startServiceOn(cleanups: Cleanups, setup: ServiceSetup): Promise<Service> {
  const rt = openSetupRuntime(cleanups, setup);
  const web = await startWeb(rt, setup.port);
  cleanups.add(() => web.stop());
  return { rt, web, baseUrl: setup.baseUrl, adminToken: setup.adminToken, databaseUrl: setup.databaseUrl };
}

/** Migrates a fresh `rls_bench_<id>` database and starts the real service on it; registers its teardown. */
export async function startService(cleanups: Cleanups, extraEnv: Record<string, string> = {}): Promise<Service> {
  const setup = await serviceSetup(cleanups, extraEnv);
  await migrateLatest(setup.databaseUrl);
  return startServiceOn(cleanups, setup);
}

/** Deletes every Redis key of the run's queue prefix. */
async function flushQueueKeys(rt: Runtime): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await rt.redis.scan(cursor, 'MATCH', `${bullPrefix(rt.config.queuePrefix)}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length) await rt.redis.del(...keys);
  } while (cursor !== '0');
}

// ---------------------------------------------------------------- the service as its own processes

/**
 * How the service's processes are laid out: `embedded` is `npm start` (bin/all.ts: API and
 * every worker in one process, which migrates the database itself); `procfile` is the Procfile's
 * `web` process and one `node dist/bin/workers.js <queues>` process, at the niceness the Procfile
 * gives those queues (see procfileNice), after the release step's migration.
 */
export type Layout = 'embedded' | 'procfile';

export const LAYOUTS: readonly Layout[] = ['embedded', 'procfile'];

const EMBEDDED_MAIN = fileURLToPath(new URL('../bin/all.js', import.meta.url));
const WEB_MAIN = fileURLToPath(new URL('../bin/web.js', import.meta.url));
const WORKERS_MAIN = fileURLToPath(new URL('../bin/workers.js', import.meta.url));
const PROCFILE = fileURLToPath(new URL('../../Procfile', import.meta.url));
// What a service process may take to become ready, migrations included.
const READY_TIMEOUT_MS = 60_000;
// What a service process may take to stop after SIGTERM (its own budget is SHUTDOWN_BUDGET_MS, 10 s).
const STOP_TIMEOUT_MS = 15_000;
// The tail of a process's output kept for the report when it exits unexpectedly.
const OUTPUT_TAIL = 8_000;

/**
 * The niceness the Procfile starts a worker process for `queues` with: its process types are
 * named after the queues, and one that hosts several takes the highest priority among them (a
 * `nice -n N` before a command; 0 without).
 */
export function procfileNice(queues: readonly QueueName[]): number {
  if (!queues.length) return 0;
  return Math.min(
    ...queues.map((queue) => {
      const command = procfileCommands().get(queue);
      if (command === undefined) throw new Error(`the Procfile has no ${queue} process`);
      return Number(/^nice -n (-?\d+) /.exec(command)?.[1] ?? '0');
    }),
  );
}

let procfile: Map<string, string> | undefined;
/** The Procfile's commands by process type, read once. */
function procfileCommands(): Map<string, string> {
  procfile ??= new Map(
    readFileSync(PROCFILE, 'utf8')
      .split('\n')
      .map((line) => /^([\w-]+):\s*(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1], m[2]]),
  );
  return procfile;
}

/** A service process exited before the bench asked it to stop. */
export class ServiceExit extends Error {}

/** One service process: its role (`embedded`, `web` or `worker`), the child and its output so far. */
export interface ServiceProcess {
  role: string;
  child: ChildProcess;
  pid: number;
  /** The last few KB of its stdout and stderr, interleaved as they arrived. */
  output(): string;
}

export interface ServiceProcesses {
  layout: Layout;
  processes: ServiceProcess[];
  /** The base URL of each web process (one, or `copies` of them when scaled out). */
  webUrls: string[];
  /** Rejects with a ServiceExit when one exits before stop() asked it to (its last output is printed then). */
  failed: Promise<never>;
  /** SIGTERM to every process, then SIGKILL to its process group past a timeout; resolves once all have exited. */
  stop(): Promise<void>;
}

/** Resident set size now and at its peak, in KiB, from /proc (null where there is no /proc). */
export async function memoryKiB(pid: number): Promise<{ rss: number; peak: number } | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: field('VmRSS'), peak: field('VmHWM') };
  } catch {
    return null;
  }
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

// Process groups of service processes still running; the last resort when the bench exits
// without its cleanups (a second signal, process.exit elsewhere) kills them.
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killLiveGroups(): void {
  for (const pgid of liveGroups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * Starts the service as its own processes on a setup, the way operators run it, and waits until
 * the API answers GET /api/v2/ping and a worker listens on each of `workerQueues` (`rt`, the
 * bench's own connections to the same Redis, counts them). Each process inherits only PATH and
 * HOME from the bench's environment besides the setup's variables, so a service variable set in
 * the shell changes nothing, as with startService. Each runs in its own process group: a Ctrl-C
 * at the terminal reaches only the bench, which stops them in order. Their stop is registered.
 */
export async function startServiceProcesses(
  cleanups: Cleanups,
  setup: ServiceSetup,
  rt: Runtime,
  layout: Layout,
  workerQueues: readonly QueueName[],
  /** `procfile` scaled out: this many web processes (on ports of their own) and this many processes of each worker queue. */
  copies = 1,
): Promise<ServiceProcesses> {
  if (!exitHookInstalled) process.once('exit', killLiveGroups);
  exitHookInstalled = true;
  const env: Record<string, string> = { ...setup.env };
  for (const key of ['PATH', 'HOME']) if (process.env[key] !== undefined) env[key] = process.env[key];
  let stopping = false;
  let reportFailure: (err: Error) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => (reportFailure = reject));
  // Nobody need be waiting on it when a process fails: the exit handler prints the failure anyway.
  failed.catch(() => undefined);
  const processes: ServiceProcess[] = [];

  /** `nice`: the niceness the process gets at once, before it starts anything (its children inherit it). */
  const start = (
    role: string,
    script: string,
    args: string[],
    extraEnv: Record<string, string> = {},
    nice = 0,
  ): ServiceProcess => {
    // BENCH_CPU_PROFILE_DIR: each service process writes a V8 CPU profile there when it stops.
    const profile = process.env.BENCH_CPU_PROFILE_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE_DIR}`]
      : [];
    const child = spawn(process.execPath, [...profile, script, ...args], {
      env: { ...env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.once('error', (err) => reportFailure(new Error(`service process ${role} (${script}): ${err.message}`)));
    if (child.pid === undefined) throw new Error(`could not start the ${role} process (${script})`);
    const pid = child.pid;
    liveGroups.add(pid);
    if (nice) setPriority(pid, nice);
    let tail = '';
    const keep = (d: Buffer) => void (tail = (tail + d.toString()).slice(-OUTPUT_TAIL));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.once('exit', (code, signal) => {
      liveGroups.delete(pid);
      if (stopping) return;
      // Printed now, whoever waits on `failed` (maybe nobody yet).
      const what = `service process ${role} (pid ${pid}) exited unexpectedly (${signal ?? `code ${code}`})`;
      log(`${what}; its last output:\n${tail.trimEnd() || '(none)'}`);
      reportFailure(new ServiceExit(`${what}; its output is above`));
    });
    const proc: ServiceProcess = { role, child, pid, output: () => tail };
    processes.push(proc);
    return proc;
  };

  const stopOne = async ({ child, pid }: ServiceProcess): Promise<void> => {
    if (!running(child)) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      log(`service process ${pid} still running ${STOP_TIMEOUT_MS} ms after SIGTERM: killing its process group`);
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };
  // The API first, so nothing new reaches the workers while they finish.
  const stop = async () => {
    stopping = true;
    for (const p of processes) await stopOne(p);
  };
  cleanups.add(stop);

  const webUrls = [setup.baseUrl];
  if (layout === 'embedded') {
    start('embedded', EMBEDDED_MAIN, []);
  } else if (copies === 1) {
    await migrateLatest(setup.databaseUrl);
    start('web', WEB_MAIN, []);
    start('worker', WORKERS_MAIN, [...workerQueues], {}, procfileNice(workerQueues));
  } else {
    await migrateLatest(setup.databaseUrl);
    start('web', WEB_MAIN, []);
    for (let i = 1; i < copies; i++) {
      const port = await freePort();
      webUrls.push(`http://${HOST}:${port}`);
      start('web', WEB_MAIN, [], { PORT: String(port) });
    }
    for (const queue of workerQueues)
      for (let i = 0; i < copies; i++) start(`worker ${queue}`, WORKERS_MAIN, [queue], {}, procfileNice([queue]));
  }
  try {
    await Promise.race([failed, Promise.all(webUrls.map((url) => waitUntilReady(url, rt, workerQueues, copies)))]);
  } catch (err) {
    if (!(err instanceof Error) || err instanceof ServiceExit) throw err;
    const outputs = processes.map((p) => `${p.role} (pid ${p.pid}):\n${p.output().trimEnd() || '(no output)'}`);
    throw new Error(`${err.message}; the service's output so far:\n${outputs.join('\n')}`);
  }
  return { layout, processes, webUrls, failed, stop };
}

/** Polls GET /api/v2/ping until it answers 204, then each queue's worker count until it is at least `workersPerQueue`. */
async function waitUntilReady(
  baseUrl: string,
  rt: Runtime,
  workerQueues: readonly QueueName[],
  workersPerQueue = 1,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const until = async (what: string, ready: () => Promise<boolean>) => {
    while (!(await ready())) {
      if (Date.now() > deadline) throw new Error(`the service was not ready within ${READY_TIMEOUT_MS} ms: ${what}`);
      await sleep(50);
    }
  };
  await until('GET /api/v2/ping did not answer 204', async () => {
    try {
      return (await fetch(`${baseUrl}/api/v2/ping`, { signal: AbortSignal.timeout(1_000) })).status === 204;
    } catch {
      return false; // not listening yet, or not answering
    }
  });
  for (const queue of workerQueues)
    await until(
      `fewer than ${workersPerQueue} worker(s) on ${queue}`,
      async () => (await rt.queues[queue].getWorkersCount()) >= workersPerQueue,
    );
}

/**
 * On SIGINT, SIGTERM or SIGHUP, runs `cleanups` (child processes stopped, database dropped, queue
 * keys deleted) and exits 130; a second signal exits at once (the `exit` hook still kills the
 * service's process groups).
 */
export function cleanupOnSignals(cleanups: Cleanups): void {
  let interrupted = false;
  const handle = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(130);
    interrupted = true;
    log(`${signal}: cleaning up (again to exit at once)`);
    void cleanups.run().then(() => process.exit(130));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, handle);
}

// ---------------------------------------------------------------- API client

export interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
}

export interface ApiDoc {
  data: Resource;
  included?: Resource[];
}

/**
 * Keeps connections open between calls, as the terraform CLI's HTTP client does. The client is
 * node:http rather than fetch: fetch spends about half a millisecond more of the client's own
 * time per request on this kind of machine, which timings that start before a request would
 * count against the service.
 */
const keepAlive = new http.Agent({ keepAlive: true });

/** Calls the real API as a client would; any non-2xx is fatal. Returns the document (or null for an empty body). */
export async function api(
  baseUrl: string,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<ApiDoc | null> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: JSON_API };
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  if (payload) Object.assign(headers, { 'content-type': JSON_API, 'content-length': String(payload.length) });
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(`${baseUrl}/api/v2${path}`, { method, headers, agent: keepAlive }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
  if (status < 200 || status > 299) throw new Error(`${method} ${path} -> ${status}: ${text}`);
  return text ? (JSON.parse(text) as ApiDoc) : null;
}

export const doc = (type: string, attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type, attributes, ...(relationships ? { relationships } : {}) },
});

export interface Fixture {
  token: string;
  org: string;
  workspaceId: string;
}

/** A user with its own token, an organization it owns and one workspace, all through the API. */
export async function createFixture(svc: Endpoint): Promise<Fixture> {
  const name = `bench-${randomBytes(4).toString('hex')}`;
  const post = async (token: string, path: string, body: unknown) =>
    (await api(svc.baseUrl, token, 'POST', path, body))!;
  const user = await post(
    svc.adminToken,
    '/admin/users',
    doc('users', { username: name, email: `${name}@example.test` }),
  );
  const tok = await post(
    svc.adminToken,
    `/users/${user.data.id}/authentication-tokens`,
    doc('authentication-tokens', { description: 'bench' }),
  );
  const token = String(tok.data.attributes.token);
  await post(token, '/organizations', doc('organizations', { name, email: `${name}@example.test` }));
  const ws = await post(token, `/organizations/${name}/workspaces`, doc('workspaces', { name: 'bench-fixture' }));
  return { token, org: name, workspaceId: ws.data.id };
}

/** Creates a configuration version that will not queue a run; returns its id and signed upload URL. */
export async function createCv(svc: Endpoint, fx: Fixture): Promise<{ id: string; uploadUrl: string }> {
  const cv = (await api(
    svc.baseUrl,
    fx.token,
    'POST',
    `/workspaces/${fx.workspaceId}/configuration-versions`,
    doc('configuration-versions', { 'auto-queue-runs': false }),
  ))!;
  return { id: cv.data.id, uploadUrl: String(cv.data.attributes['upload-url']) };
}

/** PUTs an archive to a signed upload URL without a token, as the CLI does. */
export async function putArchive(uploadUrl: string, archive: Buffer): Promise<void> {
  // A view, not a copy: a 50 MiB copy would be counted as upload time.
  const body = new Uint8Array(archive.buffer as ArrayBuffer, archive.byteOffset, archive.length);
  const res = await fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body });
  const text = await res.text();
  if (!res.ok) throw new Error(`PUT upload-url -> ${res.status}: ${text}`);
}

/** Polls a resource until `done` accepts its document; fails on `failed` statuses or after `timeoutMs`. */
export async function pollUntil(
  get: () => Promise<ApiDoc>,
  done: (d: ApiDoc) => boolean,
  opts: { intervalMs: number; timeoutMs: number; failed?: string[] },
): Promise<ApiDoc> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const d = await get();
    if (done(d)) return d;
    const status = String(d.data.attributes.status);
    if (opts.failed?.includes(status)) throw new Error(`${d.data.id} ended ${status}`);
    if (Date.now() > deadline) throw new Error(`${d.data.id} still ${status} after ${opts.timeoutMs} ms`);
    await sleep(opts.intervalMs);
  }
}

/** A real .tar.gz, made by the system `tar czf` from a temp directory holding `files` (name -> content). */
export async function tarGz(files: Record<string, string | Buffer>): Promise<Buffer> {
  const root = await mkdtemp(join(tmpdir(), 'bench-tgz-'));
  try {
    const src = join(root, 'src');
    await mkdir(src);
    for (const [name, content] of Object.entries(files)) await writeFile(join(src, name), content);
    await execFileP('tar', ['czf', join(root, 'archive.tar.gz'), '-C', src, '.']);
    return await readFile(join(root, 'archive.tar.gz'));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Stdout of a command, trimmed. */
export async function output(cmd: string, args: string[]): Promise<string> {
  return (await execFileP(cmd, args)).stdout.trim();
}

// ---------------------------------------------------------------- numbers

/** Nearest-rank percentile (p in 0..100) of unsorted samples. */
export function percentile(xs: readonly number[], p: number): number {
  if (!xs.length) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const MiB = 1024 * 1024;

/** Node version, cores and load: the context a result needs (other work on the machine skews it). */
export const machine = () =>
  `node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`;

/** Runs a benchmark's main and exits 0 on success, 1 with the stack otherwise. */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      log(`benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      process.exit(1);
    },
  );
}
