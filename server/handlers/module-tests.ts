import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound, Unprocessable } from '../../shared/platform/errors.js';
import {
  cancelTestRun,
  changeTestVariable,
  createTestRun,
  createTestVariable,
  findModuleByAddress,
  findTestRun,
  findTestVariable,
  type RegistryModuleRow,
  removeTestVariable,
  TEST_SOURCES,
  type TestRunRow,
  type TestSource,
  type TestVariableRow,
  testVariableValue,
} from '../../shared/module-tests/index.js';
import { insertCv } from '../../shared/configuration-versions/index.js';
import { testRunPage, testVariablePage } from '../../shared/module-tests/queries.js';
import { signedObjectUrl } from '../signed-urls.js';
import { orgScope } from '../guards.js';
import { paginate, readPageOrDefault, readParam, send, sendResource } from '../jsonapi.js';
import { attributesOf, relationshipId, requestSource, type Req } from './body.js';
import { cvResource } from '../serializers/configuration-versions.js';
import { testRunResource, testVariableResource } from '../serializers/module-tests.js';
import { logReadUrl } from './runs.js';

const creatorOf = (res: Response): string | null =>
  res.locals.principal.kind === 'user' ? res.locals.principal.user.id : null;

/** A test directory must stay inside the module: relative, no `..` segments. */
function checkTestDirectory(dir: string): void {
  if (dir.startsWith('/') || dir.split(/[\\/]/).includes('..')) {
    throw new Unprocessable('test-directory must be a relative path inside the module', {
      attribute: 'test-directory',
    });
  }
}

export function moduleTestHandlers(deps: AppDeps) {
  const { db, config } = deps;
  const key = config.encryptionKey;

  /** The module addressed by the route; visible to anyone in the organization, `need` to change. */
  async function loadModule(req: Req, res: Response, need?: 'manage-modules' | 'owner'): Promise<RegistryModuleRow> {
    await orgScope(db, res.locals.principal, req.params.org, need);
    const module = await findModuleByAddress(db, {
      organization: req.params.org,
      registryName: req.params.registry,
      namespace: req.params.namespace,
      name: req.params.name,
      provider: req.params.provider,
    });
    if (!module) throw new NotFound('registry module not found');
    return module;
  }

  /** Module test endpoints are for the owners team and its members only. */
  const loadForTests = (req: Req, res: Response) => loadModule(req, res, 'owner');

  const presentRun = (run: TestRunRow, module: RegistryModuleRow) =>
    testRunResource(run, module, logReadUrl(config, run.log_id));
  const presentVariable = (v: TestVariableRow, module: RegistryModuleRow) =>
    testVariableResource(v, testVariableValue(key, v), module);

  async function loadRun(req: Req, res: Response): Promise<{ module: RegistryModuleRow; run: TestRunRow }> {
    const module = await loadForTests(req, res);
    const run = await findTestRun(db, module.id, req.params.id);
    if (!run) throw new NotFound('test run not found');
    return { module, run };
  }

  async function loadVariable(
    req: Req,
    res: Response,
  ): Promise<{ module: RegistryModuleRow; variable: TestVariableRow }> {
    const module = await loadForTests(req, res);
    const variable = await findTestVariable(db, module.id, req.params.id);
    if (!variable) throw new NotFound('variable not found');
    return { module, variable };
  }

  return {
    // Test configuration versions.
    async createTestCv(req: Req, res: Response) {
      const module = await loadForTests(req, res);
      const source = requestSource(req);
      const cv = await insertCv(db, {
        registry_module_id: module.id,
        source,
        // The terraform CLI queues its own test run (with its variables) after the upload.
        auto_queue_runs: source !== 'terraform',
        speculative: true,
        provisional: false,
        created_by_id: creatorOf(res),
      });
      const uploadUrl = signedObjectUrl(config.uploadUrl, key, 'cv-upload', cv.id, config.uploadUrlTtlSeconds);
      sendResource(res, 201, cvResource(cv, { uploadUrl }));
    },

    // Test runs.
    async createRun(req: Req, res: Response) {
      const module = await loadForTests(req, res);
      const a = attributesOf(req) as {
        verbose?: boolean;
        'test-directory'?: string;
        filters?: string[];
        variables?: { key: string; value: string }[];
        parallelism?: number;
      };
      const moduleRef = relationshipId(req, 'registry-module');
      if (moduleRef !== undefined && moduleRef !== module.id) {
        throw new Unprocessable('the registry-module relationship names another module than the path', {
          relationship: 'registry-module',
          id: true,
        });
      }
      const testDirectory = a['test-directory'] ?? 'tests';
      checkTestDirectory(testDirectory);
      const run = await createTestRun(deps, module, {
        configurationVersionId: relationshipId(req, 'configuration-version')!,
        verbose: a.verbose ?? false,
        testDirectory,
        filters: a.filters ?? [],
        variables: a.variables ?? [],
        parallelism: a.parallelism ?? null,
        source: requestSource(req),
        createdById: creatorOf(res),
      });
      sendResource(res, 201, presentRun(run, module));
    },

    async listRuns(req: Req, res: Response) {
      const module = await loadForTests(req, res);
      const page = readPageOrDefault(req);
      const sources = readParam(req, 'filter[source]');
      let wanted: TestSource[] | undefined;
      if (sources !== undefined) {
        const named = sources
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const unknown = named.find((s) => !(TEST_SOURCES as readonly string[]).includes(s));
        if (unknown)
          throw new Unprocessable(`unknown test source ${unknown}; use ${TEST_SOURCES.join(', ')}`, undefined);
        wanted = named as TestSource[];
      }
      const { rows, total } = await testRunPage(db, module.id, page, wanted);
      send(res, 200, { data: rows.map((r) => presentRun(r, module)), ...paginate(req, page, total) });
    },

    async showRun(req: Req, res: Response) {
      const { module, run } = await loadRun(req, res);
      sendResource(res, 200, presentRun(run, module));
    },

    cancelRun: (kind: 'cancel' | 'force_cancel') => async (req: Req, res: Response) => {
      const module = await loadForTests(req, res);
      await cancelTestRun(db, module.id, req.params.id, kind);
      res.status(202).end();
    },

    // Test variables (environment variables of the module's test runs).
    async createVariable(req: Req, res: Response) {
      const module = await loadForTests(req, res);
      const a = attributesOf(req) as {
        key: string;
        value?: string;
        description?: string | null;
        sensitive?: boolean;
        hcl?: boolean;
      };
      const row = await createTestVariable(deps, module, a);
      sendResource(res, 201, presentVariable(row, module));
    },

    async listVariables(req: Req, res: Response) {
      const module = await loadForTests(req, res);
      const page = readPageOrDefault(req);
      const { rows, total } = await testVariablePage(db, module.id, page);
      send(res, 200, { data: rows.map((v) => presentVariable(v, module)), ...paginate(req, page, total) });
    },

    async showVariable(req: Req, res: Response) {
      const { module, variable } = await loadVariable(req, res);
      sendResource(res, 200, presentVariable(variable, module));
    },

    async updateVariable(req: Req, res: Response) {
      const { module, variable } = await loadVariable(req, res);
      const a = attributesOf(req) as {
        key?: string;
        value?: string;
        description?: string | null;
        sensitive?: boolean;
        hcl?: boolean;
      };
      const row = await changeTestVariable(deps, variable, a);
      sendResource(res, 200, presentVariable(row, module));
    },

    async deleteVariable(req: Req, res: Response) {
      const { variable } = await loadVariable(req, res);
      await removeTestVariable(deps, variable);
      res.status(204).end();
    },
  };
}
