import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { loadConfig, type Config } from '../../shared/platform/config.js';
import { dropDatabase } from '../../shared/platform/db.js';
import { migrateLatest } from '../../shared/platform/db/migrate.js';
import { createLogger } from '../../shared/platform/logger.js';
import { openRuntime, closeRuntime, type Runtime } from '../../shared/runtime.js';
import { createRunLifecycle } from '../../shared/lifecycle-areas.js';
import { bullPrefix } from '../../shared/platform/queues.js';
import { masters } from '../../shared/platform/redis.js';
import { startWeb, type WebHandle } from '../../server/web.js';
import { sandboxHost } from './sandbox.js';
import { cgroupParents, readHostCgroups, removeAbandonedCgroups } from '../../shared/platform/sandbox/cgroups.js';
import { deploymentTag } from '../../shared/platform/terraform/work-root.js';
import { startRedisCluster, type OwnRedisCluster } from './redis-cluster.js';

/** Everything a test needs: the running API, its runtime, and the per-run identity. */
export interface Harness {
  rt: Runtime;
  config: Config;
  web: WebHandle;
  baseUrl: string;
  adminToken: string;
  /** Environment for child processes (workers) so they share this run's database and queues. */
  childEnv: NodeJS.ProcessEnv;
  /** The Redis Cluster this run started (REDIS_CLUSTER_TEST=1), stopped with the harness. */
  cluster: OwnRedisCluster | null;
}

let current: Harness | null = null;

/** Rate limit budgets no test reaches (see shared/platform/rate-limits.ts). */
export const GENEROUS_RATE_LIMITS = {
  RATE_LIMIT_PER_SECOND: '1000000',
  RATE_LIMIT_CONFIGURATION_VERSIONS_PER_MINUTE: '1000000',
  RATE_LIMIT_VERIFICATIONS_PER_HOST_PER_MINUTE: '1000000',
  MAX_CONCURRENT_VERIFICATIONS_PER_HOST: '0',
  RATE_LIMIT_INVITATIONS_PER_MINUTE: '1000000',
  RATE_LIMIT_INVITATIONS_PER_HOUR: '1000000',
  RATE_LIMIT_SIGN_IN_PER_MINUTE: '1000000',
  RATE_LIMIT_SIGN_IN_PER_ACCOUNT_PER_HOUR: '1000000',
  RATE_LIMIT_SIGN_IN_FAILURES_PER_HOUR: '1000000',
  // Suites send unknown and revoked tokens on purpose, all from this machine's one address.
  RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '1000000',
  // Every suite's uploads come from this one address, often by the site admin; the upload limit tests set their own caps.
  MAX_CONCURRENT_UPLOADS_PER_USER: '0',
  MAX_CONCURRENT_UPLOADS_PER_ADDRESS: '0',
};

export function harness(): Harness {
  if (!current) throw new Error('test harness not started');
  return current;
}

const PG = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A port that was free a moment ago (the API's URLs must name it before it listens). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** A fresh database and queue prefix for this run, migrations applied, API listening on a free port. */
export async function startHarness(): Promise<Harness> {
  // REDIS_CLUSTER_TEST=1: the run's queues and rate limits live in a 3-master Redis Cluster of its own.
  const cluster = process.env.REDIS_CLUSTER_TEST === '1' ? await startRedisCluster() : null;
  const port = await freePort();
  const runId = randomBytes(5).toString('hex');
  const adminToken = `test-admin-${randomBytes(16).toString('hex')}`;
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    DATABASE_URL: `${PG}/rls_test_${runId}`,
    REDIS_URL: REDIS,
    ...(cluster ? { REDIS_CLUSTER_NODES: cluster.nodes.join(',') } : {}),
    QUEUE_PREFIX: `test-${runId}`,
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SITE_ADMIN_TOKEN: adminToken,
    // The API serves /metrics to scrapes that send this token (see shared/operations/metrics.ts).
    METRICS_TOKEN: `test-metrics-${randomBytes(12).toString('hex')}`,
    OUTBOUND_ALLOWED_CIDRS: '127.0.0.0/8,::1/128',
    // Runs' sandboxes reach the tests' servers through this machine's address (see sandboxHost).
    RUN_NETWORK_ALLOWED_CIDRS: `${sandboxHost()}/32`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    RECONCILE_INTERVAL_MS: '3600000',
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    // Runs' sandboxes reach the API through this machine's address too (loopback is their own).
    RUN_API_URL: `http://${sandboxHost()}:${port}`,
    // The suites share one admin token and send bursts: budgets far above what they use, so no test
    // meets a 429 by accident (the limiter still runs, and sets its headers). The rate limit tests
    // start their own APIs with small budgets.
    ...GENEROUS_RATE_LIMITS,
  };
  await migrateLatest(env.DATABASE_URL!);
  const config = loadConfig(env);
  const rt = openRuntime(config, createRunLifecycle(config), createLogger(config.logLevel));
  const web = await startWeb(rt, port);
  const baseUrl = config.baseUrl;
  current = { rt, config, web, baseUrl, adminToken, childEnv: { ...process.env, ...env }, cluster };
  return current;
}

