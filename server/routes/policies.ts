import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { validate } from '../validate.js';
import { policyHandlers } from '../handlers/policies.js';
import { policySetHandlers } from '../handlers/policy-sets.js';
import { policyToolVersionHandlers } from '../handlers/policy-tool-versions.js';
import type { Uploads } from '../uploads.js';

/** Policies, policy sets with their parameters, and the site admin's policy runtime versions (authenticated by the API router). */
export function policyRoutes(deps: AppDeps, uploads: Uploads): Router {
  const r = Router();
  const policies = policyHandlers(deps, uploads);
  const sets = policySetHandlers(deps);
  r.post('/organizations/:org/policies', validate('policy.create'), policies.create);
  r.get('/organizations/:org/policies', policies.list);
  r.get('/policies/:id', policies.show);
  r.patch('/policies/:id', validate('policy.update'), policies.update);
  r.delete('/policies/:id', policies.destroy);
  r.get('/policies/:id/download', policies.download);
  r.post('/organizations/:org/policy-sets', validate('policy-set.create'), sets.create);
  r.get('/organizations/:org/policy-sets', sets.list);
  r.get('/policy-sets/:id', sets.show);
  r.patch('/policy-sets/:id', validate('policy-set.update'), sets.update);
  r.delete('/policy-sets/:id', sets.destroy);
  r.post('/policy-sets/:id/relationships/policies', validate('policy-set.policies'), sets.addPolicies);
  r.delete('/policy-sets/:id/relationships/policies', validate('policy-set.policies'), sets.removePolicies);
  r.post('/policy-sets/:id/relationships/workspaces', validate('policy-set.workspaces'), sets.addWorkspaces);
  r.delete('/policy-sets/:id/relationships/workspaces', validate('policy-set.workspaces'), sets.removeWorkspaces);
  r.post(
    '/policy-sets/:id/relationships/workspace-exclusions',
    validate('policy-set.workspace-exclusions'),
    sets.addWorkspaceExclusions,
  );
  r.delete(
    '/policy-sets/:id/relationships/workspace-exclusions',
    validate('policy-set.workspace-exclusions'),
    sets.removeWorkspaceExclusions,
  );
  r.post('/policy-sets/:id/relationships/projects', validate('policy-set.projects'), sets.addProjects);
  r.delete('/policy-sets/:id/relationships/projects', validate('policy-set.projects'), sets.removeProjects);
  r.get('/policy-sets/:id/parameters', sets.listParameters);
  r.post('/policy-sets/:id/parameters', validate('policy-set-parameter.create'), sets.createParameter);
  r.get('/policy-sets/:id/parameters/:param_id', sets.showParameter);
  r.patch('/policy-sets/:id/parameters/:param_id', validate('policy-set-parameter.update'), sets.updateParameter);
  r.delete('/policy-sets/:id/parameters/:param_id', sets.destroyParameter);
  r.post('/policy-sets/:id/versions', sets.createVersion);
  r.get('/policy-set-versions/:id', sets.showVersion);
  for (const tool of ['opa', 'sentinel'] as const) {
    const versions = policyToolVersionHandlers(deps, tool);
    const base = `/admin/${tool}-versions`;
    r.get(base, versions.list);
    r.post(base, validate(`${tool}-version.create`), versions.create);
    r.get(`${base}/:id`, versions.show);
    r.patch(`${base}/:id`, validate(`${tool}-version.update`), versions.update);
    r.delete(`${base}/:id`, versions.destroy);
  }
  return r;
}

/** The policy code upload takes a raw body (not JSON:API), so the API mounts it before its JSON body parser. */
export function policyUploadRoutes(deps: AppDeps, uploads: Uploads): Router {
  const r = Router();
  r.put('/policies/:id/upload', policyHandlers(deps, uploads).upload);
  return r;
}
