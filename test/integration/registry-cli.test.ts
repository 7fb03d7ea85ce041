import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { api, doc } from '../helpers/api.js';
import { inspectArchive } from '../../shared/platform/archive.js';
import { harness, startSecondApp } from '../helpers/harness.js';
import { createOrg, createUser, uniq } from '../helpers/fixtures.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { CLI_HOST, terraform, terraformAvailable, waitForRun, writeCliConfig } from '../helpers/terraform.js';
import { waitForTestRun, type Org, type TestModule } from '../helpers/module-tests.js';
import { namingModule, privateModulePath, protocolPath, publishVersion } from '../helpers/registry.js';

/** The `acme` organization when its name is free in this run's database, otherwise one like it. */
async function acme(): Promise<Org> {
  const owner = await createUser();
  for (const name of ['acme', uniq('acme')]) {
    const res = await api('POST', '/organizations', {
      token: owner.token,
      body: doc('organizations', { name, email: `${name}@example.test` }),
    });
    if (res.status === 201) return { name, owner };
  }
  throw new Error('could not create an organization');
}

const rootModule = (org: string) => `module "n" {
  source  = "${CLI_HOST}/${org}/naming/local"
  version = "~> 1.0"
  suffix  = "web"
}
output "name" { value = module.n.name }
output "version" { value = module.n.version }
`;

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

