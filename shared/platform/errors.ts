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

/**
 * The part of a request a problem is about, named as the request names it; the HTTP layer says
 * where that is in the document it received. One of:
 * - an attribute, or a place inside its value (`at`: keys and list indexes, outermost first);
 * - a relationship; with `id`, the id of its resource identifier; with `element`, one entry of
 *   its list (with `id` too, that entry's id);
 * - the request's primary data, with `id` and `element` as for a relationship (the endpoints
 *   that change a relationship send a list of resource identifiers as their primary data);
 * - a top-level member of a request body that is plain JSON rather than a JSON:API document;
 * - the request document as a whole.
 */
export type Field =
  | { attribute: string; at?: readonly (string | number)[] }
  | { relationship: string; element?: number; id?: true }
  | { primary: true; element?: number; id?: true }
  | { member: string }
  | { document: true };

/** The field of the i-th entry of a list a request names (e.g. the i-th policy of a relationship). */
export type ElementField = (i: number) => Field;

/** One problem of a refusal: a title, its detail and, when known, the field or query parameter it is about. */
export interface Problem {
  title: string;
  detail?: string;
  field?: Field;
  parameter?: string;
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
    super('bad-request', 'bad request', detail, [
      { title: 'bad request', detail, ...(parameter ? { parameter } : {}) },
    ]);
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

/** What is wrong with one field of a request (the field left out when the problem is the request as a whole). */
export interface FieldProblem {
  detail: string;
  field?: Field;
}

const invalidAttribute = ({ detail, field }: FieldProblem): Problem => ({
  title: 'invalid attribute',
  detail,
  ...(field ? { field } : {}),
});

/** One error per invalid field; `field` names it (e.g. `{ attribute: 'name' }`). */
export class Unprocessable extends ApiError {
  constructor(detail: string, field?: Field, more: FieldProblem[] = []) {
    super('invalid', 'invalid attribute', detail, [invalidAttribute({ detail, field }), ...more.map(invalidAttribute)]);
  }

  static many(errors: FieldProblem[]): Unprocessable {
    const [head, ...rest] = errors;
    return new Unprocessable(head.detail, head.field, rest);
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
  if (
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'EHOSTUNREACH',
      'ENOTFOUND',
      'EPIPE',
      '53300',
      '57P01',
      '57P02',
      '57P03',
    ].includes(code) ||
    code.startsWith('08')
  )
    return true;
  if (e?.name === 'KnexTimeoutError') return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /Connection terminated|connection (?:is )?closed|Client was closed|timeout exceeded when trying to connect/i.test(
    message,
  );
}
