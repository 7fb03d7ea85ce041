import { expect } from 'chai';
import nock from 'nock';
import type { IncomingHttpHeaders } from 'node:http';
import { createOutboundClient } from '../../../../shared/platform/outbound.js';
import { guardedFetch } from '../../../../shared/vcs/outbound-fetch.js';
import {
  githubClient,
  gitlabClient,
  ProviderError,
  providerClient,
  statusDescription,
  type CommitStatus,
} from '../../../../shared/vcs/providers.js';

const GITHUB = 'https://api.github.com';
const GITLAB = 'https://gitlab.example/api/v4';
const SHA = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';

// The provider calls go through the guarded outbound client, as in the service; nock answers them.
const fetch = guardedFetch(createOutboundClient({ allowedCidrs: [] }));

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** Answers one call with status and reply, keeping what was sent. */
function answer(scope: nock.Scope, method: 'POST' | 'DELETE', path: string, status: number, reply?: object) {
  const seen: Seen[] = [];
  scope.intercept(path, method).reply(function (uri, body) {
    seen.push({ method, path: uri, headers: this.req.headers, body: body === '' ? undefined : body });
    return reply === undefined ? [status] : [status, reply, { 'Content-Type': 'application/json; charset=utf-8' }];
  });
  return seen;
}

async function failure(call: Promise<unknown>): Promise<ProviderError> {
  try {
    await call;
  } catch (err) {
    expect(err).to.be.instanceOf(ProviderError);
    return err as ProviderError;
  }
  throw new Error('the call did not fail');
}

const status: CommitStatus = {
  state: 'failure',
  targetUrl: 'https://tfe.example/app/acme/workspaces/net/runs/run-1',
  description: 'Terraform plan: errored',
  context: 'Terraform Cloud/acme/net',
};

