/**
 * What kind of refusal an error is. The HTTP layer maps each kind to its status in one place
 * (server/errors.ts); code below it says what went wrong, never how HTTP says it.
 */
export type ErrorKind =
  | 'bad-request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'timed-out'
  | 'conflict'
  | 'too-large'
  | 'invalid'
  | 'rate-limited'
  | 'unavailable';

/** One problem of a refusal: a title, its detail and, for an invalid attribute, where it is. */
export interface Problem {
  title: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
}

/** A refusal of a request, of a kind, with one or more problems; shown to the client as they are. */
export class ApiError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly title: string,
    detail?: string,
    readonly problems?: Problem[],
  ) {
    super(detail ?? title);
  }

  /** The problems as the client sees them (one, from the title and message, when none were given). */
  details(): Problem[] {
    return this.problems ?? [{ title: this.title, detail: this.message }];
  }
}

export class BadRequest extends ApiError {
  constructor(detail: string, parameter?: string) {
    super('bad-request', 'bad request', detail, [{ title: 'bad request', detail, ...(parameter ? { source: { parameter } } : {}) }]);
  }
}

export class Unauthorized extends ApiError {
  constructor(detail = 'A valid API token is required.') {
    super('unauthenticated', 'unauthorized', detail);
  }
}

export class Forbidden extends ApiError {
  constructor(detail: string) {
    super('forbidden', 'forbidden', detail);
  }
}

export class NotFound extends ApiError {
  constructor(detail = 'The requested resource could not be found, or you are not authorized to access it.') {
    super('not-found', 'not found', detail);
  }
}

export class Conflict extends ApiError {
  constructor(detail: string) {
    super('conflict', 'conflict', detail);
  }
}

export class PayloadTooLarge extends ApiError {
  constructor(detail: string) {
    super('too-large', 'payload too large', detail);
  }
}

/** The budget a refused request met: its size and when its window ends. */
export interface SpentBudget {
  limit: number;
  msBeforeReset: number;
}

/** Whole seconds until a spent budget's window ends (at least 1): its Retry-After. */
export const retryAfterSeconds = (budget: SpentBudget): number => Math.max(1, Math.ceil(budget.msBeforeReset / 1000));

/** A budget of the rate limits is spent; the error middleware answers with Retry-After and the budget's X-RateLimit headers. */
export class TooManyRequests extends ApiError {
  constructor(
    detail: string,
    readonly budget: SpentBudget,
  ) {
    super('rate-limited', 'too many requests', detail);
  }
}

/** The service cannot take the request now (busy, or a dependency away); the client may try again shortly. */
export class Unavailable extends ApiError {
  constructor(detail: string) {
    super('unavailable', 'service unavailable', detail);
  }
}

/** One error per invalid attribute; pointer names the attribute (e.g. /data/attributes/name). */
export class Unprocessable extends ApiError {
  constructor(detail: string, pointer?: string, more: Problem[] = []) {
    const first: Problem = { title: 'invalid attribute', detail, ...(pointer ? { source: { pointer } } : {}) };
    super('invalid', 'invalid attribute', detail, [first, ...more]);
  }

  static many(errors: { detail: string; pointer?: string }[]): Unprocessable {
    const [head, ...rest] = errors;
    return new Unprocessable(
      head.detail,
      head.pointer,
      rest.map((e) => ({ title: 'invalid attribute', detail: e.detail, ...(e.pointer ? { source: { pointer: e.pointer } } : {}) })),
    );
  }
}

/** An illegal move in a state machine; the HTTP layer answers it as a conflict unless a use case says otherwise. */
export class IllegalTransition extends Error {
  constructor(
    readonly machine: string,
    readonly from: string,
    readonly event: string,
  ) {
    super(`${machine}: cannot ${event} from ${from}`);
  }
}

/**
 * Whether an error says the database cannot be reached or is going away: a refused or broken
 * connection, no connection from the pool in time, or PostgreSQL's connection exception (08),
 * shutdown (57P01-57P03) and too-many-connections (53300) codes. Nothing was written then.
 */
export function databaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', '53300', '57P01', '57P02', '57P03'].includes(code) || code.startsWith('08')) return true;
  if (e?.name === 'KnexTimeoutError') return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /Connection terminated|connection (?:is )?closed|Client was closed|timeout exceeded when trying to connect/i.test(message);
}
