import { expect } from 'chai';
import { api, doc, expectError, type ApiResponse } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import {
  countRows,
  createOrg,
  createTeam,
  createUser,
  createWorkspace,
  joinOrg,
  uniq,
  memberWithAccess,
  type TestUser,
} from '../helpers/fixtures.js';

type Org = { name: string; owner: TestUser };

const PRIVATE_KEY = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIICXgIBAAKBgQDIF0s2yX7dSQQL1grdTbai1Mb7sEco6RIOz8iqrHTGqmESpu5n',
  '-----END RSA PRIVATE KEY-----',
].join('\n');
const PUBLIC_KEY =
  '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAoKizy4xbN6qZFAwIJV24\n-----END PUBLIC KEY-----';

const github = (token: string) =>
  doc('oauth-clients', {
    'service-provider': 'github',
    'http-url': 'https://github.com',
    'api-url': 'https://api.github.com',
    'oauth-token-string': token,
    name: null,
  });

const bitbucketServer = (key?: string) =>
  doc('oauth-clients', {
    'service-provider': 'bitbucket_server',
    'http-url': 'https://bbs.example.com',
    'api-url': 'https://bbs.example.com',
    ...(key === undefined ? {} : { key }),
    secret: PRIVATE_KEY,
    'rsa-public-key': PUBLIC_KEY,
  });

