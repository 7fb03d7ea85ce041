/*
 * Run task latency benchmark: 20 runs at once, on 20 workspaces that share one mandatory
 * post-plan task, with the integration (a local HTTP receiver) in the bench's own process, so
 * every instant on the bench's side comes from one clock. It measures
 *
 * (a) stage to request: the run's `start_post_plan` event (Postgres clock_timestamp(), written
 *     in the transaction that moves the run) to the receiver holding the whole request;
 * (b) callback to stage exit: the receiver answers 200 and at once PATCHes `passed` to the
 *     callback URL; the time from that callback (sent, answered) to the run's
 *     `complete_post_plan` event.
 *
 * Clocks: (a) and (b) set the bench's Date.now() against the events' clock_timestamp(), both the
 * same machine's wall clock; baselines take performance.now() at both ends (sender and receiver
 * share the process).
 *
 * Baselines, in the same run and alternating with the service rounds: the same receiver gets
 * direct signed POSTs (HMAC-SHA512 over the exact bytes, the same headers) of a byte-identical
 * request body, 20 at once, through the service's own outbound client (shared/platform/outbound.ts,
 * created with the same policy); for reference through plain fetch; and one at a time at the
 * moments the service would send them: as each of 20 runs on workspaces without the task
 * finishes its plan, so the machine carries the same Terraform load.
 *
 * As in production (Procfile) web, run-task dispatch and the run pipeline get runtimes of their
 * own (Postgres pool, Redis connections). Web and dispatch share the main thread with the
 * receiver; the pipeline runs in a child process at the CPU priority the Procfile gives it
 * (`nice`), so 20 plans' log streaming, bookkeeping and sandbox starts do not stall the event
 * loop that the measured path runs on. BENCH_PIPELINE=thread puts it on a worker thread of the
 * bench's process instead (at the bench's priority), `main` on the main thread;
 * BENCH_PIPELINE_NICE overrides the child's niceness.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import pg from 'pg';
import { loadConfig } from '../shared/platform/config.js';
import { createOutboundClient, type OutboundClient } from '../shared/platform/outbound.js';
import { createLogger } from '../shared/platform/logger.js';
import { taskUserAgent } from '../shared/run-tasks/payload.js';
import { closeRuntime, openRuntime, type Runtime } from '../shared/runtime.js';
import { createRunLifecycle } from '../shared/lifecycle-areas.js';
import type { QueueName } from '../shared/platform/queues.js';
import { startWorkers } from '../workers/bootstrap.js';
import {
  api,
  Cleanups,
  createCv,
  createFixture,
  doc,
  HOST,
  log,
  machine,
  percentile,
  procfileNice,
  putArchive,
  runMain,
  sleep,
  startService,
  tarGz,
  type Fixture,
  type Service,
} from './support.js';

const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? '20');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? '8');
const PIPELINE = process.env.BENCH_PIPELINE ?? 'process';
if (!['main', 'thread', 'process'].includes(PIPELINE))
  throw new Error(`BENCH_PIPELINE must be main, thread or process, not ${PIPELINE}`);
/** Set in the child process that runs the pipeline (BENCH_PIPELINE=process), to its niceness. */
const PIPELINE_CHILD = 'BENCH_PIPELINE_CHILD';
const WARMUP_ROUNDS = 1;
const BURSTS_PER_SLOT = 2;
const POLL_MS = 20;
// The at-the-moment baseline reacts to a plan finishing; a short poll keeps it close to that moment.
const LOADED_POLL_MS = 5;
const ROUND_TIMEOUT_MS = 60_000;
const CONFIG = 'resource "terraform_data" "a" { input = "x" }\n';
// What workers/run-task-dispatch.ts signs into (not exported there); the receiver checks the first.
const SIGNATURE_HEADERS = ['X-Svc-Task-Signature', 'X-TFC-Task-Signature'];
const JSON_API = 'application/vnd.api+json';
// Jobs the dispatch worker runs at once (workers/processors.ts); the idle statement probe uses as many.
const DISPATCH_SLOTS = 8;
const FAILED_RUN = ['errored', 'canceled', 'force_canceled', 'discarded', 'planned_and_finished'];

// ---------------------------------------------------------------- the integration

/** When a request was whole at the receiver: wall clock (to compare with Postgres) and monotonic. */
interface Arrival {
  wall: number;
  mono: number;
}

interface ServiceRequest extends Arrival {
  raw: Buffer;
  runId: string;
  resultId: string;
}

/** The integration's `passed` callback: sent right after answering the request, and its answer. */
interface CallbackRecord {
  sent: number;
  answered: number;
}

