import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { validate } from '../validate.js';
import { agentPoolHandlers } from '../handlers/agent-pools.js';

/** Agent pools (authenticated by the API router). */
export function agentPoolRoutes(deps: AppDeps): Router {
  const r = Router();
  const h = agentPoolHandlers(deps);
  r.get('/organizations/:org/agent-pools', h.list);
  r.post('/organizations/:org/agent-pools', validate('agent-pool.create'), h.create);
  r.get('/agent-pools/:id', h.show);
  r.patch('/agent-pools/:id', validate('agent-pool.update'), h.update);
  r.delete('/agent-pools/:id', h.destroy);
  return r;
}
