import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound, Unprocessable } from '../../shared/platform/errors.js';
import type { OrganizationGrant } from '../../shared/identity/access.queries.js';
import { findModule, findModuleByAddress, type RegistryModuleRow } from '../../shared/module-tests/index.js';
import {
  createModuleVersion,
  createRegistryModule,
  findModuleVersion,
  type ModuleVersionRow,
  noCodeModulesOfRegistryModules,
  removeModules,
  removeModuleVersion,
  testModuleVersion,
  variableOptionsOf,
} from '../../shared/registry/index.js';
import { modulePage, modulesNamed, modulesOfOrganizationNamed, moduleView } from '../../shared/registry/queries.js';
import { serviceHostname } from '../../shared/platform/config.js';
import { signedObjectUrl } from '../signed-urls.js';
import { orgScope } from '../guards.js';
import { connectionOfToken, publishModuleFromRepository, type VcsRepoInput } from '../../shared/vcs/index.js';
import { paginate, readInclude, readPageOrDefault, readParam, send, sendResource } from '../jsonapi.js';
import { attributesOf, relationshipId, requestSource, type Req } from './body.js';
import { moduleVersionResource, registryModuleResource } from '../serializers/registry-modules.js';
import { testRunResource } from '../serializers/module-tests.js';
import { noCodeModuleResource } from '../serializers/no-code-modules.js';
import type { Db } from '../../shared/platform/db.js';
import { logReadUrl } from './runs.js';

/** The no-code modules of registry modules, as documents. */
async function noCodeDocuments(db: Db, registryModuleIds: string[]) {
  const modules = await noCodeModulesOfRegistryModules(db, registryModuleIds);
  const options = await variableOptionsOf(
    db,
    modules.map((m) => m.id),
  );
  return modules.map((m) =>
    noCodeModuleResource(
      m,
      options.filter((o) => o.no_code_module_id === m.id),
    ),
  );
}

const creatorOf = (res: Response): string | null =>
  res.locals.principal.kind === 'user' ? res.locals.principal.user.id : null;

