import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { api } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { uniq } from '../helpers/fixtures.js';
import { waitFor } from '../helpers/processes.js';
import { startRun, waitForRun } from '../helpers/terraform.js';
import { answerThenCallBack, startTaskIntegration, type SentCallback } from '../helpers/run-task-integration.js';
import { attachTask, createTask } from '../helpers/run-task-fixtures.js';
import { vcsSuite } from '../helpers/vcs.js';
import { deliverAsGitHub, GITHUB_API, githubPullRequest, githubPush, mockGitHub } from '../helpers/vcs-github.js';

const TOKEN = 'ghp_local_repository_token';

describe('VCS-driven workspaces: GitHub', function () {
  this.timeout(180_000);
  const suite = vcsSuite({ serviceProvider: 'github', apiUrl: GITHUB_API, token: TOKEN }, mockGitHub(TOKEN));
  const hookOf = (identifier: string) => suite.hookOf(identifier);
  const connectedWorkspace = (identifier: string, attrs?: Record<string, unknown>) =>
    suite.connectedWorkspace(identifier, attrs);
  const runsOf = (wsId: string) => suite.runsOf(wsId);
  const oneRunOf = (wsId: string, what: string) => suite.oneRunOf(wsId, what);

  it('connects a repository, runs a pushed commit to apply, and reports its statuses on the commit', async () => {
    const identifier = `acme/${uniq('infra')}`;
    await suite.git.createRepo(identifier);
    await suite.git.commit(identifier, 'main', { 'main.tf': 'resource "terraform_data" "a" { input = "one" }\n' });
    const integration = await startTaskIntegration('task-key', answerThenCallBack([{ status: 'passed' }], []));
    const sent: SentCallback[] = [];
    integration.reply = answerThenCallBack([{ status: 'passed' }], sent);
    try {
      const taskId = await createTask(suite.org.name, suite.org.owner.token, integration.url, {
        'hmac-key': 'task-key',
      });
      const ws = await connectedWorkspace(identifier);
      expect(ws.attributes['vcs-repo']).to.include({
        identifier,
        branch: 'main',
        'oauth-token-id': suite.tokenId,
        'service-provider': 'github',
        'repository-http-url': `${suite.git.url}/${identifier}`,
        'ingress-submodules': false,
      });
      expect((ws.attributes['vcs-repo'] as Record<string, unknown>)['webhook-url']).to.equal(hookOf(identifier).url);
      await attachTask(ws.id, suite.org.owner.token, taskId, { 'enforcement-level': 'advisory', stages: ['pre_plan'] });

      const sha = await suite.git.commit(identifier, 'main', {
        'main.tf': 'resource "terraform_data" "a" { input = "two" }\n',
      });
      const fetchesBefore = suite.git.requests(identifier);
      const hook = hookOf(identifier);
      const delivered = await deliverAsGitHub(
        hook.url,
        hook.secret,
        'push',
        githubPush(suite.git, identifier, 'main', sha, ['main.tf']),
      );
      expect(delivered.status).to.equal(200);
      const [cvId] = delivered.body['configuration-version-ids'] as string[];
      expect(cvId).to.match(/^cv-/);

      const cv = await api('GET', `/configuration-versions/${cvId}?include=ingress_attributes`, {
        token: suite.org.owner.token,
      });
      expect(cv.body.data.attributes.source).to.equal('github');
      expect(['fetching', 'uploaded']).to.include(cv.body.data.attributes.status);
      const ingress = cv.body.included[0].attributes;
      expect(ingress).to.include({ branch: 'main', 'commit-sha': sha, identifier, 'is-pull-request': false });
      expect(ingress['commit-url']).to.equal(`https://github.com/${identifier}/commit/${sha}`);

      await oneRunOf(ws.id, 'the run of the pushed commit');
      const [run] = await runsOf(ws.id);
      await waitForRun(run.id, suite.org.owner.token, ['applied'], 120_000);
      const fetched = await api('GET', `/configuration-versions/${cvId}`, { token: suite.org.owner.token });
      // Its run done, the version is archived (see the test of fetching it again).
      expect(['uploaded', 'archived']).to.include(fetched.body.data.attributes.status);
      expect(fetched.body.data.attributes['status-timestamps']).to.have.property('fetching-at');
      expect(suite.git.requests(identifier)).to.be.greaterThan(fetchesBefore);
      expect(run.attributes.message).to.equal('change main.tf');

      const request = integration.requests.find((r) => r.body.run_id === run.id)!;
      expect(request.body).to.include({
        vcs_branch: 'main',
        vcs_commit_url: `https://github.com/${identifier}/commit/${sha}`,
        vcs_pull_request_url: null,
        vcs_repo_url: `${suite.git.url}/${identifier}`,
      });

      const runUrl = `${harness().baseUrl}/app/${suite.org.name}/workspaces/${ws.attributes.name}/runs/${run.id}`;
      await waitFor(() => suite.statuses.some((s) => s.sha === sha && s.state === 'success'), 'the success status');
      const ofCommit = suite.statuses.filter((s) => s.sha === sha);
      expect(ofCommit[0].state).to.equal('pending');
      expect(ofCommit.at(-1)).to.include({ state: 'success', url: runUrl });
      expect(new Set(ofCommit.map((s) => s.context))).to.deep.equal(
        new Set([`terraform/${suite.org.name}/${ws.attributes.name}`]),
      );
      expect(ofCommit.every((s) => s.url === runUrl)).to.equal(true);
      // The run's delivery log shows each status and how its delivery went.
      await waitFor(async () => {
        const log = await api('GET', `/runs/${run.id}/commit-statuses`, { token: suite.org.owner.token });
        const rows = log.body.data as { attributes: Record<string, unknown> }[];
        return rows.length === ofCommit.length && rows.every((r) => r.attributes['delivery-status'] === 'sent');
      }, 'the delivery log');
      const log = await api('GET', `/runs/${run.id}/commit-statuses`, { token: suite.org.owner.token });
      expect(log.body.data.map((r: { attributes: { state: string } }) => r.attributes.state)).to.deep.equal(
        ofCommit.map((s) => s.state),
      );
      expect(log.body.data[0].attributes).to.include({ 'commit-sha': sha, identifier, attempts: 1 });
    } finally {
      await integration.close();
    }
  });

  it('archives a fetched version once its runs are done and a later one is current, and fetches it again for a run of it', async () => {
    const identifier = `acme/${uniq('infra')}`;
    await suite.git.createRepo(identifier);
    await suite.git.commit(identifier, 'main', { 'main.tf': 'resource "terraform_data" "a" {}\n' });
    const ws = await connectedWorkspace(identifier);
    const hook = hookOf(identifier);
    const push = async (input: number) => {
      const sha = await suite.git.commit(identifier, 'main', {
        'main.tf': `resource "terraform_data" "a" { input = ${input} }\n`,
      });
      const delivered = await deliverAsGitHub(
        hook.url,
        hook.secret,
        'push',
        githubPush(suite.git, identifier, 'main', sha, ['main.tf']),
      );
      return (delivered.body['configuration-version-ids'] as string[])[0];
    };
    const statusOf = async (cvId: string) =>
      (await api('GET', `/configuration-versions/${cvId}`, { token: suite.org.owner.token })).body.data.attributes;
    const cvId = await push(1);
    const first = await oneRunOf(ws.id, 'the run of the first commit');
    await waitForRun(first.id, suite.org.owner.token, ['applied'], 120_000);
    // Current, it keeps its files (assessments and runs started by hand read them).
    await new Promise((r) => setTimeout(r, 1000));
    expect((await statusOf(cvId)).status).to.equal('uploaded');

    const later = await push(2);
    await waitFor(async () => (await statusOf(later)).status === 'uploaded', 'the later version fetched');
    await waitFor(
      async () => {
        const runs = await runsOf(ws.id);
        return runs.length === 2 && runs.every((r) => r.attributes.status === 'applied');
      },
      'the run of the later commit',
      120_000,
    );
    await waitFor(async () => (await statusOf(cvId)).status === 'archived', 'the first version archived', 30_000);
    expect(
      (await api('GET', `/configuration-versions/${cvId}/download`, { token: suite.org.owner.token })).status,
    ).to.equal(404);
    const archivedAt = Date.parse(
      ((await statusOf(cvId))['status-timestamps'] as Record<string, string>)['archived-at'],
    );

    // A run of the archived version: its files are fetched again before it plans.
    const fetchesBefore = suite.git.requests(identifier);
    const again = await startRun(ws.id, suite.org.owner.token, {}, cvId);
    await waitForRun(again, suite.org.owner.token, ['applied', 'planned_and_finished'], 120_000);
    expect(suite.git.requests(identifier)).to.be.greaterThan(fetchesBefore);
    const timestamps = (await statusOf(cvId))['status-timestamps'] as Record<string, string>;
    expect(Date.parse(timestamps['fetching-at'])).to.be.greaterThan(archivedAt);
    await waitFor(async () => (await statusOf(cvId)).status === 'archived', 'the version archived again', 30_000);
    expect((await statusOf(later)).status).to.equal('uploaded');
  });

  it('plans a pull request speculatively and reports the failed plan as a failure', async () => {
    const identifier = `acme/${uniq('infra')}`;
    await suite.git.createRepo(identifier);
    await suite.git.commit(identifier, 'main', { 'main.tf': 'resource "terraform_data" "a" {}\n' });
    const ws = await connectedWorkspace(identifier);
    const sha = await suite.git.commit(identifier, 'feature', {
      'main.tf': 'resource "terraform_data" "a" { input = }\n',
    });
    const hook = hookOf(identifier);
    const delivered = await deliverAsGitHub(
      hook.url,
      hook.secret,
      'pull_request',
      githubPullRequest(identifier, sha, 'main'),
    );
    expect(delivered.status).to.equal(200);
    await oneRunOf(ws.id, 'the speculative plan');
    const [run] = await runsOf(ws.id);
    expect(run.attributes['plan-only']).to.equal(true);
    await waitForRun(run.id, suite.org.owner.token, ['errored'], 120_000);
    await waitFor(() => suite.statuses.some((s) => s.sha === sha && s.state === 'failure'), 'the failure status');
    const cvId = (run.relationships['configuration-version'] as { data: { id: string } }).data.id;
    const cv = await api('GET', `/configuration-versions/${cvId}?include=ingress_attributes`, {
      token: suite.org.owner.token,
    });
    expect(cv.body.data.attributes.speculative).to.equal(true);
    expect(cv.body.included[0].attributes).to.include({
      'is-pull-request': true,
      'pull-request-number': 2,
      'pull-request-url': `https://github.com/${identifier}/pull/2`,
    });
    // A pull request's version never becomes the workspace's current one.
    const after = await api('GET', `/workspaces/${ws.id}`, { token: suite.org.owner.token });
    expect(after.body.data.relationships['current-configuration-version']?.data?.id ?? null).to.not.equal(cvId);
  });

  it('skips a push that touches no watched path, and creates nothing twice for a redelivery', async () => {
    const identifier = `acme/${uniq('infra')}`;
    await suite.git.createRepo(identifier);
    await suite.git.commit(identifier, 'main', { 'infra/main.tf': 'resource "terraform_data" "a" {}\n' });
    const ws = await connectedWorkspace(identifier, { 'working-directory': 'infra', 'file-triggers-enabled': true });
    const hook = hookOf(identifier);
    const docsSha = await suite.git.commit(identifier, 'main', { 'docs/README.md': 'docs\n' });
    const skipped = await deliverAsGitHub(
      hook.url,
      hook.secret,
      'push',
      githubPush(suite.git, identifier, 'main', docsSha, ['docs/README.md']),
    );
    expect(skipped.status).to.equal(200);
    expect(skipped.body['configuration-version-ids']).to.deep.equal([]);

    const sha = await suite.git.commit(identifier, 'main', { 'infra/main.tf': 'resource "terraform_data" "b" {}\n' });
    const payload = githubPush(suite.git, identifier, 'main', sha, ['infra/main.tf']);
    const id = randomUUID();
    const first = await deliverAsGitHub(hook.url, hook.secret, 'push', payload, id);
    const again = await deliverAsGitHub(hook.url, hook.secret, 'push', payload, id);
    expect(first.body['configuration-version-ids']).to.have.length(1);
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal({ outcome: 'duplicate', 'configuration-version-ids': [] });
    await oneRunOf(ws.id, 'the run of the watched change');
    await new Promise((r) => setTimeout(r, 500));
    expect(await runsOf(ws.id)).to.have.length(1);
  });

  it('refuses a delivery whose signature does not hold with 401, and queues nothing', async () => {
    const identifier = `acme/${uniq('infra')}`;
    await suite.git.createRepo(identifier);
    const sha = await suite.git.commit(identifier, 'main', { 'main.tf': 'resource "terraform_data" "a" {}\n' });
    const ws = await connectedWorkspace(identifier);
    const hook = hookOf(identifier);
    const forged = await deliverAsGitHub(
      hook.url,
      'not-the-secret',
      'push',
      githubPush(suite.git, identifier, 'main', sha, ['main.tf']),
    );
    expect(forged.status).to.equal(401);
    const unknown = await deliverAsGitHub(`${harness().baseUrl}/webhooks/vcs/${randomUUID()}`, hook.secret, 'push', {});
    expect(unknown.status).to.equal(404);
    const cvs = await api('GET', `/workspaces/${ws.id}/configuration-versions`, { token: suite.org.owner.token });
    expect(cvs.body.data).to.deep.equal([]);
  });

  it("errors the version with git's reason when the credentials cannot read the repository", async () => {
    const identifier = `acme/${uniq('infra')}`;
    const ws = await connectedWorkspace(identifier);
    const hook = hookOf(identifier);
    const delivered = await deliverAsGitHub(
      hook.url,
      hook.secret,
      'push',
      githubPush(suite.git, identifier, 'main', 'a'.repeat(40), ['main.tf']),
    );
    expect(delivered.status).to.equal(200);
    const [cvId] = delivered.body['configuration-version-ids'] as string[];
    await waitFor(async () => {
      const cv = await api('GET', `/configuration-versions/${cvId}`, { token: suite.org.owner.token });
      return cv.body.data.attributes.status === 'errored';
    }, 'the errored version');
    const cv = await api('GET', `/configuration-versions/${cvId}`, { token: suite.org.owner.token });
    expect(cv.body.data.attributes['error-message']).to.match(/not found|repository|fatal/i);
    expect(await runsOf(ws.id)).to.deep.equal([]);
  });
});
