import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { validate } from '../validate.js';
import { sshKeyHandlers } from '../handlers/ssh-keys.js';

/** SSH keys (authenticated by the API router); a workspace's key is assigned with the workspace routes. */
export function sshKeyRoutes(deps: AppDeps): Router {
  const r = Router();
  const h = sshKeyHandlers(deps);
  r.get('/organizations/:org/ssh-keys', h.list);
  r.post('/organizations/:org/ssh-keys', validate('ssh-key.create'), h.create);
  r.get('/ssh-keys/:id', h.show);
  r.patch('/ssh-keys/:id', validate('ssh-key.update'), h.update);
  r.delete('/ssh-keys/:id', h.destroy);
  return r;
}