/** Registry modules of an organization (private modules and public references) and their versions. */
export function registryModuleHandlers(deps: AppDeps) {
  const { db, config } = deps;
  const hostname = serviceHostname(config);
  const permissionsOf = (grant: OrganizationGrant) => ({ manage: grant.permissions['manage-modules'] });
  const present = async (module: RegistryModuleRow, grant: OrganizationGrant) =>
    registryModuleResource(await moduleView(db, module), { hostname, permissions: permissionsOf(grant) });

  /** The module addressed by `params` in `org`; any member sees it, `need` to change it. */
  async function loadModule(
    res: Response,
    params: { org: string; registry: string; namespace: string; name: string; provider: string },
    need?: 'manage-modules' | 'owner',
  ) {
    const { grant } = await orgScope(db, res.locals.principal, params.org, need);
    const module = await findModuleByAddress(db, {
      organization: params.org,
      registryName: params.registry,
      namespace: params.namespace,
      name: params.name,
      provider: params.provider,
    });
    if (!module) throw new NotFound('registry module not found');
    return { module, grant };
  }

  const routeModule = (req: Req, res: Response, need?: 'manage-modules' | 'owner') =>
    loadModule(res, req.params as Parameters<typeof loadModule>[1], need);

  async function loadVersion(module: RegistryModuleRow, version: string): Promise<ModuleVersionRow> {
    const row = await findModuleVersion(db, module.id, version);
    if (!row) throw new NotFound('module version not found');
    return row;
  }

  /** The modules a name-wide deletion removes (every provider of the name); 404 when there is none. */
  async function namedModules(
    res: Response,
    a: { org: string; registry: string; namespace: string; name: string },
  ): Promise<RegistryModuleRow[]> {
    await orgScope(db, res.locals.principal, a.org, 'manage-modules');
    const modules = await modulesNamed(db, {
      organization: a.org,
      registryName: a.registry,
      namespace: a.namespace,
      name: a.name,
    });
    if (!modules.length) throw new NotFound('registry module not found');
    return modules;
  }

  /** Creates a pending version of `module` from the request body and answers it with its upload link. */
  async function publishVersion(req: Req, res: Response, module: RegistryModuleRow) {
    const a = attributesOf(req) as { version: string; 'commit-sha'?: string | null };
    const version = await createModuleVersion(deps, module, {
      version: a.version,
      commitSha: a['commit-sha'] ?? null,
      testRunId: relationshipId(req, 'test-run') ?? null,
      createdById: creatorOf(res),
    });
    const uploadUrl = signedObjectUrl(
      config.uploadUrl,
      config.encryptionKey,
      'module-upload',
      version.id,
      config.uploadUrlTtlSeconds,
    );
    sendResource(res, 201, moduleVersionResource(version, module, { uploadUrl }));
  }

  return {
    async createModule(req: Req, res: Response) {
      const { grant } = await orgScope(db, res.locals.principal, req.params.org, 'manage-modules');
      const a = attributesOf(req) as {
        name: string;
        provider: string;
        namespace?: string;
        'registry-name'?: 'private' | 'public';
        'no-code'?: boolean;
      };
      const registry = a['registry-name'] ?? 'private';
      if (registry === 'private' && a.namespace !== undefined && a.namespace !== req.params.org) {
        throw new Unprocessable('the namespace of a private module is its organization', { attribute: 'namespace' });
      }
      if (registry === 'public' && !a.namespace)
        throw new Unprocessable('a public module reference names its namespace in the public registry', {
          attribute: 'namespace',
        });
      const module = await createRegistryModule(
        deps,
        {
          organization_name: req.params.org,
          registry_name: registry,
          namespace: registry === 'private' ? req.params.org : a.namespace!,
          name: a.name,
          provider: a.provider,
          created_by_id: creatorOf(res),
        },
        a['no-code'] === true,
      );
      sendResource(res, 201, await present(module, grant));
    },

    /**
     * POST /organizations/:org/registry-modules/vcs: a module whose versions its repository's tags
     * publish. The older POST /registry-modules names no organization: it is the token's.
     */
    async createModuleFromRepository(req: Req, res: Response) {
      const repo = attributesOf(req)['vcs-repo'] as VcsRepoInput & { 'organization-name'?: string };
      const org =
        req.params.org ??
        repo['organization-name'] ??
        (await connectionOfToken(db, repo['oauth-token-id']))?.client.organization_name;
      if (!org) throw new NotFound();
      const { grant } = await orgScope(db, res.locals.principal, org, 'manage-modules');
      const module = await publishModuleFromRepository(deps, org, repo, creatorOf(res));
      sendResource(res, 201, await present(module, grant));
    },

    async listModules(req: Req, res: Response) {
      const { grant } = await orgScope(db, res.locals.principal, req.params.org);
      // The include adds each module's no-code-modules relationship, and those modules as included documents.
      const inc = readInclude(req, ['no_code_modules', 'no-code-modules']);
      const noCode = inc.has('no_code_modules') || inc.has('no-code-modules');
      const page = readPageOrDefault(req);
      const { views, total } = await modulePage(db, req.params.org, page, {
        provider: readParam(req, 'filter[provider]'),
        registryName: readParam(req, 'filter[registry_name]'),
      });
      const permissions = permissionsOf(grant);
      const included = noCode
        ? await noCodeDocuments(
            db,
            views.flatMap((v) => (v.noCodeModuleId ? [v.module.id] : [])),
          )
        : [];
      send(res, 200, {
        data: views.map((v) => registryModuleResource(v, { hostname, permissions, noCode })),
        ...(included.length ? { included } : {}),
        ...paginate(req, page, total),
      });
    },

    async showModule(req: Req, res: Response) {
      const { module, grant } = await routeModule(req, res);
      sendResource(res, 200, await present(module, grant));
    },

    /** `GET /registry-modules/:id`: any member of the module's organization sees it; 404 for everyone else. */
    async showModuleById(req: Req, res: Response) {
      const module = await findModule(db, req.params.id);
      if (!module) throw new NotFound('registry module not found');
      const { grant } = await orgScope(db, res.locals.principal, module.organization_name);
      sendResource(res, 200, await present(module, grant));
    },

    async deleteModule(req: Req, res: Response) {
      const { module } = await routeModule(req, res, 'manage-modules');
      await removeModules(deps, [module]);
      res.status(204).end();
    },

    /** `DELETE /organizations/:org/registry-modules/:registry/:namespace/:name`: every provider of the name. */
    async deleteModulesNamed(req: Req, res: Response) {
      await removeModules(deps, await namedModules(res, req.params as Parameters<typeof namedModules>[1]));
      res.status(204).end();
    },

    /**
     * The older `POST /registry-modules/actions/delete/:org/:name[/:provider[/:version]]`. With the
     * name alone it removes every module of that name in the organization, public references
     * included (go-tfe removes those this way too); with a provider, the private module.
     */
    async deleteByAction(req: Req, res: Response) {
      const { org, name, provider, version } = req.params;
      if (provider === undefined) {
        await orgScope(db, res.locals.principal, org, 'manage-modules');
        const modules = await modulesOfOrganizationNamed(db, org, name);
        if (!modules.length) throw new NotFound('registry module not found');
        await removeModules(deps, modules);
      } else {
        const { module } = await loadModule(
          res,
          { org, registry: 'private', namespace: org, name, provider },
          'manage-modules',
        );
        if (version === undefined) await removeModules(deps, [module]);
        else await removeModuleVersion(deps, await loadVersion(module, version));
      }
      res.status(204).end();
    },

    async createVersion(req: Req, res: Response) {
      const { module } = await routeModule(req, res, 'manage-modules');
      await publishVersion(req, res, module);
    },

    /** go-tfe's `POST /registry-modules/:org/:name/:provider/versions`: a version of the organization's private module. */
    async createVersionOfPrivate(req: Req, res: Response) {
      const { org, name, provider } = req.params;
      const { module } = await loadModule(
        res,
        { org, registry: 'private', namespace: org, name, provider },
        'manage-modules',
      );
      await publishVersion(req, res, module);
    },

    async showVersion(req: Req, res: Response) {
      const { module } = await routeModule(req, res);
      const version = await loadVersion(module, req.params.version ?? readParam(req, 'module_version') ?? '');
      const view = await moduleView(db, module);
      sendResource(
        res,
        200,
        moduleVersionResource(version, module, {
          testStatus: view.versions.find((v) => v.version === version.version)?.test_status ?? null,
        }),
      );
    },

    async deleteVersion(req: Req, res: Response) {
      const { module } = await routeModule(req, res, 'manage-modules');
      await removeModuleVersion(deps, await loadVersion(module, req.params.version));
      res.status(204).end();
    },

    /** A test run of a published version's archive (module test access: the owners team). */
    async testVersion(req: Req, res: Response) {
      const { module } = await routeModule(req, res, 'owner');
      const version = await loadVersion(module, req.params.version);
      const a = attributesOf(req) as {
        verbose?: boolean;
        filters?: string[];
        variables?: { key: string; value: string }[];
        parallelism?: number;
      };
      const run = await testModuleVersion(deps, module, version, {
        verbose: a.verbose ?? false,
        testDirectory: 'tests',
        filters: a.filters ?? [],
        variables: a.variables ?? [],
        parallelism: a.parallelism ?? null,
        source: requestSource(req),
        createdById: creatorOf(res),
      });
      sendResource(res, 201, testRunResource(run, module, logReadUrl(config, run.log_id)));
    },
  };
}
