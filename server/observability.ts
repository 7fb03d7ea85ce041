import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Principal } from '../shared/identity/access.queries.js';
import type { Runtime } from '../shared/runtime.js';
import { scrape } from '../shared/operations/index.js';
import { REQUEST_ID } from '../shared/platform/logger.js';
import { loggedPath } from './errors.js';

/** Who made a request, as logged: a kind and an id, never a token. */
export function principalId(p: Principal | undefined): string | null {
  if (!p) return null;
  switch (p.kind) {
    case 'user':
      return `user:${p.user.id}`;
    case 'team':
      return `team:${p.team.id}`;
    case 'organization':
      return `organization:${p.organizationName}`;
    case 'run':
      return `run:${p.runId}`;
  }
}

/**
 * The route a request matched, as its template (`/api/v2/runs/:id`), so the metrics' labels stay
 * few; requests that matched none are `unmatched`.
 */
export const routeOf = (req: Request): string => {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl}${path}` : 'unmatched';
};

/**
 * Request id (incoming X-Request-Id when sane) carried through the request's work (jobs it adds
 * carry it: shared/platform/logger.ts), and once answered one structured log line and one observation of
 * the request's duration by route template, method and status.
 */
export function requestContext(rt: Pick<Runtime, 'logger' | 'metrics' | 'tracing'>) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeOf(req);
      rt.metrics.http.observe({ route, method: req.method, status: String(res.statusCode) }, seconds);
      // The line is not even built when the level drops it.
      if (!rt.logger.isInfoEnabled()) return;
      rt.logger.info('request', {
        requestId,
        method: req.method,
        route,
        path: loggedPath(req.path),
        status: res.statusCode,
        ms: Math.round(seconds * 1e6) / 1000,
        principal: principalId(res.locals.principal),
      });
    });
    rt.tracing.run({ requestId }, next);
  };
}

/** GET /metrics on the API's port: only with METRICS_TOKEN set, and only for a scrape that sends it. */
export function metricsEndpoint(rt: Pick<Runtime, 'metrics' | 'config'>) {
  return async (req: Request, res: Response) => {
    if (rt.config.metricsToken === null) {
      res.status(404).type('text/plain').send('not found\n');
      return;
    }
    const out = await scrape(rt.metrics, req.get('authorization'), rt.config.metricsToken);
    res.status(out.status).type(out.contentType).send(out.body);
  };
}
