import { expect } from 'chai';
import { api, doc, expectError, type ApiResponse } from '../helpers/api.js';
import {
  countRows,
  createOrg,
  createTeam,
  createUser,
  createWorkspace,
  createCv,
  joinOrg,
  putArchive,
  rowCounts,
  tarGz,
  uniq,
  type TestUser,
} from '../helpers/fixtures.js';
import { harness } from '../helpers/harness.js';
import {
  CLI_HEADERS,
  createModule,
  createTestRun,
  modulePaths,
  postTestRun,
  showTestRun,
  testRunBody,
  uploadTestConfig,
  type Org,
  type TestModule,
} from '../helpers/module-tests.js';

/**
 * The module test endpoints through HTTP, without a worker: test runs stay
 * `queued` here. Execution is covered by module-tests-execution.
 */

const TABLES = ['registry_modules', 'configuration_versions', 'test_runs', 'module_test_variables', 'logs'];

/** The request must fail with `status` and write nothing to any module test table. */
async function refused(status: number, call: () => Promise<ApiResponse>, detail?: RegExp): Promise<ApiResponse> {
  const before = await rowCounts(TABLES);
  const res = await call();
  expectError(res, status, detail);
  expect(await rowCounts(TABLES)).to.deep.equal(before);
  return res;
}

/** A trivial module: cheap to execute should a worker of another suite pick its runs up. */
const FILES = { 'main.tf': 'output "answer" { value = 42 }\n' };

const moduleBody = (attrs: Record<string, unknown>) =>
  doc('registry-modules', { 'registry-name': 'private', ...attrs });