/** VCS connections as TFE's OAuth clients and OAuth tokens (what go-tfe and the tfe provider manage). */
describe('vcs connections', function () {
  this.timeout(60_000);
  let org: Org;

  before(async () => {
    org = await createOrg();
  });

  const create = async (body: unknown, within: Org = org): Promise<ApiResponse> => {
    const res = await api('POST', `/organizations/${within.name}/oauth-clients`, { token: within.owner.token, body });
    expect(res.status, res.text).to.equal(201);
    return res;
  };

  it('creates a GitHub connection whose token string becomes its OAuth token, never shown and sealed at rest', async () => {
    const secret = uniq('ghp_secret');
    const created = await create(github(secret));
    const oc = created.body.data;
    expect(oc.type).to.equal('oauth-clients');
    expect(oc.id).to.match(/^oc-/);
    expect(oc.attributes).to.include({
      'service-provider': 'github',
      'service-provider-display-name': 'GitHub',
      'http-url': 'https://github.com',
      'api-url': 'https://api.github.com',
      name: null,
      secret: null,
      'organization-scoped': true,
    });
    expect(oc.attributes['callback-url']).to.match(/\/auth\/[0-9a-f-]{36}\/callback$/);
    expect(oc.attributes['connect-path']).to.match(/^\/auth\/[0-9a-f-]{36}\?organization_id=/);
    expect(oc.relationships.organization.data).to.deep.equal({ type: 'organizations', id: org.name });
    expect(oc.relationships['oauth-tokens'].data).to.have.length(1);
    const tokenId = oc.relationships['oauth-tokens'].data[0].id;

    const token = await api('GET', `/oauth-tokens/${tokenId}`, { token: org.owner.token });
    expect(token.status, token.text).to.equal(200);
    expect(token.body.data.attributes).to.include({ 'has-ssh-key': false });
    expect(token.body.data.relationships['oauth-client'].data.id).to.equal(oc.id);

    const listed = await api('GET', `/organizations/${org.name}/oauth-clients?include=oauth_tokens`, {
      token: org.owner.token,
    });
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.body.data.map((c: { id: string }) => c.id)).to.include(oc.id);
    expect(listed.body.included.map((t: { id: string }) => t.id)).to.include(tokenId);
    const orgTokens = await api('GET', `/organizations/${org.name}/oauth-tokens`, { token: org.owner.token });
    expect(orgTokens.body.data.map((t: { id: string }) => t.id)).to.include(tokenId);

    for (const res of [created, token, listed, orgTokens]) expect(res.text).not.to.include(secret);
    const rows = await harness().rt.db('oauth_tokens').where({ oauth_client_id: oc.id });
    expect(rows).to.have.length(1);
    expect(JSON.stringify(rows)).not.to.include(secret);
  });

  it('keeps a Bitbucket Server connection with its consumer key and public key; the key cannot be emptied', async () => {
    const key = uniq('consumer');
    const oc = (await create(bitbucketServer(key))).body.data;
    expect(oc.attributes).to.include({ key, 'rsa-public-key': PUBLIC_KEY, secret: null });
    expect(oc.relationships['oauth-tokens'].data).to.deep.equal([]);
    const row = await harness().rt.db('oauth_clients').where({ id: oc.id }).first();
    expect(row.secret_sealed).to.be.a('string').and.not.include('PRIVATE KEY');

    const renamed = await api('PATCH', `/oauth-clients/${oc.id}`, {
      token: org.owner.token,
      body: doc('oauth-clients', { key: 'new-key', name: 'bitbucket' }),
    });
    expect(renamed.status, renamed.text).to.equal(200);
    expect(renamed.body.data.attributes).to.include({
      key: 'new-key',
      name: 'bitbucket',
      'rsa-public-key': PUBLIC_KEY,
    });

    const emptied = await api('PATCH', `/oauth-clients/${oc.id}`, {
      token: org.owner.token,
      body: doc('oauth-clients', { key: '' }),
    });
    expectError(emptied, 422, /Consumer Key for BitBucket Server must be present/);
    expect(emptied.body.errors[0].source.pointer).to.equal('/data/attributes/key');
    expect((await api('GET', `/oauth-clients/${oc.id}`, { token: org.owner.token })).body.data.attributes.key).to.equal(
      'new-key',
    );
  });

  it('refuses bad input with 422 and writes nothing', async () => {
    const before = await countRows('oauth_clients');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ 'service-provider': 'sourceforge', 'http-url': 'https://x.example', 'api-url': 'https://x.example' }, /./],
      [{ 'service-provider': 'github', 'api-url': 'https://api.github.com' }, /http-url/],
      [{ 'service-provider': 'github', 'http-url': 'github.com', 'api-url': 'https://api.github.com' }, /./],
      [
        {
          'service-provider': 'bitbucket_server',
          'http-url': 'https://b.example',
          'api-url': 'https://b.example',
          key: '',
        },
        /Consumer Key/,
      ],
      [
        {
          'service-provider': 'github',
          'http-url': 'https://github.com',
          'api-url': 'https://api.github.com',
          'private-key': PRIVATE_KEY,
        },
        /only supported for Azure DevOps Server/,
      ],
    ];
    for (const [attrs, detail] of cases) {
      const res = await api('POST', `/organizations/${org.name}/oauth-clients`, {
        token: org.owner.token,
        body: doc('oauth-clients', attrs),
      });
      expectError(res, 422, detail);
    }
    expect(await countRows('oauth_clients')).to.equal(before);
  });

  it('gives a token an SSH key (never shown), refuses one that is not a private key, and deletes it', async () => {
    const oc = (await create(github(uniq('ghp')))).body.data;
    const tokenId = oc.relationships['oauth-tokens'].data[0].id;
    const unchanged = await api('PATCH', `/oauth-tokens/${tokenId}`, {
      token: org.owner.token,
      body: doc('oauth-tokens', {}),
    });
    expect(unchanged.status, unchanged.text).to.equal(200);
    expect(unchanged.body.data.attributes['has-ssh-key']).to.equal(false);

    const withKey = await api('PATCH', `/oauth-tokens/${tokenId}`, {
      token: org.owner.token,
      body: doc('oauth-tokens', { 'ssh-key': PRIVATE_KEY }),
    });
    expect(withKey.status, withKey.text).to.equal(200);
    expect(withKey.body.data.attributes['has-ssh-key']).to.equal(true);
    expect(withKey.text).not.to.include('PRIVATE KEY');

    const invalid = await api('PATCH', `/oauth-tokens/${tokenId}`, {
      token: org.owner.token,
      body: doc('oauth-tokens', { 'ssh-key': 'c4d1a0a2-not-a-key' }),
    });
    expectError(invalid, 422, /Ssh key is invalid/);

    expect((await api('DELETE', `/oauth-tokens/${tokenId}`, { token: org.owner.token })).status).to.equal(204);
    expectError(await api('GET', `/oauth-tokens/${tokenId}`, { token: org.owner.token }), 404);
    expectError(await api('DELETE', `/oauth-tokens/${tokenId}`, { token: org.owner.token }), 404);
  });

  it("makes a connection available to the organization's projects only", async () => {
    const oc = (await create(github(uniq('ghp')))).body.data;
    const project = await api('POST', `/organizations/${org.name}/projects`, {
      token: org.owner.token,
      body: doc('projects', { name: uniq('proj') }),
    });
    expect(project.status, project.text).to.equal(201);
    const projectId = project.body.data.id;
    const linkage = (id: string) => ({ data: [{ type: 'projects', id }] });
    const added = await api('POST', `/oauth-clients/${oc.id}/relationships/projects`, {
      token: org.owner.token,
      body: linkage(projectId),
    });
    expect(added.status, added.text).to.equal(204);
    const read = await api('GET', `/oauth-clients/${oc.id}`, { token: org.owner.token });
    expect(read.body.data.relationships.projects.data).to.deep.equal([{ type: 'projects', id: projectId }]);

    const other = await createOrg();
    const foreign = await api('POST', `/organizations/${other.name}/projects`, {
      token: other.owner.token,
      body: doc('projects', { name: uniq('proj') }),
    });
    expectError(
      await api('POST', `/oauth-clients/${oc.id}/relationships/projects`, {
        token: org.owner.token,
        body: linkage(foreign.body.data.id),
      }),
      422,
    );
    const removed = await api('DELETE', `/oauth-clients/${oc.id}/relationships/projects`, {
      token: org.owner.token,
      body: linkage(projectId),
    });
    expect(removed.status, removed.text).to.equal(204);
    expect(
      (await api('GET', `/oauth-clients/${oc.id}`, { token: org.owner.token })).body.data.relationships.projects.data,
    ).to.deep.equal([]);
  });

  it("lets a connection limited to projects connect only their workspaces' repositories", async () => {
    const created = await create({
      data: {
        ...github(uniq('ghp')).data,
        attributes: { ...github(uniq('ghp')).data.attributes, 'organization-scoped': false },
      },
    });
    const oc = created.body.data;
    const tokenId = oc.relationships['oauth-tokens'].data[0].id;
    const project = await api('POST', `/organizations/${org.name}/projects`, {
      token: org.owner.token,
      body: doc('projects', { name: uniq('proj') }),
    });
    await api('POST', `/oauth-clients/${oc.id}/relationships/projects`, {
      token: org.owner.token,
      body: { data: [{ type: 'projects', id: project.body.data.id }] },
    });
    const repo = { identifier: 'acme/network', 'oauth-token-id': tokenId };
    const before = await countRows('workspaces');
    const outside = await api('POST', `/organizations/${org.name}/workspaces`, {
      token: org.owner.token,
      body: doc('workspaces', { name: uniq('ws'), 'vcs-repo': repo }),
    });
    expectError(outside, 422, /not available to this workspace's project/);
    expect(await countRows('workspaces')).to.equal(before);
    const inside = await api('POST', `/organizations/${org.name}/workspaces`, {
      token: org.owner.token,
      body: doc(
        'workspaces',
        { name: uniq('ws'), 'vcs-repo': repo },
        { project: { data: { type: 'projects', id: project.body.data.id } } },
      ),
    });
    expect(inside.status, inside.text).to.equal(201);
    expect(inside.body.data.attributes['vcs-repo']).to.include({
      identifier: 'acme/network',
      'oauth-token-id': tokenId,
    });
  });

  it('deletes a connection with its tokens', async () => {
    const oc = (await create(github(uniq('ghp')))).body.data;
    const tokenId = oc.relationships['oauth-tokens'].data[0].id;
    expect((await api('DELETE', `/oauth-clients/${oc.id}`, { token: org.owner.token })).status).to.equal(204);
    expectError(await api('GET', `/oauth-clients/${oc.id}`, { token: org.owner.token }), 404);
    expectError(await api('GET', `/oauth-tokens/${tokenId}`, { token: org.owner.token }), 404);
    expectError(await api('DELETE', `/oauth-clients/${oc.id}`, { token: org.owner.token }), 404);
  });

  it("reaches the provider through one of the organization's agent pools, and no other's", async () => {
    const pool = async (within: Org) => {
      const res = await api('POST', `/organizations/${within.name}/agent-pools`, {
        token: within.owner.token,
        body: doc('agent-pools', { name: uniq('pool') }),
      });
      expect(res.status, res.text).to.equal(201);
      return res.body.data.id as string;
    };
    const oc = (await create(bitbucketServer())).body.data;
    expect(oc.relationships['agent-pool'].data).to.equal(null);
    const mine = await pool(org);
    const withPool = await api('PATCH', `/oauth-clients/${oc.id}`, {
      token: org.owner.token,
      body: doc(
        'oauth-clients',
        { 'organization-scoped': false },
        { 'agent-pool': { data: { type: 'agent-pools', id: mine } } },
      ),
    });
    expect(withPool.status, withPool.text).to.equal(200);
    expect(withPool.body.data.relationships['agent-pool'].data).to.deep.equal({ type: 'agent-pools', id: mine });
    expect(withPool.body.data.attributes['organization-scoped']).to.equal(false);

    const theirs = await pool(await createOrg());
    expectError(
      await api('PATCH', `/oauth-clients/${oc.id}`, {
        token: org.owner.token,
        body: doc('oauth-clients', {}, { 'agent-pool': { data: { type: 'agent-pools', id: theirs } } }),
      }),
      422,
    );
    const cleared = await api('PATCH', `/oauth-clients/${oc.id}`, {
      token: org.owner.token,
      body: doc('oauth-clients', {}, { 'agent-pool': { data: null } }),
    });
    expect(cleared.body.data.relationships['agent-pool'].data).to.equal(null);
  });

  describe('who may see and change them', () => {
    it("answers 404 to another organization's owner, on every route", async () => {
      const oc = (await create(github(uniq('ghp')))).body.data;
      const tokenId = oc.relationships['oauth-tokens'].data[0].id;
      const outsider = (await createOrg()).owner;
      for (const [method, path, body] of [
        ['GET', `/organizations/${org.name}/oauth-clients`],
        ['POST', `/organizations/${org.name}/oauth-clients`, github('x')],
        ['GET', `/oauth-clients/${oc.id}`],
        ['PATCH', `/oauth-clients/${oc.id}`, doc('oauth-clients', { name: 'mine' })],
        ['DELETE', `/oauth-clients/${oc.id}`],
        ['GET', `/oauth-clients/${oc.id}/oauth-tokens`],
        ['GET', `/organizations/${org.name}/oauth-tokens`],
        ['GET', `/oauth-tokens/${tokenId}`],
        ['PATCH', `/oauth-tokens/${tokenId}`, doc('oauth-tokens', { 'ssh-key': PRIVATE_KEY })],
        ['DELETE', `/oauth-tokens/${tokenId}`],
      ] as [string, string, unknown?][]) {
        expectError(await api(method, path, { token: outsider.token, body }), 404);
      }
      expect(
        (await api('GET', `/oauth-clients/${oc.id}`, { token: org.owner.token })).body.data.attributes.name,
      ).to.equal(null);
    });

    it('lets manage-vcs-settings change them, a workspace admin only see them, and a plain member neither', async () => {
      const oc = (await create(github(uniq('ghp')))).body.data;
      const plain = await createUser();
      await joinOrg(org, plain);
      expectError(await api('GET', `/oauth-clients/${oc.id}`, { token: plain.token }), 404);
      expectError(await api('GET', `/organizations/${org.name}/oauth-clients`, { token: plain.token }), 404);

      const ws = await createWorkspace(org);
      const admin = await memberWithAccess(org, ws.id, 'admin');
      expect((await api('GET', `/oauth-clients/${oc.id}`, { token: admin.token })).status).to.equal(200);
      expectError(
        await api('PATCH', `/oauth-clients/${oc.id}`, {
          token: admin.token,
          body: doc('oauth-clients', { name: 'x' }),
        }),
        404,
      );
      expectError(
        await api('POST', `/organizations/${org.name}/oauth-clients`, { token: admin.token, body: github('x') }),
        404,
      );

      const vcsManager = await createUser();
      await joinOrg(org, vcsManager);
      const teamId = await createTeam(org, { 'organization-access': { 'manage-vcs-settings': true } });
      const add = await api('POST', `/teams/${teamId}/relationships/users`, {
        token: org.owner.token,
        body: { data: [{ type: 'users', id: vcsManager.username }] },
      });
      expect(add.status, add.text).to.equal(204);
      const renamed = await api('PATCH', `/oauth-clients/${oc.id}`, {
        token: vcsManager.token,
        body: doc('oauth-clients', { name: 'by the vcs manager' }),
      });
      expect(renamed.status, renamed.text).to.equal(200);
      expect(renamed.body.data.attributes.name).to.equal('by the vcs manager');
    });
  });
});
