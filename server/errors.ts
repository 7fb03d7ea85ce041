import type { NextFunction, Request, Response } from 'express';
import { ApiError, IllegalTransition } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';
import { send } from './jsonapi.js';

interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
  code?: string;
  constraint?: string;
}

/** Maps library errors (body parser, Postgres) to API errors; unknown errors stay unknown. */
function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  if (err instanceof IllegalTransition) return new ApiError(409, 'conflict', err.message);
  const e = err as HttpishError;
  switch (e?.type) {
    case 'entity.parse.failed':
      return new ApiError(400, 'bad request', 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new ApiError(413, 'payload too large', 'The request body is too large.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(400, 'bad request', 'Unsupported request body encoding.');
    case 'request.aborted':
      return new ApiError(400, 'bad request', 'The request was aborted.');
  }
  // A unique violation that slipped past a handler's own check (a concurrent duplicate).
  if (e?.code === '23505') return new ApiError(422, 'invalid attribute', 'has already been taken');
  return null;
}

/** The one error middleware: JSON:API error documents, no stack traces, generic 500s with a request id. */
export const errorHandler =
  (logger: Logger) =>
  (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    void _next;
    const requestId = res.locals.requestId;
    const apiError = toApiError(err);
    if (apiError) {
      send(res, apiError.status, { errors: apiError.toObjects() });
      return;
    }
    logger.error('unhandled error', { requestId, method: req.method, path: req.path, error: err instanceof Error ? err.stack : String(err) });
    send(res, 500, { errors: [{ status: '500', title: 'internal server error', detail: `An unexpected error occurred (request id ${requestId}).` }] });
  };

export const notFoundHandler = (_req: Request, res: Response): void => {
  send(res, 404, { errors: [{ status: '404', title: 'not found', detail: 'No such endpoint.' }] });
};
