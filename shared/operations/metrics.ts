import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../platform/db.js';
import type { Queues } from '../platform/queues.js';
import { durableBacklog } from './queries.js';
import { sha256Hex } from '../platform/crypto.js';
import type { Logger } from '../platform/logger.js';

/*
 * The Prometheus metrics of one process: a registry built by the entry point (bin/*) and carried in
 * the Runtime, never a global one. docs/operations.md lists every series and the alerts to set.
 */

/** Every series name starts with this. */
export const METRIC_PREFIX = 'rls_';

/** Kinds of outbound work whose attempts are counted (see Metrics.outbound). */
export type OutboundKind = 'notification' | 'run_task' | 'mail' | 'verification';

export interface Metrics {
  readonly registry: Registry;
  /** HTTP requests by route template, method and status, with their durations. */
  readonly http: Histogram<'route' | 'method' | 'status'>;
  /** Jobs processed by queue, name and outcome (completed, failed), with their processing time. */
  readonly jobs: Histogram<'queue' | 'name' | 'outcome'>;
  /** Time a job waited between becoming due and a worker starting it. */
  readonly jobWait: Histogram<'queue' | 'name'>;
  /** Attempts of outbound work (notification deliveries, run task requests, mail, verifications) by outcome. */
  readonly outbound: Counter<'kind' | 'outcome'>;
  /** Run moves by the status left and the status entered. */
  readonly runMoves: Counter<'from' | 'to'>;
  /** Time a run spent in a status, by that status (the phase) and the status it moved on to. */
  readonly runPhase: Histogram<'phase' | 'to'>;
  /** Jobs the reconciler put back for rows whose job was lost, by source. */
  readonly reconcilerRequeues: Counter<'source'>;
  /** Versions whose backing data the data retention policies deleted, by kind (state_version, configuration_version). */
  readonly dataRetentionDeletions: Counter<'kind'>;
  /** Steps of the periodic sweep that failed (the sweep's other steps went on), by step. */
  readonly sweepFailures: Counter<'step'>;
  /** Time a database query waited for a pool connection. */
  readonly poolWait: Histogram;
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];

/** A registry with the process metrics (CPU, memory, event loop lag, GC, handles) and the service's own series. */
export function createMetrics(process: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ process });
  collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX, eventLoopMonitoringPrecision: 20 });
  const registers = [registry];
  return {
    registry,
    http: new Histogram({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: 'HTTP requests by route template, method and status',
      labelNames: ['route', 'method', 'status'],
      buckets: SECONDS_BUCKETS,
      registers,
    }),
    jobs: new Histogram({
      name: `${METRIC_PREFIX}job_duration_seconds`,
      help: 'Jobs processed by queue, job name and outcome, with their processing time',
      labelNames: ['queue', 'name', 'outcome'],
      buckets: SECONDS_BUCKETS,
      registers,
    }),
    jobWait: new Histogram({
      name: `${METRIC_PREFIX}job_wait_seconds`,
      help: 'Time from a job becoming due to a worker starting it',
      labelNames: ['queue', 'name'],
      buckets: SECONDS_BUCKETS,
      registers,
    }),
    outbound: new Counter({
      name: `${METRIC_PREFIX}outbound_attempts_total`,
      help: 'Attempts of notification deliveries, run task requests, mail and verifications by outcome',
      labelNames: ['kind', 'outcome'],
      registers,
    }),
    runMoves: new Counter({
      name: `${METRIC_PREFIX}run_moves_total`,
      help: 'Run status moves by status left and entered',
      labelNames: ['from', 'to'],
      registers,
    }),
    runPhase: new Histogram({
      name: `${METRIC_PREFIX}run_phase_duration_seconds`,
      help: 'Time a run spent in a status, by that status and the status it moved to',
      labelNames: ['phase', 'to'],
      buckets: SECONDS_BUCKETS,
      registers,
    }),
    reconcilerRequeues: new Counter({
      name: `${METRIC_PREFIX}reconciler_requeues_total`,
      help: 'Jobs the reconciler restored for rows whose job was lost',
      labelNames: ['source'],
      registers,
    }),
    dataRetentionDeletions: new Counter({
      name: `${METRIC_PREFIX}data_retention_deletions_total`,
      help: 'State and configuration versions whose backing data a data retention policy deleted',
      labelNames: ['kind'],
      registers,
    }),
    sweepFailures: new Counter({
      name: `${METRIC_PREFIX}sweep_step_failures_total`,
      help: 'Steps of the periodic sweep that failed while the others went on',
      labelNames: ['step'],
      registers,
    }),
    poolWait: new Histogram({
      name: `${METRIC_PREFIX}db_pool_acquire_wait_seconds`,
      help: 'Time a query waited for a database pool connection',
      buckets: SECONDS_BUCKETS,
      registers,
    }),
  };
}

/** What the gauges read at scrape time: the pool, the queues and the durable work behind them. */
export interface Observed {
  db: Db;
  queues: Queues;
}

/** The pool as tarn (knex's pool) exposes it. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
  max: number;
  on(event: 'acquireRequest', fn: (id: number) => void): void;
  on(event: 'acquireSuccess' | 'acquireFail', fn: (id: number) => void): void;
}

const tarnPool = (db: Db): TarnPool | undefined => (db.client as { pool?: TarnPool }).pool;

/**
 * Registers the gauges read when scraped: connections of the database pool, jobs per queue and
 * state, and the rows of durable work (pending count and age of the oldest due row per kind).
 * The queue and backlog gauges describe shared state: every process reports the same values.
 */
