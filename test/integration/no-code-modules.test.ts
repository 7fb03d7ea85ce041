import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { countRows, createOrg, createTeam, createUser, joinOrg, uniq, type TestUser } from '../helpers/fixtures.js';
import { createVersion, ensureModule, namingModule, publishVersion } from '../helpers/registry.js';
import { terraformWorkers, waitForRun } from '../helpers/terraform.js';

type Org = { name: string; owner: TestUser };

/** A no-code module document as go-tfe sends it: the registry module and the variable options as whole resources. */
const noCodeBody = (
  registryModuleId: string | null,
  attrs: Record<string, unknown> = {},
  options?: { name: string; options: string[] }[],
) => ({
  data: {
    type: 'no-code-modules',
    attributes: attrs,
    relationships: {
      ...(registryModuleId ? { 'registry-module': { data: { type: 'registry-modules', id: registryModuleId } } } : {}),
      ...(options
        ? {
            'variable-options': {
              data: options.map((o) => ({
                type: 'variable-options',
                attributes: { 'variable-name': o.name, 'variable-type': 'string', options: o.options },
              })),
            },
          }
        : {}),
    },
  },
});

/** A provisioning document as go-tfe sends it: workspace settings, and the variables as whole `vars` resources. */
const provisionBody = (attrs: Record<string, unknown>, vars: Record<string, string> = {}) => ({
  data: {
    type: 'no-code-module-workspace',
    attributes: attrs,
    relationships: {
      vars: {
        data: Object.entries(vars).map(([key, value]) => ({
          type: 'vars',
          attributes: { key, value, category: 'terraform' },
        })),
      },
    },
  },
});

