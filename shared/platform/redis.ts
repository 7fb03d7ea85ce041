import { Cluster, Redis, type RedisOptions } from 'ioredis';

/** A connection to the service's Redis: one node (REDIS_URL) or a Redis Cluster (REDIS_CLUSTER_NODES). */
export type RedisConnection = Redis | Cluster;

/** Where Redis is: a cluster when `redisClusterNodes` names any node, else the one node of `redisUrl`. */
export interface RedisSettings {
  redisUrl: string;
  /** Seed nodes of a Redis Cluster (host:port); empty for a single node. */
  redisClusterNodes: readonly string[];
  /** Password of the cluster's nodes (a single node's is in its URL). */
  redisPassword: string | null;
}

/**
 * Worker connections block on Redis and must retry forever (BullMQ requires
 * maxRetriesPerRequest: null); producer connections fail fast so an API request never hangs on Redis.
 * Every key the service writes carries the queue prefix's hash tag (see bullPrefix), so in a
 * cluster its queues, and each rate limit, live in one slot.
 */
export function createRedis(settings: RedisSettings, role: 'worker' | 'producer'): RedisConnection {
  const options: RedisOptions =
    role === 'worker'
      ? { maxRetriesPerRequest: null, enableReadyCheck: true }
      : { maxRetriesPerRequest: 1, connectTimeout: 2000, enableOfflineQueue: true };
  if (!settings.redisClusterNodes.length) return new Redis(settings.redisUrl, options);
  const nodes = settings.redisClusterNodes.map((node) => {
    const at = node.lastIndexOf(':');
    return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
  });
  return new Cluster(nodes, {
    redisOptions: { ...options, ...(settings.redisPassword ? { password: settings.redisPassword } : {}) },
    enableReadyCheck: true,
    enableOfflineQueue: true,
    // Slots move during a resharding or failover: commands follow MOVED/ASK redirections.
    maxRedirections: 16,
    ...(role === 'producer' ? { clusterRetryStrategy: (times: number) => Math.min(100 * times, 2000) } : {}),
  });
}

/** The master nodes of a connection (the node itself when it is not a cluster). */
export const masters = (connection: RedisConnection): Redis[] =>
  connection instanceof Cluster ? connection.nodes('master') : [connection];
