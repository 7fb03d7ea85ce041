import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, doc } from '../helpers/api.js';
import { uniq } from '../helpers/fixtures.js';
import { waitFor } from '../helpers/processes.js';
import { CLI_HOST, terraform, writeCliConfig } from '../helpers/terraform.js';
import { namingModule, privateModulePath } from '../helpers/registry.js';
import { vcsSuite } from '../helpers/vcs.js';
import { deliverAsGitHub, GITHUB_API, githubPullRequest, githubTagPush, mockGitHub } from '../helpers/vcs-github.js';
import { modulePaths, waitForTestRun } from '../helpers/module-tests.js';

const TOKEN = 'ghp_module_repository_token';

describe("registry modules published from a repository's tags", function () {
  this.timeout(240_000);
  const suite = vcsSuite({ serviceProvider: 'github', apiUrl: GITHUB_API, token: TOKEN }, mockGitHub(TOKEN));
  let base: string;

  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'rls-vcs-modules-'));
  });
  after(async () => {
    if (base) await rm(base, { recursive: true, force: true });
  });

  const versionsOf = async (name: string, provider: string) => {
    const res = await api('GET', privateModulePath(suite.org.name, name, provider), { token: suite.org.owner.token });
    return res.body.data.attributes['version-statuses'] as { version: string; status: string }[];
  };

  it('publishes the tags it has, then each tag pushed, and terraform init installs the latest', async () => {
    const name = uniq('naming').replace(/-/g, '');
    const identifier = `acme/terraform-local-${name}`;
    await suite.git.createRepo(identifier);
    await suite.git.tag(identifier, 'v1.0.0', await suite.git.commit(identifier, 'main', namingModule('1.0.0')));
    await suite.git.tag(identifier, 'v1.1.0', await suite.git.commit(identifier, 'main', namingModule('1.1.0')));
    await suite.git.tag(identifier, 'not-a-version', 'main');

    const created = await api('POST', `/organizations/${suite.org.name}/registry-modules/vcs`, {
      token: suite.org.owner.token,
      body: doc('registry-modules', {
        'vcs-repo': { identifier, 'oauth-token-id': suite.tokenId, 'display-identifier': identifier },
      }),
    });
    expect(created.status, created.text).to.equal(201);
    expect(created.body.data.attributes).to.include({ name, provider: 'local', 'publishing-mechanism': 'git_tag' });
    expect(created.body.data.attributes['vcs-repo']).to.include({ identifier, 'oauth-token-id': suite.tokenId });
    await waitFor(
      async () => {
        const versions = await versionsOf(name, 'local');
        return versions.length === 2 && versions.every((v) => v.status === 'ok');
      },
      'versions 1.0.0 and 1.1.0 published',
      60_000,
    );
    await waitFor(() => suite.hooks.some((h) => h.identifier === identifier), 'the webhook');

    const sha = await suite.git.commit(identifier, 'main', namingModule('1.2.0'));
    await suite.git.tag(identifier, 'v1.2.0', sha);
    const hook = suite.hookOf(identifier);
    const delivered = await deliverAsGitHub(
      hook.url,
      hook.secret,
      'push',
      githubTagPush(suite.git, identifier, 'v1.2.0', sha),
    );
    expect(delivered.status).to.equal(200);
    await waitFor(
      async () => (await versionsOf(name, 'local')).some((v) => v.version === '1.2.0' && v.status === 'ok'),
      'version 1.2.0 published from its tag',
      60_000,
    );
    expect((await versionsOf(name, 'local')).map((v) => v.version).sort()).to.deep.equal(['1.0.0', '1.1.0', '1.2.0']);

    const dir = join(base, 'consumer');
    await mkdir(dir);
    const env = await writeCliConfig(dir, suite.org.owner.token);
    await writeFile(
      join(dir, 'main.tf'),
      `module "n" {\n  source  = "${CLI_HOST}/${suite.org.name}/${name}/local"\n  version = "~> 1.0"\n  suffix  = "web"\n}\noutput "version" { value = module.n.version }\n`,
    );
    const init = await terraform(dir, env, ['init', '-input=false', '-no-color']);
    expect(init.code, init.output).to.equal(0);
    expect(init.output).to.include(`Downloading ${CLI_HOST}/${suite.org.name}/${name}/local 1.2.0 for n...`);
  });

  it('tests the module with the commit of a pull request against its repository', async () => {
    const name = uniq('naming').replace(/-/g, '');
    const identifier = `acme/terraform-local-${name}`;
    await suite.git.createRepo(identifier);
    await suite.git.tag(identifier, 'v1.0.0', await suite.git.commit(identifier, 'main', namingModule('1.0.0')));
    const created = await api('POST', `/organizations/${suite.org.name}/registry-modules/vcs`, {
      token: suite.org.owner.token,
      body: doc('registry-modules', { 'vcs-repo': { identifier, 'oauth-token-id': suite.tokenId } }),
    });
    expect(created.status, created.text).to.equal(201);
    await waitFor(() => suite.hooks.some((h) => h.identifier === identifier), 'the webhook');
    const sha = await suite.git.commit(identifier, 'feature', {
      ...namingModule('1.1.0'),
      'tests/name.tftest.hcl':
        'variables {\n  suffix = "t"\n}\nrun "named" {\n  assert {\n    condition     = output.name == "app-t"\n    error_message = "wrong name"\n  }\n}\n',
    });
    const hook = suite.hookOf(identifier);
    const delivered = await deliverAsGitHub(
      hook.url,
      hook.secret,
      'pull_request',
      githubPullRequest(identifier, sha, 'main'),
    );
    expect(delivered.status).to.equal(200);
    expect(delivered.body['configuration-version-ids']).to.have.length(1);

    const mod = {
      id: created.body.data.id,
      org: suite.org.name,
      name,
      provider: 'local',
      ...modulePaths(suite.org.name, name, 'local'),
    };
    const runs = async () =>
      (await api('GET', `${mod.tests}/test-runs`, { token: suite.org.owner.token })).body.data as {
        id: string;
        attributes: Record<string, unknown>;
      }[];
    await waitFor(async () => (await runs()).length === 1, 'the test run of the pull request');
    const [run] = await runs();
    expect(run.attributes.source).to.equal('tfe-configuration-version');
    const done = await waitForTestRun(mod, suite.org.owner.token, run.id, ['finished', 'errored'], 120_000);
    expect(done.attributes).to.include({ status: 'finished', 'test-status': 'pass' });
    // Testing publishes nothing: the module's versions are its tags'.
    expect((await versionsOf(name, 'local')).map((v) => v.version)).to.deep.equal(['1.0.0']);
  });

  it('refuses a repository not named as a module with 422, creating nothing', async () => {
    const res = await api('POST', `/organizations/${suite.org.name}/registry-modules/vcs`, {
      token: suite.org.owner.token,
      body: doc('registry-modules', { 'vcs-repo': { identifier: 'acme/network', 'oauth-token-id': suite.tokenId } }),
    });
    expect(res.status, res.text).to.equal(422);
    expect(res.body.errors[0].source.pointer).to.equal('/data/attributes/vcs-repo/identifier');
  });
});