/** No-code modules: offering a private module for provisioning, and the workspaces provisioned with it. */
describe('no-code modules', function () {
  this.timeout(120_000);
  let org: Org;

  before(async () => {
    org = await createOrg();
  });

  /** A private module of the organization with `versions` created (not uploaded); its id. */
  const moduleWithVersions = async (within: Org, ...versions: string[]) => {
    const name = uniq('mod').replace(/-/g, '');
    await ensureModule(within, name, 'local');
    for (const v of versions) await createVersion(within, name, 'local', v);
    const shown = await api(
      'GET',
      `/organizations/${within.name}/registry-modules/private/${within.name}/${name}/local`,
      { token: within.owner.token },
    );
    return { id: shown.body.data.id as string, name };
  };
  const offer = (body: unknown, within: Org = org, token = within.owner.token) =>
    api('POST', `/organizations/${within.name}/no-code-modules`, { token, body });

  describe('offering a module', () => {
    it('creates, reads (with its variable options), changes and deletes a no-code module', async () => {
      const mod = await moduleWithVersions(org, '1.2.3');
      const created = await offer(
        noCodeBody(mod.id, {}, [
          { name: 'var1', options: ['option1', 'option2'] },
          { name: 'my_var', options: ['my_option1'] },
        ]),
      );
      expect(created.status, created.text).to.equal(201);
      const ncm = created.body.data;
      expect(ncm.type).to.equal('no-code-modules');
      expect(ncm.id).to.match(/^nocode-/);
      expect(ncm.attributes).to.include({ enabled: true, 'version-pin': null });
      expect(ncm.relationships.organization.data).to.deep.equal({ type: 'organizations', id: org.name });
      expect(ncm.relationships['registry-module'].data).to.deep.equal({ type: 'registry-modules', id: mod.id });
      expect(ncm.relationships['variable-options'].data).to.have.length(2);

      const read = await api('GET', `/no-code-modules/${ncm.id}?include=variable-options`, { token: org.owner.token });
      expect(read.status, read.text).to.equal(200);
      expect(read.body.included.map((o: { attributes: Record<string, unknown> }) => o.attributes)).to.deep.equal([
        { 'variable-name': 'var1', 'variable-type': 'string', options: ['option1', 'option2'] },
        { 'variable-name': 'my_var', 'variable-type': 'string', options: ['my_option1'] },
      ]);

      const disabled = await api('PATCH', `/no-code-modules/${ncm.id}`, {
        token: org.owner.token,
        body: noCodeBody(mod.id, { enabled: false, 'version-pin': '1.2.3' }),
      });
      expect(disabled.status, disabled.text).to.equal(200);
      expect(disabled.body.data.attributes).to.include({ enabled: false, 'version-pin': '1.2.3' });
      expect(disabled.body.data.relationships['variable-options'].data).to.have.length(2);
      const unchanged = await api('PATCH', `/no-code-modules/${ncm.id}`, {
        token: org.owner.token,
        body: noCodeBody(mod.id),
      });
      expect(unchanged.body.data.attributes).to.deep.equal(disabled.body.data.attributes);

      // The registry module shows it is offered (`no-code` follows the no-code module's enabled).
      const listed = await api('GET', `/organizations/${org.name}/registry-modules?include=no-code-modules`, {
        token: org.owner.token,
      });
      const entry = listed.body.data.find((m: { id: string }) => m.id === mod.id);
      expect(entry.attributes['no-code']).to.equal(false);
      expect(entry.relationships['no-code-modules'].data).to.deep.equal([{ type: 'no-code-modules', id: ncm.id }]);
      expect(listed.body.included.map((d: { id: string }) => d.id)).to.include(ncm.id);

      expect((await api('DELETE', `/no-code-modules/${ncm.id}`, { token: org.owner.token })).status).to.equal(204);
      expectError(await api('GET', `/no-code-modules/${ncm.id}`, { token: org.owner.token }), 404);
    });

    it('a registry module created with no-code true is offered at its latest version, as the older clients ask', async () => {
      const name = uniq('iam').replace(/-/g, '');
      const res = await api('POST', `/organizations/${org.name}/registry-modules`, {
        token: org.owner.token,
        body: doc('registry-modules', { name, provider: 'aws', 'no-code': true, 'registry-name': 'private' }),
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.attributes['no-code']).to.equal(true);
      const listed = await api('GET', `/organizations/${org.name}/registry-modules?include=no-code-modules`, {
        token: org.owner.token,
      });
      const entry = listed.body.data.find((m: { id: string }) => m.id === res.body.data.id);
      expect(entry.relationships['no-code-modules'].data).to.have.length(1);
      const ncm = await api('GET', `/no-code-modules/${entry.relationships['no-code-modules'].data[0].id}`, {
        token: org.owner.token,
      });
      expect(ncm.body.data.attributes).to.include({ enabled: true, 'version-pin': null });
      // A public module reference cannot be offered: refused whole, nothing created.
      const before = await countRows('registry_modules');
      expectError(
        await api('POST', `/organizations/${org.name}/registry-modules`, {
          token: org.owner.token,
          body: doc('registry-modules', {
            name,
            provider: 'aws',
            'no-code': true,
            'registry-name': 'public',
            namespace: 'hashicorp',
          }),
        }),
        422,
        /not a private module/,
      );
      expect(await countRows('registry_modules')).to.equal(before);
    });

    it("refuses a pin to no version of the module, a second offer of a module, another organization's module and repeated variable options, with 422", async () => {
      const mod = await moduleWithVersions(org, '1.2.3');
      const before = await countRows('no_code_modules');
      const pinned = await offer(noCodeBody(mod.id, { 'version-pin': '1.2.5' }));
      expectError(pinned, 422, /neither latest nor a version/);
      expect(pinned.body.errors[0].source).to.deep.equal({ pointer: '/data/attributes/version-pin' });
      expectError(
        await offer(
          noCodeBody(mod.id, {}, [
            { name: 'a', options: [] },
            { name: 'a', options: ['x'] },
          ]),
        ),
        422,
        /options twice/,
      );
      const foreign = await moduleWithVersions(await createOrg(), '1.0.0');
      expectError(await offer(noCodeBody(foreign.id)), 422, /not a private module of the organization/);
      expectError(await offer(noCodeBody(null)), 422);
      expect(await countRows('no_code_modules')).to.equal(before);
      expect((await offer(noCodeBody(mod.id, { 'version-pin': 'latest' }))).status).to.equal(201);
      expectError(await offer(noCodeBody(mod.id)), 422, /already offered/);
    });

    it('lets members see no-code modules and manage-modules change them; the organization says who may deploy and manage', async () => {
      const mod = await moduleWithVersions(org, '1.0.0');
      const ncm = (await offer(noCodeBody(mod.id))).body.data;
      const member = await createUser();
      await joinOrg(org, member);
      expect((await api('GET', `/no-code-modules/${ncm.id}`, { token: member.token })).status).to.equal(200);
      expectError(
        await api('PATCH', `/no-code-modules/${ncm.id}`, {
          token: member.token,
          body: noCodeBody(mod.id, { enabled: false }),
        }),
        404,
      );
      expectError(await api('DELETE', `/no-code-modules/${ncm.id}`, { token: member.token }), 404);
      expectError(await offer(noCodeBody(mod.id), org, member.token), 404);
      const outsider = await createOrg();
      expectError(await api('GET', `/no-code-modules/${ncm.id}`, { token: outsider.owner.token }), 404);

      const asOwner = await api('GET', `/organizations/${org.name}`, { token: org.owner.token });
      expect(asOwner.body.data.attributes.permissions).to.include({
        'can-deploy-no-code-modules': true,
        'can-manage-no-code-modules': true,
      });
      const asMember = await api('GET', `/organizations/${org.name}`, { token: member.token });
      expect(asMember.body.data.attributes.permissions).to.include({
        'can-deploy-no-code-modules': false,
        'can-manage-no-code-modules': false,
      });
      const team = await createTeam(org, { 'organization-access': { 'manage-modules': true } });
      expect(
        (
          await api('POST', `/teams/${team}/relationships/users`, {
            token: org.owner.token,
            body: { data: [{ type: 'users', id: member.username }] },
          })
        ).status,
      ).to.equal(204);
      const asModuleManager = await api('GET', `/organizations/${org.name}`, { token: member.token });
      expect(asModuleManager.body.data.attributes.permissions['can-manage-no-code-modules']).to.equal(true);
      expect(
        (
          await api('PATCH', `/no-code-modules/${ncm.id}`, {
            token: member.token,
            body: noCodeBody(mod.id, { enabled: false }),
          })
        ).status,
      ).to.equal(200);
    });
  });

  describe('provisioning a workspace', () => {
    terraformWorkers(['run-pipeline']);
    let ncmId: string;
    let moduleName: string;

    before(async () => {
      moduleName = uniq('naming').replace(/-/g, '');
      await publishVersion(org, moduleName, 'local', '1.0.0', namingModule('1.0.0'));
      await publishVersion(org, moduleName, 'local', '1.1.0', namingModule('1.1.0'));
      const mod = await api(
        'GET',
        `/organizations/${org.name}/registry-modules/private/${org.name}/${moduleName}/local`,
        { token: org.owner.token },
      );
      const created = await offer(
        noCodeBody(mod.body.data.id, { 'version-pin': '1.0.0' }, [{ name: 'suffix', options: ['web', 'api'] }]),
      );
      expect(created.status, created.text).to.equal(201);
      ncmId = created.body.data.id;
    });

    it('creates the workspace with its variables, and its first run applies the module at the pinned version with them', async () => {
      const name = uniq('nocode');
      const res = await api('POST', `/no-code-modules/${ncmId}/workspaces`, {
        token: org.owner.token,
        body: provisionBody(
          {
            name,
            'auto-apply': true,
            'source-name': 'my-app',
            'source-url': 'http://my-app.com',
            'execution-mode': 'remote',
          },
          { suffix: 'web' },
        ),
      });
      expect(res.status, res.text).to.equal(201);
      const ws = res.body.data;
      expect(ws.type).to.equal('workspaces');
      expect(ws.attributes).to.include({
        name,
        'source-name': 'my-app',
        'source-url': 'http://my-app.com',
        'execution-mode': 'remote',
        'auto-apply': true,
      });
      const vars = await api('GET', `/workspaces/${ws.id}/vars`, { token: org.owner.token });
      expect(
        vars.body.data.map((v: { attributes: { key: string; value: string } }) => [
          v.attributes.key,
          v.attributes.value,
        ]),
      ).to.deep.equal([['suffix', 'web']]);

      const runs = await api('GET', `/workspaces/${ws.id}/runs`, { token: org.owner.token });
      expect(runs.body.data).to.have.length(1);
      const run = await waitForRun(runs.body.data[0].id, org.owner.token, ['applied', 'errored'], 90_000);
      expect(run.attributes.status).to.equal('applied');
      const outputs = await api('GET', `/workspaces/${ws.id}/current-state-version-outputs`, {
        token: org.owner.token,
      });
      const byName = Object.fromEntries(
        outputs.body.data.map((o: { attributes: { name: string; value: unknown } }) => [
          o.attributes.name,
          o.attributes.value,
        ]),
      );
      // The pin (1.0.0), not the latest (1.1.0); the module's default prefix, and the variable given.
      expect(byName).to.deep.equal({ name: 'app-web', version: '1.0.0' });
    });

    it('refuses a required input without a variable, a value outside its options, a disabled module and callers who may not create workspaces, creating nothing', async () => {
      const before = await countRows('workspaces');
      const provision = (body: unknown, token = org.owner.token) =>
        api('POST', `/no-code-modules/${ncmId}/workspaces`, { token, body });
      expectError(
        await provision(provisionBody({ name: uniq('nocode') })),
        422,
        /requires a value for the variable suffix/,
      );
      expectError(
        await provision(provisionBody({ name: uniq('nocode') }, { suffix: 'db' })),
        422,
        /suffix must be one of "web", "api"/,
      );
      expectError(await provision(provisionBody({ name: uniq('nocode') }, { 'not a key!': 'x' })), 422);
      expectError(await provision(provisionBody({})), 422);
      const member = await createUser();
      await joinOrg(org, member);
      expectError(await provision(provisionBody({ name: uniq('nocode') }, { suffix: 'web' }), member.token), 404);
      expectError(
        await provision(provisionBody({ name: uniq('nocode') }, { suffix: 'web' }), (await createOrg()).owner.token),
        404,
      );
      expect(
        (
          await api('PATCH', `/no-code-modules/${ncmId}`, {
            token: org.owner.token,
            body: noCodeBody(null, { enabled: false }),
          })
        ).status,
      ).to.equal(200);
      expectError(await provision(provisionBody({ name: uniq('nocode') }, { suffix: 'web' })), 422, /disabled/);
      expect(
        (
          await api('PATCH', `/no-code-modules/${ncmId}`, {
            token: org.owner.token,
            body: noCodeBody(null, { enabled: true }),
          })
        ).status,
      ).to.equal(200);
      // A pin to a version that was never published has nothing to provision.
      const unpublished = await moduleWithVersions(org, '2.0.0');
      const pinned = (await offer(noCodeBody(unpublished.id, { 'version-pin': '2.0.0' }))).body.data.id;
      expectError(
        await api('POST', `/no-code-modules/${pinned}/workspaces`, {
          token: org.owner.token,
          body: provisionBody({ name: uniq('nocode') }),
        }),
        422,
        /2\.0\.0 of the module is not published/,
      );
      expect(await countRows('workspaces')).to.equal(before);
    });
  });
});
