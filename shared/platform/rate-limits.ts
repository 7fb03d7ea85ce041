import type { RedisConnection } from './redis.js';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { bullPrefix } from './queues.js';
import { retryAfterSeconds, TooManyRequests, type SpentBudget } from './errors.js';

/**
 * The budgets the API enforces. `api` is every authenticated request, per token; the others are
 * stricter budgets of expensive actions, per token, except `organization-invitations`, which is
 * per organization (whoever invites), `verification-host`, per destination host (whoever asks:
 * it protects the destination), `sign-in`, per client address (sign-in and password links,
 * before any credential is known), the two budgets of failed sign-ins only: `sign-in-failures`,
 * per account name and client address, and `sign-in-account`, per account name; and
 * `auth-failures`, per client address: tokens and queue board passwords that failed.
 */
export type LimitName =
  | 'api'
  | 'configuration-versions'
  | 'verification-host'
  | 'invitations'
  | 'organization-invitations'
  | 'sign-in'
  | 'sign-in-failures'
  | 'sign-in-account'
  | 'auth-failures';

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
  /** Points of `name`'s budget `key` has used in the current window, without taking one (null as for consume). */
  used(name: LimitName, key: string): Promise<{ used: number; limit: number; msBeforeReset: number } | null>;
  /** Gives back a point `consume` took (an attempt that turned out not to count). */
  refund(name: LimitName, key: string): Promise<void>;
}

/** The budgets a configuration sets (points 0: no limit). */
export function limitSpecs(config: Config): Record<LimitName, LimitSpec> {
  return {
    api: { points: config.rateLimitPerSecond, durationSeconds: 1 },
    'configuration-versions': { points: config.rateLimitConfigurationVersionsPerMinute, durationSeconds: 60 },
    'verification-host': { points: config.rateLimitVerificationsPerHostPerMinute, durationSeconds: 60 },
    invitations: { points: config.rateLimitInvitationsPerMinute, durationSeconds: 60 },
    'organization-invitations': { points: config.rateLimitInvitationsPerHour, durationSeconds: 3600 },
    'sign-in': { points: config.rateLimitSignInPerMinute, durationSeconds: 60 },
    'sign-in-failures': { points: config.rateLimitSignInFailuresPerHour, durationSeconds: 3600 },
    'sign-in-account': { points: config.rateLimitSignInPerAccountPerHour, durationSeconds: 3600 },
    'auth-failures': { points: config.rateLimitAuthFailuresPerMinute, durationSeconds: 60 },
  };
}

/** What each budget counts, as a refusal names it. */
const WHAT: Record<LimitName, string> = {
  api: 'API requests with this token',
  'configuration-versions': 'configuration versions created with this token',
  'verification-host': 'verifications of this destination host',
  invitations: 'invitations sent with this token',
  'organization-invitations': 'invitations sent by this organization',
  'sign-in': 'sign-in attempts from this address',
  'sign-in-failures': 'failed sign-ins for this account from this address',
  'sign-in-account': 'failed sign-ins for this account',
  'auth-failures': 'failed authentications from this address',
};

/** The 429 of a spent budget: a JSON:API error saying which budget and when to retry (the error middleware sets Retry-After). */
export function budgetSpent(name: LimitName, budget: SpentBudget): TooManyRequests {
  return new TooManyRequests(
    `Rate limit exceeded: too many ${WHAT[name]} (at most ${budget.limit}); retry in ${retryAfterSeconds(budget)} seconds.`,
    budget,
  );
}

/** Past this, a limiter call is abandoned and the request goes through, so a stalled Redis never stalls the API. */
export const STORE_TIMEOUT_MS = 500;
/** While the store keeps failing, one warning per this long. */
const WARN_EVERY_MS = 10_000;

/** `promise`, or a rejection once `ms` have passed without its answer (a store call that must not hold a request up). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
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
export function createRateLimits(redis: RedisConnection, config: Config, logger: Logger): RateLimits {
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
  const storeFailed = (name: LimitName, err: unknown): null => {
    if (Date.now() - lastWarning >= WARN_EVERY_MS) {
      lastWarning = Date.now();
      logger.warn('rate limits not enforced: the store cannot be reached', { limit: name, error: String(err) });
    }
    return null;
  };
  return {
    async consume(name, key) {
      const limiter = limiters.get(name);
      if (!limiter) return null;
      try {
        const res = await withTimeout(limiter.consume(key), STORE_TIMEOUT_MS);
        return {
          allowed: true,
          limit: limiter.points,
          remaining: res.remainingPoints,
          msBeforeReset: res.msBeforeNext,
        };
      } catch (err) {
        if (err instanceof RateLimiterRes)
          return { allowed: false, limit: limiter.points, remaining: 0, msBeforeReset: err.msBeforeNext };
        return storeFailed(name, err);
      }
    },
    async used(name, key) {
      const limiter = limiters.get(name);
      if (!limiter) return null;
      try {
        const res = await withTimeout(limiter.get(key), STORE_TIMEOUT_MS);
        return { used: res?.consumedPoints ?? 0, limit: limiter.points, msBeforeReset: res?.msBeforeNext ?? 0 };
      } catch (err) {
        return storeFailed(name, err);
      }
    },
    async refund(name, key) {
      const limiter = limiters.get(name);
      if (!limiter) return;
      try {
        await withTimeout(limiter.reward(key, 1), STORE_TIMEOUT_MS);
      } catch (err) {
        storeFailed(name, err);
      }
    },
  };
}
