import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { configurationVersionHandlers } from '../handlers/configuration-versions.js';
import { actionRateLimit } from '../rate-limit.js';

/** Configuration versions. Uploads go to the signed object URLs instead. */
export function configurationVersionRoutes(deps: AppDeps): Router {
  const r = Router();
  const cv = configurationVersionHandlers(deps);
  r.get('/workspaces/:id/configuration-versions', cv.list);
  r.post(
    '/workspaces/:id/configuration-versions',
    actionRateLimit(deps.rateLimits, 'configuration-versions'),
    cv.create,
  );
  r.get('/configuration-versions/:id', cv.show);
  r.get('/configuration-versions/:id/ingress-attributes', cv.ingressAttributes);
  r.post('/configuration-versions/:id/actions/archive', cv.archive);
  r.get('/configuration-versions/:id/download', cv.download);
  r.get('/runs/:id/configuration-version/download', cv.downloadForRun);
  r.post('/configuration-versions/:id/actions/soft_delete_backing_data', cv.softDelete);
  r.post('/configuration-versions/:id/actions/restore_backing_data', cv.restore);
  r.post('/configuration-versions/:id/actions/permanently_delete_backing_data', cv.permanentlyDelete);
  return r;
}
