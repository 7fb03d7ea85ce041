import { Router, type RequestHandler } from 'express';
import type { AppDeps } from '../context.js';
import { configurationVersionHandlers } from '../handlers/configuration-versions.js';

/** Configuration versions (interface contract 4.7). Uploads go to the signed object URLs instead. */
export function configurationVersionRoutes(deps: AppDeps, auth: RequestHandler): Router {
  const r = Router();
  const cv = configurationVersionHandlers(deps);
  r.get('/workspaces/:id/configuration-versions', auth, cv.list);
  r.post('/workspaces/:id/configuration-versions', auth, cv.create);
  r.get('/configuration-versions/:id', auth, cv.show);
  r.get('/configuration-versions/:id/ingress-attributes', auth, cv.ingressAttributes);
  r.post('/configuration-versions/:id/actions/archive', auth, cv.archive);
  r.get('/configuration-versions/:id/download', auth, cv.download);
  r.get('/runs/:id/configuration-version/download', auth, cv.downloadForRun);
  r.post('/configuration-versions/:id/actions/soft_delete_backing_data', auth, cv.softDelete);
  r.post('/configuration-versions/:id/actions/restore_backing_data', auth, cv.restore);
  r.post('/configuration-versions/:id/actions/permanently_delete_backing_data', auth, cv.permanentlyDelete);
  return r;
}
