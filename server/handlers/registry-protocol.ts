import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/platform/errors.js';
import { latestVersion } from '../../shared/registry/index.js';
import { findModuleByAddress, type RegistryModuleRow } from '../../shared/module-tests/index.js';
import type { ModuleVersionRow } from '../../shared/registry/repo.js';
import { publishedVersions } from '../../shared/registry/queries.js';
import { serviceHostname } from '../../shared/platform/config.js';
import { signedObjectUrl } from '../signed-urls.js';
import { registryReadScope } from '../guards.js';
import { moduleDetail } from '../serializers/registry-modules.js';
import type { Req } from './body.js';

/**
 * The module registry protocol (`modules.v1`) that Terraform itself speaks, for the private
 * modules of an organization: the namespace is the organization, and the caller's token must
 * see it (404 otherwise, as for the rest of the API). Only published (`ok`) versions exist here.
 */
export function registryProtocolHandlers(deps: AppDeps) {
  const { db, config } = deps;
  const hostname = serviceHostname(config);

  async function load(req: Req, res: Response): Promise<{ module: RegistryModuleRow; versions: ModuleVersionRow[] }> {
    const { namespace, name, provider } = req.params;
    await registryReadScope(db, res.locals.principal, namespace);
    const module = await findModuleByAddress(db, {
      organization: namespace,
      registryName: 'private',
      namespace,
      name,
      provider,
    });
    if (!module) throw new NotFound('module not found');
    return { module, versions: await publishedVersions(db, module.id) };
  }

  /** The version named by the route, or the latest when none is. */
  async function loadVersion(req: Req, res: Response) {
    const { module, versions } = await load(req, res);
    const wanted = req.params.version ?? latestVersion(versions.map((v) => v.version));
    const version = versions.find((v) => v.version === wanted);
    if (!version) throw new NotFound('module version not found');
    return { module, versions, version };
  }

  return {
    async versions(req: Req, res: Response) {
      const { module, versions } = await load(req, res);
      res.status(200).json({
        modules: [
          {
            source: `${module.namespace}/${module.name}/${module.provider}`,
            versions: versions.map((v) => ({
              version: v.version,
              root: { dependencies: [], providers: [] },
              submodules: [],
            })),
          },
        ],
      });
    },

    /**
     * 204 with X-Terraform-Get: a short-lived signed URL of the archive, relative to this endpoint,
     * so Terraform fetches it from the same base it reached the registry at (a run's sandbox
     * reaches the API at RUN_API_URL, a user at BASE_URL); `archive=tar.gz` tells it to unpack.
     */
    async download(req: Req, res: Response) {
      const { version } = await loadVersion(req, res);
      if (!version.archive_object_id) throw new NotFound('module version has no archive');
      const url = signedObjectUrl(
        '',
        config.encryptionKey,
        'object',
        version.archive_object_id,
        config.downloadUrlTtlSeconds,
      );
      res
        .status(204)
        .set({ 'X-Terraform-Get': `${url}?archive=tar.gz`, 'Cache-Control': 'private, no-store' })
        .end();
    },

    async detail(req: Req, res: Response) {
      const { module, versions, version } = await loadVersion(req, res);
      res.status(200).json(
        moduleDetail(
          module,
          version,
          versions.map((v) => v.version),
          hostname,
        ),
      );
    },
  };
}
