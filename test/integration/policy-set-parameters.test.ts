import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { createOrg, createWorkspace, memberWithAccess, uniq } from '../helpers/fixtures.js';
import { harness } from '../helpers/harness.js';
import { createPolicySet, orgForSuite } from '../helpers/policy-fixtures.js';

/*
 * What go-tfe's policy set parameter and admin OPA/Sentinel version tests send, and the
 * policy-tool-version a policy set pins.
 */

const sha = () => randomUUID().replace(/-/g, '').repeat(2);
const build = (arch: string, url = 'https://www.hashicorp.com', s = sha()) => ({ url, sha: s, os: 'linux', arch });

describe('policy runtime versions (site admin)', function () {
  this.timeout(60_000);
  const org = orgForSuite();
  const admin = () => harness().adminToken;

  for (const tool of ['opa', 'sentinel'] as const) {
    const type = `${tool}-versions`;
    const base = `/admin/${type}`;
    const create = (attrs: Record<string, unknown>, token = admin()) =>
      api('POST', base, { token, body: doc(type, attrs) });
    const newVersion = () => `0.0.${Date.now()}${Math.floor(Math.random() * 1000)}`;

    describe(tool, () => {
      it('lists the official version (paged, filter[version] exact, search[version] substring)', async () => {
        const official = tool === 'opa' ? '0.59.0' : '0.22.1';
        const all = await api('GET', base, { token: admin() });
        expect(all.status, all.text).to.equal(200);
        const item = all.body.data.find((v: { attributes: { version: string } }) => v.attributes.version === official);
        expect(item.type).to.equal(type);
        expect(item.attributes).to.include({
          official: true,
          enabled: true,
          beta: false,
          deprecated: false,
          'deprecated-reason': null,
          usage: 0,
        });
        expect(item.attributes.url).to.match(/^https:\/\//);
        expect(item.attributes.sha).to.match(/^[0-9a-f]{64}$/);
        expect(item.attributes.archs).to.deep.equal([
          { url: item.attributes.url, sha: item.attributes.sha, os: 'linux', arch: 'amd64' },
        ]);

        const filtered = await api('GET', `${base}?filter[version]=${official}`, { token: admin() });
        expect(filtered.body.data.map((v: { id: string }) => v.id)).to.deep.equal([item.id]);
        expect((await api('GET', `${base}?filter[version]=1000.1000.42`, { token: admin() })).body.data).to.deep.equal(
          [],
        );
        const searched = await api('GET', `${base}?search[version]=${official.slice(0, 4)}`, { token: admin() });
        for (const v of searched.body.data) expect(v.attributes.version).to.include(official.slice(0, 4));
        const far = await api('GET', `${base}?page[number]=999&page[size]=100`, { token: admin() });
        expect(far.body.data).to.deep.equal([]);
        expect(far.body.meta.pagination['current-page']).to.equal(999);
      });

      it('creates with url and sha (defaults: enabled, not official, beta or deprecated), reads, updates and deletes', async () => {
        const version = newVersion();
        const s = sha();
        const made = await create({ version, url: 'https://www.hashicorp.com', sha: s });
        expect(made.status, made.text).to.equal(201);
        expect(made.body.data.attributes).to.include({
          version,
          url: 'https://www.hashicorp.com',
          sha: s,
          official: false,
          enabled: true,
          beta: false,
          deprecated: false,
          'deprecated-reason': null,
        });
        expect(made.body.data.attributes.archs).to.deep.equal([build('amd64', 'https://www.hashicorp.com', s)]);
        const id = made.body.data.id;

        expectError(await create({ version, url: 'https://www.hashicorp.com', sha: s }), 422, /already been taken/);
        const shown = await api('GET', `${base}/${id}`, { token: admin() });
        expect(shown.body.data).to.deep.equal(made.body.data);

        const patched = await api('PATCH', `${base}/${id}`, {
          token: admin(),
          body: doc(type, { deprecated: true, 'deprecated-reason': 'old' }),
        });
        expect(patched.body.data.attributes).to.include({ deprecated: true, 'deprecated-reason': 'old', version });
        expect((await api('DELETE', `${base}/${id}`, { token: admin() })).status).to.equal(204);
        expect((await api('GET', `${base}/${id}`, { token: admin() })).status).to.equal(404);
      });

      it('takes builds per platform: url and sha are the linux/amd64 build; a top-level url on update rewrites it with the top-level sha', async () => {
        const top = sha();
        const amd64 = build('amd64');
        const arm64 = build('arm64');
        // go-tfe sends url and sha empty beside archs.
        const onlyArchs = await create({ version: newVersion(), url: '', sha: '', archs: [amd64, arm64] });
        expect(onlyArchs.status, onlyArchs.text).to.equal(201);
        expect(onlyArchs.body.data.attributes).to.include({ url: amd64.url, sha: amd64.sha, enabled: true });
        expect(onlyArchs.body.data.attributes.archs).to.deep.equal([amd64, arm64]);

        const both = await create({
          version: newVersion(),
          url: 'https://www.hashicorp.com',
          sha: top,
          deprecated: true,
          'deprecated-reason': 'Test Reason',
          enabled: false,
          archs: [amd64],
        });
        expect(both.body.data.attributes).to.include({
          sha: amd64.sha,
          deprecated: true,
          'deprecated-reason': 'Test Reason',
          enabled: false,
        });
        const id = both.body.data.id;
        const moved = await api('PATCH', `${base}/${id}`, {
          token: admin(),
          body: doc(type, { version: newVersion(), url: 'https://app.terraform.io/', deprecated: false }),
        });
        expect(moved.status, moved.text).to.equal(200);
        expect(moved.body.data.attributes).to.include({
          url: 'https://app.terraform.io/',
          sha: top,
          deprecated: false,
          'deprecated-reason': null,
          enabled: false,
        });
        expect(moved.body.data.attributes.archs).to.deep.equal([
          { url: 'https://app.terraform.io/', sha: top, os: 'linux', arch: 'amd64' },
        ]);

        const armOnly = await api('PATCH', `${base}/${id}`, { token: admin(), body: doc(type, { archs: [arm64] }) });
        expect(armOnly.body.data.attributes).to.include({ url: '', sha: '' });
        expect(armOnly.body.data.attributes.archs).to.deep.equal([arm64]);
      });

      it('refuses a version without a download, or a url without a sha, with 422', async () => {
        expectError(await create({ version: newVersion() }), 422, /needs a download/);
        expectError(await create({ version: newVersion(), url: 'https://www.hashicorp.com' }), 422, /sha is required/);
        expectError(await create({ url: 'https://www.hashicorp.com', sha: sha() }), 422, /version/);
      });

      it('is for the site admin only: an owner gets 404 for every call, and nothing is written', async () => {
        const mine = (await create({ version: newVersion(), url: 'https://www.hashicorp.com', sha: sha() })).body.data
          .id;
        const owner = org.token;
        expect((await api('GET', base, { token: owner })).status).to.equal(404);
        expect((await create({ version: newVersion(), url: 'https://x.test', sha: sha() }, owner)).status).to.equal(
          404,
        );
        expect((await api('GET', `${base}/${mine}`, { token: owner })).status).to.equal(404);
        expect(
          (await api('PATCH', `${base}/${mine}`, { token: owner, body: doc(type, { enabled: false }) })).status,
        ).to.equal(404);
        expect((await api('DELETE', `${base}/${mine}`, { token: owner })).status).to.equal(404);
        expect((await api('GET', `${base}/${mine}`, { token: admin() })).body.data.attributes.enabled).to.equal(true);
      });
    });
  }

  it('a policy set pins a registered version of its kind (usage counts it) and refuses another with 422 naming those that exist', async () => {
    const version = `0.0.${Date.now()}`;
    const made = await api('POST', '/admin/sentinel-versions', {
      token: admin(),
      body: doc('sentinel-versions', { version, url: 'https://www.hashicorp.com', sha: sha(), enabled: true }),
    });
    // go-tfe's TestPolicySetsList: a Sentinel set, agent-enabled, pinned, overridable.
    const set = await createPolicySet(org.name, org.token, {
      kind: 'sentinel',
      'agent-enabled': true,
      'policy-tool-version': version,
      overridable: true,
    });
    expect(set.attributes).to.include({ 'policy-tool-version': version, 'agent-enabled': true, overridable: true });
    expect(
      (await api('GET', `/admin/sentinel-versions/${made.body.data.id}`, { token: admin() })).body.data.attributes
        .usage,
    ).to.equal(1);

    const refused = await api('POST', `/organizations/${org.name}/policy-sets`, {
      token: org.token,
      body: doc('policy-sets', { name: uniq('set'), kind: 'opa', 'policy-tool-version': version }),
    });
    expectError(refused, 422, /not a registered OPA version; known: latest, 0\.59\.0/);
    expect(refused.body.errors[0].source.pointer).to.equal('/data/attributes/policy-tool-version');

    // go-tfe's TestPolicySetsUpdate: turning agent-enabled off makes it a legacy set, with no version or overridable.
    const legacy = await api('PATCH', `/policy-sets/${set.id}`, {
      token: org.token,
      body: doc('policy-sets', { 'agent-enabled': false, name: uniq('global'), global: true }),
    });
    expect(legacy.body.data.attributes).to.include({
      'agent-enabled': false,
      'policy-tool-version': null,
      overridable: null,
      global: true,
    });
  });
});

describe('policy sets as go-tfe lists them', function () {
  this.timeout(60_000);
  const org = orgForSuite();

  it('an OPA set is agent-enabled; include=workspace_exclusions includes the excluded workspaces', async () => {
    const [ws, excluded] = [await createWorkspace(org), await createWorkspace(org)];
    const links = (id: string) => ({ data: [{ type: 'workspaces', id }] });
    const opa = await createPolicySet(
      org.name,
      org.token,
      { kind: 'opa' },
      { workspaces: links(ws.id), 'workspace-exclusions': links(excluded.id) },
    );
    expect(opa.attributes['agent-enabled']).to.equal(true);
    const list = await api('GET', `/organizations/${org.name}/policy-sets?include=workspace_exclusions`, {
      token: org.token,
    });
    expect(list.status, list.text).to.equal(200);
    expect(list.body.data[0].relationships['workspace-exclusions'].data).to.deep.equal([
      { type: 'workspaces', id: excluded.id },
    ]);
    expect(list.body.included.map((r: { type: string; id: string }) => `${r.type}/${r.id}`)).to.deep.equal([
      `workspaces/${excluded.id}`,
    ]);
    expect(list.body.included[0].attributes.name).to.equal(excluded.name);
  });
});

describe('policy set parameters', function () {
  this.timeout(60_000);
  const org = orgForSuite();
  const param = (attrs: Record<string, unknown>) => doc('vars', attrs);

  it('creates (a UUID key, empty or missing value), lists, reads, updates and deletes parameters', async () => {
    const set = await createPolicySet(org.name, org.token);
    const key = randomUUID();
    const made = await api('POST', `/policy-sets/${set.id}/parameters`, {
      token: org.token,
      body: param({ key, value: randomUUID(), category: 'policy-set' }),
    });
    expect(made.status, made.text).to.equal(201);
    const p = made.body.data;
    expect(p.type).to.equal('vars');
    expect(p.attributes).to.include({ key, category: 'policy-set', sensitive: false });
    expect(p.relationships.configurable.data).to.deep.equal({ type: 'policy-sets', id: set.id });
    const missing = await api('POST', `/policy-sets/${set.id}/parameters`, {
      token: org.token,
      body: param({ key: randomUUID(), category: 'policy-set' }),
    });
    expect(missing.body.data.attributes.value).to.equal('');

    const list = await api('GET', `/policy-sets/${set.id}/parameters`, { token: org.token });
    expect(list.body.data.map((d: { id: string }) => d.id)).to.deep.equal([p.id, missing.body.data.id]);
    expect(
      (await api('GET', `/policy-sets/${set.id}/parameters/${p.id}`, { token: org.token })).body.data,
    ).to.deep.equal(p);

    const renamed = await api('PATCH', `/policy-sets/${set.id}/parameters/${p.id}`, {
      token: org.token,
      body: param({ key: 'newname', value: 'newvalue' }),
    });
    expect(renamed.body.data.attributes).to.include({ key: 'newname', value: 'newvalue' });
    const unchanged = await api('PATCH', `/policy-sets/${set.id}/parameters/${p.id}`, {
      token: org.token,
      body: param({}),
    });
    expect(unchanged.body.data).to.deep.equal(renamed.body.data);

    expectError(
      await api('PATCH', `/policy-sets/${set.id}/parameters/${missing.body.data.id}`, {
        token: org.token,
        body: param({ key: 'newname' }),
      }),
      422,
      /already been taken/,
    );
    expect((await api('DELETE', `/policy-sets/${set.id}/parameters/${p.id}`, { token: org.token })).status).to.equal(
      204,
    );
    expect((await api('DELETE', `/policy-sets/${set.id}/parameters/${p.id}`, { token: org.token })).status).to.equal(
      404,
    );
    expect((await api('GET', `/policy-sets/${set.id}/parameters/nonexisting`, { token: org.token })).status).to.equal(
      404,
    );
  });

  it('keeps a sensitive value write-only: null in every response, sealed at rest, sensitive for good', async () => {
    const set = await createPolicySet(org.name, org.token);
    const secret = `s3cret-${randomUUID()}`;
    const made = await api('POST', `/policy-sets/${set.id}/parameters`, {
      token: org.token,
      body: param({ key: 'password', value: secret, category: 'policy-set', sensitive: true }),
    });
    expect(made.body.data.attributes).to.include({ sensitive: true, value: null });
    const id = made.body.data.id;
    const list = await api('GET', `/policy-sets/${set.id}/parameters`, { token: org.token });
    expect(list.text).to.not.include(secret);
    expect((await api('GET', `/policy-sets/${set.id}/parameters/${id}`, { token: org.token })).text).to.not.include(
      secret,
    );
    const row = await harness().rt.db('policy_set_parameters').where({ id }).first();
    expect(row.value).to.equal(null);
    expect(JSON.stringify(row)).to.not.include(secret);
    expectError(
      await api('PATCH', `/policy-sets/${set.id}/parameters/${id}`, {
        token: org.token,
        body: param({ sensitive: false }),
      }),
      422,
      /cannot be made non-sensitive/,
    );

    // Making a plain parameter sensitive seals the value it had (go-tfe's "with sensitive set").
    const plain = (
      await api('POST', `/policy-sets/${set.id}/parameters`, {
        token: org.token,
        body: param({ key: 'region', value: `plain-${secret}`, category: 'policy-set' }),
      })
    ).body.data.id;
    const sealed = await api('PATCH', `/policy-sets/${set.id}/parameters/${plain}`, {
      token: org.token,
      body: param({ sensitive: true }),
    });
    expect(sealed.body.data.attributes).to.include({ sensitive: true, value: null });
    const sealedRow = await harness().rt.db('policy_set_parameters').where({ id: plain }).first();
    expect(JSON.stringify(sealedRow)).to.not.include(secret);
  });

  it('refuses bad keys and categories with 422, writing nothing', async () => {
    const set = await createPolicySet(org.name, org.token);
    const post = (attrs: Record<string, unknown>) =>
      api('POST', `/policy-sets/${set.id}/parameters`, { token: org.token, body: param(attrs) });
    expectError(await post({ key: '', category: 'policy-set' }), 422, /can't be blank/);
    expectError(await post({ key: '-x', category: 'policy-set' }), 422, /key is invalid/);
    expectError(await post({ key: 'x', category: 'terraform' }), 422, /category/);
    expectError(await post({ key: 'x' }), 422, /category/);
    expect((await post({ key: 'x', category: 'policy-set' })).status).to.equal(201);
    expectError(await post({ key: 'x', category: 'policy-set' }), 422, /already been taken/);
    expect((await api('GET', `/policy-sets/${set.id}/parameters`, { token: org.token })).body.data).to.have.length(1);
  });

  it('members read parameters (sensitive values null); changing them needs manage-policies; outsiders get 404', async () => {
    const set = await createPolicySet(org.name, org.token);
    const p = (
      await api('POST', `/policy-sets/${set.id}/parameters`, {
        token: org.token,
        body: param({ key: 'k', value: 'v', category: 'policy-set' }),
      })
    ).body.data;
    const ws = await createWorkspace(org);
    const reader = (await memberWithAccess(org, ws.id, 'read')).token;
    expect((await api('GET', `/policy-sets/${set.id}/parameters`, { token: reader })).status).to.equal(200);
    expect(
      (await api('GET', `/policy-sets/${set.id}/parameters/${p.id}`, { token: reader })).body.data.attributes.value,
    ).to.equal('v');
    expect(
      (
        await api('POST', `/policy-sets/${set.id}/parameters`, {
          token: reader,
          body: param({ key: 'x', category: 'policy-set' }),
        })
      ).status,
    ).to.equal(404);
    expect(
      (
        await api('PATCH', `/policy-sets/${set.id}/parameters/${p.id}`, {
          token: reader,
          body: param({ value: 'changed' }),
        })
      ).status,
    ).to.equal(404);
    expect((await api('DELETE', `/policy-sets/${set.id}/parameters/${p.id}`, { token: reader })).status).to.equal(404);
    const outsider = (await createOrg()).owner.token;
    expect((await api('GET', `/policy-sets/${set.id}/parameters/${p.id}`, { token: outsider })).status).to.equal(404);
    // Another set's parameter is not found through this set.
    const other = await createPolicySet(org.name, org.token);
    expect((await api('GET', `/policy-sets/${other.id}/parameters/${p.id}`, { token: org.token })).status).to.equal(
      404,
    );
    expect(
      (await api('GET', `/policy-sets/${set.id}/parameters/${p.id}`, { token: org.token })).body.data.attributes.value,
    ).to.equal('v');
  });
});
