/*
 * Notification delivery benchmark: throughput of the notification-delivery worker and the latency
 * from a run event's commit to the destination, against a bare HTTP loop measured in the same run.
 *
 * - The destination (the sink) is a bare node:http server in the bench's own process: it checks
 *   every signature (HMAC-SHA512 hex over the raw body), answers 200 and notes when each request
 *   was whole.
 * - Throughput: the worker runs as real processes (`node dist/bin/workers.js notification-delivery`,
 *   1 and then 2 of them). Each round writes N delivery rows as run events write them (a real run
 *   payload from runPayload, without the run row), to enabled generic configurations with a token:
 *   events of F deliveries (F configurations notified by one event; F = 1 and F = 20, the most a
 *   workspace can have), each committed on its own by one of 8 concurrent producers and handed to
 *   the runtime's delivery rounds without waiting, as a run's move does, while the queue is paused; once every
 *   job is added, resumes the queue: the time from the resume to the last request at the sink.
 * - Baseline, alternating with the service rounds: child processes (one per worker process) that
 *   sign and POST the same bodies with the same headers through node-fetch, 8 at a time per process;
 *   once with a keep-alive agent (the bare loop, which the service's outbound client also keeps
 *   connections like) and, for reference, once opening a connection per request; and for reference
 *   the same keep-alive loop on Node's own HTTP client, without node-fetch, as the service's
 *   outbound client sends.
 * - Latency: runs created through the API (POST /runs) on workspaces whose one configuration is
 *   subscribed to run:created; nothing runs the run pipeline, so the runs stay pending. Measured
 *   from the COMMIT of the run's creation (the web process's knex `query` event) and from the
 *   POST's response to the sink holding that run's notification, and split with the job's own
 *   timestamps.
 *
 * Loopback only; the worker processes, loop processes, database and queue keys are removed at the end.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import http, { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fetch from 'node-fetch';
import pg from 'pg';
import { newId } from '../shared/platform/ids.js';
import { runPayload } from '../shared/notifications/payloads.js';
import { MAX_CONFIGURATIONS_PER_WORKSPACE } from '../shared/notifications/machine.js';
import { firstTries } from '../shared/platform/queues.js';
import { startWorkers } from '../workers/bootstrap.js';
import {
  api,
  backendPids,
  Cleanups,
  createCv,
  createFixture,
  doc,
  HOST,
  log,
  machine,
  output,
  percentile,
  procCpuMs,
  putArchive,
  runMain,
  sleep,
  startService,
  tarGz,
  type Fixture,
  type Service,
} from './support.js';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? '2000');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? '3');
const LATENCY_RUNS = Number(process.env.BENCH_LATENCY_RUNS ?? '200');
const LATENCY_WORKSPACES = Number(process.env.BENCH_WORKSPACES ?? '40');
const LATENCY_WARMUP = 10;
const WARMUP_DELIVERIES = 300;
const GAP_MS = 20;
// workers/processors.ts: concurrency(rt, 'notification-delivery') is 8 per process.
const WORKER_CONCURRENCY = 8;
const ROUND_TIMEOUT_MS = 120_000;
// BENCH_PROFILE=1: the 1-process stage's worker runs with --cpu-prof; its profile is summarised by
// package. BENCH_CPU_PROFILE_DIR=<dir> does the same and keeps the profile there.
const KEPT_PROFILE_DIR = process.env.BENCH_CPU_PROFILE_DIR;
const PROFILE = process.env.BENCH_PROFILE === '1' || KEPT_PROFILE_DIR !== undefined;
// Deliveries per event: how many configurations one event notifies (20 is the most per workspace).
const FANOUTS = (process.env.BENCH_FANOUTS ?? '1,20').split(',').map(Number);
// Events committed and queued at once while a round's backlog is written, as a busy service would.
const PRODUCERS = 8;
const CONFIG = 'resource "terraform_data" "a" { input = "x" }\n';
const WORKERS_MAIN = fileURLToPath(new URL('../bin/workers.js', import.meta.url));
// The headers workers/notification-delivery.ts signs into (not exported there).
const SIGNATURE_HEADERS = ['X-Svc-Notification-Signature', 'X-TFE-Notification-Signature'];

/** An instant in the bench's process: monotonic for intervals here, wall clock against other processes. */
interface Instant {
  mono: number;
  wall: number;
}

const now = (): Instant => ({ mono: performance.now(), wall: Date.now() });

// ---------------------------------------------------------------- the destination

interface Sink {
  url: string;
  /** Requests whose signature did not match: must stay none. */
  badSignatures: number;
  /** Notifications about runs that no expect() waited for (the latency runs), by run id, with their raw bodies. */
  byRun: Map<string, { at: Instant; raw: string }>;
  /** Resolves with the arrival of every delivery id (X-Svc-Delivery-Id) in `ids`. */
  expect(ids: readonly string[]): Promise<Map<string, Instant>>;
  close(): Promise<void>;
}

