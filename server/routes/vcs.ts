import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { validate } from '../validate.js';
import { commitStatusesHandler, vcsHandlers } from '../handlers/vcs.js';

/** VCS connections (TFE's OAuth clients) and their tokens, and runs' commit statuses (authenticated by the API router). */
export function vcsRoutes(deps: AppDeps): Router {
  const r = Router();
  const h = vcsHandlers(deps);
  r.get('/organizations/:org/oauth-clients', h.list);
  r.post('/organizations/:org/oauth-clients', validate('oauth-client.create'), h.create);
  r.get('/oauth-clients/:id', h.show);
  r.patch('/oauth-clients/:id', validate('oauth-client.update'), h.update);
  r.delete('/oauth-clients/:id', h.destroy);
  r.post('/oauth-clients/:id/relationships/projects', validate('oauth-client.projects'), h.addProjects);
  r.delete('/oauth-clients/:id/relationships/projects', validate('oauth-client.projects'), h.removeProjects);
  r.get('/oauth-clients/:id/oauth-tokens', h.listTokensOfClient);
  r.get('/organizations/:org/oauth-tokens', h.listTokensOfOrganization);
  r.get('/oauth-tokens/:id', h.showToken);
  r.patch('/oauth-tokens/:id', validate('oauth-token.update'), h.updateToken);
  r.delete('/oauth-tokens/:id', h.destroyToken);
  r.get('/runs/:id/commit-statuses', commitStatusesHandler(deps));
  return r;
}
