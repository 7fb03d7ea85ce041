/*
 * Workspace API benchmark. Prints the service's throughput and latency as ratios against a bare
 * Express + pg baseline measured in the same run on the same database, so the numbers say what
 * the service's extra work costs rather than how fast this particular machine is.
 *
 * The servers run on the main thread; the load generator runs on a worker thread so its CPU time
 * does not come out of the servers' event loop.
 */
import type { Server } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import express, { type NextFunction, type Request, type Response } from 'express';
import pg from 'pg';
import { loadConfig } from '../shared/platform/config.js';
import { dropDatabase } from '../shared/platform/db.js';
import { migrateLatest } from '../shared/platform/db/migrate.js';
import { createLogger } from '../shared/platform/logger.js';
import { bullPrefix } from '../shared/platform/queues.js';
import { closeRuntime, openRuntime, type Runtime } from '../shared/runtime.js';
import { createRunLifecycle } from '../shared/lifecycle-areas.js';
import { startWeb, type WebHandle } from '../server/web.js';
import { backendPids, doc, procCpuMs, putArchive, tarGz } from './support.js';

const HOST = '127.0.0.1';
const PG_URL = `postgres://postgres@${HOST}:5432`;
const REDIS_URL = `redis://${HOST}:6379`;
const CONNECTIONS = 20;
const POOL_SIZE = 10; // the service's knex pool default, so both sides get the same connections
const MEASURE_SECONDS = Number(process.env.BENCH_SECONDS ?? '8');
const WARMUP_SECONDS = 1;
const ROUNDS = 2;
const JSON_API = 'application/vnd.api+json';
/** When set, every measured run is CPU-profiled (main thread only) into this directory. */
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE_DIR;

type Method = 'GET' | 'POST';

/** One load run, as sent to the load-generator thread. */
interface LoadSpec {
  url: string;
  method: Method;
  token: string;
  seconds: number;
  /** First number used in generated workspace names; keeps names unique across runs. */
  nameOffset: number;
}

/** The parts of an autocannon result the report needs. */
interface Summary {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
}

/** CPU ms per completed request: the servers' thread (this process's main thread) and the database's backends. */
interface CpuPerRequest {
  server: number;
  postgres: number;
}

// ---------------------------------------------------------------- load generator (worker thread)

const createBody = (n: number): string =>
  JSON.stringify({ data: { type: 'workspaces', attributes: { name: `bench-${n}` } } });

function requestsFor(spec: LoadSpec): autocannon.Request[] {
  if (spec.method === 'GET') return [{ method: 'GET' }];
  let counter = spec.nameOffset;
  // A fresh name per request: a repeated name would be a 422 on the service and a 500 on the baseline.
  return [{ method: 'POST', setupRequest: (req) => ({ ...req, body: createBody(counter++) }) }];
}

/*
 * Off the main thread autocannon hands back its raw, encoded result (it expects a parent to merge
 * several), so it is aggregated here. That step is public but missing from the type definitions.
 */
const aggregate = (
  autocannon as unknown as { aggregateResult(results: unknown[], opts: autocannon.Options): autocannon.Result }
).aggregateResult;

async function runLoad(spec: LoadSpec): Promise<Summary> {
  const headers: Record<string, string> = { authorization: `Bearer ${spec.token}`, accept: JSON_API };
  if (spec.method === 'POST') headers['content-type'] = JSON_API;
  const opts: autocannon.Options = {
    url: spec.url,
    connections: CONNECTIONS,
    duration: spec.seconds,
    headers,
    requests: requestsFor(spec),
  };
  const r = aggregate([await autocannon(opts)], { url: spec.url, connections: CONNECTIONS });
  // Per-second samples do not survive aggregation, so throughput is completed requests over time.
  const rps = r.requests.total / r.duration;
  return { rps, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, non2xx: r.non2xx, errors: r.errors };
}

