import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import nock from 'nock';
import { api } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { uniq } from '../helpers/fixtures.js';
import { waitFor } from '../helpers/processes.js';
import { waitForRun } from '../helpers/terraform.js';
import type { GitServer } from '../helpers/git-server.js';
import { vcsSuite } from '../helpers/vcs.js';
import {
  answerThenCallBack,
  startTaskIntegration,
  type SentCallback,
  type TaskIntegration,
} from '../helpers/run-task-integration.js';
import { attachTask, createTask } from '../helpers/run-task-fixtures.js';

const GITLAB_API = 'https://gitlab.example/api/v4';
const TOKEN = 'glpat-local-repository-token';
const ZERO = '0000000000000000000000000000000000000000';

/** The project fields GitLab's hooks carry (its documented push and merge request events). */
const project = (git: GitServer, identifier: string) => ({
  id: 15,
  name: identifier.split('/')[1],
  web_url: `https://gitlab.example/${identifier}`,
  git_http_url: `${git.url}/${identifier}.git`,
  path_with_namespace: identifier,
  default_branch: 'main',
});

function gitlabPush(git: GitServer, identifier: string, ref: string, sha: string, files: string[]) {
  return {
    object_kind: ref.startsWith('refs/tags/') ? 'tag_push' : 'push',
    event_name: ref.startsWith('refs/tags/') ? 'tag_push' : 'push',
    before: ZERO.replace(/0$/, '1'),
    after: sha,
    ref,
    checkout_sha: sha,
    user_name: 'Jane Doe',
    user_username: 'jane',
    user_avatar: 'https://gitlab.example/uploads/jane.png',
    project_id: 15,
    project: project(git, identifier),
    commits: [
      {
        id: sha,
        message: `change ${files.join(', ')}\n\nwith a body`,
        title: `change ${files.join(', ')}`,
        url: `https://gitlab.example/${identifier}/-/commit/${sha}`,
        author: { name: 'Jane Doe', email: 'jane@example.com' },
        added: files,
        modified: [],
        removed: [],
      },
    ],
    total_commits_count: 1,
  };
}

function gitlabMergeRequest(git: GitServer, identifier: string, sha: string) {
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: { username: 'jane', avatar_url: 'https://gitlab.example/uploads/jane.png' },
    project: project(git, identifier),
    object_attributes: {
      iid: 7,
      url: `https://gitlab.example/${identifier}/-/merge_requests/7`,
      title: 'Grow the network',
      description: 'One more subnet',
      source_branch: 'feature',
      target_branch: 'main',
      action: 'open',
      last_commit: { id: sha, message: 'grow', url: `https://gitlab.example/${identifier}/-/commit/${sha}` },
    },
  };
}

