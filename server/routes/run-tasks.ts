import express, { Router } from 'express';
import type { AppDeps } from '../context.js';
import { validate } from '../validate.js';
import { taskHandlers } from '../handlers/tasks.js';
import { workspaceTaskHandlers } from '../handlers/workspace-tasks.js';
import { taskStageHandlers } from '../handlers/task-stages.js';

/** Run task definitions, workspace attachments, task stages and results (authenticated by the API router). */
export function runTaskRoutes(deps: AppDeps): Router {
  const r = Router();
  const tasks = taskHandlers(deps);
  const wt = workspaceTaskHandlers(deps);
  const ts = taskStageHandlers(deps);
  r.post('/organizations/:org/tasks', validate('task.create'), tasks.create);
  r.get('/organizations/:org/tasks', tasks.list);
  r.get('/tasks/:id', tasks.show);
  r.patch('/tasks/:id', validate('task.update'), tasks.update);
  r.delete('/tasks/:id', tasks.destroy);
  r.post('/workspaces/:id/tasks', validate('workspace-task.create'), wt.create);
  r.get('/workspaces/:id/tasks', wt.list);
  r.get('/workspaces/:id/tasks/:wstask', wt.show);
  r.patch('/workspaces/:id/tasks/:wstask', validate('workspace-task.update'), wt.update);
  r.delete('/workspaces/:id/tasks/:wstask', wt.destroy);
  r.get('/runs/:id/task-stages', ts.listForRun);
  r.get('/task-stages/:id', ts.show);
  r.post('/task-stages/:id/actions/override', ts.override);
  r.get('/task-stages/:id/policy-evaluations', ts.listEvaluations);
  r.get('/policy-evaluations/:id/policy-set-outcomes', ts.listSetOutcomes);
  r.get('/policy-set-outcomes/:id', ts.showSetOutcome);
  r.get('/task-results/:id', ts.showResult);
  return r;
}

/** The integration's callback: authenticated by the task result's own access token, not an API token. */
export function runTaskCallbackRoutes(deps: AppDeps): Router {
  const r = Router();
  const ts = taskStageHandlers(deps);
  // Outcome bodies may be up to 5 MB each; the body is read only once the token is known good.
  r.patch(
    '/task-results/:id/callback',
    ts.authenticateCallback,
    express.json({ type: ['application/json', 'application/vnd.api+json'], limit: '20mb', strict: true }),
    ts.callback,
  );
  return r;
}
