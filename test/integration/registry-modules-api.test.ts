import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { create as tarCreate } from 'tar';
import { api, doc, expectError } from '../helpers/api.js';
import {
  createOrg,
  createUser,
  createWorkspace,
  joinOrg,
  putArchive,
  rowCounts,
  tarGz,
  uniq,
} from '../helpers/fixtures.js';
import { startRun, uploadConfig } from '../helpers/terraform.js';
import { newPhaseToken, revokePhaseToken } from '../../shared/runs/tokens.js';
import { harness } from '../helpers/harness.js';
import type { Org } from '../helpers/module-tests.js';
import {
  createVersion,
  ensureModule,
  namingModule,
  privateModulePath,
  protocolPath,
  publishVersion,
} from '../helpers/registry.js';

/** A .tar.gz of one file and a symbolic link named `link` to `target`. */
async function withLink(file: string, content: string, link: string, target: string): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'registry-link-'));
  try {
    await writeFile(join(dir, file), content);
    await symlink(target, join(dir, link));
    const chunks: Buffer[] = [];
    for await (const c of tarCreate({ gzip: true, cwd: dir, portable: true }, ['.']))
      chunks.push(Buffer.from(c as Buffer));
    return Buffer.concat(chunks);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A .tar.gz of `files` with its entries in the order given (the system tar orders them as the directory lists them). */
async function tarGzInOrder(files: [string, string][]): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'registry-order-'));
  try {
    for (const [path, content] of files) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), content);
    }
    const chunks: Buffer[] = [];
    for await (const c of tarCreate(
      { gzip: true, cwd: dir, portable: true },
      files.map(([path]) => path),
    ))
      chunks.push(Buffer.from(c as Buffer));
    return Buffer.concat(chunks);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A module name of this suite's own. */
const modName = () => uniq('naming').replace(/-/g, '');