describe('module tests API', function () {
  this.timeout(60_000);
  let org: Org;
  let other: Org;
  const modules: { mod: TestModule; token: string }[] = [];
  const newModule = async (o: Org = org) => {
    const mod = await createModule(o);
    modules.push({ mod, token: o.owner.token });
    return mod;
  };

  before(async () => {
    org = await createOrg();
    other = await createOrg();
  });

  // Queued test runs of this suite would otherwise be executed by the workers of later suites.
  after(async () => {
    for (const { mod, token } of modules) await api('DELETE', mod.self, { token });
  });

  describe('private registry modules', () => {
    it('creates, shows and lists a module with the attributes the terraform CLI builds its URLs from', async () => {
      const name = uniq('net').replace(/-/g, '');
      const res = await api('POST', `/organizations/${org.name}/registry-modules`, {
        token: org.owner.token,
        body: moduleBody({ name, provider: 'aws', namespace: org.name }),
      });
      expect(res.status, res.text).to.equal(201);
      const created = res.body.data;
      modules.push({
        mod: { id: created.id, org: org.name, name, provider: 'aws', ...modulePaths(org.name, name, 'aws') },
        token: org.owner.token,
      });
      expect(created.type).to.equal('registry-modules');
      expect(created.id).to.match(/^mod-/);
      expect(created.attributes).to.include({ name, provider: 'aws', namespace: org.name, 'registry-name': 'private' });
      expect(created.relationships.organization.data).to.deep.equal({ type: 'organizations', id: org.name });

      const show = await api('GET', `/organizations/${org.name}/registry-modules/private/${org.name}/${name}/aws`, {
        token: org.owner.token,
      });
      expect(show.status, show.text).to.equal(200);
      expect(show.body.data.id).to.equal(created.id);
      expect(show.body.data.attributes).to.include({
        name,
        provider: 'aws',
        namespace: org.name,
        'registry-name': 'private',
      });

      const list = await api('GET', `/organizations/${org.name}/registry-modules`, { token: org.owner.token });
      expect(list.status, list.text).to.equal(200);
      expect(list.body.data.map((m: { id: string }) => m.id)).to.include(created.id);
      expect(list.body.meta.pagination['page-size']).to.equal(20);
    });

    it('answers 404 to another organization, whose owner neither sees nor lists nor deletes the module', async () => {
      const mod = await newModule();
      await refused(404, () => api('GET', mod.self, { token: other.owner.token }));
      await refused(404, () => api('DELETE', mod.self, { token: other.owner.token }));
      await refused(404, () => api('GET', `/organizations/${org.name}/registry-modules`, { token: other.owner.token }));
      await refused(404, () =>
        api('POST', `/organizations/${org.name}/registry-modules`, {
          token: other.owner.token,
          body: moduleBody({ name: 'intruder', provider: 'null' }),
        }),
      );
      const own = await api('GET', `/organizations/${other.name}/registry-modules`, { token: other.owner.token });
      expect(own.status, own.text).to.equal(200);
      expect(own.body.data.map((m: { id: string }) => m.id)).not.to.include(mod.id);
      // The same address in the other organization does not exist.
      await refused(404, () =>
        api('GET', `/organizations/${other.name}/registry-modules/private/${other.name}/${mod.name}/${mod.provider}`, {
          token: other.owner.token,
        }),
      );
      expect((await api('GET', mod.self, { token: org.owner.token })).status).to.equal(200);
    });

    it('refuses bad names, providers, namespaces and registries with 422, creating nothing', async () => {
      const post = (attrs: Record<string, unknown>, type = 'registry-modules') =>
        api('POST', `/organizations/${org.name}/registry-modules`, { token: org.owner.token, body: doc(type, attrs) });
      await refused(422, () => post({ name: 'has space', provider: 'null' }));
      await refused(422, () => post({ name: '-leading', provider: 'null' }));
      await refused(422, () => post({ name: '', provider: 'null' }));
      await refused(422, () => post({ name: 'a/b', provider: 'null' }));
      await refused(422, () => post({ name: 'x'.repeat(65), provider: 'null' }));
      await refused(422, () => post({ provider: 'null' }));
      await refused(422, () => post({ name: 'ok' }));
      await refused(422, () => post({ name: 'ok', provider: 'AWS' }));
      await refused(422, () => post({ name: 'ok', provider: 'my-provider' }));
      await refused(422, () => post({ name: 'ok', provider: 'null', namespace: other.name }), /namespace/);
      await refused(422, () => post({ name: 'ok', provider: 'null', 'registry-name': 'public' }));
      await refused(422, () => post({ name: 'ok', provider: 'null' }, 'workspaces'));
    });

    it('refuses a second module with the same name and provider (422), but allows another provider', async () => {
      const mod = await newModule();
      await refused(422, () =>
        api('POST', `/organizations/${org.name}/registry-modules`, {
          token: org.owner.token,
          body: moduleBody({ name: mod.name, provider: mod.provider }),
        }),
      );
      const res = await api('POST', `/organizations/${org.name}/registry-modules`, {
        token: org.owner.token,
        body: moduleBody({ name: mod.name, provider: 'aws' }),
      });
      expect(res.status, res.text).to.equal(201);
      modules.push({
        mod: {
          id: res.body.data.id,
          org: org.name,
          name: mod.name,
          provider: 'aws',
          ...modulePaths(org.name, mod.name, 'aws'),
        },
        token: org.owner.token,
      });
      expect(res.body.data.id).not.to.equal(mod.id);
    });

    it('deletes a module with its test runs, configuration versions and variables; then answers 404', async () => {
      const mod = await createModule(org);
      const cvId = await uploadTestConfig(mod, org.owner.token, FILES, { cli: true });
      const run = await createTestRun(mod, org.owner.token, cvId);
      const v = await api('POST', `${mod.tests}/vars`, {
        token: org.owner.token,
        body: doc('vars', { key: 'A', value: '1', category: 'env' }),
      });
      expect(v.status, v.text).to.equal(201);

      const del = await api('DELETE', mod.self, { token: org.owner.token });
      expect(del.status, del.text).to.equal(204);
      expectError(await api('GET', mod.self, { token: org.owner.token }), 404);
      expectError(await api('DELETE', mod.self, { token: org.owner.token }), 404);
      expectError(await showTestRun(mod, org.owner.token, run.id), 404);
      const db = harness().rt.db;
      expect(await db('test_runs').where({ id: run.id }).first()).to.equal(undefined);
      expect(await db('configuration_versions').where({ id: cvId }).first()).to.equal(undefined);
      expect(await db('module_test_variables').where({ registry_module_id: mod.id }).first()).to.equal(undefined);
    });

    it("keeps another module's test runs that used a deleted module's configuration version, without the version", async () => {
      const mod = await createModule(org);
      const other = await createModule(org);
      const cvId = await uploadTestConfig(mod, org.owner.token, FILES, { cli: true });
      const run = await createTestRun(other, org.owner.token, cvId);
      expect((await api('DELETE', mod.self, { token: org.owner.token })).status).to.equal(204);
      const shown = await showTestRun(other, org.owner.token, run.id);
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.data.relationships['configuration-version'].data).to.equal(null);
    });
  });

  describe('test configuration versions', () => {
    it('creates one with an upload-url; its upload queues a test run with the defaults and source tfe-configuration-version', async () => {
      const mod = await newModule();
      const cv = await api('POST', `${mod.tests}/test-runs/configuration-versions`, { token: org.owner.token });
      expect(cv.status, cv.text).to.equal(201);
      expect(cv.body.data.type).to.equal('configuration-versions');
      expect(cv.body.data.id).to.match(/^cv-/);
      expect(cv.body.data.attributes.status).to.equal('pending');
      expect(cv.body.data.attributes['auto-queue-runs']).to.equal(true);
      expect(cv.body.data.attributes['upload-url'])
        .to.be.a('string')
        .and.match(/^https?:\/\//);

      const before = await api('GET', `${mod.tests}/test-runs`, { token: org.owner.token });
      expect(before.status, before.text).to.equal(200);
      expect(before.body.data).to.deep.equal([]);
      expect(before.body.meta.pagination['total-count']).to.equal(0);

      const put = await putArchive(cv.body.data.attributes['upload-url'], await tarGz(FILES));
      expect(put.status, put.text).to.equal(200);

      const after = await api('GET', `${mod.tests}/test-runs`, { token: org.owner.token });
      expect(after.status, after.text).to.equal(200);
      expect(after.body.data).to.have.length(1);
      const run = after.body.data[0];
      expect(run.type).to.equal('test-runs');
      expect(run.id).to.match(/^trun-/);
      expect(run.attributes).to.include({
        source: 'tfe-configuration-version',
        status: 'queued',
        verbose: false,
        'test-directory': 'tests',
      });
      expect(run.attributes.filters).to.deep.equal([]);
      expect(run.attributes.variables).to.deep.equal([]);
      expect(run.relationships['configuration-version'].data).to.deep.equal({
        type: 'configuration-versions',
        id: cv.body.data.id,
      });
      expect(run.relationships['registry-module'].data).to.deep.equal({ type: 'registry-modules', id: mod.id });

      // The upload URL works once.
      const again = await putArchive(cv.body.data.attributes['upload-url'], await tarGz(FILES));
      expect(again.status).to.equal(403);
      expect((await api('GET', `${mod.tests}/test-runs`, { token: org.owner.token })).body.data).to.have.length(1);
    });

    it('queues no test run after the upload when the terraform CLI created the version (X-Terraform-Integration: cloud)', async () => {
      const mod = await newModule();
      const cv = await api('POST', `${mod.tests}/test-runs/configuration-versions`, {
        token: org.owner.token,
        headers: CLI_HEADERS,
      });
      expect(cv.status, cv.text).to.equal(201);
      expect(cv.body.data.attributes['auto-queue-runs']).to.equal(false);
      const runsBefore = await countRows('test_runs');
      const put = await putArchive(cv.body.data.attributes['upload-url'], await tarGz(FILES));
      expect(put.status, put.text).to.equal(200);
      expect(await countRows('test_runs')).to.equal(runsBefore);
      const list = await api('GET', `${mod.tests}/test-runs`, { token: org.owner.token });
      expect(list.body.data).to.deep.equal([]);
      expect((await harness().rt.db('configuration_versions').where({ id: cv.body.data.id }).first()).status).to.equal(
        'uploaded',
      );

      // The CLI then queues its own test run, which carries the source `terraform`.
      const run = await postTestRun(mod, org.owner.token, cv.body.data.id, {}, CLI_HEADERS);
      expect(run.status, run.text).to.equal(201);
      expect(run.body.data.attributes.source).to.equal('terraform');
    });

    it("shows a test version at GET /configuration-versions/:id to those who run the module's tests (clients poll it), and keeps it out of the other workspace endpoints", async () => {
      const mod = await newModule();
      const created = await api('POST', `${mod.tests}/test-runs/configuration-versions`, {
        token: org.owner.token,
        headers: CLI_HEADERS,
      });
      const cvId = created.body.data.id;
      const pending = await api('GET', `/configuration-versions/${cvId}`, { token: org.owner.token });
      expect(pending.status, pending.text).to.equal(200);
      expect(pending.body.data.attributes.status).to.equal('pending');
      expect(pending.body.data.attributes).not.to.have.property('upload-url');
      expect((await putArchive(created.body.data.attributes['upload-url'], await tarGz(FILES))).status).to.equal(200);
      const uploaded = await api('GET', `/configuration-versions/${cvId}`, { token: org.owner.token });
      expect([uploaded.body.data.id, uploaded.body.data.attributes.status]).to.deep.equal([cvId, 'uploaded']);
      // Same rule as the module's tests: another organization and a member outside the owners team get 404.
      expectError(await api('GET', `/configuration-versions/${cvId}`, { token: other.owner.token }), 404);
      const member = await createUser();
      await joinOrg(org, member);
      expectError(await api('GET', `/configuration-versions/${cvId}`, { token: member.token }), 404);
      expectError(await api('GET', `/configuration-versions/${cvId}/download`, { token: org.owner.token }), 404);
      expectError(
        await api('GET', `/configuration-versions/${cvId}/ingress-attributes`, { token: org.owner.token }),
        404,
      );
    });

    it('answers 404 for an unknown module or another organization, creating nothing', async () => {
      const mod = await newModule();
      await refused(404, () =>
        api('POST', `${mod.tests}/test-runs/configuration-versions`, { token: other.owner.token }),
      );
      await refused(404, () =>
        api('POST', `${modulePaths(org.name, 'nosuchmodule', 'null').tests}/test-runs/configuration-versions`, {
          token: org.owner.token,
        }),
      );
    });
  });

  describe('test runs', () => {
    let mod: TestModule;
    let cvId: string;

    before(async () => {
      mod = await newModule();
      cvId = await uploadTestConfig(mod, org.owner.token, FILES, { cli: true });
    });

    it('creates a queued test run with the defaults: verbose false, test-directory tests, no filters, no variables, source tfe-api', async () => {
      const res = await postTestRun(mod, org.owner.token, cvId);
      expect(res.status, res.text).to.equal(201);
      const run = res.body.data;
      expect(run.type).to.equal('test-runs');
      expect(run.id).to.match(/^trun-/);
      expect(run.attributes).to.include({
        status: 'queued',
        verbose: false,
        'test-directory': 'tests',
        source: 'tfe-api',
        'test-status': null,
      });
      expect(run.attributes.filters).to.deep.equal([]);
      expect(run.attributes.variables).to.deep.equal([]);
      expect(run.attributes['log-read-url']).to.be.a('string').and.not.equal('');
      expect(run.attributes['status-timestamps']).to.have.property('queued-at');
      expect(run.relationships['configuration-version'].data.id).to.equal(cvId);
      expect(run.relationships['registry-module'].data).to.deep.equal({ type: 'registry-modules', id: mod.id });
      expect(run.relationships['created-by'].data).to.deep.equal({ type: 'users', id: org.owner.id });

      const show = await showTestRun(mod, org.owner.token, run.id);
      expect(show.status, show.text).to.equal(200);
      expect(show.body.data.id).to.equal(run.id);
      expect(show.body.data.attributes.status).to.equal('queued');
    });

    it('keeps the given options; shows variable keys only and stores their values sealed', async () => {
      const secret = `s3cr3t-${uniq('v')}`;
      const res = await api('POST', `${mod.tests}/test-runs`, {
        token: org.owner.token,
        body: testRunBody(
          cvId,
          {
            verbose: true,
            'test-directory': 'spec/unit',
            filters: ['spec/unit/a.tftest.hcl'],
            variables: [{ key: 'name', value: `"${secret}"` }],
          },
          { 'registry-module': { data: { type: 'registry-modules', id: mod.id } } },
        ),
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.attributes).to.include({ verbose: true, 'test-directory': 'spec/unit' });
      expect(res.body.data.attributes.filters).to.deep.equal(['spec/unit/a.tftest.hcl']);
      expect(res.body.data.attributes.variables).to.deep.equal([{ key: 'name' }]);
      expect(res.text).not.to.include(secret);
      const shown = await showTestRun(mod, org.owner.token, res.body.data.id);
      expect(shown.text).not.to.include(secret);
      const row = await harness().rt.db('test_runs').where({ id: res.body.data.id }).first();
      expect(row.variables_sealed).to.be.a('string').and.not.include(secret);
    });

    it('answers 404 for an unknown configuration version, one of another organization and one of a workspace', async () => {
      await refused(404, () => postTestRun(mod, org.owner.token, 'cv-doesnotexist0000'));
      const foreign = await newModule(other);
      const foreignCv = await uploadTestConfig(foreign, other.owner.token, FILES, { cli: true });
      await refused(404, () => postTestRun(mod, org.owner.token, foreignCv));
      const ws = await createWorkspace(org);
      const wsCv = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false });
      expect((await putArchive(wsCv.uploadUrl, await tarGz(FILES))).status).to.equal(200);
      await refused(404, () => postTestRun(mod, org.owner.token, wsCv.id));
    });

    it('refuses a configuration version whose files are not uploaded yet (422)', async () => {
      const cv = await api('POST', `${mod.tests}/test-runs/configuration-versions`, {
        token: org.owner.token,
        headers: CLI_HEADERS,
      });
      expect(cv.status, cv.text).to.equal(201);
      await refused(422, () => postTestRun(mod, org.owner.token, cv.body.data.id));
    });

    it('accepts a configuration version of another module of the same organization', async () => {
      const second = await newModule();
      const res = await postTestRun(second, org.owner.token, cvId);
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.relationships['configuration-version'].data.id).to.equal(cvId);
      expect(res.body.data.relationships['registry-module'].data.id).to.equal(second.id);
      // It is listed under the module it was created for, not under the version's module.
      const list = await api('GET', `${second.tests}/test-runs`, { token: org.owner.token });
      expect(list.body.data.map((r: { id: string }) => r.id)).to.deep.equal([res.body.data.id]);
      expectError(await showTestRun(mod, org.owner.token, res.body.data.id), 404);
    });

    it('refuses test directories outside the module and malformed bodies (422), creating nothing', async () => {
      for (const dir of ['../x', '/etc', 'tests/../../x', '..', 'a\\..\\..\\b', '']) {
        await refused(422, () => postTestRun(mod, org.owner.token, cvId, { 'test-directory': dir }));
      }
      await refused(422, () => postTestRun(mod, org.owner.token, cvId, { verbose: 'yes' }));
      await refused(422, () => postTestRun(mod, org.owner.token, cvId, { filters: 'tests/a.tftest.hcl' }));
      await refused(422, () => postTestRun(mod, org.owner.token, cvId, { variables: [{ key: 'name' }] }));
      await refused(422, () => postTestRun(mod, org.owner.token, cvId, { variables: [{ key: '1bad', value: '"x"' }] }));
      await refused(422, () =>
        api('POST', `${mod.tests}/test-runs`, { token: org.owner.token, body: doc('test-runs', {}) }),
      );
      await refused(422, () =>
        api('POST', `${mod.tests}/test-runs`, {
          token: org.owner.token,
          body: { data: { ...testRunBody(cvId).data, type: 'runs' } },
        }),
      );
      const second = await newModule();
      await refused(
        422,
        () =>
          api('POST', `${mod.tests}/test-runs`, {
            token: org.owner.token,
            body: testRunBody(cvId, {}, { 'registry-module': { data: { type: 'registry-modules', id: second.id } } }),
          }),
        /registry-module/,
      );
    });

    it('shows 404 for an unknown test run and for a run asked for through another module', async () => {
      expectError(await showTestRun(mod, org.owner.token, 'trun-doesnotexist00'), 404);
      const second = await newModule();
      const run = await createTestRun(mod, org.owner.token, cvId);
      expectError(await showTestRun(second, org.owner.token, run.id), 404);
      expectError(await api('POST', `${second.tests}/test-runs/${run.id}/cancel`, { token: org.owner.token }), 404);
    });

    it('refuses cancel and force-cancel of a queued test run (409) and of unknown ones (404)', async () => {
      const run = await createTestRun(mod, org.owner.token, cvId);
      await refused(
        409,
        () => api('POST', `${mod.tests}/test-runs/${run.id}/cancel`, { token: org.owner.token }),
        /queued/,
      );
      await refused(409, () =>
        api('POST', `${mod.tests}/test-runs/${run.id}/force-cancel`, { token: org.owner.token }),
      );
      await refused(404, () =>
        api('POST', `${mod.tests}/test-runs/trun-doesnotexist00/cancel`, { token: org.owner.token }),
      );
      await refused(404, () =>
        api('POST', `${mod.tests}/test-runs/trun-doesnotexist00/force-cancel`, { token: org.owner.token }),
      );
      const row = await harness().rt.db('test_runs').where({ id: run.id }).first();
      expect(row.status).to.equal('queued');
      expect(row.cancel_requested_at).to.equal(null);
    });
  });

  describe('listing test runs', () => {
    let mod: TestModule;
    const ids: Record<string, string[]> = { 'tfe-api': [], terraform: [], 'tfe-configuration-version': [] };

    before(async function () {
      this.timeout(60_000);
      mod = await newModule();
      const cvId = await uploadTestConfig(mod, org.owner.token, FILES, { cli: true });
      for (let i = 0; i < 21; i++) ids['tfe-api'].push((await createTestRun(mod, org.owner.token, cvId)).id);
      const cli = await postTestRun(mod, org.owner.token, cvId, {}, CLI_HEADERS);
      expect(cli.status, cli.text).to.equal(201);
      ids.terraform.push(cli.body.data.id);
      await uploadTestConfig(mod, org.owner.token, FILES);
      const auto = await harness()
        .rt.db('test_runs')
        .where({ registry_module_id: mod.id, source: 'tfe-configuration-version' })
        .pluck('id');
      expect(auto).to.have.length(1);
      ids['tfe-configuration-version'].push(...auto);
    });

    const list = async (query: string) => {
      const res = await api('GET', `${mod.tests}/test-runs${query}`, { token: org.owner.token });
      expect(res.status, res.text).to.equal(200);
      return res.body;
    };

    it('pages by 20 when no page size is given, newest first', async () => {
      const first = await list('');
      expect(first.data).to.have.length(20);
      expect(first.meta.pagination).to.include({
        'current-page': 1,
        'page-size': 20,
        'total-count': 23,
        'total-pages': 2,
        'next-page': 2,
      });
      expect(first.data[0].id).to.equal(ids['tfe-configuration-version'][0]);
      const second = await list('?page%5Bnumber%5D=2');
      expect(second.data).to.have.length(3);
      const all = [...first.data, ...second.data].map((r: { id: string }) => r.id);
      expect(new Set(all).size).to.equal(23);
      expect([...all].sort()).to.deep.equal(
        [...ids['tfe-api'], ...ids.terraform, ...ids['tfe-configuration-version']].sort(),
      );
      // The path as TFE spells it, with a trailing slash.
      const slash = await api('GET', `${mod.tests}/test-runs/`, { token: org.owner.token });
      expect(slash.status, slash.text).to.equal(200);
      expect(slash.body.data.map((r: { id: string }) => r.id)).to.deep.equal(
        first.data.map((r: { id: string }) => r.id),
      );
      const small = await list('?page%5Bsize%5D=5&page%5Bnumber%5D=3');
      expect(small.data).to.have.length(5);
      expect(small.meta.pagination).to.include({ 'current-page': 3, 'page-size': 5, 'total-pages': 5 });
    });

    it('filters by one source', async () => {
      const cli = await list('?filter%5Bsource%5D=terraform');
      expect(cli.data.map((r: { id: string }) => r.id)).to.deep.equal(ids.terraform);
      const api21 = await list('?filter%5Bsource%5D=tfe-api');
      expect(api21.meta.pagination['total-count']).to.equal(21);
      expect(api21.data).to.have.length(20);
      expect(api21.data.every((r: { attributes: { source: string } }) => r.attributes.source === 'tfe-api')).to.equal(
        true,
      );
    });

    it('filters by two comma-separated sources', async () => {
      const both = await list('?filter%5Bsource%5D=terraform%2Ctfe-configuration-version');
      expect(both.data.map((r: { id: string }) => r.id).sort()).to.deep.equal(
        [...ids.terraform, ...ids['tfe-configuration-version']].sort(),
      );
      expect(both.meta.pagination['total-count']).to.equal(2);
      const unencoded = await list('?filter[source]=tfe-configuration-version,terraform');
      expect(unencoded.data.map((r: { id: string }) => r.id).sort()).to.deep.equal(
        [...ids.terraform, ...ids['tfe-configuration-version']].sort(),
      );
    });

    it('refuses an unknown source (422)', async () => {
      expectError(await api('GET', `${mod.tests}/test-runs?filter%5Bsource%5D=vcs`, { token: org.owner.token }), 422);
    });
  });

  describe('test variables', () => {
    let mod: TestModule;
    const vars = (m: TestModule = mod) => `${m.tests}/vars`;

    before(async () => {
      mod = await newModule();
    });

    it('creates, lists, updates and deletes an environment variable', async () => {
      const created = await api('POST', vars(), {
        token: org.owner.token,
        body: doc('vars', { key: 'TF_VAR_region', value: 'eu-west-1', description: 'where', category: 'env' }),
      });
      expect(created.status, created.text).to.equal(201);
      const v = created.body.data;
      expect(v.type).to.equal('vars');
      expect(v.id).to.match(/^var-/);
      expect(v.attributes).to.include({
        key: 'TF_VAR_region',
        value: 'eu-west-1',
        description: 'where',
        category: 'env',
        sensitive: false,
        hcl: false,
      });
      expect(v.relationships?.configurable).to.equal(undefined);

      const second = await api('POST', vars(), {
        token: org.owner.token,
        body: doc('vars', { key: 'PLAIN', category: 'env' }),
      });
      expect(second.status, second.text).to.equal(201);
      expect(second.body.data.attributes).to.include({ key: 'PLAIN', value: '', sensitive: false });

      const list = await api('GET', vars(), { token: org.owner.token });
      expect(list.status, list.text).to.equal(200);
      expect(
        list.body.data.map((x: { id: string; attributes: { key: string; value: string } }) => [
          x.id,
          x.attributes.key,
          x.attributes.value,
        ]),
      ).to.deep.equal([
        [v.id, 'TF_VAR_region', 'eu-west-1'],
        [second.body.data.id, 'PLAIN', ''],
      ]);

      const updated = await api('PATCH', `${vars()}/${v.id}`, {
        token: org.owner.token,
        body: doc('vars', { value: 'us-east-2', description: null }),
      });
      expect(updated.status, updated.text).to.equal(200);
      expect(updated.body.data.attributes).to.include({
        key: 'TF_VAR_region',
        value: 'us-east-2',
        description: null,
        category: 'env',
      });
      const renamed = await api('PATCH', `${vars()}/${v.id}`, {
        token: org.owner.token,
        body: doc('vars', { key: 'TF_VAR_zone' }),
      });
      expect(renamed.status, renamed.text).to.equal(200);
      expect(renamed.body.data.attributes).to.include({ key: 'TF_VAR_zone', value: 'us-east-2' });

      const del = await api('DELETE', `${vars()}/${v.id}`, { token: org.owner.token });
      expect(del.status, del.text).to.equal(204);
      const after = await api('GET', vars(), { token: org.owner.token });
      expect(after.body.data.map((x: { id: string }) => x.id)).to.deep.equal([second.body.data.id]);
      expectError(await api('DELETE', `${vars()}/${v.id}`, { token: org.owner.token }), 404);
      expectError(
        await api('PATCH', `${vars()}/${v.id}`, { token: org.owner.token, body: doc('vars', { value: 'x' }) }),
        404,
      );
    });

    it('shows one variable, pages the list with meta.pagination, and stores hcl (which changes nothing for an environment variable)', async () => {
      const m = await newModule();
      const ids: string[] = [];
      for (const [i, hcl] of [false, true, false].entries()) {
        const res = await api('POST', vars(m), {
          token: org.owner.token,
          body: doc('vars', { key: `PAGED_${i}`, value: `v${i}`, category: 'env', hcl }),
        });
        expect(res.status, res.text).to.equal(201);
        expect(res.body.data.attributes.hcl).to.equal(hcl);
        ids.push(res.body.data.id);
      }
      const one = await api('GET', `${vars(m)}/${ids[1]}`, { token: org.owner.token });
      expect(one.status, one.text).to.equal(200);
      expect(one.body.data.attributes).to.include({ key: 'PAGED_1', value: 'v1', hcl: true, category: 'env' });
      const changed = await api('PATCH', `${vars(m)}/${ids[1]}`, {
        token: org.owner.token,
        body: doc('vars', { hcl: false }),
      });
      expect(changed.body.data.attributes.hcl).to.equal(false);

      const page2 = await api('GET', `${vars(m)}?page[number]=2&page[size]=2`, { token: org.owner.token });
      expect(page2.status, page2.text).to.equal(200);
      expect(page2.body.data.map((v: { id: string }) => v.id)).to.deep.equal([ids[2]]);
      expect(page2.body.meta.pagination).to.deep.equal({
        'current-page': 2,
        'page-size': 2,
        'prev-page': 1,
        'next-page': null,
        'total-pages': 2,
        'total-count': 3,
      });
      const all = await api('GET', vars(m), { token: org.owner.token });
      expect(all.body.meta.pagination['total-count']).to.equal(3);

      // Reached through its own module only, by its module's testers only.
      expectError(await api('GET', `${vars(mod)}/${ids[0]}`, { token: org.owner.token }), 404);
      expectError(await api('GET', `${vars(m)}/${ids[0]}`, { token: other.owner.token }), 404);
    });

    it('refuses a body whose data.type is not vars, a category other than env and other malformed bodies (422)', async () => {
      await refused(422, () =>
        api('POST', vars(), {
          token: org.owner.token,
          body: doc('variables', { key: 'A', value: '1', category: 'env' }),
        }),
      );
      await refused(422, () =>
        api('POST', vars(), {
          token: org.owner.token,
          body: doc('workspaces', { key: 'A', value: '1', category: 'env' }),
        }),
      );
      await refused(
        422,
        () =>
          api('POST', vars(), {
            token: org.owner.token,
            body: doc('vars', { key: 'A', value: '1', category: 'terraform' }),
          }),
        /category/,
      );
      await refused(422, () =>
        api('POST', vars(), { token: org.owner.token, body: doc('vars', { key: 'A', value: '1' }) }),
      );
      await refused(422, () =>
        api('POST', vars(), { token: org.owner.token, body: doc('vars', { value: '1', category: 'env' }) }),
      );
      await refused(422, () =>
        api('POST', vars(), {
          token: org.owner.token,
          body: doc('vars', { key: 'A', value: '1', category: 'env', hcl: 'yes' }),
        }),
      );
      await refused(422, () =>
        api('POST', vars(), {
          token: org.owner.token,
          body: doc('vars', { key: 'NOT VALID', value: '1', category: 'env' }),
        }),
      );
      await refused(422, () =>
        api('POST', vars(), { token: org.owner.token, body: doc('vars', { key: 'A', value: 1, category: 'env' }) }),
      );
      const ok = await api('POST', vars(), {
        token: org.owner.token,
        body: doc('vars', { key: 'TYPED', value: '1', category: 'env' }),
      });
      expect(ok.status, ok.text).to.equal(201);
      const path = `${vars()}/${ok.body.data.id}`;
      await refused(422, () => api('PATCH', path, { token: org.owner.token, body: doc('variables', { value: '2' }) }));
      await refused(422, () =>
        api('PATCH', path, { token: org.owner.token, body: doc('vars', { category: 'terraform' }) }),
      );
      expect(
        (await api('GET', vars(), { token: org.owner.token })).body.data.find(
          (x: { id: string }) => x.id === ok.body.data.id,
        ).attributes.value,
      ).to.equal('1');
    });

    it('keeps keys unique per module (422 on create and on rename), not across modules', async () => {
      const a = await api('POST', vars(), {
        token: org.owner.token,
        body: doc('vars', { key: 'UNIQ_A', value: '1', category: 'env' }),
      });
      expect(a.status, a.text).to.equal(201);
      await refused(422, () =>
        api('POST', vars(), {
          token: org.owner.token,
          body: doc('vars', { key: 'UNIQ_A', value: '2', category: 'env' }),
        }),
      );
      const b = await api('POST', vars(), {
        token: org.owner.token,
        body: doc('vars', { key: 'UNIQ_B', value: '1', category: 'env' }),
      });
      expect(b.status, b.text).to.equal(201);
      await refused(422, () =>
        api('PATCH', `${vars()}/${b.body.data.id}`, { token: org.owner.token, body: doc('vars', { key: 'UNIQ_A' }) }),
      );
      const elsewhere = await newModule();
      const same = await api('POST', vars(elsewhere), {
        token: org.owner.token,
        body: doc('vars', { key: 'UNIQ_A', value: '3', category: 'env' }),
      });
      expect(same.status, same.text).to.equal(201);
      // A variable is reached only through its own module.
      expectError(
        await api('PATCH', `${vars(elsewhere)}/${a.body.data.id}`, {
          token: org.owner.token,
          body: doc('vars', { value: 'x' }),
        }),
        404,
      );
      expectError(await api('DELETE', `${vars(elsewhere)}/${a.body.data.id}`, { token: org.owner.token }), 404);
    });

    it('never returns a sensitive value (create, list, update) and stores every value sealed', async () => {
      const secret = `hunter2-${uniq('x')}`;
      const plain = `visible-${uniq('x')}`;
      const created = await api('POST', vars(), {
        token: org.owner.token,
        body: doc('vars', { key: 'SECRET_TOKEN', value: secret, category: 'env', sensitive: true }),
      });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.data.attributes).to.include({ key: 'SECRET_TOKEN', sensitive: true, value: null });
      expect(created.text).not.to.include(secret);
      const visible = await api('POST', vars(), {
        token: org.owner.token,
        body: doc('vars', { key: 'PLAIN_VALUE', value: plain, category: 'env' }),
      });
      expect(visible.status, visible.text).to.equal(201);

      const list = await api('GET', vars(), { token: org.owner.token });
      expect(list.status, list.text).to.equal(200);
      expect(list.text).not.to.include(secret);
      expect(list.text).to.include(plain);
      expect(list.body.data.find((x: { id: string }) => x.id === created.body.data.id).attributes.value).to.equal(null);

      const renamed = await api('PATCH', `${vars()}/${created.body.data.id}`, {
        token: org.owner.token,
        body: doc('vars', { description: 'still secret' }),
      });
      expect(renamed.status, renamed.text).to.equal(200);
      expect(renamed.body.data.attributes).to.include({ description: 'still secret', sensitive: true, value: null });
      expect(renamed.text).not.to.include(secret);
      const newSecret = `${secret}-rotated`;
      const rotated = await api('PATCH', `${vars()}/${created.body.data.id}`, {
        token: org.owner.token,
        body: doc('vars', { value: newSecret }),
      });
      expect(rotated.status, rotated.text).to.equal(200);
      expect(rotated.text).not.to.include(secret);

      // Making a plain variable sensitive hides its value from then on.
      const hidden = await api('PATCH', `${vars()}/${visible.body.data.id}`, {
        token: org.owner.token,
        body: doc('vars', { sensitive: true }),
      });
      expect(hidden.status, hidden.text).to.equal(200);
      expect(hidden.body.data.attributes.value).to.equal(null);
      expect(hidden.text).not.to.include(plain);
      expect((await api('GET', vars(), { token: org.owner.token })).text).not.to.include(plain);

      // A sensitive variable cannot be made visible again.
      await refused(422, () =>
        api('PATCH', `${vars()}/${created.body.data.id}`, {
          token: org.owner.token,
          body: doc('vars', { sensitive: false }),
        }),
      );

      const rows = await harness()
        .rt.db('module_test_variables')
        .whereIn('id', [created.body.data.id, visible.body.data.id]);
      expect(rows).to.have.length(2);
      for (const row of rows) {
        expect(row.value_sealed).to.be.a('string').and.have.length.above(0);
        expect(row.value_sealed).not.to.include(secret);
        expect(row.value_sealed).not.to.include(plain);
        expect(row.value_sealed).not.to.include('hunter2');
        expect(row.value_sealed).not.to.include('visible-');
      }
    });
  });

  describe('who may use the test endpoints', () => {
    let mod: TestModule;
    let cvId: string;
    let runId: string;
    let varId: string;
    let ownersTeamId: string;

    before(async () => {
      mod = await newModule();
      cvId = await uploadTestConfig(mod, org.owner.token, FILES, { cli: true });
      runId = (await createTestRun(mod, org.owner.token, cvId)).id;
      const v = await api('POST', `${mod.tests}/vars`, {
        token: org.owner.token,
        body: doc('vars', { key: 'GUARDED', value: 'v', category: 'env' }),
      });
      expect(v.status, v.text).to.equal(201);
      varId = v.body.data.id;
      const teams = await api('GET', `/organizations/${org.name}/teams?filter%5Bnames%5D=owners`, {
        token: org.owner.token,
      });
      expect(teams.status, teams.text).to.equal(200);
      ownersTeamId = teams.body.data[0].id;
    });

    /** Every module test endpoint, as a call with `token`. */
    const calls = (token: string): [string, () => Promise<ApiResponse>][] => [
      [
        'create test configuration version',
        () => api('POST', `${mod.tests}/test-runs/configuration-versions`, { token }),
      ],
      ['create test run', () => postTestRun(mod, token, cvId)],
      ['list test runs', () => api('GET', `${mod.tests}/test-runs`, { token })],
      ['show test run', () => showTestRun(mod, token, runId)],
      ['cancel', () => api('POST', `${mod.tests}/test-runs/${runId}/cancel`, { token })],
      ['force-cancel', () => api('POST', `${mod.tests}/test-runs/${runId}/force-cancel`, { token })],
      [
        'create variable',
        () =>
          api('POST', `${mod.tests}/vars`, {
            token,
            body: doc('vars', { key: 'INTRUDER', value: 'x', category: 'env' }),
          }),
      ],
      ['list variables', () => api('GET', `${mod.tests}/vars`, { token })],
      [
        'update variable',
        () => api('PATCH', `${mod.tests}/vars/${varId}`, { token, body: doc('vars', { value: 'changed' }) }),
      ],
      ['delete variable', () => api('DELETE', `${mod.tests}/vars/${varId}`, { token })],
    ];

    async function everyCallRefused(token: string): Promise<void> {
      const before = await rowCounts(TABLES);
      for (const [what, call] of calls(token)) {
        const res = await call();
        expect(res.status, `${what}: ${res.text}`).to.equal(404);
        expectError(res, 404);
      }
      expect(await rowCounts(TABLES)).to.deep.equal(before);
      const v = await harness().rt.db('module_test_variables').where({ id: varId }).first();
      expect(v.key).to.equal('GUARDED');
      expect((await harness().rt.db('test_runs').where({ id: runId }).first()).cancel_requested_at).to.equal(null);
    }

    async function memberOfTeam(teamId: string): Promise<TestUser> {
      const user = await createUser();
      await joinOrg(org, user);
      const add = await api('POST', `/teams/${teamId}/relationships/users`, {
        token: org.owner.token,
        body: { data: [{ type: 'users', id: user.username }] },
      });
      expect(add.status, add.text).to.equal(204);
      return user;
    }

    it('answers 404 on every endpoint to a member of a non-owners team, even one that may manage modules', async () => {
      const teamId = await createTeam(org, { 'organization-access': { 'manage-modules': true } });
      const user = await memberOfTeam(teamId);
      // The module itself is visible to the organization.
      expect((await api('GET', mod.self, { token: user.token })).status).to.equal(200);
      await everyCallRefused(user.token);
    });

    it('answers 404 on every endpoint to an organization token', async () => {
      const tok = await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token });
      expect(tok.status, tok.text).to.equal(201);
      await everyCallRefused(tok.body.data.attributes.token);
    });

    it("answers 404 on every endpoint to a user outside the organization and to another organization's owner", async () => {
      await everyCallRefused((await createUser()).token);
      await everyCallRefused(other.owner.token);
    });

    it('serves a member of the owners team and the owners team token', async () => {
      const member = await memberOfTeam(ownersTeamId);
      const list = await api('GET', `${mod.tests}/test-runs`, { token: member.token });
      expect(list.status, list.text).to.equal(200);
      expect(list.body.data.map((r: { id: string }) => r.id)).to.include(runId);
      const created = await postTestRun(mod, member.token, cvId);
      expect(created.status, created.text).to.equal(201);
      expect(created.body.data.relationships['created-by'].data.id).to.equal(member.id);

      const tok = await api('POST', `/teams/${ownersTeamId}/authentication-token`, { token: org.owner.token });
      expect(tok.status, tok.text).to.equal(201);
      const teamToken = tok.body.data.attributes.token;
      const vars = await api('GET', `${mod.tests}/vars`, { token: teamToken });
      expect(vars.status, vars.text).to.equal(200);
      expect(vars.body.data.map((v: { id: string }) => v.id)).to.include(varId);
      const byTeam = await postTestRun(mod, teamToken, cvId);
      expect(byTeam.status, byTeam.text).to.equal(201);
      expect(byTeam.body.data.relationships['created-by'].data).to.equal(null);
    });
  });
});
