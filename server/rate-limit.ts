import type { NextFunction, Request, Response } from 'express';
import { credentialDigest, signInAllowance } from '../shared/identity/index.js';
import { budgetSpent, type LimitDecision, type LimitName, type RateLimits } from '../shared/platform/rate-limits.js';
import type { Config } from '../shared/platform/config.js';
import { presentedCredential } from './auth.js';

/** TFE's headers: the budget, what is left, and seconds (fractional) until the window resets. */
export function setHeaders(res: Response, d: Pick<LimitDecision, 'limit' | 'remaining' | 'msBeforeReset'>): void {
  res.set('X-RateLimit-Limit', String(d.limit));
  res.set('X-RateLimit-Remaining', String(d.remaining));
  res.set('X-RateLimit-Reset', (Math.max(0, d.msBeforeReset) / 1000).toFixed(3));
}

/** 429 for a spent budget (the error middleware answers with Retry-After and the budget's headers). */
function refuse(name: LimitName, d: LimitDecision): never {
  throw budgetSpent(name, d);
}

/**
 * Takes one point of a budget; when it is spent, answers 429 (JSON:API error, Retry-After, and the
 * X-RateLimit headers of the budget that refused). An unlimited or unreachable budget lets the request through.
 */
export async function enforceLimit(limits: RateLimits, name: LimitName, key: string): Promise<LimitDecision | null> {
  const d = await limits.consume(name, key);
  if (d && !d.allowed) refuse(name, d);
  return d;
}

/**
 * The client's address: the socket's peer, or what X-Forwarded-For says through the proxies
 * TRUST_PROXY names (Express's req.ip).
 */
export const clientAddress = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/**
 * The failed-sign-in budgets of one attempt naming `account` (lower-cased) from `address`: 429
 * before the password is checked when this address may not try this account now (see
 * signInAllowance). The caller reports a failed attempt with `failed()`, which spends a point of
 * both budgets; a successful one spends nothing.
 */
export async function signInAttempt(
  limits: RateLimits,
  account: string,
  address: string,
): Promise<{ failed: () => Promise<void> }> {
  const pairKey = JSON.stringify([account, address]);
  const [pair, onAccount] = await Promise.all([
    limits.used('sign-in-failures', pairKey),
    limits.used('sign-in-account', account),
  ]);
  const allowance =
    pair &&
    signInAllowance({ addressLimit: pair.limit, onAccount: onAccount?.used ?? 0, accountLimit: onAccount?.limit ?? 0 });
  if (pair && allowance !== null && pair.used >= allowance) {
    refuse('sign-in-failures', { allowed: false, limit: allowance, remaining: 0, msBeforeReset: pair.msBeforeReset });
  }
  return {
    failed: async () => {
      await Promise.all([limits.consume('sign-in-failures', pairKey), limits.consume('sign-in-account', account)]);
    },
  };
}

/** One request's turn at the failed-authentication budget of its client address (see authAttempt). */
export interface AuthAttempt {
  /** 429 when the address's failures are spent, whatever the credential turns out to be. */
  admit(): Promise<void>;
  /** Spends a point: the credential did not authenticate; 429 instead of the 401 once the budget is spent. */
  failed(): Promise<void>;
}

/**
 * Started when a request presents an API token, so that the read of its address's failures runs
 * alongside the token's lookup. Past the budget every token from that address is refused, a good
 * one too, and other addresses are unaffected. Only failures spend points; the failures of a burst
 * sent at once are counted as they end, so past the budget they answer 429, not 401. A good token
 * inside such a burst is still answered, which is harmless for tokens of 256 random bits.
 */
export function authAttempt(limits: RateLimits, req: Request): AuthAttempt {
  const address = clientAddress(req);
  const used = limits.used('auth-failures', address);
  return {
    admit: async () => {
      const u = await used;
      if (u && u.used >= u.limit)
        refuse('auth-failures', { allowed: false, limit: u.limit, remaining: 0, msBeforeReset: u.msBeforeReset });
    },
    failed: async () => {
      const d = await limits.consume('auth-failures', address);
      if (d && !d.allowed) refuse('auth-failures', d);
    },
  };
}

/**
 * The queue board's turn: its password is a person's site-admin token, which may be guessable, so
 * every attempt takes its point before the password is checked and a good one gives it back.
 * Attempts sent at once therefore never get past the budget.
 */
export function boardAuthAttempt(
  limits: RateLimits,
  req: Request,
): { admit(): Promise<void>; succeeded(): Promise<void> } {
  const address = clientAddress(req);
  const taken = limits.consume('auth-failures', address);
  return {
    admit: async () => {
      const d = await taken;
      if (d && !d.allowed) refuse('auth-failures', d);
    },
    succeeded: async () => {
      if (await taken) await limits.refund('auth-failures', address);
    },
  };
}

/** The token a request authenticated with (its id, never its secret), or the run a task's access token serves. */
export function callerKey(res: Response): string {
  const { principal, taskAccess } = res.locals;
  if (principal) return principal.tokenId;
  return `run-task:${taskAccess!.runId}`;
}

/**
 * The key of a request's API budget: a digest of the credential it presents (see
 * presentedCredential), known before the credential is checked; null when it presents none
 * (authenticate answers 401).
 */
function credentialKey(req: Request, config: Pick<Config, 'baseUrl'>): string | null {
  const credential = presentedCredential(req, config);
  return credential && `${credential.kind}:${credentialDigest(credential.secret)}`;
}

/**
 * Every authenticated API request takes a point of its credential's budget (shared by all web
 * processes). The point is asked for here, before authenticate, so that the budget's round trip
 * to Redis runs alongside the credential's lookup; apiRateLimit, after authenticate, awaits the
 * answer. A request that fails authentication is answered 401 as before; the point it took is
 * on a key that no valid credential has.
 */
export const startApiBudget =
  (limits: RateLimits, config: Pick<Config, 'baseUrl'>) =>
  (req: Request, res: Response, next: NextFunction): void => {
    const key = credentialKey(req, config);
    if (key) {
      const taking = limits.consume('api', key);
      // Not awaited when authentication fails first.
      taking.catch(() => undefined);
      res.locals.apiBudget = taking;
    }
    next();
  };

/** After authenticate: 429 when the budget startApiBudget took a point of is spent; its headers on every answer. */
export const apiRateLimit =
  () =>
  async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    const d = await (res.locals.apiBudget ?? null);
    if (d && !d.allowed) refuse('api', d);
    if (d) setHeaders(res, d);
    next();
  };

/** A stricter per-token budget in front of one expensive route (taken before the body is validated). */
export const actionRateLimit =
  (limits: RateLimits, name: 'configuration-versions' | 'invitations') =>
  async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    await enforceLimit(limits, name, callerKey(res));
    next();
  };