function serveLoadRequests(): void {
  parentPort!.on('message', (spec: LoadSpec) => {
    runLoad(spec).then(
      (summary) => parentPort!.postMessage({ summary }),
      (err: unknown) => parentPort!.postMessage({ error: String(err) }),
    );
  });
}

/** Main-thread handle on the load-generator thread; one run at a time. */
function loadGenerator(): { run(spec: LoadSpec): Promise<Summary>; stop(): Promise<number> } {
  const worker = new Worker(fileURLToPath(import.meta.url));
  return {
    run: (spec) =>
      new Promise<Summary>((resolve, reject) => {
        worker.once('message', (msg: { summary?: Summary; error?: string }) =>
          msg.summary ? resolve(msg.summary) : reject(new Error(msg.error)),
        );
        worker.postMessage(spec);
      }),
    stop: () => worker.terminate(),
  };
}

// ---------------------------------------------------------------- the service under test

interface Service {
  rt: Runtime;
  web: WebHandle;
  baseUrl: string;
  adminToken: string;
}

async function startService(databaseUrl: string, queuePrefix: string): Promise<Service> {
  const adminToken = `bench-admin-${randomBytes(16).toString('hex')}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    QUEUE_PREFIX: queuePrefix,
    // Explicit so the run never creates a development key file in the working directory.
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SITE_ADMIN_TOKEN: adminToken,
    PORT: '0',
    // Benchmarks measure throughput with few tokens: no rate limits.
    RATE_LIMIT_PER_SECOND: '0',
    RATE_LIMIT_CONFIGURATION_VERSIONS_PER_MINUTE: '0',
    RATE_LIMIT_VERIFICATIONS_PER_HOST_PER_MINUTE: '0',
    MAX_CONCURRENT_VERIFICATIONS_PER_HOST: '0',
    RATE_LIMIT_INVITATIONS_PER_MINUTE: '0',
    RATE_LIMIT_INVITATIONS_PER_HOUR: '0',
  });
  const rt = openRuntime(config, createRunLifecycle(config), createLogger(config.logLevel));
  const web = await startWeb(rt, 0);
  return { rt, web, baseUrl: `http://${HOST}:${web.port}`, adminToken };
}

/** Calls the real API as a client would and returns the JSON:API document; any non-2xx is fatal. */
async function call(
  baseUrl: string,
  token: string,
  path: string,
  body: unknown,
): Promise<{ data: { id: string; attributes: Record<string, unknown> } }> {
  const res = await fetch(`${baseUrl}/api/v2${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': JSON_API, accept: JSON_API },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path} -> ${res.status}: ${text}`);
  return JSON.parse(text);
}

interface Fixture {
  token: string;
  org: string;
  workspaceId: string;
  workspaceName: string;
  /** A run of the workspace, queued for its plan (no worker runs here, so it stays queued). */
  runId: string;
}