async function startSink(token: string): Promise<Sink> {
  let waiting: { ids: Set<string>; arrivals: Map<string, Instant>; resolve: (m: Map<string, Instant>) => void } | null =
    null;
  const state = { badSignatures: 0 };
  const byRun = new Map<string, { at: Instant; raw: string }>();
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const at = now();
      const raw = Buffer.concat(parts);
      const expected = createHmac('sha512', token).update(raw).digest('hex');
      if (req.headers['x-svc-notification-signature'] !== expected) state.badSignatures++;
      res.statusCode = 200;
      res.end();
      const id = String(req.headers['x-svc-delivery-id'] ?? '');
      const runId = (JSON.parse(raw.toString('utf8')) as { run_id?: string | null }).run_id;
      if (waiting?.ids.delete(id)) {
        waiting.arrivals.set(id, at);
        if (!waiting.ids.size) {
          waiting.resolve(waiting.arrivals);
          waiting = null;
        }
      } else if (runId && !byRun.has(runId)) {
        byRun.set(runId, { at, raw: raw.toString('utf8') });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  return {
    url: `http://${HOST}:${(server.address() as AddressInfo).port}/notify`,
    get badSignatures() {
      return state.badSignatures;
    },
    byRun,
    expect: (ids) =>
      new Promise<Map<string, Instant>>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `${waiting?.ids.size ?? 0} of ${ids.length} requests not at the sink after ${ROUND_TIMEOUT_MS} ms`,
              ),
            ),
          ROUND_TIMEOUT_MS,
        );
        waiting = { ids: new Set(ids), arrivals: new Map(), resolve: (m) => (clearTimeout(timer), resolve(m)) };
      }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---------------------------------------------------------------- the bare loop (child processes)

interface Item {
  id: string;
  body: string;
  configurationId?: string;
  eventKey?: string;
}

type LoopCommand =
  | {
      type: 'load';
      url: string;
      token: string;
      userAgent: string;
      items: Item[];
      concurrency: number;
      keepAlive: boolean;
      client: LoopClient;
      gapMs: number;
    }
  | { type: 'go' };
type LoopReply = { type: 'loaded' } | { type: 'done'; latencies: number[] } | { type: 'error'; error: string };

/** What a loop sends with: node-fetch (the baseline), or Node's own HTTP client (a reference). */
type LoopClient = 'node-fetch' | 'node:http';