interface Receiver {
  url: string;
  /** Post-plan requests from the service by run id, and their callbacks once answered. */
  requests: Map<string, ServiceRequest>;
  callbacks: Map<string, CallbackRecord>;
  /** Refused signatures and failed callbacks: both must stay none. */
  problems: string[];
  /** Resolves when the baseline request `id` has arrived. */
  expect(id: string): Promise<Arrival>;
  close(): Promise<void>;
}

/**
 * A run task integration as a real one behaves: check the HMAC-SHA512 signature over the raw
 * body, answer 200, then call back `passed` with the request's access token. The verification
 * request at task creation (stage `test`) is only answered; `/baseline/<id>` requests are only
 * timed.
 */
async function startReceiver(hmacKey: string): Promise<Receiver> {
  const requests = new Map<string, ServiceRequest>();
  const callbacks = new Map<string, CallbackRecord>();
  const problems: string[] = [];
  const waiting = new Map<string, (a: Arrival) => void>();

  const sendCallback = async (req: ServiceRequest, body: Record<string, unknown>) => {
    const sent = Date.now();
    try {
      const res = await fetch(String(body.task_result_callback_url), {
        method: 'PATCH',
        headers: { authorization: `Bearer ${String(body.access_token)}`, 'content-type': JSON_API },
        body: JSON.stringify({ data: { type: 'task-results', attributes: { status: 'passed' } } }),
      });
      await res.text();
      if (res.status !== 200) problems.push(`callback for ${req.runId} answered ${res.status}`);
    } catch (err) {
      problems.push(`callback for ${req.runId} failed: ${String(err)}`);
    }
    callbacks.set(req.runId, { sent, answered: Date.now() });
  };

  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const arrival: Arrival = { wall: Date.now(), mono: performance.now() };
      const raw = Buffer.concat(parts);
      const given = Buffer.from(String(req.headers['x-svc-task-signature'] ?? ''));
      const expected = Buffer.from(createHmac('sha512', hmacKey).update(raw).digest('hex'));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        problems.push(`bad signature on ${req.url}`);
        res.statusCode = 403;
        res.end();
        return;
      }
      res.statusCode = 200;
      res.end();
      const baselineId = /^\/baseline\/(.+)$/.exec(req.url ?? '')?.[1];
      if (baselineId) {
        waiting.get(baselineId)?.(arrival);
        waiting.delete(baselineId);
        return;
      }
      const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      if (body.stage === 'test') return;
      const received: ServiceRequest = {
        ...arrival,
        raw,
        runId: String(body.run_id),
        resultId: String(body.task_result_id),
      };
      requests.set(received.runId, received);
      // No work between receipt and verdict, so (b) holds nothing of the integration's own.
      void sendCallback(received, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  return {
    url: `http://${HOST}:${(server.address() as AddressInfo).port}`,
    requests,
    callbacks,
    problems,
    expect: (id) => new Promise<Arrival>((resolve) => waiting.set(id, resolve)),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---------------------------------------------------------------- the service's processes

interface TarnPool {
  max: number;
  numUsed(): number;
  numPendingAcquires(): number;
}

const poolOf = (rt: Runtime) => (rt.db.client as unknown as { pool?: TarnPool }).pool;

/** Peak connections in use and peak waiters of a runtime's Postgres pool, sampled every 5 ms. */
class PoolPeak {
  used = 0;
  waiting = 0;
  size = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly rt: Runtime) {}

  start(): void {
    this.timer = setInterval(() => {
      const pool = poolOf(this.rt);
      if (!pool) return;
      this.size = pool.max;
      this.used = Math.max(this.used, pool.numUsed());
      this.waiting = Math.max(this.waiting, pool.numPendingAcquires());
    }, 5);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  reset(): void {
    this.used = this.waiting = 0;
  }
}

/** The run-pipeline worker, wherever it runs; only its pool peaks are asked for. */
interface Pipeline {
  start(): Promise<void>;
  resetPeak(): Promise<void>;
  peak(): Promise<Peak>;
}

type Peak = { used: number; waiting: number; size: number };

/** The environment the service was started with, for a worker that must build the same config. */
function workerEnv(svc: Service): Record<string, string> {
  const c = svc.rt.config;
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    DATABASE_URL: c.databaseUrl,
    REDIS_URL: c.redisUrl,
    QUEUE_PREFIX: c.queuePrefix,
    ENCRYPTION_KEY: c.encryptionKey.toString('hex'),
    PORT: String(c.port),
    BASE_URL: c.baseUrl,
    OUTBOUND_ALLOWED_CIDRS: c.outboundAllowedCidrs.join(','),
    RUN_CONCURRENCY: String(c.runConcurrency),
    TERRAFORM_BIN: c.terraformBin,
  };
}

type ThreadCommand = 'reset' | 'peak' | 'stop';
type ThreadReply = { ready: true } | { peak: Peak } | { stopped: true } | { error: string };

/** How the pipeline's side hears commands and answers: a worker thread's port or a child process's IPC channel. */
interface Channel {
  on(event: 'message', listener: (cmd: ThreadCommand) => void): unknown;
  send(m: ThreadReply): void;
}

/** The pipeline's side, on a worker thread or in a child process: the run-pipeline worker on its own runtime and event loop. */
async function pipelineSide(env: Record<string, string>, port: Channel): Promise<void> {
  const reply = (m: ThreadReply) => port.send(m);
  try {
    const config = loadConfig(env);
    const rt = openRuntime(config, createRunLifecycle(config), createLogger(config.logLevel));
    const workers = await startWorkers(rt, ['run-pipeline']);
    const peak = new PoolPeak(rt);
    peak.start();
    port.on('message', (cmd: ThreadCommand) => {
      if (cmd === 'reset') {
        peak.reset();
        reply({ peak: { used: 0, waiting: 0, size: peak.size } });
      } else if (cmd === 'peak') {
        reply({ peak: { used: peak.used, waiting: peak.waiting, size: peak.size } });
      } else {
        peak.stop();
        void workers
          .stop(5_000)
          .then(() => closeRuntime(rt))
          .then(() => reply({ stopped: true }));
      }
    });
    reply({ ready: true });
  } catch (err) {
    reply({ error: String(err) });
  }
}

/**
 * The pipeline on a worker thread of this process, or (`process`) in a child process as the
 * Procfile runs it: a worker thread shares this process's memory, so each sandbox the pipeline
 * spawns (a fork of the whole process) also costs the main thread.
 */
function separatePipeline(svc: Service, cleanups: Cleanups, where: 'thread' | 'process'): Pipeline {
  const file = fileURLToPath(import.meta.url);
  // The other side as one shape: what it emits, how a command reaches it, how it is ended.
  const side = (() => {
    if (where === 'thread') {
      const worker = new Worker(file, { workerData: { env: workerEnv(svc) } });
      return {
        emitter: worker,
        post: (cmd: ThreadCommand) => worker.postMessage(cmd),
        end: async () => void (await worker.terminate()),
      };
    }
    const child = fork(file, [], {
      env: { ...process.env, ...workerEnv(svc), [PIPELINE_CHILD]: String(pipelineNice()) },
      stdio: 'inherit',
    });
    return { emitter: child, post: (cmd: ThreadCommand) => void child.send(cmd), end: async () => void child.kill() };
  })();
  const next = () =>
    new Promise<ThreadReply>((resolve, reject) => {
      side.emitter.once('message', (m: ThreadReply) => ('error' in m ? reject(new Error(m.error)) : resolve(m)));
      side.emitter.once('error', reject);
    });
  const ask = async (cmd: ThreadCommand) => {
    const answer = next();
    side.post(cmd);
    return answer;
  };
  cleanups.add(async () => {
    // Bounded: a side that died must not hold up dropping the database.
    await Promise.race([ask('stop'), sleep(10_000)]);
    await side.end();
  });
  return {
    start: async () => void (await next()),
    resetPeak: async () => void (await ask('reset')),
    peak: async () => ((await ask('peak')) as { peak: Peak }).peak,
  };
}

/** The niceness the Procfile starts the run pipeline with, unless BENCH_PIPELINE_NICE says otherwise. */
function pipelineNice(): number {
  return process.env.BENCH_PIPELINE_NICE !== undefined
    ? Number(process.env.BENCH_PIPELINE_NICE)
    : procfileNice(['run-pipeline']);
}

async function startProcess(svc: Service, cleanups: Cleanups, queues: QueueName[]): Promise<Runtime> {
  const rt = openRuntime(svc.rt.config, svc.rt.lifecycle, svc.rt.logger);
  cleanups.add(() => closeRuntime(rt));
  const workers = await startWorkers(rt, queues);
  cleanups.add(() => workers.stop(5_000));
  return rt;
}

function mainThreadPipeline(svc: Service, cleanups: Cleanups): Pipeline {
  let peak: PoolPeak | undefined;
  return {
    start: async () => {
      peak = new PoolPeak(await startProcess(svc, cleanups, ['run-pipeline']));
      peak.start();
      cleanups.add(async () => peak?.stop());
    },
    resetPeak: async () => peak!.reset(),
    peak: async () => ({ used: peak!.used, waiting: peak!.waiting, size: peak!.size }),
  };
}

// ---------------------------------------------------------------- fixtures

/** `count` more workspaces of the fixture's organization, each with the configuration uploaded. */
async function workspaces(
  svc: Service,
  fx: Fixture,
  count: number,
  prefix: string,
  archive: Buffer,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const ws = (await api(
      svc.baseUrl,
      fx.token,
      'POST',
      `/organizations/${fx.org}/workspaces`,
      doc('workspaces', { name: `${prefix}-${i}` }),
    ))!;
    const cv = await createCv(svc, { ...fx, workspaceId: ws.data.id });
    await putArchive(cv.uploadUrl, archive);
    ids.push(ws.data.id);
  }
  return ids;
}