/** A user with its own token, an organization it owns and one workspace, all through the API. */
async function createFixture(svc: Service): Promise<Fixture> {
  const name = `bench-${randomBytes(4).toString('hex')}`;
  const user = await call(
    svc.baseUrl,
    svc.adminToken,
    '/admin/users',
    doc('users', { username: name, email: `${name}@example.test` }),
  );
  const tok = await call(
    svc.baseUrl,
    svc.adminToken,
    `/users/${user.data.id}/authentication-tokens`,
    doc('authentication-tokens', { description: 'bench' }),
  );
  const token = String(tok.data.attributes.token);
  await call(svc.baseUrl, token, '/organizations', doc('organizations', { name, email: `${name}@example.test` }));
  const workspaceName = 'bench-fixture';
  const ws = await call(
    svc.baseUrl,
    token,
    `/organizations/${name}/workspaces`,
    doc('workspaces', { name: workspaceName }),
  );
  const cv = await call(
    svc.baseUrl,
    token,
    `/workspaces/${ws.data.id}/configuration-versions`,
    doc('configuration-versions', { 'auto-queue-runs': false }),
  );
  // The upload URL names the configured base URL; this service listens on a port of its own.
  const upload = new URL(String(cv.data.attributes['upload-url']));
  await putArchive(
    `${svc.baseUrl}${upload.pathname}${upload.search}`,
    await tarGz({ 'main.tf': 'resource "terraform_data" "a" {\n  input = "x"\n}\n' }),
  );
  const run = await call(
    svc.baseUrl,
    token,
    '/runs',
    doc('runs', {}, { workspace: { data: { type: 'workspaces', id: ws.data.id } } }),
  );
  return { token, org: name, workspaceId: ws.data.id, workspaceName, runId: run.data.id };
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

// ---------------------------------------------------------------- baseline: bare Express 5 + pg

interface Baseline {
  port: number;
  stop(): Promise<void>;
}

const digestOf = (req: Request): string | null => {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
  return m ? createHash('sha256').update(m[1]).digest('hex') : null;
};

/** The least work that is still an authenticated read or write: one token lookup, one statement. */
function baselineApp(pool: pg.Pool): express.Express {
  const app = express();
  app.use(express.json({ type: ['application/json', JSON_API] }));
  app.use(async (req: Request, res: Response, next: NextFunction) => {
    const digest = digestOf(req);
    const found = digest
      ? await pool.query('select user_id from authentication_tokens where digest = $1', [digest])
      : null;
    if (!found?.rowCount) {
      res.status(401).json({ error: 'unauthorized' });
      return;
    }
    next();
  });
  app.get('/ws/:id', async (req: Request<{ id: string }>, res: Response) => {
    const { rows } = await pool.query('select * from workspaces where id = $1', [req.params.id]);
    if (!rows.length) res.status(404).json({ error: 'not found' });
    else res.json({ data: rows[0] });
  });
  app.get('/orgs/:org/ws/:name', async (req: Request<{ org: string; name: string }>, res: Response) => {
    const { rows } = await pool.query('select * from workspaces where organization_name = $1 and name = $2', [
      req.params.org,
      req.params.name,
    ]);
    if (!rows.length) res.status(404).json({ error: 'not found' });
    else res.json({ data: rows[0] });
  });
  app.get('/runs/:id', async (req: Request<{ id: string }>, res: Response) => {
    const { rows } = await pool.query('select * from runs where id = $1', [req.params.id]);
    if (!rows.length) res.status(404).json({ error: 'not found' });
    else res.json({ data: rows[0] });
  });
  app.post('/orgs/:org/ws', async (req: Request<{ org: string }>, res: Response) => {
    const name = (req.body as { data?: { attributes?: { name?: string } } }).data?.attributes?.name;
    const id = `ws-${randomBytes(8).toString('hex')}`;
    const { rows } = await pool.query(
      'insert into workspaces (id, organization_name, name, project_id) values ($1, $2, $3, (select id from projects where organization_name = $2 and is_default)) returning *',
      [id, req.params.org, name],
    );
    res.status(201).json({ data: rows[0] });
  });
  return app;
}

async function startBaseline(databaseUrl: string): Promise<Baseline> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = baselineApp(pool).listen(0, HOST, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const stop = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    await pool.end();
  };
  return { port, stop };
}

// ---------------------------------------------------------------- measurement and report

type Side = 'baseline' | 'service';

interface Scenario {
  title: string;
  method: Method;
  urls: Record<Side, string>;
}

