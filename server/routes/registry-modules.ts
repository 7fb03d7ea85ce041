import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { validate } from '../validate.js';
import { registryModuleHandlers } from '../handlers/registry-modules.js';

const NAME = '/organizations/:org/registry-modules/:registry/:namespace/:name';
const MODULE = `${NAME}/:provider`;
const ACTION = '/registry-modules/actions/delete/:org/:name';
const TESTS = '/organizations/:org/tests/registry-modules/:registry/:namespace/:name/:provider';
/** go-tfe's older address of a private module, without registry and namespace. */
const LEGACY_MODULE = '/registry-modules/:org/:name/:provider';

/** Registry modules (private modules with their versions, public references) of an organization. */
export function registryModuleRoutes(deps: AppDeps): Router {
  const r = Router();
  const h = registryModuleHandlers(deps);
  r.post('/organizations/:org/registry-modules', validate('registry-module.create'), h.createModule);
  r.post('/organizations/:org/registry-modules/vcs', validate('registry-module.vcs'), h.createModuleFromRepository);
  r.post('/registry-modules', validate('registry-module.vcs'), h.createModuleFromRepository);
  r.get('/organizations/:org/registry-modules', h.listModules);
  r.delete(NAME, h.deleteModulesNamed);
  r.get(MODULE, h.showModule);
  r.delete(MODULE, h.deleteModule);
  r.post(`${MODULE}/versions`, validate('registry-module-version.create'), h.createVersion);
  // go-tfe reads a version as `.../:provider/version?module_version=1.0.0`.
  r.get(`${MODULE}/version`, h.showVersion);
  r.get(`${MODULE}/:version`, h.showVersion);
  r.delete(`${MODULE}/:version`, h.deleteVersion);
  r.post(`${LEGACY_MODULE}/versions`, validate('registry-module-version.create'), h.createVersionOfPrivate);
  r.get('/registry-modules/:id', h.showModuleById);
  r.post(ACTION, h.deleteByAction);
  r.post(`${ACTION}/:provider`, h.deleteByAction);
  r.post(`${ACTION}/:provider/:version`, h.deleteByAction);
  r.post(`${TESTS}/versions/:version/test-runs`, validate('registry-module-version.test'), h.testVersion);
  return r;
}
