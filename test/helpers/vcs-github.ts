import { createHmac, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import nock from 'nock';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import type { GitServer } from './git-server.js';
import type { CreatedHook, StatusCall } from './vcs.js';

// GitHub's own example payloads, changed only where they name the repository and the commit.
const definitions = createRequire(import.meta.url)('@octokit/webhooks-examples') as WebhookDefinition[];
const examplesOf = <N extends 'push' | 'pull_request'>(name: N) =>
  (definitions.find((d) => d.name === name) as WebhookDefinition<N>).examples;
const PUSH = examplesOf('push').find((e) => e.ref === 'refs/heads/master' && e.commits.length > 0)!;
const PULL_REQUEST = examplesOf('pull_request').find((e) => e.action === 'opened')!;

export const GITHUB_API = 'https://api.github.com';

/** A push of `sha` to `branch` of `identifier`, as GitHub sends it, naming the files the commit changed. */
export function githubPush(git: GitServer, identifier: string, branch: string, sha: string, files: string[]) {
  const [owner, name] = identifier.split('/');
  return {
    ...PUSH,
    ref: `refs/heads/${branch}`,
    after: sha,
    compare: `https://github.com/${identifier}/compare/${PUSH.before}...${sha}`,
    head_commit: {
      ...PUSH.head_commit!,
      id: sha,
      message: `change ${files.join(', ')}`,
      url: `https://github.com/${identifier}/commit/${sha}`,
    },
    commits: [{ ...PUSH.commits[0], id: sha, added: files, modified: [], removed: [] }],
    repository: {
      ...PUSH.repository,
      name,
      full_name: identifier,
      owner: { ...PUSH.repository.owner, login: owner, name: owner },
      clone_url: `${git.url}/${identifier}.git`,
      html_url: `https://github.com/${identifier}`,
      default_branch: 'main',
      master_branch: 'main',
    },
  };
}

export function githubPullRequest(identifier: string, sha: string, base: string) {
  return {
    ...PULL_REQUEST,
    pull_request: {
      ...PULL_REQUEST.pull_request,
      head: { ...PULL_REQUEST.pull_request.head, ref: 'feature', sha },
      base: { ...PULL_REQUEST.pull_request.base, ref: base },
      html_url: `https://github.com/${identifier}/pull/2`,
    },
    number: 2,
    repository: { ...PULL_REQUEST.repository, full_name: identifier, default_branch: 'main' },
  };
}

/** Delivers a payload to a webhook URL signed as GitHub signs it (HMAC-SHA256 of the exact body). */
export async function deliverAsGitHub(
  url: string,
  secret: string,
  event: string,
  payload: unknown,
  deliveryId = randomUUID(),
) {
  const body = JSON.stringify(payload);
  const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-GitHub-Event': event,
      'X-GitHub-Delivery': deliveryId,
      'X-Hub-Signature-256': signature,
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** GitHub's API as the service calls it, mocked: hooks and commit statuses are recorded, with the token checked. */
export const mockGitHub =
  (token: string) =>
  (hooks: CreatedHook[], statuses: StatusCall[]): void =>
    void nock(GITHUB_API)
      .persist()
      .post(/^\/repos\/[^/]+\/[^/]+\/hooks$/)
      .matchHeader('authorization', `token ${token}`)
      .reply(201, function (uri, body) {
        const b = body as { config: { url: string; secret: string }; events: string[] };
        hooks.push({ identifier: uri.split('/').slice(2, 4).join('/'), url: b.config.url, secret: b.config.secret });
        return { id: 4242, events: b.events, config: { url: b.config.url } };
      })
      .post(/^\/repos\/[^/]+\/[^/]+\/statuses\/[0-9a-f]{40}$/)
      .matchHeader('authorization', `token ${token}`)
      .reply(201, function (uri, body) {
        const b = body as { state: string; target_url: string; description: string; context: string };
        statuses.push({
          sha: uri.split('/').pop()!,
          state: b.state,
          url: b.target_url,
          description: b.description,
          context: b.context,
        });
        return { id: statuses.length };
      });

/** A push of tag `tag` at `sha`, as GitHub sends it (no commits listed). */
export const githubTagPush = (git: GitServer, identifier: string, tag: string, sha: string) => ({
  ...githubPush(git, identifier, 'main', sha, []),
  ref: `refs/tags/${tag}`,
  base_ref: null,
  commits: [],
});
