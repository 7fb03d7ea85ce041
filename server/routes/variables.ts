import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { validate } from '../validate.js';
import { variableHandlers } from '../handlers/variables.js';
import { variableSetHandlers } from '../handlers/variable-sets.js';

/** Workspace variables, variable sets and their variables (authenticated by the API router). */
export function variableRoutes(deps: AppDeps): Router {
  const r = Router();
  const vars = variableHandlers(deps);
  const sets = variableSetHandlers(deps);
  r.get('/workspaces/:id/vars', vars.listForWorkspace);
  r.post('/workspaces/:id/vars', validate('variable.create'), vars.createForWorkspace);
  r.get('/workspaces/:id/vars/:var_id', vars.showForWorkspace);
  r.get('/workspaces/:id/all-vars', vars.listAllForWorkspace);
  r.patch('/workspaces/:id/vars/:var_id', validate('variable.update'), vars.updateForWorkspace);
  r.delete('/workspaces/:id/vars/:var_id', vars.destroyForWorkspace);
  r.get('/vars', vars.list);
  r.post('/vars', validate('variable.create-with-workspace'), vars.create);
  r.patch('/vars/:id', validate('variable.update'), vars.update);
  r.delete('/vars/:id', vars.destroy);

  r.get('/organizations/:org/varsets', sets.list);
  r.post('/organizations/:org/varsets', validate('varset.create'), sets.create);
  r.get('/varsets/:id', sets.show);
  r.patch('/varsets/:id', validate('varset.update'), sets.update);
  r.delete('/varsets/:id', sets.destroy);
  r.get('/varsets/:id/relationships/vars', sets.listVariables);
  r.post('/varsets/:id/relationships/vars', validate('variable.create'), sets.createVariable);
  r.get('/varsets/:id/relationships/vars/:var_id', sets.showVariable);
  r.patch('/varsets/:id/relationships/vars/:var_id', validate('variable.update'), sets.updateVariable);
  r.delete('/varsets/:id/relationships/vars/:var_id', sets.destroyVariable);
  r.post('/varsets/:id/relationships/workspaces', validate('varset.workspaces'), sets.applyToWorkspaces);
  r.delete('/varsets/:id/relationships/workspaces', validate('varset.workspaces'), sets.removeFromWorkspaces);
  r.get('/workspaces/:id/varsets', sets.listForWorkspace);
  r.post('/varsets/:id/relationships/projects', validate('varset.projects'), sets.applyToProjects);
  r.delete('/varsets/:id/relationships/projects', validate('varset.projects'), sets.removeFromProjects);
  r.get('/projects/:id/varsets', sets.listForProject);
  return r;
}