describe('VCS provider clients', () => {
  before(() => nock.disableNetConnect());
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    expect(pending, 'calls expected but not made').to.deep.equal([]);
  });
  after(() => nock.enableNetConnect());

  describe('GitHub', () => {
    const client = githubClient({ apiUrl: GITHUB, token: 'gho_token', fetch });

    it('creates a repository hook for pushes and pull requests', async () => {
      const seen = answer(nock(GITHUB), 'POST', '/repos/acme/net/hooks', 201, { id: 4242, active: true });
      expect(await client.createHook('acme/net', 'https://tfe.example/webhooks/vcs/abc', 's3cret')).to.deep.equal({
        id: '4242',
      });
      expect(seen).to.have.length(1);
      expect(seen[0].headers.authorization).to.equal('token gho_token');
      expect(seen[0].body).to.deep.equal({
        events: ['push', 'pull_request'],
        active: true,
        config: {
          url: 'https://tfe.example/webhooks/vcs/abc',
          content_type: 'json',
          secret: 's3cret',
          insecure_ssl: '0',
        },
      });
    });

    it('deletes a hook, a hook already gone included', async () => {
      const deleted = answer(nock(GITHUB), 'DELETE', '/repos/acme/net/hooks/4242', 204);
      await client.deleteHook('acme/net', '4242');
      expect(deleted.map((s) => [s.method, s.path, s.headers.authorization])).to.deep.equal([
        ['DELETE', '/repos/acme/net/hooks/4242', 'token gho_token'],
      ]);
      answer(nock(GITHUB), 'DELETE', '/repos/acme/net/hooks/4243', 404, { message: 'Not Found' });
      await client.deleteHook('acme/net', '4243');
    });

    it('sets a commit status, its description cut to 140 characters', async () => {
      const seen = answer(nock(GITHUB), 'POST', `/repos/acme/net/statuses/${SHA}`, 201, { id: 1 });
      await client.setCommitStatus('acme/net', SHA, { ...status, description: 'é'.repeat(200) });
      expect(seen[0].headers.authorization).to.equal('token gho_token');
      expect(seen[0].body).to.deep.equal({
        state: 'failure',
        target_url: status.targetUrl,
        description: `${'é'.repeat(139)}…`,
        context: 'Terraform Cloud/acme/net',
      });
      expect(statusDescription('short')).to.equal('short');
      expect(Array.from(statusDescription('🙂'.repeat(141)))).to.have.length(140);
    });

    it('reports a refusal as a ProviderError with its status', async () => {
      answer(nock(GITHUB), 'POST', '/repos/acme/net/hooks', 422, { message: 'Validation Failed' });
      const err = await failure(client.createHook('acme/net', 'https://tfe.example/h', 's'));
      expect(err.status).to.equal(422);
      expect(err.message).to.match(/^GitHub answered 422: Validation Failed/);
      answer(nock(GITHUB), 'DELETE', '/repos/acme/net/hooks/1', 403, { message: 'Must have admin rights' });
      expect((await failure(client.deleteHook('acme/net', '1'))).status).to.equal(403);
    });

    it('talks to GitHub Enterprise under its /api/v3 base', async () => {
      const enterprise = githubClient({ apiUrl: 'https://ghe.example/api/v3/', token: 't', fetch });
      const seen = answer(nock('https://ghe.example'), 'POST', `/api/v3/repos/acme/net/statuses/${SHA}`, 201, {});
      await enterprise.setCommitStatus('acme/net', SHA, status);
      expect(seen).to.have.length(1);
    });

    it('refuses identifiers and hook ids GitHub could not have', async () => {
      expect((await failure(client.createHook('acme', 'https://tfe.example/h', 's'))).status).to.equal(null);
      expect((await failure(client.deleteHook('acme/net', 'abc'))).status).to.equal(null);
    });
  });

  describe('GitLab', () => {
    const client = gitlabClient({ apiUrl: GITLAB, token: 'glpat-token', fetch });
    const project = '/api/v4/projects/platform%2Fnet%2Finfra';

    it('creates a project hook for pushes, tag pushes and merge requests', async () => {
      const seen = answer(nock('https://gitlab.example'), 'POST', `${project}/hooks`, 201, { id: 77 });
      expect(
        await client.createHook('platform/net/infra', 'https://tfe.example/webhooks/vcs/abc', 's3cret'),
      ).to.deep.equal({ id: '77' });
      expect(seen[0].headers.authorization).to.equal('Bearer glpat-token');
      expect(seen[0].headers['content-type']).to.equal('application/json');
      expect(seen[0].body).to.deep.equal({
        url: 'https://tfe.example/webhooks/vcs/abc',
        token: 's3cret',
        push_events: true,
        merge_requests_events: true,
        tag_push_events: true,
        enable_ssl_verification: true,
      });
    });

    it('deletes a hook, a hook already gone included', async () => {
      const deleted = answer(nock('https://gitlab.example'), 'DELETE', `${project}/hooks/77`, 204);
      await client.deleteHook('platform/net/infra', '77');
      expect(deleted.map((s) => [s.method, s.path, s.headers.authorization, s.body])).to.deep.equal([
        ['DELETE', `${project}/hooks/77`, 'Bearer glpat-token', undefined],
      ]);
      answer(nock('https://gitlab.example'), 'DELETE', `${project}/hooks/78`, 404, { message: '404 Not found' });
      await client.deleteHook('platform/net/infra', '78');
    });

    it("sets a commit status in GitLab's states, the context as its name", async () => {
      const sent = answer(nock('https://gitlab.example'), 'POST', `${project}/statuses/${SHA}`, 201, { id: 5 });
      await client.setCommitStatus('platform/net/infra', SHA, status);
      expect(sent[0].headers.authorization).to.equal('Bearer glpat-token');
      expect(sent[0].body).to.deep.equal({
        state: 'failed',
        target_url: status.targetUrl,
        description: 'Terraform plan: errored',
        name: 'Terraform Cloud/acme/net',
      });
      const states = [];
      for (const state of ['pending', 'success', 'error'] as const) {
        const seen = answer(nock('https://gitlab.example'), 'POST', `${project}/statuses/${SHA}`, 201, { id: 5 });
        await client.setCommitStatus('platform/net/infra', SHA, { ...status, state });
        states.push((seen[0].body as { state: string }).state);
      }
      expect(states).to.deep.equal(['pending', 'success', 'failed']);
    });

    it('takes a status the commit already shows as set, and reports other refusals with their status', async () => {
      answer(nock('https://gitlab.example'), 'POST', `${project}/statuses/${SHA}`, 400, {
        message:
          'Cannot transition status via :enqueue from :pending (Reason(s): Status cannot transition via "enqueue")',
      });
      await client.setCommitStatus('platform/net/infra', SHA, { ...status, state: 'pending' });

      answer(nock('https://gitlab.example'), 'POST', `${project}/statuses/${SHA}`, 403, { message: '403 Forbidden' });
      const err = await failure(client.setCommitStatus('platform/net/infra', SHA, status));
      expect(err.status).to.equal(403);
      expect(err.message).to.equal('GitLab answered 403: 403 Forbidden');
      answer(nock('https://gitlab.example'), 'POST', `${project}/hooks`, 500);
      expect((await failure(client.createHook('platform/net/infra', 'https://tfe.example/h', 's'))).status).to.equal(
        500,
      );
    });
  });

  describe('through the guarded client', () => {
    it('reports a call that got no answer with no status', async () => {
      // No interceptor: nock refuses the connection, as an unreachable host would.
      const github = githubClient({ apiUrl: 'https://unanswered.example', token: 't', fetch });
      const err = await failure(github.setCommitStatus('acme/net', SHA, status));
      expect(err.status).to.equal(null);
      expect(err.message).to.match(/^GitHub call failed: connection failed/);
      const gitlab = gitlabClient({ apiUrl: 'https://unanswered.example/api/v4', token: 't', fetch });
      expect((await failure(gitlab.deleteHook('a/b', '1'))).status).to.equal(null);
    });

    it('still refuses internal addresses', async () => {
      const github = githubClient({ apiUrl: 'https://127.0.0.1', token: 't', fetch });
      const err = await failure(github.setCommitStatus('acme/net', SHA, status));
      expect(err.status).to.equal(null);
      expect(err.message).to.match(/destination not allowed/);
    });

    it('follows no redirect', async () => {
      nock(GITHUB).post(`/repos/acme/net/statuses/${SHA}`).reply(301, '', { Location: 'https://api.github.com/x' });
      const err = await failure(
        githubClient({ apiUrl: GITHUB, token: 't', fetch }).setCommitStatus('acme/net', SHA, status),
      );
      expect(err.status).to.equal(null);
      expect(err.message).to.match(/redirects are not followed/);
    });

    it('hands back status, headers and body as a Response', async () => {
      nock(GITLAB.replace('/api/v4', ''))
        .get('/api/v4/version')
        .matchHeader('x-probe', 'yes')
        .reply(200, { version: '17.0.0' }, { 'X-Request-Id': 'r-1', 'Content-Type': 'application/json' });
      const response = await fetch(`${GITLAB}/version`, { headers: [['X-Probe', 'yes']] });
      expect(response.status).to.equal(200);
      expect(response.url).to.equal(`${GITLAB}/version`);
      expect(response.headers.get('x-request-id')).to.equal('r-1');
      expect(await response.json()).to.deep.equal({ version: '17.0.0' });
    });
  });

  it('picks the client of a connection by its service provider', () => {
    const opts = { apiUrl: GITHUB, token: 't', fetch };
    for (const p of [
      'github',
      'github_enterprise',
      'gitlab_hosted',
      'gitlab_community_edition',
      'gitlab_enterprise_edition',
    ])
      expect(providerClient(p, opts), p).to.not.equal(null);
    for (const p of ['bitbucket_hosted', 'ado_services', 'unknown']) expect(providerClient(p, opts), p).to.equal(null);
  });
});