export function observeRuntime(metrics: Metrics, observed: Observed): void {
  const registers = [metrics.registry];
  // The pool is re-created if knex is re-initialized; the acquire timings are watched on each.
  const watched = new WeakSet<object>();
  const started = new Map<number, number>();
  const watch = (): TarnPool | undefined => {
    const pool = tarnPool(observed.db);
    if (pool && !watched.has(pool)) {
      watched.add(pool);
      pool.on('acquireRequest', (id) => started.set(id, performance.now()));
      const settle = (id: number) => {
        const t = started.get(id);
        started.delete(id);
        if (t !== undefined) metrics.poolWait.observe((performance.now() - t) / 1000);
      };
      pool.on('acquireSuccess', settle);
      pool.on('acquireFail', settle);
    }
    return pool;
  };
  watch();
  new Gauge({
    name: `${METRIC_PREFIX}db_pool_connections`,
    help: 'Database pool connections by state (used, free, pending: queries waiting for one, max)',
    labelNames: ['state'],
    registers,
    collect() {
      const pool = watch();
      this.set({ state: 'used' }, pool?.numUsed() ?? 0);
      this.set({ state: 'free' }, pool?.numFree() ?? 0);
      this.set({ state: 'pending' }, (pool?.numPendingAcquires() ?? 0) + (pool?.numPendingCreates() ?? 0));
      this.set({ state: 'max' }, pool?.max ?? 0);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}queue_jobs`,
    help: 'Jobs per queue and state (waiting, active, delayed, failed)',
    labelNames: ['queue', 'state'],
    registers,
    async collect() {
      await Promise.all(
        Object.entries(observed.queues).map(async ([name, queue]) => {
          const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
          this.set({ queue: name, state: 'waiting' }, (counts.waiting ?? 0) + (counts.prioritized ?? 0));
          for (const state of ['active', 'delayed', 'failed'] as const)
            this.set({ queue: name, state }, counts[state] ?? 0);
        }),
      );
    },
  });
  // Both backlog gauges come from one query per scrape: the first of the two to be collected asks
  // it, the second takes its answer.
  let reading: ReturnType<typeof durableBacklog> | null = null;
  let takers = 0;
  const backlog = () => {
    reading ??= durableBacklog(observed.db);
    const answer = reading;
    if (++takers === 2) [reading, takers] = [null, 0];
    return answer;
  };
  const backlogGauges = [
    [
      'backlog_rows',
      'Rows of durable work not yet done, by kind and status (runs by status, task results, deliveries, verifications, mail, test runs)',
      'rows',
    ],
    [
      'backlog_oldest_due_seconds',
      'Age of the oldest row of durable work that is due (0: none due), by kind and status',
      'oldestDueSeconds',
    ],
  ] as const;
  for (const [name, help, field] of backlogGauges) {
    new Gauge({
      name: `${METRIC_PREFIX}${name}`,
      help,
      labelNames: ['kind', 'status'],
      registers,
      async collect() {
        const rows = await backlog();
        this.reset();
        for (const row of rows) this.set({ kind: row.kind, status: row.status }, row[field]);
      },
    });
  }
}

/** A scrape's answer. */
export interface Scrape {
  status: number;
  contentType: string;
  body: string;
}

/** Whether an Authorization header carries the scrape token (compared in constant time over digests). */
function tokenMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!given) return false;
  const a = Buffer.from(sha256Hex(given), 'hex');
  const b = Buffer.from(sha256Hex(token), 'hex');
  return timingSafeEqual(a, b);
}

/** The exposition of the registry for a scrape, or 401 when `token` is set and not sent as a Bearer token. */
export async function scrape(
  metrics: Metrics,
  authorization: string | undefined,
  token: string | null,
): Promise<Scrape> {
  if (token !== null && !tokenMatches(authorization, token))
    return { status: 401, contentType: 'text/plain', body: 'metrics token required\n' };
  return { status: 200, contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
}

/** A process's own metrics listener (GET /metrics only). */
export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves the registry at http://host:port/metrics: an internal address (METRICS_HOST, loopback by
 * default), and the scrape token when one is set (METRICS_TOKEN).
 */
export async function serveMetrics(
  metrics: Metrics,
  where: { host: string; port: number; token: string | null },
  logger: Logger,
): Promise<MetricsListener> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    scrape(metrics, req.headers.authorization, where.token).then(
      (out) => res.writeHead(out.status, { 'Content-Type': out.contentType }).end(out.body),
      (err: unknown) => {
        logger.warn('metrics scrape failed', { error: String(err) });
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('scrape failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  logger.info('metrics listening', { host: where.host, port });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The metrics listener METRICS_PORT asks for (none without it). */
export async function listenForScrapes(
  metrics: Metrics,
  config: { metricsPort: number | null; metricsHost: string; metricsToken: string | null },
  logger: Logger,
): Promise<MetricsListener | null> {
  if (config.metricsPort === null) return null;
  return serveMetrics(
    metrics,
    { host: config.metricsHost, port: config.metricsPort, token: config.metricsToken },
    logger,
  );
}
