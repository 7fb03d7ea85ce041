import type { NextFunction, Request, Response } from 'express';
import { TooManyRequests } from '../shared/errors.js';
import type { LimitDecision, LimitName, RateLimits } from '../shared/rate-limits.js';

/** TFE's headers: the budget, what is left, and seconds (fractional) until the window resets. */
function setHeaders(res: Response, d: LimitDecision): void {
  res.set('X-RateLimit-Limit', String(d.limit));
  res.set('X-RateLimit-Remaining', String(d.remaining));
  res.set('X-RateLimit-Reset', (Math.max(0, d.msBeforeReset) / 1000).toFixed(3));
}

const WHAT: Record<LimitName, string> = {
  api: 'API requests with this token',
  'configuration-versions': 'configuration versions created with this token',
  verifications: 'destination verifications with this token',
  invitations: 'invitations sent with this token',
  'organization-invitations': 'invitations sent by this organization',
  'sign-in': 'sign-in attempts from this address',
  'sign-in-account': 'sign-in attempts for this account',
};

/**
 * Takes one point of a budget; when it is spent, answers 429 (JSON:API error, Retry-After, and the
 * X-RateLimit headers of the budget that refused). An unlimited or unreachable budget lets the request through.
 */
export async function enforceLimit(limits: RateLimits, res: Response, name: LimitName, key: string): Promise<LimitDecision | null> {
  const d = await limits.consume(name, key);
  if (d && !d.allowed) {
    setHeaders(res, d);
    const seconds = Math.max(1, Math.ceil(d.msBeforeReset / 1000));
    res.set('Retry-After', String(seconds));
    throw new TooManyRequests(`Rate limit exceeded: too many ${WHAT[name]} (at most ${d.limit}); retry in ${seconds} seconds.`);
  }
  return d;
}

/** The token a request authenticated with (its id, never its secret), or the run a task's access token serves. */
export function callerKey(res: Response): string {
  const { principal, taskAccess } = res.locals;
  if (principal) return principal.tokenId;
  return `run-task:${taskAccess!.runId}`;
}

/** Every authenticated API request: the per-token budget, its headers on every answer. */
export const apiRateLimit =
  (limits: RateLimits) =>
  async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    const d = await enforceLimit(limits, res, 'api', callerKey(res));
    if (d) setHeaders(res, d);
    next();
  };

/** A stricter per-token budget in front of one expensive route (taken before the body is validated). */
export const actionRateLimit =
  (limits: RateLimits, name: Exclude<LimitName, 'api' | 'organization-invitations' | 'sign-in' | 'sign-in-account'>) =>
  async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    await enforceLimit(limits, res, name, callerKey(res));
    next();
  };
