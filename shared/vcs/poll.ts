import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderDeps } from './hooks.js';
import type { VcsEvent } from './events.js';
import { takePolledEvent } from './deliveries.js';
import { FetchFailed, remoteHeads, repositoryAccess } from './git.js';
import { firstFollowerRepo, hooksToPoll, lastPolledHeads, savePolledHeads } from './repositories.repo.js';

/** A new commit on a branch, as a push that names no files (file triggers then let it run). */
function pushOf(identifier: string, url: URL, branch: string, sha: string, defaultBranch: string | null): VcsEvent {
  return {
    kind: 'push',
    identifier,
    cloneUrl: url.href,
    repoHttpUrl: url.href.replace(/\.git$/, ''),
    branch,
    tag: null,
    commitSha: sha,
    commitMessage: null,
    commitUrl: null,
    compareUrl: null,
    defaultBranch,
    onDefaultBranch: branch === defaultBranch,
    senderUsername: null,
    senderAvatarUrl: null,
    senderHtmlUrl: null,
    pullRequest: null,
    changedFiles: null,
    deleted: false,
  };
}

/**
 * Looks at one polled repository's branches: each that moved since the last look is taken as a
 * push of its new commit. The first look only notes where they stand.
 */
export async function pollRepository(deps: ProviderDeps, hookId: string): Promise<void> {
  const repo = await firstFollowerRepo(deps.db, hookId);
  if (!repo) return;
  const identifier = String(repo.identifier);
  const home = await mkdtemp(join(tmpdir(), 'vcs-poll-'));
  try {
    const access = await repositoryAccess(deps, { tokenId: String(repo['oauth-token-id']), identifier });
    const { defaultBranch, branches } = await remoteHeads(access, home);
    const seen = await lastPolledHeads(deps.db, hookId);
    for (const [branch, sha] of seen ? branches : []) {
      if (seen![branch] === sha) continue;
      // The delivery id names the commit, so processes polling at once take it once.
      await takePolledEvent(
        deps,
        hookId,
        `poll-${branch}-${sha}`,
        pushOf(identifier, access.url, branch, sha, defaultBranch),
      );
    }
    await savePolledHeads(deps.db, hookId, Object.fromEntries(branches));
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** Polls every repository of a git server that workspaces follow; one that cannot be read is tried at the next round. */
export async function pollRepositories(deps: ProviderDeps): Promise<void> {
  for (const hookId of await hooksToPoll(deps.db)) {
    try {
      await pollRepository(deps, hookId);
    } catch (err) {
      if (!(err instanceof FetchFailed)) throw err;
      deps.logger.warn('a polled repository could not be read', { hook: hookId, error: err.message });
    }
  }
}
