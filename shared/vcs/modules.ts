import type { Runtime } from '../runtime.js';
import { Unprocessable } from '../platform/errors.js';
import { enqueueAfterCommit, jobs } from '../platform/queues.js';
import type { RegistryModuleRow } from '../module-tests/index.js';
import { createRegistryModule } from '../registry/index.js';
import { syncHooksAfter, vcsRepoSettings, type VcsRepoInput } from './repositories.js';
import { moduleOfRepository } from './rules.js';

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
