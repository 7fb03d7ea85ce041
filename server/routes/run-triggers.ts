import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { validate } from '../validate.js';
import { runTriggerHandlers } from '../handlers/run-triggers.js';

/** Run triggers between workspaces (authenticated by the API router). */
export function runTriggerRoutes(deps: AppDeps): Router {
  const r = Router();
  const h = runTriggerHandlers(deps);
  r.post('/workspaces/:id/run-triggers', validate('run-trigger.create'), h.create);
  r.get('/workspaces/:id/run-triggers', h.list);
  r.get('/run-triggers/:id', h.show);
  r.delete('/run-triggers/:id', h.destroy);
  return r;
}
