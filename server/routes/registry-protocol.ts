import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { authenticate, RUN_TOKEN_REGISTRY_PATHS } from '../auth.js';
import { apiRateLimit, authAttempt, startApiBudget } from '../rate-limit.js';
import { registryProtocolHandlers } from '../handlers/registry-protocol.js';

const MODULE = '/modules/:namespace/:name/:provider';

/** The module registry protocol (mounted at /api/registry/v1): a token is required, a run's own included. */
export function registryProtocolRoutes(deps: AppDeps): Router {
  const r = Router();
  const h = registryProtocolHandlers(deps);
  r.use(startApiBudget(deps.rateLimits, deps.config));
  r.use(
    authenticate(deps.db, deps.config, {
      runTokenPaths: RUN_TOKEN_REGISTRY_PATHS,
      withheldRunTokenPaths: RUN_TOKEN_REGISTRY_PATHS,
      failures: (req) => authAttempt(deps.rateLimits, req),
    }),
  );
  r.use(apiRateLimit());
  r.get(`${MODULE}/versions`, h.versions);
  r.get(`${MODULE}/:version/download`, h.download);
  r.get(MODULE, h.detail);
  r.get(`${MODULE}/:version`, h.detail);
  return r;
}