describe('private module registry: versions through the API and the registry protocol', function () {
  this.timeout(60_000);
  let org: Org;
  let other: Org;

  before(async () => {
    org = await createOrg();
    other = await createOrg();
  });

  describe('publishing a version', () => {
    it('creates a pending version with an upload link, becomes ok once the archive arrives, and reads the module from its files', async () => {
      const name = modName();
      await ensureModule(org, name, 'local');
      const before = await api('GET', privateModulePath(org.name, name, 'local'), { token: org.owner.token });
      expect(before.body.data.attributes.status).to.equal('pending');
      expect(before.body.data.attributes['version-statuses']).to.deep.equal([]);

      const created = await createVersion(org, name, 'local', '1.0.0', { 'commit-sha': 'abcdef1234567' });
      expect(created.type).to.equal('registry-module-versions');
      expect(created.attributes).to.include({ version: '1.0.0', status: 'pending', 'commit-sha': 'abcdef1234567' });
      expect(created.links.upload).to.match(/\/v1\/object\//);
      const pending = await api('GET', privateModulePath(org.name, name, 'local'), { token: org.owner.token });
      expect(pending.body.data.attributes['version-statuses']).to.deep.equal([{ version: '1.0.0', status: 'pending' }]);

      const put = await putArchive(created.links.upload, await tarGz(namingModule('1.0.0')));
      expect(put.status, put.text).to.equal(200);
      const again = await putArchive(created.links.upload, await tarGz(namingModule('1.0.0')));
      expect(again.status, again.text).to.equal(403);

      const shown = await api('GET', `${privateModulePath(org.name, name, 'local')}/1.0.0`, { token: org.owner.token });
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.data.attributes.status).to.equal('ok');
      // As go-tfe reads it.
      const byQuery = await api('GET', `${privateModulePath(org.name, name, 'local')}/version?module_version=1.0.0`, {
        token: org.owner.token,
      });
      expect([byQuery.status, byQuery.body.data.id, byQuery.body.data.attributes.source]).to.deep.equal([
        200,
        created.id,
        'tfe-api',
      ]);
      expect(byQuery.body.data.relationships['registry-module'].data.id).to.equal(before.body.data.id);
      // The organization says module tests are unlimited (docs/decisions.md).
      const organization = await api('GET', `/organizations/${org.name}`, { token: org.owner.token });
      expect(organization.body.data.attributes['remaining-testable-count']).to.equal(2147483647);
      await publishVersion(org, name, 'local', '1.1.0', namingModule('1.1.0'));
      await publishVersion(org, name, 'local', '1.1.0-beta.1', namingModule('1.1.0-beta.1'));

      const mod = await api('GET', privateModulePath(org.name, name, 'local'), { token: org.owner.token });
      expect(mod.body.data.attributes.status).to.equal('setup_complete');
      expect(mod.body.data.attributes['latest-version']).to.equal('1.1.0');
      expect(mod.body.data.attributes['version-statuses'].map((v: { version: string }) => v.version)).to.deep.equal([
        '1.0.0',
        '1.1.0-beta.1',
        '1.1.0',
      ]);
      expect(mod.body.data.attributes.source).to.equal(`${new URL(harness().baseUrl).host}/${org.name}/${name}/local`);

      // The registry protocol: versions, the module's detail read from its files, the download.
      const versions = await api('GET', `${protocolPath(org.name, name, 'local')}/versions`, {
        token: org.owner.token,
      });
      expect(versions.status, versions.text).to.equal(200);
      expect(versions.body.modules[0].versions.map((v: { version: string }) => v.version)).to.deep.equal([
        '1.0.0',
        '1.1.0-beta.1',
        '1.1.0',
      ]);

      const detail = await api('GET', `${protocolPath(org.name, name, 'local')}/1.0.0`, { token: org.owner.token });
      expect(detail.status, detail.text).to.equal(200);
      expect(detail.body).to.include({ namespace: org.name, name, provider: 'local', version: '1.0.0' });
      expect(detail.body.root.readme).to.equal('# naming 1.0.0\n\nComposes names.\n');
      expect(detail.body.root.inputs).to.deep.equal([
        {
          name: 'prefix',
          type: 'string',
          description: 'Put before every name.',
          default: '"app"',
          required: false,
          sensitive: false,
        },
        { name: 'suffix', type: 'string', description: '', default: '', required: true, sensitive: false },
      ]);
      expect(detail.body.root.outputs).to.deep.equal([
        { name: 'name', description: 'The composed name.', sensitive: false },
        { name: 'version', description: '', sensitive: false },
      ]);
      expect(detail.body.root.resources).to.deep.equal([{ type: 'terraform_data', name: 'name' }]);
      expect(detail.body.submodules.map((s: { path: string }) => s.path)).to.deep.equal(['modules/short']);
      expect(detail.body.submodules[0].inputs.map((i: { name: string }) => i.name)).to.deep.equal(['word']);

      const latest = await api('GET', protocolPath(org.name, name, 'local'), { token: org.owner.token });
      expect(latest.status, latest.text).to.equal(200);
      expect(latest.body.version).to.equal('1.1.0');

      const download = await api('GET', `${protocolPath(org.name, name, 'local')}/1.1.0/download`, {
        token: org.owner.token,
      });
      expect(download.status, download.text).to.equal(204);
      const location = download.headers.get('x-terraform-get')!;
      expect(location).to.match(/^\/v1\/object\/[^?]+\?archive=tar\.gz$/);
      const archive = await fetch(`${harness().baseUrl}${location.split('?')[0]}`);
      expect(archive.status).to.equal(200);
      expect(gunzipSync(Buffer.from(await archive.arrayBuffer())).toString('latin1')).to.include(
        'output "version" { value = "1.1.0" }',
      );
    });

    it('refuses a version that is not semver, or already exists, with 422 and writes nothing', async () => {
      const name = modName();
      await publishVersion(org, name, 'local', '1.0.0', namingModule('1.0.0'));
      const post = (version: unknown) =>
        api('POST', `${privateModulePath(org.name, name, 'local')}/versions`, {
          token: org.owner.token,
          body: doc('registry-module-versions', { version }),
        });
      const before = await rowCounts(['registry_module_versions']);
      for (const bad of ['1.0', 'v1.0.0', '1.0.0.0', '01.0.0', 'latest', '', 1]) expectError(await post(bad), 422);
      expectError(await post('1.0.0'), 422, /already exists/);
      expect(await rowCounts(['registry_module_versions'])).to.deep.equal(before);
    });

    it('refuses an archive that is not a tar.gz, is unsafe, has no .tf files or unreadable ones: the version ends reg_ingress_failed with the reason', async () => {
      const name = modName();
      await ensureModule(org, name, 'local');
      const cases: [string, Buffer, RegExp][] = [
        ['1.0.0', Buffer.from('not an archive at all'), /not gzip-compressed/],
        ['1.0.1', await tarGz({ 'README.md': '# nothing here\n' }), /no \.tf files/],
        [
          '1.0.3',
          await withLink('main.tf', 'output "x" { value = 1 }\n', 'secrets', '/etc'),
          /link leaves the archive/,
        ],
        [
          '1.0.2',
          await tarGz({ 'main.tf': 'variable "x" {\n  type = string\n' }),
          /cannot be read: main\.tf: missing \}/,
        ],
      ];
      for (const [version, body, reason] of cases) {
        const created = await createVersion(org, name, 'local', version);
        const put = await putArchive(created.links.upload, body);
        expect(put.status, put.text).to.equal(422);
        const shown = await api('GET', `${privateModulePath(org.name, name, 'local')}/${version}`, {
          token: org.owner.token,
        });
        expect(shown.body.data.attributes.status).to.equal('reg_ingress_failed');
        expect(shown.body.data.attributes.error).to.match(reason);
      }
      const mod = await api('GET', privateModulePath(org.name, name, 'local'), { token: org.owner.token });
      expect(mod.body.data.attributes.status).to.equal('setup_failed');
      expect(mod.body.data.attributes['latest-version']).to.equal(null);
      expect(mod.body.data.attributes['version-statuses'][0]).to.include({
        version: '1.0.0',
        status: 'reg_ingress_failed',
      });
      // A failed version is never offered to Terraform.
      const versions = await api('GET', `${protocolPath(org.name, name, 'local')}/versions`, {
        token: org.owner.token,
      });
      expect(versions.body.modules[0].versions).to.deep.equal([]);
      expect(
        (await api('GET', `${protocolPath(org.name, name, 'local')}/1.0.0/download`, { token: org.owner.token }))
          .status,
      ).to.equal(404);
    });
  });

  describe('hostile module files', () => {
    /** PUTs `body` as a new version: the upload is refused with 422 (never a 500) and the version ends reg_ingress_failed with a reason matching `reason`. */
    async function expectRefused(name: string, version: string, body: Buffer, reason: RegExp) {
      const created = await createVersion(org, name, 'local', version);
      const put = await putArchive(created.links.upload, body);
      expect(put.status, `${version}: ${put.text}`).to.equal(422);
      expect(put.body.errors[0].detail).to.match(reason);
      const shown = await api('GET', `${privateModulePath(org.name, name, 'local')}/${version}`, {
        token: org.owner.token,
      });
      expect(shown.body.data.attributes.status, version).to.equal('reg_ingress_failed');
      expect(shown.body.data.attributes.error, version).to.match(reason);
    }

    /** A later valid version of the module still publishes and is what the registry offers. */
    async function expectValidLater(name: string, version: string) {
      await publishVersion(org, name, 'local', version, namingModule(version));
      const latest = await api('GET', protocolPath(org.name, name, 'local'), { token: org.owner.token });
      expect([latest.status, latest.body.version]).to.deep.equal([200, version]);
      const versions = await api('GET', `${protocolPath(org.name, name, 'local')}/versions`, {
        token: org.owner.token,
      });
      expect(versions.body.modules[0].versions.map((v: { version: string }) => v.version)).to.deep.equal([version]);
    }

    it('refuses escapes naming no character, deep nesting and nested interpolations: 422, the version reg_ingress_failed with the reason, and a later version publishes', async () => {
      const name = modName();
      await ensureModule(org, name, 'local');
      const deep = 20_000;
      const cases: [string, Record<string, string>, RegExp][] = [
        [
          '1.0.0',
          { 'main.tf': 'variable "\\uZZZZ" {}\n' },
          /cannot be read: main\.tf: invalid escape sequence \\uZZZZ on line 1/,
        ],
        [
          '1.0.1',
          { 'main.tf': 'variable "x" {\n  description = "\\U00110000"\n}\n' },
          /main\.tf: invalid escape sequence \\U00110000 on line 2/,
        ],
        [
          '1.0.2',
          { 'main.tf': `${'a{'.repeat(deep)}${'}'.repeat(deep)}\n` },
          /main\.tf: nesting deeper than 100 levels on line 1/,
        ],
        [
          '1.0.3',
          { 'main.tf': `a = ${'"${'.repeat(deep)}x${'}"'.repeat(deep)}\n` },
          /main\.tf: nesting deeper than 100 levels/,
        ],
        [
          '1.0.4',
          { 'main.tf': 'variable "ok" {}\n', 'modules/m/main.tf': `v = ${'['.repeat(deep)}${']'.repeat(deep)}\n` },
          /modules\/m\/main\.tf: nesting deeper than 100 levels/,
        ],
      ];
      for (const [version, files, reason] of cases) await expectRefused(name, version, await tarGz(files), reason);
      await expectValidLater(name, '2.0.0');
    });

    it('reads a heredoc description of 150,000 lines', async () => {
      const name = modName();
      const lines = 150_000;
      await publishVersion(org, name, 'local', '1.0.0', {
        'main.tf': `variable "long" {\n  description = <<-EOT\n${' x\n'.repeat(lines)}  EOT\n}\n`,
      });
      const detail = await api('GET', `${protocolPath(org.name, name, 'local')}/1.0.0`, { token: org.owner.token });
      expect(detail.status, detail.text).to.equal(200);
      expect(detail.body.root.inputs[0].description).to.equal('x\n'.repeat(lines));
    });

    it('refuses a NUL character in a .tf file (raw or as an escape decoded into a label or description); drops it from a README', async () => {
      const name = modName();
      await ensureModule(org, name, 'local');
      await expectRefused(
        name,
        '1.0.0',
        await tarGz({ 'main.tf': 'variable "a" {}\nvariable "b" { default = "x\0y" }\n' }),
        /main\.tf: a NUL character on line 2/,
      );
      await expectRefused(
        name,
        '1.0.1',
        await tarGz({ 'main.tf': 'variable "x" { description = "a\\u0000b" }\n' }),
        /main\.tf: variable "x": its description holds a NUL character/,
      );
      await expectRefused(
        name,
        '1.0.2',
        await tarGz({ 'main.tf': 'output "\\u0000" { value = 1 }\n' }),
        /main\.tf: a block label cannot hold a NUL character on line 1/,
      );
      const published = await publishVersion(org, name, 'local', '1.1.0', {
        'main.tf': 'variable "x" {}\n',
        'README.md': '# with\0 a NUL\n',
      });
      expect(published.attributes.status).to.equal('ok');
      const detail = await api('GET', `${protocolPath(org.name, name, 'local')}/1.1.0`, { token: org.owner.token });
      expect(detail.body.root.readme).to.equal('# with a NUL\n');
    });

    it('refuses a module whose .tf files pass the size caps, naming them; READMEs never crowd out .tf files', async () => {
      const name = modName();
      await ensureModule(org, name, 'local');
      const big = (bytes: number) => `variable "x" {\n  default = "${'x'.repeat(bytes)}"\n}\n`;
      await expectRefused(
        name,
        '1.0.0',
        await tarGz({ 'main.tf': big(600 * 1024) }),
        /main\.tf is larger than 524288 bytes/,
      );
      await expectRefused(
        name,
        '1.0.1',
        await tarGz({ 'variables.tf': 'variable "a" {}\n', 'modules/m/main.tf': big(600 * 1024) }),
        /modules\/m\/main\.tf is larger than 524288 bytes/,
      );
      const many = Object.fromEntries(
        [...Array(9).keys()].map((i) => [`f${i}.tf`, big(500 * 1024).replace('"x"', `"x${i}"`)]),
      );
      await expectRefused(name, '1.0.2', await tarGz(many), /larger than 4194304 bytes in all/);
      // READMEs first in the archive, more than the .tf budget of them: the .tf files are still read.
      const readmes: [string, string][] = [...Array(10).keys()].map((i) => [
        i ? `modules/m${i}/README.md` : 'README.md',
        `# ${i}\n${'r'.repeat(500 * 1024)}\n`,
      ]);
      const created = await createVersion(org, name, 'local', '1.1.0');
      const put = await putArchive(
        created.links.upload,
        await tarGzInOrder([
          ...readmes,
          ['main.tf', 'variable "kept" {}\n'],
          ['modules/m1/main.tf', 'variable "sub" {}\n'],
        ]),
      );
      expect(put.status, put.text).to.equal(200);
      const detail = await api('GET', `${protocolPath(org.name, name, 'local')}/1.1.0`, { token: org.owner.token });
      expect(detail.body.root.inputs.map((i: { name: string }) => i.name)).to.deep.equal(['kept']);
      expect(detail.body.root.readme).to.match(/^# 0\n/);
      expect(
        detail.body.submodules
          .find((m: { path: string }) => m.path === 'modules/m1')
          .inputs.map((i: { name: string }) => i.name),
      ).to.deep.equal(['sub']);
    });
  });

  describe('tests and versions', () => {
    it('publishes a version with the test run whose result it carries; refuses a test run of another module and a test of an unpublished version', async () => {
      const name = modName();
      await ensureModule(org, name, 'local');
      const mod = { tests: `/organizations/${org.name}/tests/registry-modules/private/${org.name}/${name}/local` };
      const cv = await api('POST', `${mod.tests}/test-runs/configuration-versions`, { token: org.owner.token });
      expect(
        (await putArchive(cv.body.data.attributes['upload-url'], await tarGz(namingModule('2.0.0')))).status,
      ).to.equal(200);
      const runs = await api('GET', `${mod.tests}/test-runs`, { token: org.owner.token });
      const testRunId = runs.body.data[0].id;

      const created = await api('POST', `${privateModulePath(org.name, name, 'local')}/versions`, {
        token: org.owner.token,
        body: doc(
          'registry-module-versions',
          { version: '2.0.0' },
          { 'test-run': { data: { type: 'test-runs', id: testRunId } } },
        ),
      });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.data.relationships['test-run'].data.id).to.equal(testRunId);

      const elsewhere = modName();
      await ensureModule(org, elsewhere, 'local');
      expectError(
        await api('POST', `${privateModulePath(org.name, elsewhere, 'local')}/versions`, {
          token: org.owner.token,
          body: doc(
            'registry-module-versions',
            { version: '1.0.0' },
            { 'test-run': { data: { type: 'test-runs', id: testRunId } } },
          ),
        }),
        422,
        /not a test run of this module/,
      );
      // The version is still pending (no archive yet): nothing to test.
      expectError(
        await api('POST', `${mod.tests}/versions/2.0.0/test-runs`, {
          token: org.owner.token,
          body: doc('test-runs', {}),
        }),
        422,
        /only a published version/,
      );
      expectError(
        await api('POST', `${mod.tests}/versions/9.9.9/test-runs`, {
          token: org.owner.token,
          body: doc('test-runs', {}),
        }),
        404,
      );
      // Queued test runs of this suite would otherwise be executed by the workers of later suites.
      for (const n of [name, elsewhere])
        await api('DELETE', privateModulePath(org.name, n, 'local'), { token: org.owner.token });
    });

    it('queues many test runs of a version at once without running out of database connections', async () => {
      const name = modName();
      // Incompressible bytes, so the archive spans many chunks of the store and each copy takes a while.
      await publishVersion(org, name, 'local', '1.0.0', {
        ...namingModule('1.0.0'),
        'blob.bin': randomBytes(4 * 1024 * 1024).toString('base64'),
      });
      const tests = `/organizations/${org.name}/tests/registry-modules/private/${org.name}/${name}/local`;
      // More at once than the pool has connections: a copy that held one connection in its
      // transaction while reading the archive through another would starve the pool.
      const answers = await Promise.all(
        [...Array(24).keys()].map(() =>
          api('POST', `${tests}/versions/1.0.0/test-runs`, { token: org.owner.token, body: doc('test-runs', {}) }),
        ),
      );
      expect(answers.map((a) => a.status)).to.deep.equal(answers.map(() => 201));
      const runs = await api('GET', `${tests}/test-runs?page[size]=100`, { token: org.owner.token });
      expect(runs.body.data).to.have.length(24);
      await api('DELETE', privateModulePath(org.name, name, 'local'), { token: org.owner.token });
    });
  });

  describe('access', () => {
    it("another organization's token gets 404 on the module, its versions and every protocol endpoint; no token gets 401", async () => {
      const name = modName();
      await publishVersion(org, name, 'local', '1.0.0', namingModule('1.0.0'));
      const base = protocolPath(org.name, name, 'local');
      for (const path of [`${base}/versions`, `${base}/1.0.0/download`, base, `${base}/1.0.0`]) {
        expectError(await api('GET', path, { token: other.owner.token }), 404);
        expectError(await api('GET', path, { token: null }), 401);
        expectError(await api('GET', path, { token: 'not-a-token' }), 401);
      }
      expectError(
        await api('GET', `${privateModulePath(org.name, name, 'local')}/1.0.0`, { token: other.owner.token }),
        404,
      );
      expectError(
        await api('POST', `${privateModulePath(org.name, name, 'local')}/versions`, {
          token: other.owner.token,
          body: doc('registry-module-versions', { version: '2.0.0' }),
        }),
        404,
      );
      expectError(
        await api('DELETE', `${privateModulePath(org.name, name, 'local')}/1.0.0`, { token: other.owner.token }),
        404,
      );
      // Still there for its own organization.
      expect((await api('GET', `${base}/1.0.0/download`, { token: org.owner.token })).status).to.equal(204);
    });

    it('a member without manage-modules reads the registry and downloads, but cannot publish or delete; permissions say so', async () => {
      const name = modName();
      await publishVersion(org, name, 'local', '1.0.0', namingModule('1.0.0'));
      const member = await createUser();
      await joinOrg(org, member);
      const shown = await api('GET', privateModulePath(org.name, name, 'local'), { token: member.token });
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.data.attributes.permissions).to.deep.equal({
        'can-delete': false,
        'can-resync': false,
        'can-retry': false,
      });
      const owner = await api('GET', privateModulePath(org.name, name, 'local'), { token: org.owner.token });
      expect(owner.body.data.attributes.permissions).to.deep.equal({
        'can-delete': true,
        'can-resync': true,
        'can-retry': true,
      });
      expect(
        (await api('GET', `${protocolPath(org.name, name, 'local')}/1.0.0/download`, { token: member.token })).status,
      ).to.equal(204);
      expectError(
        await api('POST', `${privateModulePath(org.name, name, 'local')}/versions`, {
          token: member.token,
          body: doc('registry-module-versions', { version: '2.0.0' }),
        }),
        404,
      );
      expectError(
        await api('DELETE', `${privateModulePath(org.name, name, 'local')}/1.0.0`, { token: member.token }),
        404,
      );
    });
  });

  describe("a run's own token", () => {
    it("reads its organization's registry protocol only: another organization's modules and the rest of the API are 404, and nothing once revoked", async () => {
      const name = modName();
      await publishVersion(org, name, 'local', '1.0.0', namingModule('1.0.0'));
      await publishVersion(other, name, 'local', '1.0.0', namingModule('1.0.0'));
      const ws = await createWorkspace(org);
      const runId = await startRun(
        ws.id,
        org.owner.token,
        { 'plan-only': true },
        await uploadConfig(ws.id, org.owner.token, { 'main.tf': 'output "x" { value = 1 }\n' }),
      );
      const minted = newPhaseToken(harness().rt, runId, 'plan');
      await minted.insert;
      const as = (method: string, path: string) => api(method, path, { token: minted.secret });

      expect((await as('GET', `${protocolPath(org.name, name, 'local')}/versions`)).status).to.equal(200);
      expect((await as('GET', `${protocolPath(org.name, name, 'local')}/1.0.0/download`)).status).to.equal(204);
      expect((await as('GET', protocolPath(org.name, name, 'local'))).status).to.equal(200);
      for (const path of [
        `${protocolPath(other.name, name, 'local')}/versions`,
        `${protocolPath(other.name, name, 'local')}/1.0.0/download`,
        protocolPath(other.name, name, 'local'),
      ]) {
        expectError(await as('GET', path), 404);
      }
      // The management API stays closed to it, reads and writes alike.
      expectError(await as('GET', privateModulePath(org.name, name, 'local')), 404);
      expectError(await as('GET', `/organizations/${org.name}/registry-modules`), 404);
      expectError(await as('DELETE', `${privateModulePath(org.name, name, 'local')}/1.0.0`), 404);

      await revokePhaseToken(harness().rt, minted.id);
      expectError(await as('GET', `${protocolPath(org.name, name, 'local')}/versions`), 401);
      await api('POST', `/runs/${runId}/actions/discard`, { token: org.owner.token });
    });
  });

  describe('deletion', () => {
    it('deleting a version makes the protocol omit it and its download 404; the module stays', async () => {
      const name = modName();
      await publishVersion(org, name, 'local', '1.0.0', namingModule('1.0.0'));
      await publishVersion(org, name, 'local', '1.1.0', namingModule('1.1.0'));
      const download = await api('GET', `${protocolPath(org.name, name, 'local')}/1.1.0/download`, {
        token: org.owner.token,
      });
      const objects = await rowCounts(['objects']);
      const del = await api('DELETE', `${privateModulePath(org.name, name, 'local')}/1.1.0`, {
        token: org.owner.token,
      });
      expect(del.status, del.text).to.equal(204);
      expect((await rowCounts(['objects'])).objects).to.equal(objects.objects - 1);
      const versions = await api('GET', `${protocolPath(org.name, name, 'local')}/versions`, {
        token: org.owner.token,
      });
      expect(versions.body.modules[0].versions.map((v: { version: string }) => v.version)).to.deep.equal(['1.0.0']);
      expect(
        (await api('GET', `${protocolPath(org.name, name, 'local')}/1.1.0/download`, { token: org.owner.token }))
          .status,
      ).to.equal(404);
      // A download URL handed out before is dead too (the archive is gone).
      expect(
        (await fetch(`${harness().baseUrl}${download.headers.get('x-terraform-get')!.split('?')[0]}`)).status,
      ).to.equal(404);
      expect(
        (await api('GET', protocolPath(org.name, name, 'local'), { token: org.owner.token })).body.version,
      ).to.equal('1.0.0');
      expectError(
        await api('DELETE', `${privateModulePath(org.name, name, 'local')}/1.1.0`, { token: org.owner.token }),
        404,
      );
    });

    it('deletes by every path clients use: a name (all providers), a provider, a version, and the older actions/delete forms', async () => {
      const name = modName();
      for (const provider of ['aws', 'local'])
        await publishVersion(org, name, provider, '1.0.0', namingModule('1.0.0'));
      const exists = async (provider: string) =>
        (await api('GET', privateModulePath(org.name, name, provider), { token: org.owner.token })).status;
      expect(
        (
          await api('DELETE', `/organizations/${org.name}/registry-modules/private/${org.name}/${name}`, {
            token: org.owner.token,
          })
        ).status,
      ).to.equal(204);
      expect([await exists('aws'), await exists('local')]).to.deep.equal([404, 404]);

      for (const provider of ['aws', 'local'])
        await publishVersion(org, name, provider, '1.0.0', namingModule('1.0.0'));
      await publishVersion(org, name, 'local', '1.1.0', namingModule('1.1.0'));
      const action = (suffix: string) =>
        api('POST', `/registry-modules/actions/delete/${org.name}/${name}${suffix}`, { token: org.owner.token });
      expect((await action('/local/1.1.0')).status).to.equal(204);
      expect(
        (await api('GET', `${privateModulePath(org.name, name, 'local')}/1.1.0`, { token: org.owner.token })).status,
      ).to.equal(404);
      expect((await action('/local')).status).to.equal(204);
      expect([await exists('aws'), await exists('local')]).to.deep.equal([200, 404]);
      expect((await action('')).status).to.equal(204);
      expect(await exists('aws')).to.equal(404);
      expectError(await action(''), 404);
      // Another organization's owner cannot delete through the action either.
      await publishVersion(org, name, 'local', '1.0.0', namingModule('1.0.0'));
      expectError(
        await api('POST', `/registry-modules/actions/delete/${org.name}/${name}`, { token: other.owner.token }),
        404,
      );
      expect(await exists('local')).to.equal(200);
    });
  });

  describe('listing', () => {
    it('filters by provider and lists public references beside private modules, resolving to the public registry', async () => {
      const o = await createOrg();
      await publishVersion(o, 'naming', 'local', '1.0.0', namingModule('1.0.0'));
      await ensureModule(o, 'naming', 'aws');
      const pub = await api('POST', `/organizations/${o.name}/registry-modules`, {
        token: o.owner.token,
        body: doc('registry-modules', {
          'registry-name': 'public',
          namespace: 'terraform-aws-modules',
          name: 'vpc',
          provider: 'aws',
        }),
      });
      expect(pub.status, pub.text).to.equal(201);
      expect(pub.body.data.attributes).to.include({
        'registry-name': 'public',
        namespace: 'terraform-aws-modules',
        source: 'registry.terraform.io/terraform-aws-modules/vpc/aws',
      });
      expect(pub.body.data.attributes['version-statuses']).to.deep.equal([]);

      const all = await api('GET', `/organizations/${o.name}/registry-modules`, { token: o.owner.token });
      expect(
        all.body.data.map(
          (m: { attributes: Record<string, string> }) =>
            `${m.attributes['registry-name']}/${m.attributes.name}/${m.attributes.provider}`,
        ),
      ).to.deep.equal(['private/naming/aws', 'private/naming/local', 'public/vpc/aws']);
      const aws = await api('GET', `/organizations/${o.name}/registry-modules?filter[provider]=aws`, {
        token: o.owner.token,
      });
      expect(aws.body.data.map((m: { attributes: Record<string, string> }) => m.attributes.name)).to.deep.equal([
        'naming',
        'vpc',
      ]);
      expect(aws.body.meta.pagination['total-count']).to.equal(2);
      const shown = await api('GET', `/organizations/${o.name}/registry-modules/public/terraform-aws-modules/vpc/aws`, {
        token: o.owner.token,
      });
      expect(shown.status, shown.text).to.equal(200);
      // A public reference has no versions here: nothing to publish, nothing to download.
      expectError(
        await api('POST', `/organizations/${o.name}/registry-modules/public/terraform-aws-modules/vpc/aws/versions`, {
          token: o.owner.token,
          body: doc('registry-module-versions', { version: '1.0.0' }),
        }),
        422,
      );
      expectError(
        await api('GET', '/api/registry/v1/modules/terraform-aws-modules/vpc/aws/versions', { token: o.owner.token }),
        404,
      );
      expect(
        (
          await api('DELETE', `/organizations/${o.name}/registry-modules/public/terraform-aws-modules/vpc/aws`, {
            token: o.owner.token,
          })
        ).status,
      ).to.equal(204);
    });
  });
});