describe('the private module registry with the real terraform CLI: publish, consume (locally and in a remote run), test', function () {
  this.timeout(300_000);
  let worker: WorkerProcess;
  let base: string;
  let org: Org;

  before(async function () {
    if (!terraformAvailable()) this.skip();
    // Configurations name the service as CLI_HOST: runs' CLI configuration maps it too.
    worker = spawnWorkers(['run-pipeline', 'test-run-execution', 'deadline-expiry'], {
      RECONCILE_INTERVAL_MS: '2000',
      SERVICE_HOSTNAMES: CLI_HOST,
    });
    await workersReady(worker);
    base = await mkdtemp(join(tmpdir(), 'rls-registry-cli-'));
    org = await acme();
    await publishVersion(org, 'naming', 'local', '1.0.0', namingModule('1.0.0'));
    await publishVersion(org, 'naming', 'local', '1.1.0', namingModule('1.1.0'));
  });

  after(async () => {
    await worker?.stop();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('terraform init downloads the latest matching version (1.1.0) through the service, and apply uses it', async () => {
    const dir = join(base, 'local');
    await mkdir(dir);
    const env = await writeCliConfig(dir, org.owner.token);
    await writeFile(join(dir, 'main.tf'), rootModule(org.name));

    const init = await terraform(dir, env, ['init', '-input=false', '-no-color']);
    expect(init.code, init.output).to.equal(0);
    expect(init.output).to.include(`Downloading ${CLI_HOST}/${org.name}/naming/local 1.1.0 for n...`);

    const apply = await terraform(dir, env, ['apply', '-auto-approve', '-input=false', '-no-color']);
    expect(apply.code, apply.output).to.equal(0);
    const output = await terraform(dir, env, ['output', '-json']);
    const values = JSON.parse(output.output);
    expect([values.name.value, values.version.value]).to.deep.equal(['app-web', '1.1.0']);

    // Another organization's credentials: the module does not exist for them.
    const stranger = await createOrg();
    const otherDir = join(base, 'stranger');
    await mkdir(otherDir);
    const otherEnv = await writeCliConfig(otherDir, stranger.owner.token);
    await writeFile(join(otherDir, 'main.tf'), rootModule(org.name));
    const refused = await terraform(otherDir, otherEnv, ['init', '-input=false', '-no-color']);
    expect(refused.code, refused.output).to.equal(1);
    expect(refused.output).to.match(/Module not found|does not exist|not found/i);
  });

  it("the registry names a module by BASE_URL's host, and terraform init installs it by that source when the CLI knows the service by that host", async () => {
    // An API on this run's database whose BASE_URL names a host of its own (not where it listens):
    // the address it shows, and the one the CLI resolves, follow BASE_URL.
    const host = 'registry.rls-base.test';
    const app = await startSecondApp({ BASE_URL: `http://${host}` });
    try {
      const shown = await api('GET', `${app.api}${privateModulePath(org.name, 'naming', 'local')}`, {
        token: org.owner.token,
      });
      expect(shown.status, shown.text).to.equal(200);
      const source = shown.body.data.attributes.source;
      expect(source).to.equal(`${host}/${org.name}/naming/local`);
      const detail = await api('GET', `${app.baseUrl}${protocolPath(org.name, 'naming', 'local')}/1.1.0`, {
        token: org.owner.token,
      });
      expect(detail.body.source).to.equal(source);

      const dir = join(base, 'base-url');
      await mkdir(dir);
      await writeFile(
        join(dir, 'cli.tfrc'),
        `host "${host}" {\n  services = {\n    "modules.v1" = "${app.baseUrl}/api/registry/v1/modules/"\n  }\n}\n`,
      );
      await writeFile(
        join(dir, 'main.tf'),
        `module "n" {\n  source  = "${source}"\n  version = "~> 1.0"\n  suffix  = "base"\n}\noutput "name" { value = module.n.name }\n`,
      );
      // The token as Terraform also reads it, TF_TOKEN_<host> (dots as _, hyphens as __).
      const env = {
        PATH: process.env.PATH,
        HOME: dir,
        TF_CLI_CONFIG_FILE: join(dir, 'cli.tfrc'),
        TF_TOKEN_registry_rls__base_test: org.owner.token,
        TF_IN_AUTOMATION: '1',
        CHECKPOINT_DISABLE: '1',
      };
      const init = await terraform(dir, env, ['init', '-input=false', '-no-color']);
      expect(init.code, init.output).to.equal(0);
      expect(init.output).to.include(`Downloading ${source} 1.1.0 for n...`);
      const apply = await terraform(dir, env, ['apply', '-auto-approve', '-input=false', '-no-color']);
      expect(apply.code, apply.output).to.equal(0);
      expect(apply.output).to.match(/name = "app-base"/);
    } finally {
      await app.close();
    }
  });

  it('a cloud-block workspace run installs the module inside its sandbox through the service, with its own run token', async () => {
    const dir = join(base, 'cloud');
    await mkdir(dir);
    const env = await writeCliConfig(dir, org.owner.token);
    const workspace = uniq('consumer');
    await writeFile(
      join(dir, 'main.tf'),
      `terraform {\n  cloud {\n    hostname     = "${CLI_HOST}"\n    organization = "${org.name}"\n    workspaces { name = "${workspace}" }\n  }\n}\n${rootModule(org.name)}`,
    );
    // The uploaded configuration leaves out the modules the local init installed, so the run's
    // own init must fetch them from the registry (as it does for a VCS or API upload).
    await writeFile(join(dir, '.terraformignore'), '.terraform/\n');

    const init = await terraform(dir, env, ['init', '-input=false', '-no-color']);
    expect(init.code, init.output).to.equal(0);
    const apply = await terraform(dir, env, ['apply', '-auto-approve', '-input=false', '-no-color']);
    expect(apply.code, apply.output).to.equal(0);
    expect(apply.output).to.include('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect(apply.output).to.match(/name\s+=\s+"app-web"/);
    expect(apply.output).to.match(/version\s+=\s+"1\.1\.0"/);

    const ws = await api('GET', `/organizations/${org.name}/workspaces/${workspace}`, { token: org.owner.token });
    const runs = await api('GET', `/workspaces/${ws.body.data.id}/runs`, { token: org.owner.token });
    const run = await waitForRun(runs.body.data[0].id, org.owner.token, ['applied']);
    expect(run.attributes.status).to.equal('applied');
    // What the run was given holds no installed module: its init fetched 1.1.0 from the registry.
    const cvId = runs.body.data[0].relationships['configuration-version'].data.id;
    const download = await api('GET', `/configuration-versions/${cvId}/download`, { token: org.owner.token });
    expect(download.status, download.text).to.equal(302);
    const archive = Buffer.from(
      await (await fetch(`${harness().baseUrl}${new URL(download.headers.get('location')!).pathname}`)).arrayBuffer(),
    );
    const entries = (await inspectArchive(archive, 10 * 1024 * 1024)) as { ok: true; files: string[] };
    expect(entries.files).to.include('main.tf');
    expect(entries.files.filter((f) => f.startsWith('.terraform/'))).to.deep.equal([]);
    const outputs = await api('GET', `/workspaces/${ws.body.data.id}/current-state-version-outputs`, {
      token: org.owner.token,
    });
    expect(outputs.status, outputs.text).to.equal(200);
    const byName = Object.fromEntries(
      outputs.body.data.map((o: { attributes: { name: string; value: unknown } }) => [
        o.attributes.name,
        o.attributes.value,
      ]),
    );
    expect(byName).to.deep.equal({ name: 'app-web', version: '1.1.0' });
  });

  it("terraform test -cloud-run still runs the module's tests on the service; a test run of a published version records its result on the version", async () => {
    const dir = join(base, 'module');
    await mkdir(dir);
    const env = await writeCliConfig(dir, org.owner.token);
    await writeFiles(dir, namingModule('1.1.0'));
    const remote = await terraform(dir, env, ['test', '-no-color', `-cloud-run=${CLI_HOST}/${org.name}/naming/local`]);
    expect(remote.code, remote.output).to.equal(0);
    expect(remote.output).to.include('composes... pass');
    expect(remote.output).to.include('Success! 1 passed, 0 failed.');

    const mod: TestModule = {
      id: '',
      org: org.name,
      name: 'naming',
      provider: 'local',
      tests: `/organizations/${org.name}/tests/registry-modules/private/${org.name}/naming/local`,
      self: privateModulePath(org.name, 'naming', 'local'),
    };
    const started = await api('POST', `${mod.tests}/versions/1.1.0/test-runs`, {
      token: org.owner.token,
      body: doc('test-runs', {}),
    });
    expect(started.status, started.text).to.equal(201);
    expect(started.body.data.attributes['module-version-id']).to.be.a('string');
    const done = await waitForTestRun(mod, org.owner.token, started.body.data.id, ['finished', 'errored'], 120_000);
    expect([done.attributes.status, done.attributes['test-status'], done.attributes['tests-passed']]).to.deep.equal([
      'finished',
      'pass',
      1,
    ]);

    const version = await api('GET', `${mod.self}/1.1.0`, { token: org.owner.token });
    expect(version.body.data.relationships['test-run'].data.id).to.equal(started.body.data.id);
    expect(version.body.data.attributes['test-status']).to.equal('pass');
    const shown = await api('GET', mod.self, { token: org.owner.token });
    const status = shown.body.data.attributes['version-statuses'].find(
      (v: { version: string }) => v.version === '1.1.0',
    );
    expect(status).to.deep.equal({ version: '1.1.0', status: 'ok' });
  });
});
