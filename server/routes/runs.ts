import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { validate } from '../validate.js';
import { runHandlers } from '../handlers/runs.js';
import { planApplyHandlers } from '../handlers/plans-applies.js';
import { stateVersionHandlers } from '../handlers/state-versions.js';
import { assessmentHandlers } from '../handlers/assessments.js';

/** Runs, plans, applies, state versions and health assessment results. */
export function runRoutes(deps: AppDeps): Router {
  const r = Router();
  const runs = runHandlers(deps);
  const pa = planApplyHandlers(deps);
  const sv = stateVersionHandlers(deps);
  r.post('/runs', validate('run.create'), runs.create);
  r.get('/runs/:id', runs.show);
  r.get('/runs/:id/run-events', runs.events);
  r.get('/run-events/:id', runs.event);
  r.post('/runs/:id/actions/apply', runs.apply);
  r.post('/runs/:id/actions/discard', runs.discard);
  r.post('/runs/:id/actions/cancel', runs.cancel);
  r.post('/runs/:id/actions/force-cancel', runs.forceCancel);
  r.post('/runs/:id/actions/force-execute', runs.forceExecute);
  r.get('/runs/:id/comments', runs.comments);
  r.post('/runs/:id/comments', validate('comment.create'), runs.comment);
  r.get('/comments/:id', runs.showComment);
  r.get('/workspaces/:id/runs', runs.listForWorkspace);
  r.get('/organizations/:org/runs', runs.listForOrganization);
  r.get('/organizations/:org/runs/queue', runs.queue);
  r.get('/organizations/:org/capacity', runs.capacity);
  r.get('/plans/:id', pa.showPlan);
  r.get('/plans/:id/json-output', pa.jsonOutput);
  r.get('/plans/:id/json-output-redacted', pa.jsonOutputRedacted);
  r.get('/applies/:id', pa.showApply);
  r.get('/workspaces/:id/current-state-version', sv.current);
  r.get('/workspaces/:id/current-state-version-outputs', sv.currentOutputs);
  r.get('/workspaces/:id/state-versions', sv.listForWorkspace);
  r.get('/workspaces/:id/resources', sv.resources);
  r.post('/workspaces/:id/state-versions', validate('state-version.create'), sv.create);
  r.post('/workspaces/:id/actions/rollback', validate('state-version.rollback'), sv.rollback);
  r.get('/state-versions', sv.listByName);
  r.get('/state-versions/:id', sv.show);
  r.get('/state-versions/:id/outputs', sv.outputs);
  r.post('/state-versions/:id/actions/soft_delete_backing_data', sv.backingData('soft_delete'));
  r.post('/state-versions/:id/actions/restore_backing_data', sv.backingData('restore'));
  r.post('/state-versions/:id/actions/permanently_delete_backing_data', sv.backingData('permanent_delete'));
  r.get('/workspaces/:id/relationships/remote-state-consumers', sv.consumers);
  r.post(
    '/workspaces/:id/relationships/remote-state-consumers',
    validate('workspace.remote-state-consumers'),
    sv.changeConsumers('add'),
  );
  r.patch(
    '/workspaces/:id/relationships/remote-state-consumers',
    validate('workspace.remote-state-consumers.replace'),
    sv.changeConsumers('replace'),
  );
  r.delete(
    '/workspaces/:id/relationships/remote-state-consumers',
    validate('workspace.remote-state-consumers'),
    sv.changeConsumers('remove'),
  );
  r.get('/state-version-outputs/:id', sv.output);
  const assessments = assessmentHandlers(deps);
  r.get('/workspaces/:id/current-assessment-result', assessments.current);
  r.get('/assessment-results/:id', assessments.show);
  return r;
}

/** Pre-signed log URLs, read without a token. */
export function logRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get('/v1/logs/:token', planApplyHandlers(deps).readLog);
  return r;
}