/** Creates the task (its URL verified through the verification worker) and attaches it, mandatory, at post_plan. */
async function attachTask(
  svc: Service,
  fx: Fixture,
  receiver: Receiver,
  hmacKey: string,
  workspaceIds: string[],
): Promise<void> {
  const attrs = {
    name: 'bench-scan',
    url: `${receiver.url}/run-task`,
    category: 'task',
    'hmac-key': hmacKey,
    enabled: true,
  };
  const task = (await api(svc.baseUrl, fx.token, 'POST', `/organizations/${fx.org}/tasks`, doc('tasks', attrs)))!;
  for (const id of workspaceIds) {
    const rel = { task: { data: { type: 'tasks', id: task.data.id } } };
    await api(
      svc.baseUrl,
      fx.token,
      'POST',
      `/workspaces/${id}/tasks`,
      doc('workspace-tasks', { 'enforcement-level': 'mandatory', stages: ['post_plan'] }, rel),
    );
  }
}

// ---------------------------------------------------------------- watching

/** Event loop delay of the main thread (web, dispatch, receiver), by phase: how late a 10 ms timer fires. */
class LagSampler {
  readonly samples: Record<string, number[]> = {};
  private phase: string | null = null;
  private last = performance.now();
  private readonly timer = setInterval(() => {
    const now = performance.now();
    if (this.phase) (this.samples[this.phase] ??= []).push(Math.max(0, now - this.last - 10));
    this.last = now;
  }, 10);

