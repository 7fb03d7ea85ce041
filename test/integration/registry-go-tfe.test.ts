import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { createOrg, createUser, joinOrg, putArchive, tarGz, uniq } from '../helpers/fixtures.js';
import type { Org } from '../helpers/module-tests.js';
import { ensureModule, privateModulePath } from '../helpers/registry.js';

const modName = () => uniq('gotfe').replace(/-/g, '');

/** What go-tfe's RegistryModules.Create sends (registry name and namespace only when set). */
const createModule = (org: Org, attributes: Record<string, unknown>, token = org.owner.token) =>
  api('POST', `/organizations/${org.name}/registry-modules`, {
    token,
    body: { data: { type: 'registry-modules', attributes } },
  });

describe('private module registry as go-tfe calls it', function () {
  this.timeout(60_000);
  let org: Org;

  beforeEach(async () => {
    org = await createOrg();
  });

  it('creates a version through the older POST /registry-modules/:org/:name/:provider/versions, with its upload link, and takes the archive', async () => {
    const name = modName();
    await ensureModule(org, name, 'aws');
    const module = await api('GET', privateModulePath(org.name, name, 'aws'), { token: org.owner.token });
    const res = await api('POST', `/registry-modules/${org.name}/${name}/aws/versions`, {
      token: org.owner.token,
      body: { data: { type: 'registry-module-versions', attributes: { version: '1.2.3', 'commit-sha': null } } },
    });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.attributes).to.include({ version: '1.2.3', status: 'pending' });
    expect(res.body.data.relationships['registry-module'].data.id).to.equal(module.body.data.id);
    expect(res.body.data.links.upload).to.contain('/object/');
    const put = await putArchive(res.body.data.links.upload, await tarGz({ 'main.tf': 'output "x" { value = 1 }\n' }));
    expect(put.status, put.text).to.equal(200);
    const shown = await api('GET', `${privateModulePath(org.name, name, 'aws')}/version?module_version=1.2.3`, {
      token: org.owner.token,
    });
    expect(shown.body.data.attributes.status).to.equal('ok');
    // Pre-release and build metadata, as go-tfe's test sends them.
    const pre = await api('POST', `/registry-modules/${org.name}/${name}/aws/versions`, {
      token: org.owner.token,
      body: doc('registry-module-versions', { version: '1.2.3-alpha+feature' }),
    });
    expect(pre.status, pre.text).to.equal(201);
  });

  it('refuses the older version path for a module that does not exist, a bad version, and a member without manage-modules', async () => {
    const name = modName();
    await ensureModule(org, name, 'aws');
    expectError(
      await api('POST', `/registry-modules/${org.name}/${name}/gcp/versions`, {
        token: org.owner.token,
        body: doc('registry-module-versions', { version: '1.0.0' }),
      }),
      404,
    );
    expectError(
      await api('POST', `/registry-modules/${org.name}/${name}/aws/versions`, {
        token: org.owner.token,
        body: doc('registry-module-versions', { version: 'v1' }),
      }),
      422,
    );
    // A commit-sha that is neither null nor a hex sha: the message says both things allowed, not only "must be null".
    const badSha = await api('POST', `/registry-modules/${org.name}/${name}/aws/versions`, {
      token: org.owner.token,
      body: doc('registry-module-versions', { version: '1.0.1', 'commit-sha': 'main' }),
    });
    expectError(badSha, 422, /commit-sha must be null, or a string matching/);
    expect(badSha.body.errors[0].source.pointer).to.equal('/data/attributes/commit-sha');
    const member = await createUser();
    await joinOrg(org, member);
    expectError(
      await api('POST', `/registry-modules/${org.name}/${name}/aws/versions`, {
        token: member.token,
        body: doc('registry-module-versions', { version: '1.0.0' }),
      }),
      404,
    );
    const outsider = await createOrg();
    expectError(
      await api('POST', `/registry-modules/${org.name}/${name}/aws/versions`, {
        token: outsider.owner.token,
        body: doc('registry-module-versions', { version: '1.0.0' }),
      }),
      404,
    );
    expect(
      (
        await api('GET', `${privateModulePath(org.name, name, 'aws')}/version?module_version=1.0.0`, {
          token: org.owner.token,
        })
      ).status,
    ).to.equal(404);
  });

  it('reads a module by its id for members of its organization only', async () => {
    const created = await createModule(org, { name: modName(), provider: 'aws' });
    expect(created.status, created.text).to.equal(201);
    const shown = await api('GET', `/registry-modules/${created.body.data.id}`, { token: org.owner.token });
    expect(shown.status, shown.text).to.equal(200);
    expect(shown.body.data).to.deep.include({ id: created.body.data.id, type: 'registry-modules' });
    expect(shown.body.data.attributes.permissions).to.deep.equal({
      'can-delete': true,
      'can-resync': true,
      'can-retry': true,
    });
    const member = await createUser();
    await joinOrg(org, member);
    expect(
      (await api('GET', `/registry-modules/${created.body.data.id}`, { token: member.token })).body.data.attributes
        .permissions,
    ).to.deep.equal({
      'can-delete': false,
      'can-resync': false,
      'can-retry': false,
    });
    const outsider = await createOrg();
    expectError(await api('GET', `/registry-modules/${created.body.data.id}`, { token: outsider.owner.token }), 404);
    expectError(await api('GET', '/registry-modules/mod-doesnotexist', { token: org.owner.token }), 404);
  });

  it('shows a public reference with the permissions of its manager', async () => {
    const res = await createModule(org, {
      name: 'vpc',
      provider: 'aws',
      'registry-name': 'public',
      namespace: 'terraform-aws-modules',
    });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.attributes.permissions).to.deep.equal({
      'can-delete': true,
      'can-resync': true,
      'can-retry': true,
    });
  });

  it('lists with include=no-code-modules: each module with its no-code module (none for a plain one), included; created with no-code true, a module is offered', async () => {
    const first = await createModule(org, { name: modName(), provider: 'aws' });
    expect(first.status).to.equal(201);
    expect(first.body.data.attributes['no-code']).to.equal(false);
    const noCode = await createModule(org, { name: modName(), provider: 'aws', 'no-code': true });
    expect(noCode.status, noCode.text).to.equal(201);
    expect(noCode.body.data.attributes['no-code']).to.equal(true);
    const listed = await api('GET', `/organizations/${org.name}/registry-modules?include=no-code-modules`, {
      token: org.owner.token,
    });
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.body.data).to.have.length(2);
    const byId = new Map(listed.body.data.map((m: { id: string }) => [m.id, m]));
    const plainOne = byId.get(first.body.data.id) as { relationships: Record<string, unknown> };
    const offered = byId.get(noCode.body.data.id) as {
      attributes: Record<string, unknown>;
      relationships: Record<string, { data: { id: string }[] }>;
    };
    expect(plainOne.relationships['no-code-modules']).to.deep.equal({ data: [] });
    expect(offered.attributes['no-code']).to.equal(true);
    expect(offered.relationships['no-code-modules'].data).to.have.length(1);
    expect(listed.body.included.map((d: { type: string; id: string }) => [d.type, d.id])).to.deep.equal([
      ['no-code-modules', offered.relationships['no-code-modules'].data[0].id],
    ]);
    const plain = await api('GET', `/organizations/${org.name}/registry-modules`, { token: org.owner.token });
    expect(plain.body.data[0].relationships).to.not.have.property('no-code-modules');
    expect(plain.body).to.not.have.property('included');
    expectError(
      await api('GET', `/organizations/${org.name}/registry-modules?include=versions`, { token: org.owner.token }),
      400,
    );
  });

  it('removes a public reference through the older POST /registry-modules/actions/delete/:org/:name, as go-tfe cleans it up', async () => {
    const name = modName();
    expect(
      (await createModule(org, { name, provider: 'provider', 'registry-name': 'public', namespace: 'namespace' }))
        .status,
    ).to.equal(201);
    expect((await createModule(org, { name, provider: 'provider' })).status).to.equal(201);
    const member = await createUser();
    await joinOrg(org, member);
    expectError(
      await api('POST', `/registry-modules/actions/delete/${org.name}/${name}`, { token: member.token }),
      404,
    );
    const removed = await api('POST', `/registry-modules/actions/delete/${org.name}/${name}`, {
      token: org.owner.token,
    });
    expect(removed.status, removed.text).to.equal(204);
    expect(
      (await api('GET', `/organizations/${org.name}/registry-modules`, { token: org.owner.token })).body.data,
    ).to.deep.equal([]);
    expectError(
      await api('POST', `/registry-modules/actions/delete/${org.name}/${name}`, { token: org.owner.token }),
      404,
    );
  });
});
