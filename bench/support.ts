/*
 * Shared pieces of the end-to-end benchmarks (upload.ts, runs.ts): a throwaway database and queue
 * prefix with the real service listening on 127.0.0.1, a small JSON:API client, and the numbers.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../shared/config.js';
import { dropDatabase } from '../shared/db.js';
import { migrateLatest } from '../shared/db/migrate.js';
import { createLogger } from '../shared/logger.js';
import { bullPrefix } from '../shared/queues.js';
import { closeRuntime, openRuntime, type Runtime } from '../shared/runtime.js';
import { startWeb, type WebHandle } from '../server/web.js';

export const HOST = '127.0.0.1';
const PG_URL = `postgres://postgres@${HOST}:5432`;
const REDIS_URL = `redis://${HOST}:6379`;
const JSON_API = 'application/vnd.api+json';

const execFileP = promisify(execFile);
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const log = (line: string) => void process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------- the service under test

export interface Service {
  rt: Runtime;
  web: WebHandle;
  baseUrl: string;
  adminToken: string;
  databaseUrl: string;
}

/** A port that was free a moment ago: BASE_URL, and so the signed upload URLs, must name it before listening. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Cleanup steps, run last-registered first; each is best effort so one failure leaves nothing behind. */
export class Cleanups {
  private readonly steps: (() => Promise<unknown>)[] = [];

  add(step: () => Promise<unknown>): void {
    this.steps.unshift(step);
  }

  async run(): Promise<void> {
    for (const step of this.steps) await step().catch((err: unknown) => log(`cleanup: ${String(err)}`));
  }
}

/** Migrates a fresh `rls_bench_<id>` database and starts the real service on it; registers its teardown. */
export async function startService(cleanups: Cleanups, extraEnv: Record<string, string> = {}): Promise<Service> {
  const runId = randomBytes(5).toString('hex');
  const databaseUrl = `${PG_URL}/rls_bench_${runId}`;
  cleanups.add(() => dropDatabase(databaseUrl));
  await migrateLatest(databaseUrl);
  const port = await freePort();
  const adminToken = `bench-admin-${randomBytes(16).toString('hex')}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    QUEUE_PREFIX: `bench-${runId}`,
    // Explicit so the run never creates a development key file in the working directory.
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SITE_ADMIN_TOKEN: adminToken,
    PORT: String(port),
    BASE_URL: `http://${HOST}:${port}`,
    ...extraEnv,
  });
  const rt = openRuntime(config, createLogger(config.logLevel));
  cleanups.add(() => closeRuntime(rt));
  cleanups.add(() => flushQueueKeys(rt));
  const web = await startWeb(rt, port);
  cleanups.add(() => web.stop());
  return { rt, web, baseUrl: config.baseUrl, adminToken, databaseUrl };
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

/** Calls the real API as a client would; any non-2xx is fatal. Returns the document (or null for an empty body). */
export async function api(baseUrl: string, token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiDoc | null> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: JSON_API };
  if (body !== undefined) headers['content-type'] = JSON_API;
  const res = await fetch(`${baseUrl}/api/v2${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} -> ${res.status}: ${text}`);
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
export async function createFixture(svc: Service): Promise<Fixture> {
  const name = `bench-${randomBytes(4).toString('hex')}`;
  const post = async (token: string, path: string, body: unknown) => (await api(svc.baseUrl, token, 'POST', path, body))!;
  const user = await post(svc.adminToken, '/admin/users', doc('users', { username: name, email: `${name}@example.test` }));
  const tok = await post(svc.adminToken, `/users/${user.data.id}/authentication-tokens`, doc('authentication-tokens', { description: 'bench' }));
  const token = String(tok.data.attributes.token);
  await post(token, '/organizations', doc('organizations', { name, email: `${name}@example.test` }));
  const ws = await post(token, `/organizations/${name}/workspaces`, doc('workspaces', { name: 'bench-fixture' }));
  return { token, org: name, workspaceId: ws.data.id };
}

/** Creates a configuration version that will not queue a run; returns its id and signed upload URL. */
export async function createCv(svc: Service, fx: Fixture): Promise<{ id: string; uploadUrl: string }> {
  const cv = (await api(svc.baseUrl, fx.token, 'POST', `/workspaces/${fx.workspaceId}/configuration-versions`, doc('configuration-versions', { 'auto-queue-runs': false })))!;
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
export async function pollUntil(get: () => Promise<ApiDoc>, done: (d: ApiDoc) => boolean, opts: { intervalMs: number; timeoutMs: number; failed?: string[] }): Promise<ApiDoc> {
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
export const machine = () => `node ${process.version}, ${availableParallelism()} cores, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`;

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