  during<T>(phase: string, work: () => Promise<T>): Promise<T> {
    this.phase = phase;
    this.last = performance.now();
    return work().finally(() => (this.phase = null));
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** Statements, their time (query sent to rows back; BEGIN/COMMIT not timed) and pool peaks of one main-thread runtime. */
class DbGauge {
  statements = 0;
  statementMs = 0;
  readonly peak: PoolPeak;
  private readonly started = new Map<string, number>();
  private readonly onQuery = (q: { __knexQueryUid?: string }) => {
    this.statements++;
    if (q.__knexQueryUid) this.started.set(q.__knexQueryUid, performance.now());
  };
  private readonly onResponse = (_r: unknown, q: { __knexQueryUid?: string }) => {
    const t0 = q.__knexQueryUid ? this.started.get(q.__knexQueryUid) : undefined;
    if (t0 === undefined) return;
    this.statementMs += performance.now() - t0;
    this.started.delete(q.__knexQueryUid!);
  };

  constructor(private readonly rt: Runtime) {
    this.peak = new PoolPeak(rt);
  }

  start(): void {
    this.rt.db.on('query', this.onQuery);
    this.rt.db.on('query-response', this.onResponse);
    this.peak.start();
  }

  stop(): void {
    this.rt.db.off('query', this.onQuery);
    this.rt.db.off('query-response', this.onResponse);
    this.peak.stop();
    this.started.clear();
  }

  reset(): void {
    this.statements = this.statementMs = 0;
    this.peak.reset();
  }
}

type RunRowLite = { id: string; status: string };

/** Polls run statuses over a connection of its own, so watching adds nothing to the service's pools. */
async function waitForStatus(
  watcher: pg.Client,
  runIds: string[],
  status: string,
  pollMs = POLL_MS,
  onPoll?: (rows: RunRowLite[]) => void,
): Promise<void> {
  const deadline = Date.now() + ROUND_TIMEOUT_MS;
  for (;;) {
    const { rows } = await watcher.query<RunRowLite>('select id, status from runs where id = any($1::text[])', [
      runIds,
    ]);
    onPoll?.(rows);
    const bad = rows.find((r) => FAILED_RUN.includes(r.status));
    if (bad) throw new Error(`run ${bad.id} ended ${bad.status}`);
    if (rows.length === runIds.length && rows.every((r) => r.status === status)) return;
    if (Date.now() > deadline)
      throw new Error(`runs not all ${status} after ${ROUND_TIMEOUT_MS} ms: ${rows.map((r) => r.status).join(', ')}`);
    await sleep(pollMs);
  }
}

const createRun = async (svc: Service, fx: Fixture, workspaceId: string) =>
  (await api(
    svc.baseUrl,
    fx.token,
    'POST',
    '/runs',
    doc('runs', {}, { workspace: { data: { type: 'workspaces', id: workspaceId } } }),
  ))!.data.id;

/** Frees the workspaces for the next round (outside every timed window). */
const discardAll = (svc: Service, fx: Fixture, runIds: string[]) =>
  Promise.all(runIds.map((id) => api(svc.baseUrl, fx.token, 'POST', `/runs/${id}/actions/discard`)));

// ---------------------------------------------------------------- one service round

/** One run's instants, ms since the epoch: Postgres for the events, Node for the rest. */
interface RunSample {
  enter: number;
  enterStamp: number;
  enqueued: number;
  pickedUp: number;
  received: number;
  sendMs: number;
  cbSent: number;
  cbAnswered: number;
  exit: number;
  exitStamp: number;
}

interface Context {
  svc: Service;
  fx: Fixture;
  dispatch: Runtime;
  receiver: Receiver;
  watcher: pg.Client;
  taskWorkspaces: string[];
  plainWorkspaces: string[];
  gauges: { web: DbGauge; dispatch: DbGauge };
  outbound: OutboundClient;
  hmacKey: string;
}

async function serviceRound(ctx: Context): Promise<RunSample[]> {
  const { svc, fx, receiver, watcher } = ctx;
  const runIds = await Promise.all(ctx.taskWorkspaces.map((ws) => createRun(svc, fx, ws)));
  // From here to the last callback the web process serves nothing but callbacks.
  ctx.gauges.web.start();
  ctx.gauges.dispatch.start();
  try {
    await waitForStatus(watcher, runIds, 'post_plan_completed');
    for (const deadline = Date.now() + 10_000; !runIds.every((id) => receiver.callbacks.has(id)); await sleep(5)) {
      if (Date.now() > deadline) throw new Error('callbacks not all answered');
    }
  } finally {
    ctx.gauges.web.stop();
    ctx.gauges.dispatch.stop();
  }

  const events = await watcher.query<{ run_id: string; action: string; ms: number }>(
    `select run_id, action, (extract(epoch from created_at) * 1000)::float8 as ms from run_events
     where run_id = any($1::text[]) and action in ('start_post_plan', 'complete_post_plan')`,
    [runIds],
  );
  const stamps = await watcher.query<{ id: string; status_timestamps: Record<string, string> }>(
    'select id, status_timestamps from runs where id = any($1::text[])',
    [runIds],
  );
  const attempts = await watcher.query<{ run_id: string; n: number; ms: number }>(
    `select r.run_id, count(*)::int as n, max(a.duration_ms) as ms from task_result_attempts a
     join task_results r on r.id = a.task_result_id where r.run_id = any($1::text[]) group by r.run_id`,
    [runIds],
  );
  const eventAt = (runId: string, action: string) => {
    const e = events.rows.find((r) => r.run_id === runId && r.action === action);
    if (!e) throw new Error(`run ${runId}: no ${action} event`);
    return e.ms;
  };
  const samples: RunSample[] = [];
  for (const runId of runIds) {
    const req = receiver.requests.get(runId);
    const cb = receiver.callbacks.get(runId);
    const attempt = attempts.rows.find((a) => a.run_id === runId);
    if (!req || !cb || !attempt) throw new Error(`run ${runId}: request, callback or attempt missing`);
    // A retry would measure the retry schedule, not the path; every request must land the first time.
    if (attempt.n !== 1) throw new Error(`run ${runId}: ${attempt.n} delivery attempts`);
    const job = await ctx.dispatch.queues['run-task-dispatch'].getJob(`${req.resultId}-a1`);
    if (!job?.processedOn) throw new Error(`run ${runId}: dispatch job not found`);
    const ts = stamps.rows.find((r) => r.id === runId)!.status_timestamps;
    samples.push({
      enter: eventAt(runId, 'start_post_plan'),
      enterStamp: Date.parse(ts['post-plan-running-at']),
      enqueued: job.timestamp,
      pickedUp: job.processedOn,
      received: req.wall,
      sendMs: attempt.ms,
      cbSent: cb.sent,
      cbAnswered: cb.answered,
      exit: eventAt(runId, 'complete_post_plan'),
      exitStamp: Date.parse(ts['post-plan-completed-at']),
    });
  }
  await discardAll(svc, fx, runIds);
  return samples;
}

// ---------------------------------------------------------------- baselines

type Via = 'outbound' | 'fetch';
let requestSeq = 0;

/**
 * One direct POST as the dispatcher makes it, to the same receiver: signed over the exact body,
 * the same headers, a byte-identical body. Returns call start to arrival (monotonic ms).
 */
async function directPost(ctx: Context, body: string, via: Via): Promise<number> {
  const id = String(requestSeq++);
  const url = `${ctx.receiver.url}/baseline/${id}`;
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': taskUserAgent(ctx.svc.rt.config.runTaskAgentName, ctx.svc.rt.config.baseUrl),
  };
  const arrived = ctx.receiver.expect(id);
  const t0 = performance.now();
  if (via === 'outbound') {
    const res = await ctx.outbound.send({
      url,
      method: 'POST',
      body,
      headers,
      sign: { key: ctx.hmacKey, headers: SIGNATURE_HEADERS },
    });
    if (res.status !== 200) throw new Error(`baseline POST answered ${res.status}: ${res.error}`);
  } else {
    // Signed by hand exactly as the outbound client signs.
    const signature = createHmac('sha512', ctx.hmacKey).update(body).digest('hex');
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...headers, ...Object.fromEntries(SIGNATURE_HEADERS.map((h) => [h, signature])) },
      body,
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`baseline fetch answered ${res.status}`);
  }
  return (await arrived).mono - t0;
}

