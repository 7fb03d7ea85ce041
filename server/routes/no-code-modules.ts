import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { validate } from '../validate.js';
import { noCodeModuleHandlers } from '../handlers/no-code-modules.js';

/** No-code modules and the workspaces provisioned with them (authenticated by the API router). */
export function noCodeModuleRoutes(deps: AppDeps): Router {
  const r = Router();
  const h = noCodeModuleHandlers(deps);
  r.post('/organizations/:org/no-code-modules', validate('no-code-module.create'), h.create);
  r.get('/no-code-modules/:id', h.show);
  r.patch('/no-code-modules/:id', validate('no-code-module.update'), h.update);
  r.delete('/no-code-modules/:id', h.destroy);
  r.post('/no-code-modules/:id/workspaces', validate('no-code-module.workspace'), h.provision);
  return r;
}
