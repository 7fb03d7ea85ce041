import type { NextFunction, Request, Response } from 'express';
import {
  ApiError,
  databaseUnavailable,
  type Field,
  IllegalTransition,
  type Problem,
  retryAfterSeconds,
  TooManyRequests,
  Unprocessable,
  type ErrorKind,
} from '../shared/platform/errors.js';
import type { Logger } from '../shared/platform/logger.js';
import { send } from './jsonapi.js';
import { setHeaders as setRateLimitHeaders } from './rate-limit.js';

interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
  code?: string;
  constraint?: string;
}

/** Seconds a client is asked to wait (Retry-After) on a 503: the database cannot be reached, or the process is busy. */
export const UNAVAILABLE_RETRY_SECONDS = 5;

/** The HTTP status of each kind of refusal: the one place the service's errors meet HTTP. */
const HTTP_STATUS: Record<ErrorKind, number> = {
  'bad-request': 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  'timed-out': 408,
  conflict: 409,
  'too-large': 413,
  invalid: 422,
  'rate-limited': 429,
  unavailable: 503,
};

/** Where a field is in the request document, as a JSON pointer (e.g. `{ attribute: 'name' }` is /data/attributes/name). */
export function pointerOf(field: Field): string {
  if ('document' in field) return '/';
  if ('member' in field) return `/${field.member}`;
  if ('attribute' in field) return ['/data/attributes', field.attribute, ...(field.at ?? [])].join('/');
  // A resource identifier's place: `data`, then the entry of a list, then its id.
  const identifier = [...(field.element !== undefined ? [field.element] : []), ...(field.id ? ['id'] : [])];
  const data = ['data', ...identifier].join('/');
  return 'relationship' in field
    ? `/data/relationships/${field.relationship}${identifier.length ? `/${data}` : ''}`
    : `/${data}`;
}

/**
 * Problems the request schemas found, each at the JSON pointer the schema check reports: the one
 * refusal whose places come from the document as received rather than from a named field.
 */
export class InvalidDocument extends Unprocessable {
  readonly pointers: string[];

  constructor(errors: { detail: string; pointer: string }[]) {
    const [head, ...rest] = errors;
    super(head.detail, undefined, rest);
    this.pointers = errors.map((e) => e.pointer);
  }
}

/** A problem as the client sees it: its status, title and detail, and where in the request it is. */
function errorObject(
  status: number,
  { field, parameter, ...text }: Problem,
  pointer?: string,
): Record<string, unknown> {
  const at = pointer ?? (field ? pointerOf(field) : undefined);
  return {
    status: String(status),
    ...text,
    ...(at ? { source: { pointer: at } } : parameter ? { source: { parameter } } : {}),
  };
}

/** Maps library errors (body parser, Postgres) to API errors; unknown errors stay unknown. */
function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  if (databaseUnavailable(err))
    return new ApiError(
      'unavailable',
      'service unavailable',
      `The database cannot be reached; try again in ${UNAVAILABLE_RETRY_SECONDS} seconds.`,
    );
  if (err instanceof IllegalTransition) return new ApiError('conflict', 'conflict', err.message);
  const e = err as HttpishError;
  switch (e?.type) {
    case 'entity.parse.failed':
      return new ApiError('bad-request', 'bad request', 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new ApiError('too-large', 'payload too large', 'The request body is too large.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError('bad-request', 'bad request', 'Unsupported request body encoding.');
    case 'request.aborted':
      return new ApiError('bad-request', 'bad request', 'The request was aborted.');
  }
  // A unique violation that slipped past a handler's own check (a concurrent duplicate).
  if (e?.code === '23505') return new ApiError('invalid', 'invalid attribute', 'has already been taken');
  // Postgres data exceptions come from values a request carried that the schemas let through
  // (a NUL character in a string, an out-of-range date or number); the statement wrote nothing.
  if (typeof e?.code === 'string' && e.code.startsWith('22')) {
    return new ApiError(
      'invalid',
      'invalid attribute',
      'A value in the request cannot be stored (for example a NUL character, or an out-of-range date or number).',
    );
  }
  // Other client errors raised by the router or body parser, such as a malformed percent-encoding in the path.
  const status = e?.status ?? e?.statusCode;
  if (err instanceof URIError || (typeof status === 'number' && status >= 400 && status < 500)) {
    return status === 413
      ? new ApiError('too-large', 'payload too large', 'The request is malformed.')
      : new ApiError('bad-request', 'bad request', 'The request is malformed.');
  }
  return null;
}

/** A request's path as logged: the secret of a pre-signed URL (`/v1/object/<token>`, `/v1/logs/<token>`) left out. */
export const loggedPath = (path: string) => path.replace(/^\/v1\/(object|logs)\/[^/]+/, '/v1/$1/[token]');

/** The one error middleware: JSON:API error documents, no stack traces, generic 500s with a request id. */
export const errorHandler =
  (logger: Logger) =>
  (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    void _next;
    const requestId = res.locals.requestId;
    const apiError = toApiError(err);
    if (apiError) {
      const status = HTTP_STATUS[apiError.kind];
      if (apiError instanceof TooManyRequests) {
        setRateLimitHeaders(res, { ...apiError.budget, remaining: 0 });
        res.setHeader('Retry-After', String(retryAfterSeconds(apiError.budget)));
      }
      if (status === 503) {
        res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_SECONDS));
        if (apiError !== err)
          logger.warn('database unavailable', { requestId, method: req.method, path: loggedPath(req.path) });
      }
      const pointers = apiError instanceof InvalidDocument ? apiError.pointers : [];
      send(res, status, { errors: apiError.details().map((problem, i) => errorObject(status, problem, pointers[i])) });
      return;
    }
    logger.error('unhandled error', {
      requestId,
      method: req.method,
      path: loggedPath(req.path),
      error: err instanceof Error ? err.stack : String(err),
    });
    send(res, 500, {
      errors: [
        {
          status: '500',
          title: 'internal server error',
          detail: `An unexpected error occurred (request id ${requestId}).`,
        },
      ],
    });
  };

export const notFoundHandler = (_req: Request, res: Response): void => {
  send(res, 404, { errors: [{ status: '404', title: 'not found', detail: 'No such endpoint.' }] });
};