const burst = (ctx: Context, body: string, via: Via) =>
  Promise.all(Array.from({ length: CONCURRENT }, () => directPost(ctx, body, via)));

/**
 * Baseline at the service's moments: 20 runs plan on workspaces without the task (the same
 * Terraform load as a service round) and one direct POST goes out as each is seen planned.
 */
async function loadedBaseline(ctx: Context, body: string): Promise<number[]> {
  const runIds = await Promise.all(ctx.plainWorkspaces.map((ws) => createRun(ctx.svc, ctx.fx, ws)));
  const sent = new Set<string>();
  const posts: Promise<number>[] = [];
  await waitForStatus(ctx.watcher, runIds, 'planned', LOADED_POLL_MS, (rows) => {
    for (const r of rows) {
      if (r.status !== 'planned' || sent.has(r.id)) continue;
      sent.add(r.id);
      posts.push(directPost(ctx, body, 'outbound'));
    }
  });
  const samples = await Promise.all(posts);
  await discardAll(ctx.svc, ctx.fx, runIds);
  return samples;
}

/** DISPATCH_SLOTS primary-key selects at once through a runtime's pool, each timed (ms). */
const statementProbe = (rt: Runtime, runId: string) =>
  Promise.all(
    Array.from({ length: DISPATCH_SLOTS }, async () => {
      const t0 = performance.now();
      await rt.db('runs').where({ id: runId }).first('id');
      return performance.now() - t0;
    }),
  );

