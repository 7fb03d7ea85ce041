import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { validate } from '../validate.js';
import { moduleTestHandlers } from '../handlers/module-tests.js';

const TESTS = '/organizations/:org/tests/registry-modules/:registry/:namespace/:name/:provider';

/** Tests of private registry modules. */
export function moduleTestRoutes(deps: AppDeps): Router {
  const r = Router();
  const h = moduleTestHandlers(deps);
  r.post(`${TESTS}/test-runs/configuration-versions`, h.createTestCv);
  r.post(`${TESTS}/test-runs`, validate('test-run.create'), h.createRun);
  r.get(`${TESTS}/test-runs`, h.listRuns);
  r.get(`${TESTS}/test-runs/:id`, h.showRun);
  r.post(`${TESTS}/test-runs/:id/cancel`, h.cancelRun('cancel'));
  r.post(`${TESTS}/test-runs/:id/force-cancel`, h.cancelRun('force_cancel'));
  r.post(`${TESTS}/vars`, validate('test-variable.create'), h.createVariable);
  r.get(`${TESTS}/vars`, h.listVariables);
  r.get(`${TESTS}/vars/:id`, h.showVariable);
  r.patch(`${TESTS}/vars/:id`, validate('test-variable.update'), h.updateVariable);
  r.delete(`${TESTS}/vars/:id`, h.deleteVariable);
  return r;
}
