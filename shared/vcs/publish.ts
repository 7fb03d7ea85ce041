import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Unprocessable } from '../platform/errors.js';
import { UploadRefused } from '../configuration-versions/index.js';
import { findModule } from '../module-tests/index.js';
import { acceptModuleUpload, createModuleVersion, findModuleVersion } from '../registry/index.js';
import type { ProviderDeps } from './hooks.js';
import { checkoutCommit, FetchFailed, packTree, remoteTags, repositoryAccess } from './git.js';
import { versionOfTag } from './rules.js';

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
      // A tag whose commit cannot be fetched holds back no other tag.
      const archive = await checkoutCommit(deps, access, sha, dir, home, repo['ingress-submodules'] === true)
        .then(() => packTree(dir))
        .catch((err: unknown) => {
          if (!(err instanceof FetchFailed)) throw err;
          deps.logger.warn('a module tag could not be fetched', { module: moduleId, tag, error: err.message });
          return null;
        });
      if (!archive) continue;
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
      if (!created) {
        archive.destroy();
        continue;
      }
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
