import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { policyCheckHandlers } from '../handlers/policy-checks.js';

/** Policy checks of runs. */
export function policyCheckRoutes(deps: AppDeps): Router {
  const r = Router();
  const h = policyCheckHandlers(deps);
  r.get('/runs/:id/policy-checks', h.list);
  r.get('/policy-checks/:id', h.show);
  r.get('/policy-checks/:id/output', h.output);
  r.post('/policy-checks/:id/actions/override', h.override);
  return r;
}
