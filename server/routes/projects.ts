import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { validate } from '../validate.js';
import { projectHandlers } from '../handlers/projects.js';

/** Projects and teams' access to them (authenticated by the API router). */
export function projectRoutes(deps: AppDeps): Router {
  const r = Router();
  const p = projectHandlers(deps);
  r.post('/organizations/:org/projects', validate('project.create'), p.create);
  r.get('/organizations/:org/projects', p.list);
  r.get('/projects/:id', p.show);
  r.patch('/projects/:id', validate('project.update'), p.update);
  r.delete('/projects/:id', p.destroy);

  r.get('/team-projects', p.listTeamProjects);
  r.post('/team-projects', validate('team-project.create'), p.createTeamProject);
  r.get('/team-projects/:id', p.showTeamProject);
  r.patch('/team-projects/:id', validate('team-project.update'), p.updateTeamProject);
  r.delete('/team-projects/:id', p.destroyTeamProject);
  return r;
}