function scenarios(svcPort: number, basePort: number, fx: Fixture): Scenario[] {
  const svc = `http://${HOST}:${svcPort}/api/v2`;
  const base = `http://${HOST}:${basePort}`;
  return [
    {
      title: 'GET /api/v2/workspaces/:id',
      method: 'GET',
      urls: { baseline: `${base}/ws/${fx.workspaceId}`, service: `${svc}/workspaces/${fx.workspaceId}` },
    },
    {
      title: 'GET /api/v2/organizations/:org/workspaces/:name',
      method: 'GET',
      urls: {
        baseline: `${base}/orgs/${fx.org}/ws/${fx.workspaceName}`,
        service: `${svc}/organizations/${fx.org}/workspaces/${fx.workspaceName}`,
      },
    },
    {
      title: 'GET /api/v2/runs/:id',
      method: 'GET',
      urls: { baseline: `${base}/runs/${fx.runId}`, service: `${svc}/runs/${fx.runId}` },
    },
    {
      title: 'POST /api/v2/organizations/:org/workspaces',
      method: 'POST',
      urls: { baseline: `${base}/orgs/${fx.org}/ws`, service: `${svc}/organizations/${fx.org}/workspaces` },
    },
  ];
}

interface Measured {
  title: string;
  runs: Record<Side, Summary[]>;
  cpu: Record<Side, CpuPerRequest[]>;
}

/** CPU so far of the servers' thread and of each backend of the bench's database. */
interface CpuSample {
  server: number;
  postgres: Map<number, number>;
}

/** Samples CPU through /proc: both servers run on this process's main thread (the load generator has a thread of its own). */
function cpuMeter(watcher: pg.Client): {
  sample(): Promise<CpuSample>;
  perRequest(before: CpuSample, requests: number): Promise<CpuPerRequest>;
} {
  const sample = async (): Promise<CpuSample> => {
    const pids = await backendPids(watcher);
    return {
      server: await procCpuMs(`${process.pid}/task/${process.pid}`),
      postgres: new Map(await Promise.all(pids.map(async (pid) => [pid, await procCpuMs(pid)] as const))),
    };
  };
  return {
    sample,
    perRequest: async (before, requests) => {
      const after = await sample();
      let postgres = 0;
      for (const [pid, ms] of after.postgres) postgres += ms - (before.postgres.get(pid) ?? 0);
      return { server: (after.server - before.server) / requests, postgres: postgres / requests };
    },
  };
}

const SIDES: readonly Side[] = ['baseline', 'service'];

/** Warm both sides up, then alternate baseline and service so drift hits both equally. */
async function measure(
  gen: ReturnType<typeof loadGenerator>,
  meter: ReturnType<typeof cpuMeter>,
  sc: Scenario,
  token: string,
  names: { next: number },
): Promise<Measured> {
  const spec = (side: Side, seconds: number): LoadSpec => {
    const s = { url: sc.urls[side], method: sc.method, token, seconds, nameOffset: names.next };
    names.next += 10_000_000; // far more requests than any single run can make
    return s;
  };
  for (const side of SIDES) await gen.run(spec(side, WARMUP_SECONDS));
  const runs: Record<Side, Summary[]> = { baseline: [], service: [] };
  const cpu: Record<Side, CpuPerRequest[]> = { baseline: [], service: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of SIDES) {
      const profiling = PROFILE_DIR ? await startProfile() : null;
      const before = await meter.sample();
      const s = await gen.run(spec(side, MEASURE_SECONDS));
      cpu[side].push(await meter.perRequest(before, s.total));
      if (profiling) await profiling(`${side}-${profileName(sc.title)}-round-${round + 1}`);
      process.stderr.write(
        `  ${sc.title} ${side} round ${round + 1}: ${s.rps.toFixed(0)} req/s, p99 ${s.p99} ms, non-2xx ${s.non2xx}\n`,
      );
      runs[side].push(s);
    }
  }
  return { title: sc.title, runs, cpu };
}

