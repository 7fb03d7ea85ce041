import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import {
  BadDelivery,
  genericSignatureValid,
  githubSignatureValid,
  gitlabTokenValid,
  parseGenericDelivery,
  parseGithubDelivery,
  parseGitlabDelivery,
} from '../../../../shared/vcs/events.js';

// GitHub's own example payloads, as the package publishes them (one JSON file of every event).
const definitions = createRequire(import.meta.url)('@octokit/webhooks-examples') as WebhookDefinition[];
const examplesOf = <N extends 'push' | 'pull_request' | 'ping'>(name: N) =>
  (definitions.find((d) => d.name === name) as WebhookDefinition<N>).examples;

const pushes = examplesOf('push');
const branchPush = pushes.find((e) => e.ref === 'refs/heads/master' && e.commits.length > 0)!;
const tagPush = pushes.find((e) => e.ref.startsWith('refs/tags/') && !e.deleted)!;
const tagDeletion = pushes.find((e) => e.ref.startsWith('refs/tags/') && e.deleted)!;
const pullRequest = (action: string) => examplesOf('pull_request').find((e) => e.action === action)!;
const ping = examplesOf('ping')[0];

const github = (event: string, payload: unknown) =>
  parseGithubDelivery({ 'x-github-event': event, 'x-github-delivery': 'd-1' }, JSON.stringify(payload));

const ZERO = '0000000000000000000000000000000000000000';

describe('VCS webhook deliveries: GitHub', () => {
  it('reads a branch push of the example payload', () => {
    expect(github('push', branchPush)).to.deep.equal({
      deliveryId: 'd-1',
      event: {
        kind: 'push',
        identifier: 'Codertocat/Hello-World',
        cloneUrl: 'https://github.com/Codertocat/Hello-World.git',
        repoHttpUrl: 'https://github.com/Codertocat/Hello-World',
        branch: 'master',
        tag: null,
        commitSha: branchPush.after,
        commitMessage: 'Initial commit',
        commitUrl: `https://github.com/Codertocat/Hello-World/commit/${branchPush.after}`,
        compareUrl: branchPush.compare,
        defaultBranch: 'master',
        onDefaultBranch: true,
        senderUsername: 'Codertocat',
        senderAvatarUrl: branchPush.sender!.avatar_url,
        senderHtmlUrl: 'https://github.com/Codertocat',
        pullRequest: null,
        changedFiles: ['README.md'],
        deleted: false,
      },
    });
  });

  it('reads a tag push, whose empty commit list says nothing about files, and a tag deletion', () => {
    const tag = github('push', tagPush).event!;
    expect(tag).to.deep.include({ kind: 'tag', branch: null, tag: 'simple-tag', changedFiles: null, deleted: false });
    expect(tag).to.deep.include({ commitSha: tagPush.head_commit!.id, onDefaultBranch: false });
    const deletion = github('push', tagDeletion).event!;
    expect(deletion).to.deep.include({ kind: 'tag', tag: 'simple-tag', deleted: true, commitMessage: null });
  });

  it('takes the union of the files of a push, and none when GitHub cut its commit list at 20', () => {
    const commit = (added: string[], modified: string[], removed: string[]) => ({
      ...branchPush.commits[0],
      added,
      modified,
      removed,
    });
    const two = { ...branchPush, commits: [commit(['a.tf'], ['b.tf'], []), commit([], ['a.tf'], ['c.tf'])] };
    expect(github('push', two).event!.changedFiles).to.deep.equal(['a.tf', 'b.tf', 'c.tf']);
    const many = { ...branchPush, commits: Array.from({ length: 20 }, () => commit(['x.tf'], [], [])) };
    expect(github('push', many).event!.changedFiles).to.equal(null);
  });

  it('marks a branch deletion, and ignores pushes to refs that are neither branches nor tags', () => {
    const deletion = { ...branchPush, after: ZERO, deleted: true, head_commit: null, commits: [] };
    expect(github('push', deletion).event).to.deep.include({ kind: 'push', deleted: true, changedFiles: null });
    expect(github('push', { ...branchPush, ref: 'refs/notes/commits' }).event).to.equal(null);
  });

  it('reads pull requests opened, reopened, synchronized and closed', () => {
    const opened = github('pull_request', pullRequest('opened')).event!;
    const sha = pullRequest('opened').pull_request.head.sha;
    expect(opened).to.deep.include({
      kind: 'pull_request',
      identifier: 'Codertocat/Hello-World',
      branch: 'changes',
      tag: null,
      commitSha: sha,
      commitMessage: null,
      commitUrl: `https://github.com/Codertocat/Hello-World/commit/${sha}`,
      onDefaultBranch: false,
      changedFiles: null,
      deleted: false,
    });
    expect(opened.pullRequest).to.deep.equal({
      number: 2,
      url: 'https://github.com/Codertocat/Hello-World/pull/2',
      title: 'Update the README with new information.',
      body: pullRequest('opened').pull_request.body,
      baseBranch: 'master',
      action: 'opened',
    });
    const actions = ['reopened', 'synchronize', 'closed'].map(
      (a) => github('pull_request', pullRequest(a)).event!.pullRequest!.action,
    );
    expect(actions).to.deep.equal(['opened', 'updated', 'closed']);
  });

  it('asks nothing of pings, other pull request actions and other events', () => {
    expect(github('ping', ping)).to.deep.equal({ deliveryId: 'd-1', event: null });
    expect(github('pull_request', pullRequest('labeled')).event).to.equal(null);
    expect(github('issues', { action: 'opened' }).event).to.equal(null);
  });

  it('reads headers whatever their case, and refuses deliveries it cannot read', () => {
    const body = JSON.stringify(branchPush);
    expect(parseGithubDelivery({ 'X-GitHub-Event': ['push'], 'X-GitHub-Delivery': 'd-2' }, body).deliveryId).to.equal(
      'd-2',
    );
    expect(() => parseGithubDelivery({ 'x-github-event': 'push' }, body)).to.throw(BadDelivery, /X-GitHub-Delivery/);
    expect(() => parseGithubDelivery({ 'x-github-delivery': 'd' }, body)).to.throw(BadDelivery, /X-GitHub-Event/);
    expect(() => parseGithubDelivery({ 'x-github-event': 'push', 'x-github-delivery': 'd' }, '{')).to.throw(
      BadDelivery,
      /not JSON/,
    );
    expect(() => github('push', [])).to.throw(BadDelivery, /not a JSON object/);
    expect(() => github('push', { ...branchPush, repository: undefined })).to.throw(BadDelivery, /repository/);
    expect(() => github('pull_request', { ...pullRequest('opened'), number: '2' })).to.throw(BadDelivery, /number/);
  });
});