// ---------------------------------------------------------------- report

const fmt = (x: number) => (Math.abs(x) < 10 ? x.toFixed(1) : x.toFixed(0));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const row = (name: string, xs: number[]) =>
  `| ${name} | ${xs.length} | ${fmt(percentile(xs, 50))} | ${fmt(percentile(xs, 99))} | ${fmt(mean(xs))} | ${fmt(Math.max(...xs))} |`;
const HEADER = ['| Measure (ms) | n | p50 | p99 | mean | max |', '|---|---:|---:|---:|---:|---:|'];

/** Most service requests between stage entry and receipt at the same instant. */
function peakInFlight(samples: RunSample[]): number {
  const edges = samples
    .flatMap((s) => [[s.enter, 1] as const, [s.received, -1] as const])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of edges) peak = Math.max(peak, (now += d));
  return peak;
}

interface Measured {
  samples: RunSample[];
  outbound: number[];
  fetch: number[];
  loaded: number[];
  bodyBytes: number;
  lag: Record<string, number[]>;
  gauges: { web: DbGauge; dispatch: DbGauge };
  pipelinePeak: Peak;
  /** One primary-key select on the dispatch pool, as many at once as dispatch jobs run, idle: a statement's cost without load. */
  statementIdle: number[];
}

function report(m: Measured): string {
  const s = m.samples;
  const n = s.length;
  const a = s.map((x) => x.received - x.enter);
  const lines = [
    `Stage to request (a): ${CONCURRENT} concurrent runs x ${ROUNDS} rounds; baselines: the same ${m.bodyBytes}-byte signed POST, ${CONCURRENT} at once (idle) or one per finished plan (loaded):`,
    '',
    ...HEADER,
    row('**(a)** `start_post_plan` event -> request whole at the integration', a),
    row(
      '(a) from the `post-plan-running-at` status timestamp instead',
      s.map((x) => x.received - x.enterStamp),
    ),
    row(
      '&nbsp;&nbsp;entered -> dispatch job enqueued (rest of the plan transaction, commit, after-move select, enqueue)',
      s.map((x) => x.enqueued - x.enter),
    ),
    row(
      '&nbsp;&nbsp;enqueued -> dispatch job picked up',
      s.map((x) => x.pickedUp - x.enqueued),
    ),
    row(
      '&nbsp;&nbsp;picked up -> request whole at the integration (claim, reads, decrypt, sign, connect, send)',
      s.map((x) => x.received - x.pickedUp),
    ),
    row(
      "dispatcher's own send, request to 200 (`task_result_attempts.duration_ms`)",
      s.map((x) => x.sendMs),
    ),
    row('**Baseline**: direct signed POST via shared/platform/outbound.ts, 20 at once, idle', m.outbound),
    row("Baseline at the service's moments: one POST per finished plan, 20 runs planning", m.loaded),
    row('Reference: direct signed POST via plain fetch (keep-alive), 20 at once, idle', m.fetch),
  ];
  const ratio = (p: number, base: number[]) => (percentile(a, p) / percentile(base, p)).toFixed(1);
  const perDispatch = (g: DbGauge) =>
    `${(g.statements / n).toFixed(1)} statements, ${(g.statementMs / n).toFixed(1)} ms in them`;
  const lag = (k: string) => {
    const xs = m.lag[k] ?? [];
    return `p50 ${fmt(percentile(xs, 50))}, p99 ${fmt(percentile(xs, 99))}, max ${fmt(Math.max(...xs))} ms`;
  };
  lines.push(
    '',
    `**(a) / baseline: p50 ${ratio(50, m.outbound)}x, p99 ${ratio(99, m.outbound)}x**; (a) / baseline at the service's moments: p50 ${ratio(50, m.loaded)}x, p99 ${ratio(99, m.loaded)}x.`,
    `At most ${peakInFlight(s)} of the ${n} service requests were between stage entry and receipt at once.`,
    '',
    'Callback to stage exit (b): the `passed` callback sent as soon as the request was answered:',
    '',
    ...HEADER,
    row(
      'callback sent -> `complete_post_plan` event',
      s.map((x) => x.exit - x.cbSent),
    ),
    row(
      '`complete_post_plan` event -> callback answered (commit, after-move, response)',
      s.map((x) => x.cbAnswered - x.exit),
    ),
    row(
      '**(b)** callback answered -> `complete_post_plan` event (negative: the run left first)',
      s.map((x) => x.exit - x.cbAnswered),
    ),
    row(
      '(b) from the `post-plan-completed-at` status timestamp instead',
      s.map((x) => x.exitStamp - x.cbAnswered),
    ),
    row(
      'callback round trip, sent -> answered',
      s.map((x) => x.cbAnswered - x.cbSent),
    ),
    row(
      'stage total: `start_post_plan` -> `complete_post_plan`',
      s.map((x) => x.exit - x.enter),
    ),
    '',
    `Per run task request, dispatch process: ${perDispatch(m.gauges.dispatch)}. Per callback, web process: ${perDispatch(m.gauges.web)}.`,
    `One primary-key select on the dispatch pool, ${DISPATCH_SLOTS} at once, between rounds: p50 ${fmt(percentile(m.statementIdle, 50))}, p99 ${fmt(percentile(m.statementIdle, 99))} ms.`,
    `Postgres pools, peak in use / peak waiting (of max): web ${m.gauges.web.peak.used} / ${m.gauges.web.peak.waiting} (${m.gauges.web.peak.size}), ` +
      `dispatch ${m.gauges.dispatch.peak.used} / ${m.gauges.dispatch.peak.waiting} (${m.gauges.dispatch.peak.size}), ` +
      `run pipeline ${m.pipelinePeak.used} / ${m.pipelinePeak.waiting} (${m.pipelinePeak.size}).`,
    `Main-thread event loop delay (10 ms timer): service rounds ${lag('service')}; idle bursts ${lag('idle')}; loaded baseline ${lag('loaded')}.`,
    `Run pipeline on ${{ main: 'the main thread', thread: 'a worker thread', process: `a child process at nice ${pipelineNice()}` }[PIPELINE]}, RUN_CONCURRENCY ${CONCURRENT}.`,
  );
  return lines.join('\n');
}

