import type { Config } from './platform/config.js';
import { createDb, type Db } from './platform/db.js';
import { createLogger, type Logger, createTracing, type Tracing } from './platform/logger.js';
import { createRedis, type RedisConnection } from './platform/redis.js';
import { closeQueues, createQueues, DeliveryRounds, type Queues } from './platform/queues.js';
import type { ObjectStore } from './platform/store/object-store.js';
import { PostgresObjectStore } from './platform/store/postgres-store.js';
import { NotificationListener } from './platform/db/listener.js';
import { VERIFICATION_SETTLED } from './notifications/verifications.repo.js';
import { createRateLimits, type RateLimits } from './platform/rate-limits.js';
import type { RunLifecycle } from './runs/lifecycle.js';
import { PlanDigester } from './plans/digest.js';
import { SharedWork } from './platform/shared-work.js';
import { createMetrics, observeRuntime, type Metrics } from './operations/metrics.js';
import { recordRunMoves } from './operations/index.js';

/**
 * The shared connections every process opens: Postgres pool, a producer Redis connection, the
 * queues, the object store and the API's rate limits (kept in that Redis); and the process's run
 * lifecycle, which the entry point builds (see lifecycle-areas.ts).
 */
export interface Runtime {
  config: Config;
  logger: Logger;
  db: Db;
  redis: RedisConnection;
  queues: Queues;
  store: ObjectStore;
  rateLimits: RateLimits;
  /** Gathers notification delivery attempts into delivery jobs (see DeliveryRounds). */
  deliveries: DeliveryRounds;
  /** Wakes a web request waiting for a verification the worker settled (LISTEN, connected on first use). */
  verificationsSettled: NotificationListener;
  /** How the areas taking part in runs hear of their moves and act in their stages. */
  lifecycle: RunLifecycle;
  /** Digests JSON plans (on threads, a few at a time). */
  planDigests: PlanDigester;
  /** Redactions of stored plans under way in this process, by plan (docs/design-for-speed.md, "Shared work"). */
  redactingPlans: SharedWork<string>;
  /** The process's Prometheus metrics, which the entry point builds (see shared/operations/metrics.ts). */
  metrics: Metrics;
  /** The request id of the work under way, carried into the jobs it adds (see shared/platform/logger.ts). */
  tracing: Tracing;
}

export function openRuntime(
  config: Config,
  lifecycle: RunLifecycle,
  logger = createLogger(config.logLevel),
  metrics = createMetrics('process'),
): Runtime {
  const db = createDb(config.databaseUrl, config.databasePoolMax, config.databasePreparedStatements, logger);
  const redis = createRedis(config, 'producer');
  redis.on('error', (err) => logger.warn('redis error', { error: String(err) }));
  const tracing = createTracing();
  const queues = createQueues(redis, config.queuePrefix, tracing);
  observeRuntime(metrics, { db, queues });
  lifecycle.observeMoves((moves) => recordRunMoves({ logger, metrics, tracing }, moves));
  return {
    config,
    logger,
    db,
    redis,
    queues,
    deliveries: new DeliveryRounds(queues, logger),
    store: new PostgresObjectStore(db, config.encryptionKey),
    verificationsSettled: new NotificationListener(config.databaseListenUrl, VERIFICATION_SETTLED, logger),
    rateLimits: createRateLimits(redis, config, logger),
    lifecycle,
    planDigests: new PlanDigester(),
    redactingPlans: new SharedWork<string>(),
    metrics,
    tracing,
  };
}

export async function closeRuntime(rt: Runtime): Promise<void> {
  await closeQueues(rt.queues).catch(() => undefined);
  await rt.verificationsSettled.close();
  rt.redis.disconnect();
  await rt.db.destroy();
}
