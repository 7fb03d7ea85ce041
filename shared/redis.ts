import { Redis } from 'ioredis';

/**
 * Worker connections block on Redis and must retry forever (BullMQ requires
 * maxRetriesPerRequest: null); producer connections fail fast so an API request never hangs on Redis.
 */
export function createRedis(url: string, role: 'worker' | 'producer'): Redis {
  return new Redis(url, role === 'worker'
    ? { maxRetriesPerRequest: null, enableReadyCheck: true }
    : { maxRetriesPerRequest: 1, connectTimeout: 2000, enableOfflineQueue: true });
}
