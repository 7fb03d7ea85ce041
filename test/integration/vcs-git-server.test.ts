import { expect } from 'chai';
import { createHmac, randomUUID } from 'node:crypto';
import { api } from '../helpers/api.js';
import { uniq } from '../helpers/fixtures.js';
import { waitForRun } from '../helpers/terraform.js';
import { vcsSuite } from '../helpers/vcs.js';
import { harness } from '../helpers/harness.js';
import { createOutboundClient } from '../../shared/platform/outbound.js';
import { pollRepository } from '../../shared/vcs/engine.js';
import { githubPush } from '../helpers/vcs-github.js';

const TOKEN = 'gitea-access-token';
const SECRET = 'the-webhook-secret';

/** Delivers a push as Gitea does: a GitHub-shaped payload, its hex HMAC-SHA256 in X-Gitea-Signature. */
async function deliverAsGitea(url: string, secret: string, payload: unknown) {
  const body = JSON.stringify(payload);
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Gitea-Event': 'push',
      'X-Gitea-Delivery': randomUUID(),
      'X-Gitea-Signature': createHmac('sha256', secret).update(body).digest('hex'),
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('VCS-driven workspaces: a git server without an API (Gitea, Forgejo, plain git)', function () {
  this.timeout(180_000);
  // No provider API is mocked: any call the service made to one would fail the test (nock refuses it).
  const suite = vcsSuite({ serviceProvider: 'git', apiUrl: 'https://git.example', token: TOKEN, secret: SECRET }, null);

  it("runs a pushed commit delivered with the connection's secret, and refuses another signature", async () => {
    const identifier = `acme/${uniq('infra')}`;
    await suite.git.createRepo(identifier);
    await suite.git.commit(identifier, 'main', { 'main.tf': 'resource "terraform_data" "a" {}\n' });
    const ws = await suite.connectedWorkspace(identifier);
    const vcsRepo = ws.attributes['vcs-repo'] as Record<string, string>;
    expect(vcsRepo).to.include({ 'service-provider': 'git', 'repository-http-url': `${suite.git.url}/${identifier}` });
    const sha = await suite.git.commit(identifier, 'main', { 'main.tf': 'resource "terraform_data" "b" {}\n' });
    const payload = githubPush(suite.git, identifier, 'main', sha, ['main.tf']);

    const forged = await deliverAsGitea(vcsRepo['webhook-url'], 'another-secret', payload);
    expect(forged.status).to.equal(401);
    const delivered = await deliverAsGitea(vcsRepo['webhook-url'], SECRET, payload);
    expect(delivered.status, JSON.stringify(delivered.body)).to.equal(200);
    const run = await suite.oneRunOf(ws.id, 'the run of the pushed commit');
    await waitForRun(run.id, suite.org.owner.token, ['applied'], 120_000);
    const cvId = run.relationships['configuration-version'].data!.id;
    const cv = await api('GET', `/configuration-versions/${cvId}?include=ingress_attributes`, {
      token: suite.org.owner.token,
    });
    expect(cv.body.data.attributes.source).to.equal('git');
    expect(cv.body.included[0].attributes['commit-sha']).to.equal(sha);
  });

  it('polls a repository whose server sends no webhook: a new commit runs once', async () => {
    const identifier = `acme/${uniq('infra')}`;
    await suite.git.createRepo(identifier);
    await suite.git.commit(identifier, 'main', { 'main.tf': 'resource "terraform_data" "a" {}\n' });
    const ws = await suite.connectedWorkspace(identifier);
    const hookId = String((ws.attributes['vcs-repo'] as Record<string, string>)['webhook-url'])
      .split('/')
      .pop()!;
    const rt = harness().rt;
    const deps = { ...rt, outbound: createOutboundClient({ allowedCidrs: rt.config.outboundAllowedCidrs }) };
    // The first look notes where the branches stand: nothing runs.
    await pollRepository(deps, hookId);
    expect(await suite.runsOf(ws.id)).to.deep.equal([]);
    const sha = await suite.git.commit(identifier, 'main', { 'main.tf': 'resource "terraform_data" "b" {}\n' });
    await suite.git.commit(identifier, 'other', { 'other.tf': '' });
    await pollRepository(deps, hookId);
    await pollRepository(deps, hookId);
    // The server's webhook of the same commit, arriving after the poll saw it, runs nothing again.
    const hookUrl = String((ws.attributes['vcs-repo'] as Record<string, string>)['webhook-url']);
    const late = await deliverAsGitea(hookUrl, SECRET, githubPush(suite.git, identifier, 'main', sha, ['main.tf']));
    expect(late.body).to.deep.equal({ outcome: 'duplicate', 'configuration-version-ids': [] });
    const run = await suite.oneRunOf(ws.id, 'the run of the polled commit');
    await waitForRun(run.id, suite.org.owner.token, ['applied'], 120_000);
    const cvId = run.relationships['configuration-version'].data!.id;
    const cv = await api('GET', `/configuration-versions/${cvId}?include=ingress_attributes`, {
      token: suite.org.owner.token,
    });
    expect(cv.body.included[0].attributes).to.include({ 'commit-sha': sha, branch: 'main' });
    expect(await suite.runsOf(ws.id)).to.have.length(1);
  });

  it('refuses a git server connection without the webhook secret with 422', async () => {
    const res = await api('POST', `/organizations/${suite.org.name}/oauth-clients`, {
      token: suite.org.owner.token,
      body: {
        data: {
          type: 'oauth-clients',
          attributes: {
            'service-provider': 'git',
            'http-url': suite.git.url,
            'api-url': suite.git.url,
            'oauth-token-string': TOKEN,
          },
        },
      },
    });
    expect(res.status, res.text).to.equal(422);
    expect(res.body.errors[0].source.pointer).to.equal('/data/attributes/secret');
  });
});
