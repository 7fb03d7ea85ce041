import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/** The largest body read before authentication (see readBodyEarly); a run's creation is some hundreds of bytes. */
export const EARLY_BODY_MAX_BYTES = 16 * 1024;

/**
 * Reads the small JSON body of a request whose first read takes its key from it before the
 * request is authenticated, so the token's lookup makes that read too (docs/design-for-speed.md,
 * "The request body read ahead"). Only an uncompressed body that declares at most
 * EARLY_BODY_MAX_BYTES is read here, as a compressed one may inflate past it. The first handler
 * reads; the second, placed where the body would be read otherwise, reports what went wrong (400,
 * 413, 415), so an anonymous request still gets its 401 first, whatever it sent.
 */
export function readBodyEarly(
  wanted: (method: string, path: string) => boolean,
  types: string[],
): { read: RequestHandler; report: RequestHandler } {
  const parse = express.json({ type: types, limit: EARLY_BODY_MAX_BYTES, strict: true });
  return {
    read(req: Request, res: Response, next: NextFunction) {
      const length = Number(req.headers['content-length']);
      const encoding = req.headers['content-encoding'];
      const small =
        Number.isInteger(length) &&
        length <= EARLY_BODY_MAX_BYTES &&
        (encoding === undefined || encoding === 'identity');
      if (!small || !wanted(req.method, req.path)) return next();
      parse(req, res, (err?: unknown) => {
        if (err) res.locals.bodyError = err;
        next();
      });
    },
    report(_req: Request, res: Response, next: NextFunction) {
      next(res.locals.bodyError);
    },
  };
}
