import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { bullPrefix } from './queues.js';

/**
 * The budgets the API enforces. `api` is every authenticated request, per token; the others are
 * stricter budgets of expensive actions, per token, except `organization-invitations`, which is
 * per organization (whoever invites), `sign-in`, per client address (sign-in and password links,
 * before any credential is known), and `sign-in-account`, per account name a sign-in gives.
 */
export type LimitName = 'api' | 'configuration-versions' | 'verifications' | 'invitations' | 'organization-invitations' | 'sign-in' | 'sign-in-account';

export interface LimitSpec {
  points: number;
  durationSeconds: number;
}

/** What one consumption decided: allowed or not, the budget, what is left of it, and when its window ends. */
export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  msBeforeReset: number;
}

export interface RateLimits {
  /**
   * Takes one point of `name`'s budget for `key`. Null when that budget is off (0) or the store
   * cannot be asked (Redis unreachable or slow): the request then goes through (fail open).
   */
  consume(name: LimitName, key: string): Promise<LimitDecision | null>;
}

/** The budgets a configuration sets (points 0: no limit). */
export function limitSpecs(config: Config): Record<LimitName, LimitSpec> {
  return {
    api: { points: config.rateLimitPerSecond, durationSeconds: 1 },
    'configuration-versions': { points: config.rateLimitConfigurationVersionsPerMinute, durationSeconds: 60 },
    verifications: { points: config.rateLimitVerificationsPerMinute, durationSeconds: 60 },
    invitations: { points: config.rateLimitInvitationsPerMinute, durationSeconds: 60 },
    'organization-invitations': { points: config.rateLimitInvitationsPerHour, durationSeconds: 3600 },
    'sign-in': { points: config.rateLimitSignInPerMinute, durationSeconds: 60 },
    'sign-in-account': { points: config.rateLimitSignInPerAccountPerHour, durationSeconds: 3600 },
  };
}

/** Past this, a limiter call is abandoned and the request goes through, so a stalled Redis never stalls the API. */
const STORE_TIMEOUT_MS = 500;
/** While the store keeps failing, one warning per this long. */
const WARN_EVERY_MS = 10_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`rate limit store did not answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Fixed-window budgets in Redis (rate-limiter-flexible: one atomic script per consumption), so every
 * web process shares them. Keys live under the queue prefix's hash tag: `{prefix}:rate-limit:<name>:<key>`.
 */
export function createRateLimits(redis: Redis, config: Config, logger: Logger): RateLimits {
  const limiters = new Map<LimitName, RateLimiterRedis>();
  for (const [name, spec] of Object.entries(limitSpecs(config)) as [LimitName, LimitSpec][]) {
    if (spec.points <= 0) continue;
    limiters.set(
      name,
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${bullPrefix(config.queuePrefix)}:rate-limit:${name}`,
        points: spec.points,
        duration: spec.durationSeconds,
        // A connection that is down answers at once instead of queueing the command.
        rejectIfRedisNotReady: true,
      }),
    );
  }
  let lastWarning = 0;
  return {
    async consume(name, key) {
      const limiter = limiters.get(name);
      if (!limiter) return null;
      try {
        const res = await withTimeout(limiter.consume(key), STORE_TIMEOUT_MS);
        return { allowed: true, limit: limiter.points, remaining: res.remainingPoints, msBeforeReset: res.msBeforeNext };
      } catch (err) {
        if (err instanceof RateLimiterRes) return { allowed: false, limit: limiter.points, remaining: 0, msBeforeReset: err.msBeforeNext };
        if (Date.now() - lastWarning >= WARN_EVERY_MS) {
          lastWarning = Date.now();
          logger.warn('rate limits not enforced: the store cannot be reached', { limit: name, error: String(err) });
        }
        return null;
      }
    },
  };
}