/** A scenario's title as a file name: `GET /api/v2/runs/:id` -> `get-runs-id`. */
const profileName = (title: string): string =>
  title
    .toLowerCase()
    .replace('/api/v2/', '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Starts the inspector's CPU profiler on this thread; the returned function writes the profile out. */
async function startProfile(): Promise<(name: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (name) => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    await writeFile(join(PROFILE_DIR!, `${name}.cpuprofile`), JSON.stringify(profile));
  };
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

function averaged(runs: Summary[]): Summary {
  const of = (k: keyof Summary) => runs.map((r) => r[k]);
  return {
    rps: mean(of('rps')),
    p50: mean(of('p50')),
    p99: mean(of('p99')),
    total: sum(of('total')),
    non2xx: sum(of('non2xx')),
    errors: sum(of('errors')),
  };
}

/** Markdown table, so the output can be pasted into docs/performance.md as is. */
function report(results: Measured[]): { table: string; flagged: string[] } {
  const lines = [
    '| Endpoint | Side | req/s | p50 ms | p99 ms | non-2xx | errors |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  const flagged: string[] = [];
  for (const m of results) {
    const avg = { baseline: averaged(m.runs.baseline), service: averaged(m.runs.service) };
    for (const side of SIDES) {
      const a = avg[side];
      if (a.non2xx > 0 || a.errors > 0)
        flagged.push(`${m.title} (${side}): ${a.non2xx} non-2xx, ${a.errors} errors of ${a.total}`);
      lines.push(
        `| ${m.title} | ${side} | ${a.rps.toFixed(0)} | ${a.p50.toFixed(1)} | ${a.p99.toFixed(1)} | ${a.non2xx} | ${a.errors} |`,
      );
    }
    const rpsRatio = avg.service.rps / avg.baseline.rps;
    const p99Ratio = avg.service.p99 / avg.baseline.p99;
    lines.push(
      `| ${m.title} | **service / baseline** | **${rpsRatio.toFixed(2)}** | | **${p99Ratio.toFixed(2)}** | | |`,
    );
  }
  lines.push(
    '',
    '| Endpoint | Side | server thread CPU ms per request | Postgres backends CPU ms per request |',
    '|---|---|---:|---:|',
  );
  for (const m of results) {
    for (const side of SIDES) {
      const of = (k: keyof CpuPerRequest) => mean(m.cpu[side].map((c) => c[k])).toFixed(3);
      lines.push(`| ${m.title} | ${side} | ${of('server')} | ${of('postgres')} |`);
    }
  }
  return { table: lines.join('\n'), flagged };
}

// ---------------------------------------------------------------- orchestration

async function main(): Promise<void> {
  const runId = randomBytes(5).toString('hex');
  const databaseUrl = `${PG_URL}/rls_bench_${runId}`;
  const started = Date.now();
  await migrateLatest(databaseUrl);
  const cleanups: (() => Promise<unknown>)[] = [() => dropDatabase(databaseUrl)];
  try {
    const svc = await startService(databaseUrl, `bench-${runId}`);
    cleanups.unshift(
      () => svc.web.stop(),
      () => flushQueueKeys(svc.rt),
      () => closeRuntime(svc.rt),
    );
    const baseline = await startBaseline(databaseUrl);
    cleanups.unshift(() => baseline.stop());
    const gen = loadGenerator();
    cleanups.unshift(() => gen.stop());
    const watcher = new pg.Client({ connectionString: databaseUrl });
    await watcher.connect();
    cleanups.unshift(() => watcher.end());
    const meter = cpuMeter(watcher);

    const fx = await createFixture(svc);
    process.stderr.write(
      `measuring: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up, ${ROUNDS} x ${MEASURE_SECONDS} s per side\n`,
    );
    const names = { next: 1 };
    const results: Measured[] = [];
    for (const sc of scenarios(svc.web.port, baseline.port, fx))
      results.push(await measure(gen, meter, sc, fx.token, names));

    const { table, flagged } = report(results);
    process.stdout.write(`\n${table}\n\n`);
    for (const f of flagged) process.stdout.write(`FLAGGED: ${f}\n`);
    process.stdout.write(`total ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  } finally {
    // Sequential and best effort: one failed step must not leave the database behind.
    for (const step of cleanups)
      await step().catch((err: unknown) => process.stderr.write(`cleanup: ${String(err)}\n`));
  }
}

if (isMainThread) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
} else {
  serveLoadRequests();
}