/** One POST through Node's own HTTP client, its answer read whole; resolves to the status. */
function postWithNodeHttp(
  url: string,
  headers: Record<string, string>,
  body: string,
  agent: http.Agent,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, agent },
      (res) => {
        res.on('data', () => undefined);
        res.once('end', () => resolve(res.statusCode ?? 0));
        res.once('error', reject);
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

/** Child side: sign and POST the loaded items, `concurrency` at a time, with plain node-fetch (or Node's HTTP client). */
function loopChild(): void {
  let loaded: Extract<LoopCommand, { type: 'load' }> | null = null;
  const reply = (m: LoopReply) => process.send!(m);
  const run = async (l: NonNullable<typeof loaded>) => {
    const agent = new http.Agent({ keepAlive: l.keepAlive });
    const latencies: number[] = new Array<number>(l.items.length);
    let next = 0;
    const lane = async () => {
      while (next < l.items.length) {
        const i = next++;
        const { id, body } = l.items[i];
        const t0 = performance.now();
        const signature = createHmac('sha512', l.token).update(body).digest('hex');
        const headers: Record<string, string> = {
          'Content-Type': 'application/json',
          'User-Agent': l.userAgent,
          'X-Svc-Delivery-Id': id,
        };
        for (const h of SIGNATURE_HEADERS) headers[h] = signature;
        let status: number;
        if (l.client === 'node:http') status = await postWithNodeHttp(l.url, headers, body, agent);
        else {
          const res = await fetch(l.url, { method: 'POST', headers, body, agent });
          await res.arrayBuffer();
          status = res.status;
        }
        if (status !== 200) throw new Error(`sink answered ${status}`);
        latencies[i] = performance.now() - t0;
        if (l.gapMs) await sleep(l.gapMs);
      }
    };
    await Promise.all(Array.from({ length: l.concurrency }, lane));
    agent.destroy();
    reply({ type: 'done', latencies });
  };
  process.on('message', (m: LoopCommand) => {
    if (m.type === 'load') {
      loaded = m;
      reply({ type: 'loaded' });
    } else if (loaded) {
      void run(loaded).catch((err: unknown) => reply({ type: 'error', error: String(err) }));
    }
  });
  process.on('disconnect', () => process.exit(0));
  // Exits as a process ended by SIGTERM would, but through exit, so a CPU profile is written.
  process.on('SIGTERM', () => process.exit(0));
}

class Loop {
  private constructor(readonly child: ChildProcess) {}

  static start(cleanups: Cleanups): Loop {
    // With BENCH_CPU_PROFILE_DIR the loop processes are profiled too, to compare with the worker's profile.
    const execArgv = KEPT_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${KEPT_PROFILE_DIR}`] : [];
    const child = fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, BENCH_ROLE: 'loop' },
      execArgv,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    cleanups.add(() => stopChild(child));
    return new Loop(child);
  }

  private ask(cmd: LoopCommand): Promise<LoopReply> {
    return new Promise<LoopReply>((resolve, reject) => {
      const onExit = () => reject(new Error('loop process exited'));
      this.child.once('exit', onExit);
      this.child.once('message', (m: LoopReply) => {
        this.child.off('exit', onExit);
        if (m.type === 'error') reject(new Error(m.error));
        else resolve(m);
      });
      this.child.send(cmd);
    });
  }

  async load(cmd: Extract<LoopCommand, { type: 'load' }>): Promise<void> {
    await this.ask(cmd);
  }

  async go(): Promise<{ latencies: number[] }> {
    const m = await this.ask({ type: 'go' });
    if (m.type !== 'done') throw new Error(`loop answered ${m.type}`);
    return m;
  }
}

// ---------------------------------------------------------------- the service's worker processes

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** `node dist/bin/workers.js notification-delivery` with the service's database, queues and key. */
function spawnWorker(svc: Service, cleanups: Cleanups, profileDir: string | null): ChildProcess {
  const c = svc.rt.config;
  const env = {
    DATABASE_URL: c.databaseUrl,
    QUEUE_PREFIX: c.queuePrefix,
    REDIS_URL: c.redisUrl,
    ENCRYPTION_KEY: c.encryptionKey.toString('hex'),
    OUTBOUND_ALLOWED_CIDRS: '127.0.0.0/8',
    LOG_LEVEL: 'error',
  };
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...profile, WORKERS_MAIN, 'notification-delivery'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (d: Buffer) => (errors = (errors + d.toString()).slice(-4000)));
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') log(`worker ${child.pid} exited ${code ?? signal}: ${errors}`);
  });
  cleanups.add(() => stopChild(child));
  return child;
}

// ---------------------------------------------------------------- CPU accounting (from /proc)

// redis-server is shared with whatever else runs on the host; its CPU in the baseline rounds (which use no Redis) is that background.
let redisPids: number[] = [];

/** Busy and total jiffies of the whole machine. */
async function machineTicks(): Promise<{ busy: number; total: number }> {
  const [cpu] = (await readFile('/proc/stat', 'utf8')).split('\n');
  const xs = cpu.trim().split(/\s+/).slice(1).map(Number);
  const total = xs.reduce((a, b) => a + b, 0);
  return { busy: total - xs[3] - (xs[4] ?? 0), total };
}

interface CpuSnapshot {
  workers: number;
  loops: number;
  redis: number;
  postgres: Map<number, number>;
  self: NodeJS.CpuUsage;
  machine: { busy: number; total: number };
}

/** CPU ms used per request by each part, and how busy the machine was (share of all cores). */
interface CpuUse {
  worker: number;
  loop: number;
  postgres: number;
  redis: number;
  sink: number;
  machineBusy: number;
}

async function sumCpu(pids: number[]): Promise<number> {
  return (await Promise.all(pids.map(procCpuMs))).reduce((a, b) => a + b, 0);
}

async function cpuSnapshot(watcher: pg.Client, workers: ChildProcess[], loops: Loop[]): Promise<CpuSnapshot> {
  const pgPids = await backendPids(watcher);
  const postgres = new Map(await Promise.all(pgPids.map(async (p) => [p, await procCpuMs(p)] as const)));
  return {
    workers: await sumCpu(workers.map((w) => w.pid!)),
    loops: await sumCpu(loops.map((l) => l.child.pid!)),
    redis: await sumCpu(redisPids),
    postgres,
    self: process.cpuUsage(),
    machine: await machineTicks(),
  };
}

async function cpuUse(
  before: CpuSnapshot,
  watcher: pg.Client,
  workers: ChildProcess[],
  loops: Loop[],
  n: number,
): Promise<CpuUse> {
  const after = await cpuSnapshot(watcher, workers, loops);
  let postgres = 0;
  for (const [pid, ms] of after.postgres) postgres += ms - (before.postgres.get(pid) ?? 0);
  const self = process.cpuUsage(before.self);
  return {
    worker: (after.workers - before.workers) / n,
    loop: (after.loops - before.loops) / n,
    postgres: postgres / n,
    redis: (after.redis - before.redis) / n,
    sink: (self.user + self.system) / 1000 / n,
    machineBusy: (after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total),
  };
}

// ---------------------------------------------------------------- fixtures

interface Target {
  svc: Service;
  fx: Fixture;
  /** Configurations of the fixture workspace, one per delivery of an event (as many as the largest fan-out). */
  configurationIds: string[];
  watcher: pg.Client;
  sink: Sink;
  token: string;
}

/** Runs `fn` over `items`, `width` at a time. */
async function inParallel<T>(
  items: readonly T[],
  width: number,
  fn: (item: T, i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

/** An enabled generic configuration with a token, subscribed to run:created (verified by the verification worker). */
async function createConfiguration(
  svc: Service,
  fx: Fixture,
  workspaceId: string,
  sink: Sink,
  token: string,
): Promise<string> {
  const attrs = {
    'destination-type': 'generic',
    enabled: true,
    name: 'bench-hook',
    token,
    url: sink.url,
    triggers: ['run:created'],
  };
  return (await api(
    svc.baseUrl,
    fx.token,
    'POST',
    `/workspaces/${workspaceId}/notification-configurations`,
    doc('notification-configuration', attrs),
  ))!.data.id;
}

/** `count` workspaces with a configuration uploaded and one configuration subscribed to run:created. */
async function latencyWorkspaces(
  svc: Service,
  fx: Fixture,
  sink: Sink,
  token: string,
  count: number,
): Promise<string[]> {
  const archive = await tarGz({ 'main.tf': CONFIG });
  const ids: string[] = new Array<string>(count);
  await inParallel(
    Array.from({ length: count }, (_, i) => i),
    4,
    async (i) => {
      const ws = (await api(
        svc.baseUrl,
        fx.token,
        'POST',
        `/organizations/${fx.org}/workspaces`,
        doc('workspaces', { name: `latency-${i}` }),
      ))!;
      const cv = await createCv(svc, { ...fx, workspaceId: ws.data.id });
      await putArchive(cv.uploadUrl, archive);
      await createConfiguration(svc, fx, ws.data.id, sink, token);
      ids[i] = ws.data.id;
    },
  );
  return ids;
}

/** The User-Agent the worker sends (workers/notification-delivery.ts). */
const userAgent = (t: Target) => `${t.svc.rt.config.runTaskAgentName}-Notifications/1.0`;

/**
 * Deliveries as a run's `created` transition writes them: one real run payload each, serialised
 * once, the configurations taken in turn (so any F consecutive ones belong to F configurations).
 */
function makeItems(t: Target, n: number): Item[] {
  const at = new Date();
  return Array.from({ length: n }, (_, i) => {
    const runId = newId('run');
    const configurationId = t.configurationIds[i % t.configurationIds.length];
    const payload = runPayload({
      configurationId,
      baseUrl: t.svc.baseUrl,
      trigger: 'run:created',
      run: {
        id: runId,
        message: 'Queued manually via the Terraform Enterprise API',
        status: 'pending',
        created_at: at,
        updated_at: at,
      },
      runCreatedBy: t.fx.org,
      runUpdatedBy: t.fx.org,
      workspace: { id: t.fx.workspaceId, name: 'bench-fixture' },
      organizationName: t.fx.org,
    });
    return { id: newId('ndel'), body: JSON.stringify(payload), configurationId, eventKey: `${runId}:run:created` };
  });
}

// ---------------------------------------------------------------- throughput rounds

interface Round {
  /** Jobs the round's deliveries were queued in (service rounds). */
  jobs?: number;
  rate: number;
  elapsedMs: number;
  firstMs: number;
  requestMs: number[];
  cpu: CpuUse;
}

const rateOf = (n: number, t0: number, arrivals: Map<string, Instant>) => {
  const times = [...arrivals.values()].map((a) => a.mono);
  const elapsedMs = Math.max(...times) - t0;
  return { rate: (n * 1000) / elapsedMs, elapsedMs, firstMs: Math.min(...times) - t0 };
};

/**
 * Writes the round's deliveries as events of `fanout` rows, each committed on its own and queued as
 * the service queues an event's deliveries, on the paused queue; then resumes it and times the drain.
 */
async function serviceRound(t: Target, workers: ChildProcess[], base: Item[], fanout: number): Promise<Round> {
  const { db, queues, deliveries } = t.svc.rt;
  const queue = queues['notification-delivery'];
  await queue.pause();
  const queuedBefore = await queue.count();
  const items = base.map((it) => ({ ...it, id: `${it.id}-f${fanout}`, eventKey: `${it.eventKey}:f${fanout}` }));
  const events = Array.from({ length: Math.ceil(items.length / fanout) }, (_, i) =>
    items.slice(i * fanout, (i + 1) * fanout),
  );
  // Like a run's move, a producer hands its event's deliveries to the next round without waiting for it.
  const rounds: Promise<void>[] = [];
  await inParallel(events, PRODUCERS, async (event) => {
    const rows = event.map((it) => ({
      id: it.id,
      configuration_id: it.configurationId,
      run_id: null,
      event_key: it.eventKey,
      trigger: 'run:created',
      payload: it.body,
    }));
    await db('notification_deliveries').insert(rows);
    rounds.push(
      deliveries.add(
        firstTries(
          rows.map((r) => r.id),
          t.fx.org,
        ),
      ),
    );
  });
  await Promise.all(rounds);
  const jobs = (await queue.count()) - queuedBefore;
  const ids = items.map((it) => it.id);
  const cpu0 = await cpuSnapshot(t.watcher, workers, []);
  const arrived = t.sink.expect(ids);
  const t0 = performance.now();
  await queue.resume();
  const arrivals = await arrived;
  const timing = rateOf(items.length, t0, arrivals);
  // Rows settle just after the answer; wait for them before reading CPU and attempts.
  for (const deadline = Date.now() + 10_000; ; await sleep(20)) {
    const { rows } = await t.watcher.query<{ n: number }>(
      `select count(*)::int as n from notification_deliveries where id = any($1::text[]) and status = 'delivered' and attempts = 1`,
      [ids],
    );
    if (rows[0].n === ids.length) break;
    if (Date.now() > deadline)
      throw new Error(`only ${rows[0].n} of ${ids.length} deliveries settled delivered at the first attempt`);
  }
  const cpu = await cpuUse(cpu0, t.watcher, workers, [], items.length);
  const { rows } = await t.watcher.query<{ ms: number }>(
    'select duration_ms as ms from notification_delivery_attempts where delivery_id = any($1::text[])',
    [ids],
  );
  return { ...timing, jobs, requestMs: rows.map((r) => r.ms), cpu };
}

/** The same bodies through the loop processes, split evenly, sending as `side` says (LOOPS). */
async function baselineRound(t: Target, loops: Loop[], items: Item[], side: LoopSide): Promise<Round> {
  const { keepAlive, client } = LOOPS[side];
  const tag = randomBytes(3).toString('hex');
  const renamed = items.map((it) => ({ id: `${it.id}-b${tag}`, body: it.body }));
  const parts = loops.map((_, i) => renamed.filter((_, j) => j % loops.length === i));
  await Promise.all(
    loops.map((l, i) =>
      l.load({
        type: 'load',
        url: t.sink.url,
        token: t.token,
        userAgent: userAgent(t),
        items: parts[i],
        concurrency: WORKER_CONCURRENCY,
        keepAlive,
        client,
        gapMs: 0,
      }),
    ),
  );
  const cpu0 = await cpuSnapshot(t.watcher, [], loops);
  const arrived = t.sink.expect(renamed.map((it) => it.id));
  const t0 = performance.now();
  const done = await Promise.all(loops.map((l) => l.go()));
  const arrivals = await arrived;
  const timing = rateOf(items.length, t0, arrivals);
  const cpu = await cpuUse(cpu0, t.watcher, [], loops, items.length);
  return { ...timing, requestMs: done.flatMap((d) => d.latencies), cpu };
}

/** The bare loops: the baseline (`keepalive`) and its two references, with how each sends. */
const LOOPS = {
  keepalive: { keepAlive: true, client: 'node-fetch' },
  fresh: { keepAlive: false, client: 'node-fetch' },
  'node-http': { keepAlive: true, client: 'node:http' },
} as const satisfies Record<string, { keepAlive: boolean; client: LoopClient }>;
type LoopSide = keyof typeof LOOPS;

/** A side of a throughput round: one of the bare loops, or the service fed events of F deliveries (`events-F`). */
type Side = LoopSide | `events-${number}`;
const serviceSides = (): Side[] => FANOUTS.map((f) => `events-${f}` as const);
const isService = (side: Side): side is `events-${number}` => side.startsWith('events-');
const fanoutOf = (side: Side) => Number(side.slice('events-'.length));

async function warmUp(t: Target, workers: ChildProcess[], loops: Loop[]): Promise<void> {
  for (const f of FANOUTS) await serviceRound(t, workers, makeItems(t, WARMUP_DELIVERIES), f);
  for (const side of Object.keys(LOOPS) as LoopSide[])
    await baselineRound(t, loops, makeItems(t, WARMUP_DELIVERIES), side);
}

/** ROUNDS rounds of every side on the same bodies, the order rotating from round to round. */
async function throughput(t: Target, workers: ChildProcess[], loops: Loop[]): Promise<Map<Side, Round[]>> {
  const sides: Side[] = ['keepalive', ...serviceSides(), 'fresh', 'node-http'];
  const out = new Map<Side, Round[]>(sides.map((s) => [s, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const items = makeItems(t, DELIVERIES);
    const order = [...sides.slice(r % sides.length), ...sides.slice(0, r % sides.length)];
    for (const side of order) {
      const round = isService(side)
        ? await serviceRound(t, workers, items, fanoutOf(side))
        : await baselineRound(t, loops, items, side);
      out.get(side)!.push(round);
      await sleep(200);
    }
    const rates = sides.map((s) => `${s} ${out.get(s)![r].rate.toFixed(0)}/s`).join(', ');
    log(`  ${workers.length} process(es), round ${r + 1}/${ROUNDS}: ${rates}`);
  }
  return out;
}

// ---------------------------------------------------------------- latency: run created -> notification

interface LatencySample {
  runId: string;
  sent: Instant;
  answered: Instant;
  commit: Instant | null;
  received: Instant;
  rowWritten: number;
  jobAdded: number;
  pickedUp: number;
  finished: number;
  sendMs: number;
}

async function latency(t: Target, workspaces: string[]): Promise<LatencySample[]> {
  const { svc, fx, sink, watcher } = t;
  const commits: Instant[] = [];
  const onQuery = (q: { sql?: string }) => {
    if (/^commit/i.test(q.sql ?? '')) commits.push(now());
  };
  svc.rt.db.on('query', onQuery);
  const runs: Omit<LatencySample, 'received' | 'rowWritten' | 'jobAdded' | 'pickedUp' | 'finished' | 'sendMs'>[] = [];
  try {
    for (let i = 0; i < LATENCY_WARMUP + LATENCY_RUNS; i++) {
      commits.length = 0;
      const sent = now();
      const body = doc(
        'runs',
        {},
        { workspace: { data: { type: 'workspaces', id: workspaces[i % workspaces.length] } } },
      );
      const runId = (await api(svc.baseUrl, fx.token, 'POST', '/runs', body))!.data.id;
      const answered = now();
      // One transaction per POST /runs (the run, its event and its deliveries); anything else would be ambiguous.
      if (i >= LATENCY_WARMUP) runs.push({ runId, sent, answered, commit: commits.length === 1 ? commits[0] : null });
      await sleep(GAP_MS);
    }
  } finally {
    svc.rt.db.off('query', onQuery);
  }
  for (const deadline = Date.now() + 30_000; !runs.every((r) => sink.byRun.has(r.runId)); await sleep(20)) {
    if (Date.now() > deadline) throw new Error('not every run notification reached the sink');
  }
  await sleep(500);
  const runIds = runs.map((r) => r.runId);
  const { rows } = await watcher.query<{
    id: string;
    run_id: string;
    ms: number;
    attempts: number;
    status: string;
    send_ms: number;
  }>(
    `select d.id, d.run_id, (extract(epoch from d.created_at) * 1000)::float8 as ms, d.attempts, d.status, a.duration_ms as send_ms
     from notification_deliveries d join notification_delivery_attempts a on a.delivery_id = d.id where d.run_id = any($1::text[])`,
    [runIds],
  );
  const samples: LatencySample[] = [];
  for (const r of runs) {
    const d = rows.find((x) => x.run_id === r.runId);
    if (!d || d.attempts !== 1 || d.status !== 'delivered')
      throw new Error(`run ${r.runId}: delivery ${d ? `${d.status} after ${d.attempts} attempts` : 'missing'}`);
    const job = await svc.rt.queues['notification-delivery'].getJob(`${d.id}-a1`);
    if (!job?.processedOn || !job.finishedOn) throw new Error(`run ${r.runId}: delivery job not found`);
    samples.push({
      ...r,
      received: sink.byRun.get(r.runId)!.at,
      rowWritten: d.ms,
      jobAdded: job.timestamp,
      pickedUp: job.processedOn,
      finished: job.finishedOn,
      sendMs: d.send_ms,
    });
  }
  return samples;
}

/** The latency runs' own bodies, one at a time with the same gap, through a loop process. */
async function pacedBaseline(t: Target, loop: Loop, samples: LatencySample[], keepAlive: boolean): Promise<number[]> {
  const items = samples.map((s) => ({
    id: `paced-${s.runId}-${keepAlive ? 'k' : 'f'}`,
    body: t.sink.byRun.get(s.runId)!.raw,
  }));
  await loop.load({
    type: 'load',
    url: t.sink.url,
    token: t.token,
    userAgent: userAgent(t),
    items,
    concurrency: 1,
    keepAlive,
    client: 'node-fetch',
    gapMs: GAP_MS,
  });
  const arrived = t.sink.expect(items.map((it) => it.id));
  const { latencies } = await loop.go();
  await arrived;
  return latencies;
}

// ---------------------------------------------------------------- report

const fmt = (x: number) => (Number.isNaN(x) ? 'n/a' : Math.abs(x) < 10 ? x.toFixed(1) : x.toFixed(0));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const HEADER = ['| Measure (ms) | n | p50 | p99 | mean | max |', '|---|---:|---:|---:|---:|---:|'];
const row = (name: string, xs: number[]) =>
  `| ${name} | ${xs.length} | ${fmt(percentile(xs, 50))} | ${fmt(percentile(xs, 99))} | ${fmt(mean(xs))} | ${fmt(Math.max(...xs))} |`;

function throughputTable(byProcs: Map<number, Map<Side, Round[]>>): string {
  const lines = [
    `Throughput: ${DELIVERIES} deliveries per round, ${ROUNDS} rounds per side, ${WORKER_CONCURRENCY} jobs in flight per worker process (the loop: ${WORKER_CONCURRENCY} requests); events of F deliveries written by ${PRODUCERS} producers; per-request = the worker's send (attempt duration_ms) or the loop's request start to response:`,
    '',
    '| Processes | Side | deliveries per job | deliveries/s (mean) | min | max | first at sink ms | per-request p50 ms | p99 ms |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const name = (side: Side) =>
    side === 'keepalive'
      ? 'baseline: bare node-fetch loop, keep-alive'
      : side === 'fresh'
        ? 'reference: bare node-fetch loop, new connection per request'
        : side === 'node-http'
          ? "reference: bare loop on Node's HTTP client (no fetch), keep-alive"
          : `service: events of ${fanoutOf(side)} deliver${fanoutOf(side) === 1 ? 'y' : 'ies'}`;
  const rateOfSide = (sides: Map<Side, Round[]>, side: Side) => mean(sides.get(side)!.map((r) => r.rate));
  for (const [procs, sides] of byProcs) {
    for (const [side, rounds] of sides) {
      const rates = rounds.map((r) => r.rate);
      const req = rounds.flatMap((r) => r.requestMs);
      const perJob = isService(side) ? (DELIVERIES / mean(rounds.map((r) => r.jobs!))).toFixed(1) : '';
      lines.push(
        `| ${procs} | ${name(side)} | ${perJob} | ${mean(rates).toFixed(0)} | ${Math.min(...rates).toFixed(0)} | ${Math.max(...rates).toFixed(0)} | ${fmt(mean(rounds.map((r) => r.firstMs)))} | ${fmt(percentile(req, 50))} | ${fmt(percentile(req, 99))} |`,
      );
    }
    for (const side of serviceSides()) {
      const f = fanoutOf(side);
      lines.push(
        `| ${procs} | **service (F = ${f}) / bare loop** | | **${(rateOfSide(sides, side) / rateOfSide(sides, 'keepalive')).toFixed(2)}** | | | | | |`,
      );
      lines.push(
        `| ${procs} | service (F = ${f}) / new-connection reference | | ${(rateOfSide(sides, side) / rateOfSide(sides, 'fresh')).toFixed(2)} | | | | | |`,
      );
      lines.push(
        `| ${procs} | service (F = ${f}) / Node's HTTP client reference | | ${(rateOfSide(sides, side) / rateOfSide(sides, 'node-http')).toFixed(2)} | | | | | |`,
      );
    }
  }
  if (byProcs.has(1) && byProcs.has(2)) {
    const scaling = serviceSides().map(
      (side) =>
        `F = ${fanoutOf(side)}: ${(rateOfSide(byProcs.get(2)!, side) / rateOfSide(byProcs.get(1)!, side)).toFixed(2)}x`,
    );
    lines.push('', `Service scaling, 2 processes / 1 process: ${scaling.join(', ')}.`);
  }
  lines.push(
    '',
    'CPU per delivery (ms; /proc utime + stime, the sink from process.cpuUsage of the bench process) and machine busy share during the rounds:',
    '',
    '| Processes | Side | worker / loop process(es) | Postgres backends of the bench DB | redis-server (shared) | sink (bench process) | total | machine busy |',
    '|---:|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const [procs, sides] of byProcs) {
    for (const [side, rounds] of sides) {
      const c = (k: keyof CpuUse) => mean(rounds.map((r) => r.cpu[k]));
      const own = isService(side) ? c('worker') : c('loop');
      const total = own + c('postgres') + c('redis') + c('sink');
      lines.push(
        `| ${procs} | ${name(side)} | ${own.toFixed(2)} | ${c('postgres').toFixed(2)} | ${c('redis').toFixed(2)} | ${c('sink').toFixed(2)} | ${total.toFixed(2)} | ${(c('machineBusy') * 100).toFixed(0)} % |`,
      );
    }
  }
  return lines.join('\n');
}