/** Delivers a payload as GitLab does: the hook's secret token in X-Gitlab-Token. */
async function deliver(url: string, token: string, event: string, payload: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Gitlab-Event': event,
      'X-Gitlab-Token': token,
      'X-Gitlab-Event-UUID': randomUUID(),
      'Idempotency-Key': randomUUID(),
    },
    body: JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('VCS-driven workspaces: GitLab', function () {
  this.timeout(180_000);
  const deleted: string[] = [];
  let integration: TaskIntegration | undefined;
  after(async () => {
    await integration?.close();
  });
  const suite = vcsSuite({ serviceProvider: 'gitlab_hosted', apiUrl: GITLAB_API, token: TOKEN }, (hooks, statuses) =>
    nock(GITLAB_API)
      .persist()
      .post(/^\/api\/v4\/projects\/[^/]+\/hooks$/)
      .matchHeader('authorization', `Bearer ${TOKEN}`)
      .reply(201, function (uri, body) {
        const b = body as { url: string; token: string; push_events: boolean; merge_requests_events: boolean };
        expect(b).to.include({ push_events: true, merge_requests_events: true, tag_push_events: true });
        hooks.push({ identifier: decodeURIComponent(uri.split('/')[4]), url: b.url, secret: b.token });
        return { id: 77, url: b.url };
      })
      .delete(/^\/api\/v4\/projects\/[^/]+\/hooks\/77$/)
      .matchHeader('authorization', `Bearer ${TOKEN}`)
      .reply(204, function (uri) {
        deleted.push(decodeURIComponent(uri.split('/')[4]));
        return '';
      })
      .post(/^\/api\/v4\/projects\/[^/]+\/statuses\/[0-9a-f]{40}$/)
      .matchHeader('authorization', `Bearer ${TOKEN}`)
      .reply(201, function (uri, body) {
        const b = body as { state: string; target_url: string; description: string; name: string };
        statuses.push({
          sha: uri.split('/').pop()!,
          state: b.state,
          url: b.target_url,
          description: b.description,
          context: b.name,
        });
        return { id: statuses.length, status: b.state };
      }),
  );

  it('runs a pushed commit to apply, reports it on the commit, and removes the webhook when the workspace disconnects', async () => {
    const identifier = `acme/${uniq('network')}`;
    await suite.git.createRepo(identifier);
    await suite.git.commit(identifier, 'main', { 'main.tf': 'resource "terraform_data" "a" { input = "one" }\n' });
    const ws = await suite.connectedWorkspace(identifier);
    expect(ws.attributes['vcs-repo']).to.include({ identifier, 'service-provider': 'gitlab_hosted' });
    const sent: SentCallback[] = [];
    integration = await startTaskIntegration('task-key', answerThenCallBack([{ status: 'passed' }], sent));
    const taskId = await createTask(suite.org.name, suite.org.owner.token, integration.url, { 'hmac-key': 'task-key' });
    await attachTask(ws.id, suite.org.owner.token, taskId, { 'enforcement-level': 'advisory', stages: ['pre_plan'] });
    const sha = await suite.git.commit(identifier, 'main', {
      'main.tf': 'resource "terraform_data" "a" { input = "two" }\n',
    });
    const hook = suite.hookOf(identifier);

    const wrong = await deliver(
      hook.url,
      'not-the-token',
      'Push Hook',
      gitlabPush(suite.git, identifier, 'refs/heads/main', sha, ['main.tf']),
    );
    expect(wrong.status).to.equal(401);
    const delivered = await deliver(
      hook.url,
      hook.secret,
      'Push Hook',
      gitlabPush(suite.git, identifier, 'refs/heads/main', sha, ['main.tf']),
    );
    expect(delivered.status).to.equal(200);
    const [cvId] = delivered.body['configuration-version-ids'] as string[];

    const run = await suite.oneRunOf(ws.id, 'the run of the pushed commit');
    await waitForRun(run.id, suite.org.owner.token, ['applied'], 120_000);
    expect(run.attributes.message).to.equal('change main.tf');
    const cv = await api('GET', `/configuration-versions/${cvId}?include=ingress_attributes`, {
      token: suite.org.owner.token,
    });
    expect(cv.body.data.attributes.source).to.equal('gitlab');
    expect(['uploaded', 'archived']).to.include(cv.body.data.attributes.status);
    expect(cv.body.included[0].attributes).to.include({
      branch: 'main',
      'commit-sha': sha,
      'commit-url': `https://gitlab.example/${identifier}/-/commit/${sha}`,
      'sender-username': 'jane',
    });

    const request = integration.requests.find((r) => r.body.run_id === run.id)!;
    expect(request.body).to.include({
      vcs_branch: 'main',
      vcs_commit_url: `https://gitlab.example/${identifier}/-/commit/${sha}`,
      vcs_pull_request_url: null,
      vcs_repo_url: `${suite.git.url}/${identifier}`,
    });

    const runUrl = `${harness().baseUrl}/app/${suite.org.name}/workspaces/${ws.attributes.name}/runs/${run.id}`;
    await waitFor(() => suite.statuses.some((s) => s.sha === sha && s.state === 'success'), 'the success status');
    const ofCommit = suite.statuses.filter((s) => s.sha === sha);
    expect(ofCommit[0].state).to.equal('pending');
    expect(ofCommit.at(-1)).to.include({ state: 'success', url: runUrl });

    const disconnected = await api('PATCH', `/workspaces/${ws.id}`, {
      token: suite.org.owner.token,
      body: { data: { type: 'workspaces', attributes: { 'vcs-repo': null } } },
    });
    expect(disconnected.status, disconnected.text).to.equal(200);
    expect(disconnected.body.data.attributes['vcs-repo']).to.equal(null);
    await waitFor(() => deleted.includes(identifier), 'the webhook removed');
    const gone = await deliver(
      hook.url,
      hook.secret,
      'Push Hook',
      gitlabPush(suite.git, identifier, 'refs/heads/main', sha, ['main.tf']),
    );
    expect(gone.status).to.equal(404);
  });

  it('plans a merge request speculatively and reports the finished plan as a success', async () => {
    const identifier = `acme/${uniq('network')}`;
    await suite.git.createRepo(identifier);
    await suite.git.commit(identifier, 'main', { 'main.tf': 'resource "terraform_data" "a" {}\n' });
    const ws = await suite.connectedWorkspace(identifier);
    const sha = await suite.git.commit(identifier, 'feature', { 'main.tf': 'resource "terraform_data" "b" {}\n' });
    const hook = suite.hookOf(identifier);
    const delivered = await deliver(
      hook.url,
      hook.secret,
      'Merge Request Hook',
      gitlabMergeRequest(suite.git, identifier, sha),
    );
    expect(delivered.status).to.equal(200);
    const run = await suite.oneRunOf(ws.id, 'the speculative plan');
    expect(run.attributes['plan-only']).to.equal(true);
    await waitForRun(run.id, suite.org.owner.token, ['planned_and_finished'], 120_000);
    await waitFor(() => suite.statuses.some((s) => s.sha === sha && s.state === 'success'), 'the success status');
    const cv = await api(
      'GET',
      `/configuration-versions/${run.relationships['configuration-version'].data!.id}?include=ingress_attributes`,
      {
        token: suite.org.owner.token,
      },
    );
    expect(cv.body.included[0].attributes).to.include({
      'is-pull-request': true,
      'pull-request-number': 7,
      'pull-request-title': 'Grow the network',
    });
  });

  it('runs a workspace that follows tags only for a tag its tags-regex matches', async () => {
    const identifier = `acme/${uniq('network')}`;
    await suite.git.createRepo(identifier);
    const sha = await suite.git.commit(identifier, 'main', { 'main.tf': 'resource "terraform_data" "a" {}\n' });
    const ws = await suite.connectedWorkspace(identifier, {
      'vcs-repo': { identifier, 'oauth-token-id': suite.tokenId, 'tags-regex': '^v\\d+\\.\\d+\\.\\d+$' },
    });
    expect(ws.attributes['file-triggers-enabled']).to.equal(false);
    const hook = suite.hookOf(identifier);
    const branchPush = await deliver(
      hook.url,
      hook.secret,
      'Push Hook',
      gitlabPush(suite.git, identifier, 'refs/heads/main', sha, ['main.tf']),
    );
    expect(branchPush.body['configuration-version-ids']).to.deep.equal([]);
    const notMatching = await deliver(
      hook.url,
      hook.secret,
      'Tag Push Hook',
      gitlabPush(suite.git, identifier, 'refs/tags/nightly', sha, []),
    );
    expect(notMatching.body['configuration-version-ids']).to.deep.equal([]);
    await suite.git.tag(identifier, 'v1.2.0', sha);
    const matching = await deliver(
      hook.url,
      hook.secret,
      'Tag Push Hook',
      gitlabPush(suite.git, identifier, 'refs/tags/v1.2.0', sha, []),
    );
    expect(matching.body['configuration-version-ids']).to.have.length(1);
    const run = await suite.oneRunOf(ws.id, 'the run of the tag');
    await waitForRun(run.id, suite.org.owner.token, ['applied'], 120_000);
  });
});
