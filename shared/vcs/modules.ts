import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Runtime } from '../runtime.js';
import { Unprocessable } from '../platform/errors.js';
import { enqueueAfterCommit, jobs } from '../platform/queues.js';
import { UploadRefused } from '../configuration-versions/index.js';
import { findModule, type RegistryModuleRow } from '../module-tests/index.js';
import { acceptModuleUpload, createModuleVersion, createRegistryModule, findModuleVersion } from '../registry/index.js';
import type { ProviderDeps } from './hooks.js';
import { checkoutCommit, FetchFailed, packTree, remoteTags, repositoryAccess } from './git.js';
import { syncHooksAfter, vcsRepoSettings, type VcsRepoInput } from './repositories.js';
import { moduleOfRepository, versionOfTag } from './rules.js';

/**
 * Creates a private registry module that publishes a version for each `vX.Y.Z` tag of a
 * repository (`terraform-<provider>-<name>`), through one of the organization's connections: its
 * webhook is made, and the tags it has already are read, after the module is saved.
 */
export async function publishModuleFromRepository(
  rt: Runtime,
  organizationName: string,
  input: VcsRepoInput,
  createdById: string | null,
): Promise<RegistryModuleRow> {
  // A module's repository brings its submodules unless asked not to, and publishes from tags.
  const repo = await vcsRepoSettings(
    rt,
    organizationName,
    { ...input, 'tags-regex': null, 'ingress-submodules': input['ingress-submodules'] ?? true },
    null,
  );
  repo.vcs_repo = {
    ...repo.vcs_repo,
    'display-identifier': input['display-identifier'] || repo.vcs_repo!.identifier,
    tags: true,
  };
  const identifier = String(repo.vcs_repo!.identifier);
  const names = moduleOfRepository(identifier);
  if (!names)
    throw new Unprocessable('a module repository is named terraform-<provider>-<name>', {
      attribute: 'vcs-repo/identifier',
    });
  const module = await createRegistryModule(
    rt,
    {
      organization_name: organizationName,
      registry_name: 'private',
      namespace: organizationName,
      name: names.name,
      provider: names.provider,
      created_by_id: createdById,
      vcs_repo: repo.vcs_repo,
      vcs_hook_id: repo.vcs_hook_id,
    },
    false,
  );
  await syncHooksAfter(rt, [repo.vcs_hook_id]);
  await enqueueAfterCommit(rt.queues, jobs.vcsModuleSync(module.id, organizationName, 'created'), rt.logger);
  return module;
}

/**
 * Publishes the versions a module's repository has tags for and the module lacks: each tag's
 * commit is fetched and accepted as an uploaded version is (a version whose files are refused is
 * kept as failed, with the reason). A repository git cannot read publishes nothing this time.
 */
export async function publishTaggedVersions(deps: ProviderDeps, moduleId: string): Promise<void> {
  const module = await findModule(deps.db, moduleId);
  const repo = module?.vcs_repo;
  if (!module || !repo) return;
  const home = await mkdtemp(join(tmpdir(), 'vcs-module-'));
  try {
    const access = await repositoryAccess(deps, {
      tokenId: String(repo['oauth-token-id']),
      identifier: String(repo.identifier),
    });
    for (const [tag, sha] of await remoteTags(access, home)) {
      const version = versionOfTag(tag);
      if (!version || (await findModuleVersion(deps.db, module.id, version))) continue;
      const dir = join(home, version);
      await checkoutCommit(deps, access, sha, dir, home, repo['ingress-submodules'] === true);
      const created = await createModuleVersion(deps, module, {
        version,
        commitSha: sha,
        testRunId: null,
        createdById: null,
      }).catch((err: unknown) => {
        // Published meanwhile by another sync.
        if (err instanceof Unprocessable) return null;
        throw err;
      });
      if (!created) continue;
      const { archive } = packTree(dir);
      await acceptModuleUpload(deps, created.id, archive).catch((err: unknown) => {
        if (!(err instanceof UploadRefused)) throw err;
      });
    }
  } catch (err) {
    if (!(err instanceof FetchFailed)) throw err;
    deps.logger.warn('a module repository could not be read', { module: moduleId, error: err.message });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