function latencyTable(s: LatencySample[], pacedKeepAlive: number[], pacedFresh: number[], loaded: number[]): string {
  const withCommit = s.filter((x) => x.commit);
  return [
    `Latency: ${s.length} runs created one after another (${GAP_MS} ms apart) over ${LATENCY_WORKSPACES} workspaces, 1 worker process; each notification matched by run_id:`,
    '',
    ...HEADER,
    row(
      "**COMMIT of the run's creation -> notification whole at the sink**",
      withCommit.map((x) => x.received.mono - x.commit!.mono),
    ),
    row(
      'POST /runs response -> notification at the sink (negative: it arrived first)',
      s.map((x) => x.received.mono - x.answered.mono),
    ),
    row(
      'POST /runs sent -> notification at the sink',
      s.map((x) => x.received.mono - x.sent.mono),
    ),
    row(
      'delivery row written (Postgres clock, in the transaction) -> at the sink',
      s.map((x) => x.received.wall - x.rowWritten),
    ),
    row(
      '&nbsp;&nbsp;COMMIT -> delivery job created (after-move select, enqueue)',
      withCommit.map((x) => x.jobAdded - x.commit!.wall),
    ),
    row(
      '&nbsp;&nbsp;job created -> picked up by the worker',
      s.map((x) => x.pickedUp - x.jobAdded),
    ),
    row(
      '&nbsp;&nbsp;picked up -> at the sink (claim, configuration read, decrypt, sign, connect, send)',
      s.map((x) => x.received.wall - x.pickedUp),
    ),
    row(
      '&nbsp;&nbsp;at the sink -> job finished (response, attempt row, settle, complete)',
      s.map((x) => x.finished - x.received.wall),
    ),
    row(
      "worker's own send, request to response (attempt duration_ms)",
      s.map((x) => x.sendMs),
    ),
    row(
      'POST /runs response time',
      s.map((x) => x.answered.mono - x.sent.mono),
    ),
    row('**Baseline**: bare node-fetch, one request at a time, keep-alive (start -> response)', pacedKeepAlive),
    row('Reference: the same, new connection per request', pacedFresh),
    row('Baseline under load: bare loop, 8 in flight, keep-alive (per request, 1 process)', loaded),
    '',
    `COMMIT seen for ${withCommit.length} of ${s.length} runs (exactly one per POST expected).`,
  ].join('\n');
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** Where a frame's code lives: a package, the service's own code, or null for Node internals, builtins and V8's pseudo-frames. */
function ownerOf(frame: ProfileNode['callFrame']): string | null {
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(frame.url)?.[1];
  if (pkg) return pkg;
  const own = /\/(shared|workers|server)\/.*$/.exec(frame.url)?.[0];
  return own ? `service ${own.slice(1)}` : null;
}

/**
 * A worker's CPU profile as shares of its non-idle time, each sample charged to the nearest
 * frame on its stack that is a package or the service's own code (so the socket work node-fetch
 * asks for counts as node-fetch's, a JSON.parse in pg as pg's); module loading counts as start-up.
 */
async function profileTable(dir: string, pid: number): Promise<string> {
  const file = (await readdir(dir)).find((f) => f.includes(`.${pid}.`) && f.endsWith('.cpuprofile'));
  if (!file) return `No CPU profile of process ${pid} in ${dir}.`;
  const prof = JSON.parse(await readFile(join(dir, file), 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const charged = new Map<number, string>();
  const chargeOf = (id: number): string => {
    const known = charged.get(id);
    if (known) return known;
    const frame = byId.get(id)!.callFrame;
    let owner: string | null = frame.functionName.startsWith('(') && !frame.url ? frame.functionName : null;
    let startUp = false;
    for (let at: number | undefined = id; !owner && at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame;
      if (f.url.startsWith('node:internal/modules')) startUp = true;
      owner = ownerOf(f);
    }
    const result = startUp ? 'start-up (module loading)' : (owner ?? 'Node internals, no package on the stack');
    charged.set(id, result);
    return result;
  };
  const ms = new Map<string, number>();
  prof.samples.forEach((id, i) => {
    const k = chargeOf(id);
    ms.set(k, (ms.get(k) ?? 0) + (prof.timeDeltas[i] ?? 0) / 1000);
  });
  ms.delete('(idle)');
  const busy = [...ms.values()].reduce((a, b) => a + b, 0);
  const top = [...ms.entries()].sort((a, b) => b[1] - a[1]).slice(0, 16);
  return [
    `CPU profile of the 1-process stage's worker (warm-up, rounds and latency runs; ${(busy / 1000).toFixed(1)} s not idle), each sample charged to the nearest package or service frame on its stack:`,
    '',
    '| Charged to | ms | share |',
    '|---|---:|---:|',
    ...top.map(([k, v]) => `| ${k} | ${v.toFixed(0)} | ${((v / busy) * 100).toFixed(1)} % |`),
  ].join('\n');
}

// ---------------------------------------------------------------- orchestration

async function main(): Promise<void> {
  const started = Date.now();
  const cleanups = new Cleanups();
  try {
    redisPids = (await output('pgrep', ['-x', 'redis-server']).catch(() => '')).split('\n').filter(Boolean).map(Number);
    const profileDir = KEPT_PROFILE_DIR ?? (PROFILE ? await mkdtemp(join(tmpdir(), 'bench-notify-prof-')) : null);
    if (profileDir && !KEPT_PROFILE_DIR) cleanups.add(() => rm(profileDir, { recursive: true, force: true }));
    let profile = '';
    const token = randomBytes(24).toString('hex');
    const sink = await startSink(token);
    cleanups.add(() => sink.close());
    // Loopback only: the sink listens on 127.0.0.1, which the outbound guard refuses by default.
    const svc = await startService(cleanups, { OUTBOUND_ALLOWED_CIDRS: '127.0.0.0/8' });
    const watcher = new pg.Client({ connectionString: svc.databaseUrl });
    await watcher.connect();
    cleanups.add(() => watcher.end());

    // Enabled configurations are verified on creation: the verification worker runs only for the set-up.
    const verification = await startWorkers(svc.rt, ['verification']);
    const fx = await createFixture(svc);
    const configurationIds: string[] = [];
    const needed = Math.max(...FANOUTS);
    if (!FANOUTS.every((f) => Number.isInteger(f) && f >= 1) || needed > MAX_CONFIGURATIONS_PER_WORKSPACE)
      throw new Error(`BENCH_FANOUTS must be whole numbers from 1 to ${MAX_CONFIGURATIONS_PER_WORKSPACE}`);
    for (let i = 0; i < needed; i++)
      configurationIds.push(await createConfiguration(svc, fx, fx.workspaceId, sink, token));
    const workspaces = await latencyWorkspaces(svc, fx, sink, token, LATENCY_WORKSPACES);
    await verification.stop(5_000);
    const t: Target = { svc, fx, configurationIds, watcher, sink, token };
    const before = machine();
    log(`${before}; ${ROUNDS} rounds of ${DELIVERIES} deliveries per side, then ${LATENCY_RUNS} runs`);

    const byProcs = new Map<number, Map<Side, Round[]>>();
    let samples: LatencySample[] = [];
    let pacedKeepAlive: number[] = [];
    let pacedFresh: number[] = [];
    for (const procs of [1, 2]) {
      const stage = new Cleanups();
      try {
        // Registered first so it runs last, once the worker has exited and written its profile.
        let profiled: ChildProcess | undefined;
        if (profileDir && procs === 1)
          stage.add(async () => void (profiled && (profile = await profileTable(profileDir, profiled.pid!))));
        const workers = Array.from({ length: procs }, () => spawnWorker(svc, stage, procs === 1 ? profileDir : null));
        profiled = workers[0];
        const loops = Array.from({ length: procs }, () => Loop.start(stage));
        for (
          const deadline = Date.now() + 30_000;
          (await svc.rt.queues['notification-delivery'].getWorkersCount()) < procs;
          await sleep(50)
        ) {
          if (Date.now() > deadline) throw new Error(`${procs} worker process(es) did not start`);
        }
        await warmUp(t, workers, loops);
        // Statistics as autovacuum keeps them on a table in use: a table created empty and never
        // analysed looks empty to the planner, which then scans it whole for each batch's claim and settle.
        await watcher.query(
          'analyze notification_deliveries, notification_delivery_attempts, notification_configurations',
        );
        byProcs.set(procs, await throughput(t, workers, loops));
        if (procs === 1) {
          samples = await latency(t, workspaces);
          pacedKeepAlive = await pacedBaseline(t, loops[0], samples, true);
          pacedFresh = await pacedBaseline(t, loops[0], samples, false);
          const s = samples.filter((x) => x.commit).map((x) => x.received.mono - x.commit!.mono);
          log(`  latency: commit -> sink p50 ${fmt(percentile(s, 50))} ms, p99 ${fmt(percentile(s, 99))} ms`);
        }
      } finally {
        await stage.run();
      }
    }
    if (sink.badSignatures) throw new Error(`${sink.badSignatures} requests with a bad signature`);
    const loaded = byProcs
      .get(1)!
      .get('keepalive')!
      .flatMap((r) => r.requestMs);
    const report = [throughputTable(byProcs), latencyTable(samples, pacedKeepAlive, pacedFresh, loaded), profile]
      .filter(Boolean)
      .join('\n\n');
    process.stdout.write(
      `\n${report}\n\nbefore: ${before}\nafter:  ${machine()}\ntotal ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );
  } finally {
    await cleanups.run();
  }
}

if (process.env.BENCH_ROLE === 'loop') loopChild();
else runMain(main);
