import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failUpload, findCv, findIngress, UploadRefused, type CvRow } from '../configuration-versions/index.js';
import { acceptUpload, type FetchedFrom } from '../runs/index.js';
import { jobs, requeue } from '../platform/queues.js';
import { findWorkspace } from '../workspaces/index.js';
import { findModule } from '../module-tests/index.js';
import { plansWaitingFor } from './repositories.repo.js';
import type { ProviderDeps } from './hooks.js';
import { checkoutCommit, FetchFailed, packTree, repositoryAccess } from './git.js';

/**
 * Fetches a version created by a webhook delivery: the commit its ingress attributes name, shallow
 * and with submodules when the workspace asks, through the connection's token; its files are then
 * accepted as an upload is (same checks and limits), which queues the run. A repository that
 * cannot be fetched leaves the version errored with git's reason.
 */
export async function fetchConfigurationVersion(deps: ProviderDeps, cvId: string): Promise<void> {
  const cv = await findCv(deps.db, cvId);
  if (!cv || cv.status !== 'fetching') return;
  const dir = await mkdtemp(join(tmpdir(), 'vcs-fetch-'));
  try {
    const message = await checkout(deps, cv, join(dir, 'repo'), dir);
    // A version archived before is fetched again for the runs that wait for it.
    const again = 'archived-at' in cv.status_timestamps;
    await acceptArchive(deps, cv, join(dir, 'repo'), { message, again });
    if (again) await queueWaitingPlans(deps, cv.id);
  } catch (err) {
    if (err instanceof FetchFailed) await failUpload(deps.db, cv.id, err.message, 'fetching');
    else if (!(err instanceof UploadRefused)) throw err;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Checks the version's commit out into `into`; returns the run's message (the commit's). */
async function checkout(deps: ProviderDeps, cv: CvRow, into: string, home: string): Promise<string> {
  const [ingress, repo] = await Promise.all([findIngress(deps.db, cv.id), repositoryOfVersion(deps, cv)]);
  if (!ingress?.commit_sha || !repo) throw new FetchFailed('the repository is no longer followed');
  const access = await repositoryAccess(deps, {
    tokenId: String(repo['oauth-token-id']),
    identifier: String(repo.identifier),
  });
  await checkoutCommit(deps, access, ingress.commit_sha, into, home, repo['ingress-submodules'] === true);
  return ingress.commit_message?.split('\n')[0] || 'Triggered via VCS';
}

/** The repository a version comes from: its workspace's, or the module's it tests. */
async function repositoryOfVersion(deps: ProviderDeps, cv: CvRow): Promise<Record<string, unknown> | null> {
  if (cv.workspace_id) return (await findWorkspace(deps.db, cv.workspace_id))?.vcs_repo ?? null;
  if (cv.registry_module_id) return (await findModule(deps.db, cv.registry_module_id))?.vcs_repo ?? null;
  return null;
}

/** Packs the checked-out tree and accepts it as the version's archive. */
async function acceptArchive(deps: ProviderDeps, cv: CvRow, dir: string, fetched: FetchedFrom): Promise<void> {
  await acceptUpload(deps, cv, await packTree(dir), undefined, fetched);
}

/**
 * Queues the plans of the runs that waited for a version fetched again. Their plan jobs ran (and
 * found the files missing), so the finished jobs are replaced rather than added under a used id.
 */
async function queueWaitingPlans(deps: ProviderDeps, cvId: string): Promise<void> {
  for (const r of await plansWaitingFor(deps.db, cvId))
    await requeue(deps.queues, jobs.runStep(r.id, 'plan', r.organization_name));
}