describe('VCS webhook deliveries: GitLab', () => {
  const project = {
    id: 15,
    name: 'infra',
    web_url: 'https://gitlab.example/platform/infra',
    git_ssh_url: 'git@gitlab.example:platform/infra.git',
    git_http_url: 'https://gitlab.example/platform/infra.git',
    namespace: 'platform',
    path_with_namespace: 'platform/infra',
    default_branch: 'main',
  };
  const commit = (
    id: string,
    message: string,
    files: { added?: string[]; modified?: string[]; removed?: string[] },
  ) => ({
    id,
    message,
    title: message,
    timestamp: '2024-05-01T10:00:00+00:00',
    url: `https://gitlab.example/platform/infra/-/commit/${id}`,
    author: { name: 'Dev', email: 'dev@example.com' },
    added: files.added ?? [],
    modified: files.modified ?? [],
    removed: files.removed ?? [],
  });
  const before = 'a'.repeat(40);
  const after = 'b'.repeat(40);
  const push = {
    object_kind: 'push',
    event_name: 'push',
    before,
    after,
    ref: 'refs/heads/main',
    checkout_sha: after,
    user_id: 4,
    user_name: 'Dev',
    user_username: 'dev',
    user_avatar: 'https://gitlab.example/uploads/dev.png',
    project_id: 15,
    project,
    commits: [
      commit('c'.repeat(40), 'first', { added: ['main.tf'] }),
      commit(after, 'second', { modified: ['main.tf', 'vars.tf'], removed: ['old.tf'] }),
    ],
    total_commits_count: 2,
  };
  const tagObject = 'd'.repeat(40);
  const tagPushBody = {
    ...push,
    object_kind: 'tag_push',
    event_name: 'tag_push',
    before: ZERO,
    after: tagObject,
    ref: 'refs/tags/v1.0.0',
    checkout_sha: after,
    commits: [],
    total_commits_count: 0,
  };
  const mergeRequest = (action: string, extra: Record<string, unknown> = {}) => ({
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: { id: 4, name: 'Dev', username: 'dev', avatar_url: 'https://gitlab.example/uploads/dev.png' },
    project,
    object_attributes: {
      id: 99,
      iid: 7,
      title: 'Add a bucket',
      description: 'Needed by the new service.',
      source_branch: 'bucket',
      target_branch: 'main',
      state: 'opened',
      url: 'https://gitlab.example/platform/infra/-/merge_requests/7',
      action,
      last_commit: {
        id: after,
        message: 'Add a bucket\n',
        title: 'Add a bucket',
        url: `https://gitlab.example/platform/infra/-/commit/${after}`,
      },
      ...extra,
    },
  });
  const gitlab = (event: string, payload: unknown) =>
    parseGitlabDelivery({ 'x-gitlab-event': event, 'x-gitlab-event-uuid': 'g-1' }, JSON.stringify(payload));

  it('reads a branch push, with the union of its files and a compare URL', () => {
    expect(gitlab('Push Hook', push)).to.deep.equal({
      deliveryId: 'g-1',
      event: {
        kind: 'push',
        identifier: 'platform/infra',
        cloneUrl: 'https://gitlab.example/platform/infra.git',
        repoHttpUrl: 'https://gitlab.example/platform/infra',
        branch: 'main',
        tag: null,
        commitSha: after,
        commitMessage: 'second',
        commitUrl: `https://gitlab.example/platform/infra/-/commit/${after}`,
        compareUrl: `https://gitlab.example/platform/infra/-/compare/${before}...${after}`,
        defaultBranch: 'main',
        onDefaultBranch: true,
        senderUsername: 'dev',
        senderAvatarUrl: 'https://gitlab.example/uploads/dev.png',
        senderHtmlUrl: null,
        pullRequest: null,
        changedFiles: ['main.tf', 'vars.tf', 'old.tf'],
        deleted: false,
      },
    });
  });

  it('knows nothing of the files when GitLab listed only some of the commits', () => {
    expect(gitlab('Push Hook', { ...push, total_commits_count: 31 }).event!.changedFiles).to.equal(null);
  });

  it('reads a tag push by the commit the tag points at, and deletions of branches and tags', () => {
    expect(gitlab('Tag Push Hook', tagPushBody).event).to.deep.include({
      kind: 'tag',
      branch: null,
      tag: 'v1.0.0',
      commitSha: after,
      compareUrl: null,
      changedFiles: null,
      deleted: false,
    });
    const branchGone = { ...push, after: ZERO, checkout_sha: null, commits: [], total_commits_count: 0 };
    expect(gitlab('Push Hook', branchGone).event).to.deep.include({ kind: 'push', deleted: true, commitSha: ZERO });
    const tagGone = { ...tagPushBody, before: tagObject, after: ZERO, checkout_sha: null };
    expect(gitlab('Tag Push Hook', tagGone).event).to.deep.include({ kind: 'tag', deleted: true });
  });

  it('reads merge requests and their actions; an update is new commits only with oldrev', () => {
    const opened = gitlab('Merge Request Hook', mergeRequest('open')).event!;
    expect(opened).to.deep.include({
      kind: 'pull_request',
      identifier: 'platform/infra',
      branch: 'bucket',
      commitSha: after,
      commitMessage: 'Add a bucket\n',
      onDefaultBranch: false,
      senderUsername: 'dev',
      changedFiles: null,
    });
    expect(opened.pullRequest).to.deep.equal({
      number: 7,
      url: 'https://gitlab.example/platform/infra/-/merge_requests/7',
      title: 'Add a bucket',
      body: 'Needed by the new service.',
      baseBranch: 'main',
      action: 'opened',
    });
    const action = (a: string, extra?: Record<string, unknown>) =>
      gitlab('Merge Request Hook', mergeRequest(a, extra)).event!.pullRequest!.action;
    expect(action('reopen')).to.equal('opened');
    expect(action('update', { oldrev: before })).to.equal('updated');
    expect(action('update')).to.equal('other');
    expect(action('close')).to.equal('closed');
    expect(action('merge')).to.equal('closed');
    expect(action('approved')).to.equal('other');
  });

  it('takes the delivery id a retry keeps, never the hook id, asks nothing of other hooks, and refuses what it cannot read', () => {
    const body = JSON.stringify(push);
    const headers = { 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Event-UUID': 'e-1', 'X-Gitlab-Webhook-UUID': 'w-1' };
    expect(parseGitlabDelivery(headers, body).deliveryId).to.equal('e-1');
    expect(parseGitlabDelivery({ ...headers, 'Idempotency-Key': 'k-1' }, body).deliveryId).to.equal('k-1');
    expect(() => parseGitlabDelivery({ 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Webhook-UUID': 'w-1' }, body)).to.throw(
      BadDelivery,
    );
    expect(gitlab('Note Hook', { object_kind: 'note' })).to.deep.equal({ deliveryId: 'g-1', event: null });
    expect(() => parseGitlabDelivery({ 'x-gitlab-event': 'Push Hook' }, body)).to.throw(BadDelivery, /UUID/);
    expect(() => gitlab('Push Hook', { ...push, project: { ...project, git_http_url: 5 } })).to.throw(
      BadDelivery,
      /project.git_http_url/,
    );
    expect(() => gitlab('Merge Request Hook', { ...mergeRequest('open'), object_attributes: null })).to.throw(
      BadDelivery,
      /object_attributes/,
    );
  });
});

describe('VCS webhook deliveries: Gitea and Forgejo', () => {
  it('reads their GitHub-shaped pushes, with compare_url and total_commits', () => {
    const gitea = {
      ...branchPush,
      compare: undefined,
      compare_url: 'https://gitea.example/o/r/compare/a...b',
      total_commits: 1,
    };
    const parsed = parseGenericDelivery({ 'x-gitea-event': 'push', 'x-gitea-delivery': 'e-1' }, JSON.stringify(gitea));
    expect(parsed.deliveryId).to.equal('e-1');
    expect(parsed.event).to.deep.include({
      kind: 'push',
      branch: 'master',
      compareUrl: 'https://gitea.example/o/r/compare/a...b',
      changedFiles: ['README.md'],
    });
    const cut = parseGenericDelivery(
      { 'x-forgejo-event': 'push', 'x-forgejo-delivery': 'f-1' },
      JSON.stringify({ ...gitea, total_commits: 40 }),
    );
    expect(cut.event!.changedFiles).to.equal(null);
  });

  it('reads their pull requests, "synchronized" being new commits', () => {
    const headers = { 'x-forgejo-event': 'pull_request', 'x-forgejo-delivery': 'f-2' };
    const synced = { ...pullRequest('synchronize'), action: 'synchronized' };
    expect(parseGenericDelivery(headers, JSON.stringify(synced)).event!.pullRequest!.action).to.equal('updated');
    const labelled = { ...pullRequest('opened'), action: 'label_updated' };
    expect(parseGenericDelivery(headers, JSON.stringify(labelled)).event).to.equal(null);
  });

  it('falls back to the GitHub header names and refuses a delivery without an id', () => {
    const parsed = parseGenericDelivery(
      { 'x-github-event': 'push', 'x-github-delivery': 'h-1' },
      JSON.stringify(branchPush),
    );
    expect(parsed.deliveryId).to.equal('h-1');
    expect(() => parseGenericDelivery({ 'x-gitea-event': 'push' }, '{}')).to.throw(BadDelivery, /delivery/);
  });
});

describe('VCS webhook signatures', () => {
  const secret = 'hook-secret';
  const body = JSON.stringify(branchPush);
  const hex = (payload: string) => createHmac('sha256', secret).update(payload).digest('hex');

  it('checks GitHub signatures of the exact body', async () => {
    expect(await githubSignatureValid(secret, body, `sha256=${hex(body)}`)).to.equal(true);
    expect(await githubSignatureValid(secret, `${body} `, `sha256=${hex(body)}`)).to.equal(false);
    expect(await githubSignatureValid('other-secret', body, `sha256=${hex(body)}`)).to.equal(false);
    expect(await githubSignatureValid(secret, body, undefined)).to.equal(false);
    expect(await githubSignatureValid(secret, body, hex(body))).to.equal(false);
    expect(await githubSignatureValid(secret, body, 'sha256=zz')).to.equal(false);
    expect(await githubSignatureValid(secret, '', `sha256=${hex('')}`)).to.equal(false);
    expect(await githubSignatureValid('', body, `sha256=${hex(body)}`)).to.equal(false);
  });

  it('checks GitLab tokens', () => {
    expect(gitlabTokenValid(secret, secret)).to.equal(true);
    expect(gitlabTokenValid(secret, 'hook-secreT')).to.equal(false);
    expect(gitlabTokenValid(secret, `${secret}-longer`)).to.equal(false);
    expect(gitlabTokenValid(secret, undefined)).to.equal(false);
    expect(gitlabTokenValid('', '')).to.equal(false);
  });

  it('checks Gitea and Forgejo signatures in each header form', () => {
    expect(genericSignatureValid(secret, body, { 'x-gitea-signature': hex(body) })).to.equal(true);
    expect(genericSignatureValid(secret, body, { 'X-Forgejo-Signature': hex(body) })).to.equal(true);
    expect(genericSignatureValid(secret, body, { 'x-hub-signature-256': `sha256=${hex(body)}` })).to.equal(true);
    expect(genericSignatureValid(secret, body, { 'x-gitea-signature': hex(body).toUpperCase() })).to.equal(true);

    expect(genericSignatureValid(secret, `${body}x`, { 'x-gitea-signature': hex(body) })).to.equal(false);
    expect(genericSignatureValid(secret, body, { 'x-forgejo-signature': hex(body).slice(2) })).to.equal(false);
    expect(genericSignatureValid(secret, body, { 'x-forgejo-signature': 'not hex' })).to.equal(false);
    expect(genericSignatureValid(secret, body, { 'x-hub-signature-256': hex(body) })).to.equal(false);
    expect(genericSignatureValid(secret, body, {})).to.equal(false);
    expect(genericSignatureValid('', body, { 'x-gitea-signature': hex(body) })).to.equal(false);
  });
});
