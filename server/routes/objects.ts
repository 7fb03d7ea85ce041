import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { objectHandlers } from '../handlers/objects.js';
import type { Uploads } from '../uploads.js';

/** Pre-signed object URLs (no Authorization header; the URL itself is the credential). */
export function objectRoutes(deps: AppDeps, uploads: Uploads): Router {
  const r = Router();
  const objects = objectHandlers(deps, uploads);
  r.put('/v1/object/:token', objects.upload);
  r.get('/v1/object/:token', objects.download);
  return r;
}