/** Deletes every Redis key of this run's queue prefix (also used to simulate a Redis flush). */
export async function flushQueueKeys(h: Harness, queuePrefix = h.config.queuePrefix): Promise<number> {
  const pattern = `${bullPrefix(queuePrefix)}:*`;
  let n = 0;
  // In a cluster every key of the prefix is in one slot (its hash tag), on one of the masters.
  for (const node of masters(h.rt.redis)) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length) n += await node.del(...keys);
    } while (cursor !== '0');
  }
  return n;
}

/** A second API process on this run's database and queues, with extra environment (e.g. another edition). */
export async function startSecondApp(
  env: Record<string, string>,
  port = 0,
): Promise<{ baseUrl: string; api: string; close: () => Promise<void> }> {
  // A Redis of its own (REDIS_URL) replaces the run's cluster, if any.
  const config = loadConfig({ ...harness().childEnv, ...(env.REDIS_URL ? { REDIS_CLUSTER_NODES: '' } : {}), ...env });
  const rt = openRuntime(config, createRunLifecycle(config), createLogger(config.logLevel));
  const web = await startWeb(rt, port);
  const baseUrl = `http://127.0.0.1:${web.port}`;
  return {
    baseUrl,
    api: `${baseUrl}/api/v2`,
    close: async () => {
      await web.stop();
      await closeRuntime(rt);
    },
  };
}

/**
 * Another deployment on this host: a database of its own (migrated), a queue prefix of its own on
 * the run's Redis, and its API; `env` is what its worker processes take (spawnWorkers) besides the
 * run's environment. Closing it stops the API, deletes its queue keys and drops its database.
 */
export interface Deployment {
  rt: Runtime;
  baseUrl: string;
  api: string;
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startDeployment(env: Record<string, string> = {}): Promise<Deployment> {
  const h = harness();
  const id = randomBytes(4).toString('hex');
  const url = new URL(h.config.databaseUrl);
  url.pathname = `${url.pathname}_d${id}`;
  const own = { DATABASE_URL: url.toString(), QUEUE_PREFIX: `${h.config.queuePrefix}-d${id}`, ...env };
  await migrateLatest(own.DATABASE_URL);
  const config = loadConfig({ ...h.childEnv, ...own });
  const rt = openRuntime(config, createRunLifecycle(config), createLogger(config.logLevel));
  const web = await startWeb(rt, 0);
  const baseUrl = `http://127.0.0.1:${web.port}`;
  return {
    rt,
    baseUrl,
    api: `${baseUrl}/api/v2`,
    env: own,
    async close() {
      await web.stop();
      await flushQueueKeys(h, config.queuePrefix);
      await closeRuntime(rt);
      await dropDatabase(config.databaseUrl);
    },
  };
}

/**
 * A second API (as startSecondApp) for the enclosing mocha suite: started in its `before` hook and
 * closed in its `after` hook; `api` and `baseUrl` are filled in once it has started.
 */
export function secondAppForSuite(env: Record<string, string>): { api: string; baseUrl: string } {
  const app = { api: '', baseUrl: '' };
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    const started = await startSecondApp(env);
    Object.assign(app, { api: started.api, baseUrl: started.baseUrl });
    close = started.close;
  });
  after(async () => {
    await close?.();
  });
  return app;
}

export async function stopHarness(): Promise<void> {
  if (!current) return;
  const h = current;
  current = null;
  await h.web.stop();
  await flushQueueKeys(h);
  await closeRuntime(h.rt);
  // Workers killed by the tests leave their sandboxes' cgroups, which only a worker of this run's deployment (its database and prefix) would remove.
  const tag = deploymentTag(h.config);
  await removeAbandonedCgroups(cgroupParents(readHostCgroups(), tag), tag);
  if (!process.env.TEST_KEEP_DB) await dropDatabase(h.config.databaseUrl);
  await h.cluster?.stop();
}