// ---------------------------------------------------------------- orchestration

async function main(): Promise<void> {
  const started = Date.now();
  const cleanups = new Cleanups();
  const lag = new LagSampler();
  cleanups.add(async () => lag.stop());
  try {
    const hmacKey = randomBytes(24).toString('hex');
    const receiver = await startReceiver(hmacKey);
    cleanups.add(() => receiver.close());
    // Loopback only: the integration listens on 127.0.0.1, which the outbound guard refuses by default.
    const svc = await startService(cleanups, {
      OUTBOUND_ALLOWED_CIDRS: '127.0.0.0/8',
      RUN_CONCURRENCY: String(CONCURRENT),
    });
    const pipeline =
      PIPELINE === 'main'
        ? mainThreadPipeline(svc, cleanups)
        : separatePipeline(svc, cleanups, PIPELINE as 'thread' | 'process');
    await pipeline.start();
    const dispatch = await startProcess(svc, cleanups, ['run-task-dispatch']);
    // Only task creation needs it; it stays up, idle.
    await startProcess(svc, cleanups, ['verification']);
    const watcher = new pg.Client({ connectionString: svc.databaseUrl });
    await watcher.connect();
    cleanups.add(() => watcher.end());

    const fx = await createFixture(svc);
    const archive = await tarGz({ 'main.tf': CONFIG });
    const taskWorkspaces = await workspaces(svc, fx, CONCURRENT, 'task', archive);
    const plainWorkspaces = await workspaces(svc, fx, CONCURRENT, 'plain', archive);
    await attachTask(svc, fx, receiver, hmacKey, taskWorkspaces);
    const ctx: Context = {
      svc,
      fx,
      dispatch,
      receiver,
      watcher,
      taskWorkspaces,
      plainWorkspaces,
      hmacKey,
      gauges: { web: new DbGauge(svc.rt), dispatch: new DbGauge(dispatch) },
      outbound: createOutboundClient({ allowedCidrs: svc.rt.config.outboundAllowedCidrs }),
    };
    const before = machine();
    log(`${before}; ${WARMUP_ROUNDS} warm-up + ${ROUNDS} rounds of ${CONCURRENT} runs`);

    for (let i = 0; i < WARMUP_ROUNDS; i++) await serviceRound(ctx);
    // A real request body, so the baseline carries exactly the bytes the dispatcher sends.
    const body = [...receiver.requests.values()][0].raw.toString('utf8');
    await burst(ctx, body, 'outbound');
    await burst(ctx, body, 'fetch');
    await loadedBaseline(ctx, body); // also the plain workspaces' first plans
    ctx.gauges.web.reset();
    ctx.gauges.dispatch.reset();
    await pipeline.resetPeak();

    const m: Measured = {
      samples: [],
      outbound: [],
      fetch: [],
      loaded: [],
      bodyBytes: Buffer.byteLength(body),
      lag: lag.samples,
      gauges: ctx.gauges,
      pipelinePeak: { used: 0, waiting: 0, size: 0 },
      statementIdle: [],
    };
    const runIdForProbe = [...receiver.requests.values()][0].runId;
    const idle = () =>
      lag.during('idle', async () => {
        for (let b = 0; b < BURSTS_PER_SLOT; b++) {
          m.outbound.push(...(await burst(ctx, body, 'outbound')));
          m.fetch.push(...(await burst(ctx, body, 'fetch')));
          m.statementIdle.push(...(await statementProbe(dispatch, runIdForProbe)));
          await sleep(50);
        }
      });
    const service = () => lag.during('service', async () => void m.samples.push(...(await serviceRound(ctx))));
    // Alternating order, so drift over the run hits both sides; a loaded round after every second.
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2 === 0) await idle().then(service);
      else await service().then(idle);
      if (r % 2 === 1) m.loaded.push(...(await lag.during('loaded', () => loadedBaseline(ctx, body))));
      const last = m.samples.slice(-CONCURRENT).map((x) => x.received - x.enter);
      log(`  round ${r + 1}/${ROUNDS}: (a) p50 ${fmt(percentile(last, 50))} ms, max ${fmt(Math.max(...last))} ms`);
    }
    m.pipelinePeak = await pipeline.peak();
    if (receiver.problems.length) throw new Error(`integration problems: ${receiver.problems.slice(0, 5).join('; ')}`);

    process.stdout.write(
      `\n${report(m)}\n\nbefore: ${before}\nafter:  ${machine()}\ntotal ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );
  } finally {
    await cleanups.run();
  }
}

if (!isMainThread)
  void pipelineSide((workerData as { env: Record<string, string> }).env, {
    on: (e, l) => parentPort!.on(e, l),
    send: (m) => parentPort!.postMessage(m),
  });
else if (process.env[PIPELINE_CHILD]) {
  setPriority(Number(process.env[PIPELINE_CHILD]));
  void pipelineSide(process.env as Record<string, string>, {
    on: (e, l) => process.on(e, l),
    send: (m) => process.send!(m),
  });
} else runMain(main);
