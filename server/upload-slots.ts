import { randomUUID } from 'node:crypto';
import type { Config } from '../shared/platform/config.js';
import { TooManyRequests, Unavailable } from '../shared/platform/errors.js';
import type { Logger } from '../shared/platform/logger.js';
import { bullPrefix } from '../shared/platform/queues.js';
import { STORE_TIMEOUT_MS, withTimeout } from '../shared/platform/rate-limits.js';
import type { RedisConnection } from '../shared/platform/redis.js';
import { UNAVAILABLE_RETRY_SECONDS } from './errors.js';

/**
 * How many request bodies (archives, policy code) one web process takes in at once, in all and
 * per organization (MAX_CONCURRENT_UPLOADS, MAX_CONCURRENT_UPLOADS_PER_ORGANIZATION). Each upload
 * streams with bounded memory; the caps bound how many of those buffers, and of the database
 * writes behind them, one process carries, and keep one organization from taking them all.
 */
export class UploadSlots {
  private total = 0;
  private readonly held = new Map<string, number>();

  constructor(
    private readonly perProcess: number,
    private readonly perOrganization: number,
  ) {}

  /** Takes a slot for `organization` until the returned release is called; 503 with Retry-After when none is free. */
  take(organization: string): () => void {
    const mine = this.held.get(organization) ?? 0;
    if (this.total >= this.perProcess || mine >= this.perOrganization) {
      const whose = mine >= this.perOrganization ? 'this organization has' : 'the service has';
      throw new Unavailable(`${whose} too many uploads in progress; try again in ${UNAVAILABLE_RETRY_SECONDS} seconds`);
    }
    this.total++;
    this.held.set(organization, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const n = (this.held.get(organization) ?? 1) - 1;
      if (n <= 0) this.held.delete(organization);
      else this.held.set(organization, n);
    };
  }
}

/** Who an upload counts against besides its organization: the user it is attributed to (null: none known) and the client's address. */
export interface UploadCaller {
  user: string | null;
  address: string;
}

/** How long a caller's slot lives in Redis unless renewed: the slots of a web process that dies mid-upload free themselves this long after. */
const HOLD_MS = 30_000;
/** Slots of uploads under way are renewed this often, well inside HOLD_MS. */
const RENEW_MS = 10_000;
/** The Retry-After of a caller at its cap: most uploads end within seconds. */
const CALLER_RETRY_MS = 5_000;
/** While Redis keeps failing, one warning per this long. */
const WARN_EVERY_MS = 10_000;

/** Redis's clock in milliseconds, so that every web process's slots expire by one clock. */
const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * Takes a slot in every set of KEYS or in none: ARGV is the holder, the hold in ms, then each
 * key's cap. Expired holders are dropped first. Answers 0, or the 1-based index of the full set.
 */
const TAKE = `${NOW}
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZCARD', key) >= tonumber(ARGV[i + 2]) then return i end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + tonumber(ARGV[2]), ARGV[1])
  redis.call('PEXPIRE', key, ARGV[2])
end
return 0`;

/** Pushes the holder's expiry in every set of KEYS HOLD_MS ahead (ARGV: holder, hold in ms). */
const RENEW = `${NOW}
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + tonumber(ARGV[2]), ARGV[1])
  redis.call('PEXPIRE', key, ARGV[2])
end
return 0`;

/**
 * The uploads one user, and one client address, have under way across every web process
 * (MAX_CONCURRENT_UPLOADS_PER_USER, MAX_CONCURRENT_UPLOADS_PER_ADDRESS): anyone may create
 * organizations, so the per-organization cap alone does not stop one caller from taking a
 * process's every slot. Each cap is a sorted set of holders in Redis, scored by when the holder's
 * slot expires; a holder renews its slot while its upload runs, so a dead process's slots lapse.
 * When Redis cannot be reached these caps are not enforced (the process's own caps still are).
 */
export class CallerUploadSlots {
  private readonly prefix: string;
  private lastWarning = 0;

  constructor(
    private readonly redis: RedisConnection,
    private readonly config: Pick<
      Config,
      'queuePrefix' | 'maxConcurrentUploadsPerUser' | 'maxConcurrentUploadsPerAddress'
    >,
    private readonly logger: Logger,
  ) {
    this.prefix = `${bullPrefix(config.queuePrefix)}:upload-slots`;
  }

  /** Takes the caller's slots until the returned release is called; 429 with Retry-After when the user or the address is at its cap. */
  async take(caller: UploadCaller): Promise<() => void> {
    const caps: { key: string; cap: number; whose: string }[] = [];
    if (caller.user !== null && this.config.maxConcurrentUploadsPerUser > 0) {
      caps.push({
        key: `${this.prefix}:user:${caller.user}`,
        cap: this.config.maxConcurrentUploadsPerUser,
        whose: 'for this user',
      });
    }
    if (this.config.maxConcurrentUploadsPerAddress > 0) {
      caps.push({
        key: `${this.prefix}:address:${caller.address}`,
        cap: this.config.maxConcurrentUploadsPerAddress,
        whose: 'from this client address',
      });
    }
    if (!caps.length) return () => undefined;
    const keys = caps.map((c) => c.key);
    const holder = randomUUID();
    let full: number;
    try {
      full = Number(
        await withTimeout(
          this.redis.eval(TAKE, keys.length, ...keys, holder, HOLD_MS, ...caps.map((c) => c.cap)),
          STORE_TIMEOUT_MS,
        ),
      );
    } catch (err) {
      this.storeFailed(err);
      return () => undefined;
    }
    if (full > 0) {
      const { cap, whose } = caps[full - 1];
      throw new TooManyRequests(
        `Too many uploads in progress ${whose} (at most ${cap}); retry in ${CALLER_RETRY_MS / 1000} seconds.`,
        { limit: cap, msBeforeReset: CALLER_RETRY_MS },
      );
    }
    const renewal = setInterval(() => {
      this.redis.eval(RENEW, keys.length, ...keys, holder, HOLD_MS).catch((err: unknown) => this.storeFailed(err));
    }, RENEW_MS);
    renewal.unref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      clearInterval(renewal);
      for (const key of keys) this.redis.zrem(key, holder).catch((err: unknown) => this.storeFailed(err));
    };
  }

  private storeFailed(err: unknown): void {
    if (Date.now() - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = Date.now();
    this.logger.warn('upload caps per user and address not enforced: Redis cannot be reached', { error: String(err) });
  }
}
