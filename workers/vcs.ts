import { idFrom, type QueueJob, type WorkerDeps } from './context.js';
import { sendRunCommitStatuses, syncRepositoryHook } from '../shared/vcs/index.js';
import { fetchConfigurationVersion, pollRepositories, publishTaggedVersions } from '../shared/vcs/engine.js';
import { archiveFetchedVersion } from '../shared/configuration-versions/index.js';

/** Creates or removes a repository's webhook at its provider (see syncRepositoryHook). */
export async function syncHook(job: QueueJob<'vcs', 'hook-sync'>, deps: WorkerDeps): Promise<void> {
  await syncRepositoryHook(deps, idFrom(job.data, 'hookId'));
}

/** Fetches a configuration version from its repository, then queues its run (see fetchConfigurationVersion). */
export async function fetchConfiguration(job: QueueJob<'vcs', 'fetch'>, deps: WorkerDeps): Promise<void> {
  await fetchConfigurationVersion(deps, idFrom(job.data, 'configurationVersionId'));
}

/** Reports a run's queued commit statuses to its provider, in order (see sendRunCommitStatuses). */
export async function sendCommitStatuses(job: QueueJob<'vcs', 'commit-status'>, deps: WorkerDeps): Promise<void> {
  await sendRunCommitStatuses(deps, idFrom(job.data, 'runId'));
}

/** Archives a fetched version whose runs are done (see archiveFetchedVersion). */
export async function archiveVersion(job: QueueJob<'vcs', 'archive'>, deps: WorkerDeps): Promise<void> {
  await archiveFetchedVersion(deps, idFrom(job.data, 'configurationVersionId'));
}

/** Publishes the versions a module's repository has tags for (see publishTaggedVersions). */
export async function publishModuleVersions(job: QueueJob<'vcs', 'module-sync'>, deps: WorkerDeps): Promise<void> {
  await publishTaggedVersions(deps, idFrom(job.data, 'registryModuleId'));
}

/** Looks at the repositories of git servers for new commits (a schedule; see pollRepositories). */
export async function pollGitServers(_job: QueueJob<'vcs', 'poll'>, deps: WorkerDeps): Promise<void> {
  await pollRepositories(deps);
}
