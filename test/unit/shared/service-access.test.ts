import { expect } from 'chai';
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { prepareWorkdir, type TerraformSettings } from '../../../shared/platform/terraform/runner.js';
import { SERVICE_PATHS } from '../../../shared/platform/config.js';
import { runServiceAccess, tokenVariable } from '../../../shared/runs/service-access.js';
import { tarGz } from '../../helpers/fixtures.js';
import { unsandboxed } from '../../helpers/sandbox.js';

describe('how a run reaches the service (run token, CLI configuration)', () => {
  it('names the token variable as Terraform reads it, and none for a host with a port', () => {
    expect(tokenVariable('tfe.example.com')).to.equal('TF_TOKEN_tfe_example_com');
    expect(tokenVariable('my-tfe.example.com')).to.equal('TF_TOKEN_my__tfe_example_com');
    expect(tokenVariable('127.0.0.1:8080')).to.equal(null);
    expect(tokenVariable('localhost:8080')).to.equal(null);
  });

  it("maps BASE_URL's host to every service under RUN_API_URL, with the token as its credentials", () => {
    const access = runServiceAccess(
      { baseUrl: 'https://TFE.example.com', runApiUrl: 'http://10.1.2.3:8080' },
      'abc.atlasv1.def',
    );
    expect(access.hostname).to.equal('tfe.example.com');
    expect(access.env).to.deep.equal({ TF_TOKEN_tfe_example_com: 'abc.atlasv1.def' });
    expect(access.cliConfig).to.include('host "tfe.example.com" {');
    for (const [id, path] of Object.entries(SERVICE_PATHS))
      expect(access.cliConfig).to.include(`"${id}" = "http://10.1.2.3:8080${path}"`);
    expect(access.cliConfig).to.match(/credentials "tfe.example.com" \{\n {2}token = "abc.atlasv1.def"\n\}/);

    const local = runServiceAccess({ baseUrl: 'http://127.0.0.1:4321', runApiUrl: 'http://192.0.2.2:4321' }, 't');
    expect(local.hostname).to.equal('127.0.0.1:4321');
    expect(local.env).to.deep.equal({});
    expect(local.cliConfig).to.include('"tfe.v2.1" = "http://192.0.2.2:4321/api/v2/"');
  });

  it('maps each of SERVICE_HOSTNAMES too (module sources may name the service by another host), with the same token', () => {
    const access = runServiceAccess(
      {
        baseUrl: 'https://tfe.example.com',
        runApiUrl: 'http://10.1.2.3:8080',
        serviceHostnames: ['Registry.Example.com', 'tfe.example.com'],
      },
      'tok',
    );
    expect(access.hostname).to.equal('tfe.example.com');
    expect(access.cliConfig.match(/^host "/gm)).to.have.length(2);
    expect(access.cliConfig).to.include('host "registry.example.com" {');
    expect(access.cliConfig).to.include('"modules.v1" = "http://10.1.2.3:8080/api/registry/v1/modules/"');
    expect(access.cliConfig).to.match(/credentials "registry.example.com" \{\n {2}token = "tok"\n\}/);
    expect(access.env).to.deep.equal({ TF_TOKEN_tfe_example_com: 'tok', TF_TOKEN_registry_example_com: 'tok' });
  });

  describe('a working directory with the service', () => {
    let base: string;
    before(() => {
      base = realpathSync(mkdtempSync(join(tmpdir(), 'service-access-test-')));
    });
    after(() => rmSync(base, { recursive: true, force: true }));

    it("writes the run's CLI configuration after the operator's, and its variables win over the workspace's", async () => {
      const operator = join(base, 'operator.tfrc');
      writeFileSync(operator, 'provider_installation {\n  direct {}\n}\n');
      const settings: TerraformSettings = {
        bin: 'terraform',
        cliConfigFile: operator,
        sandbox: unsandboxed(),
        maxArchiveEntries: 100,
        workRoot: join(base, 'runs'),
      };
      const access = runServiceAccess(
        { baseUrl: 'https://tfe.example.com', runApiUrl: 'https://tfe.example.com' },
        'run-secret',
      );
      const wd = await prepareWorkdir(settings, {
        archive: Readable.from([await tarGz({ 'main.tf': '' })]),
        workingDirectory: '',
        environment: {
          TF_TOKEN_tfe_example_com: 'from-the-workspace',
          TF_CLI_CONFIG_FILE: '/elsewhere',
          OTHER: 'kept',
        },
        service: access,
      });
      try {
        expect(wd.env.TF_TOKEN_tfe_example_com).to.equal('run-secret');
        expect(wd.env.OTHER).to.equal('kept');
        expect(wd.env.TF_CLI_CONFIG_FILE).to.equal(join(wd.root, 'cli.tfrc'));
        const written = readFileSync(wd.env.TF_CLI_CONFIG_FILE!, 'utf8');
        expect(written.indexOf('provider_installation')).to.be.lessThan(written.indexOf('host "tfe.example.com"'));
        expect(written).to.include('token = "run-secret"');
        expect(statSync(wd.env.TF_CLI_CONFIG_FILE!).mode & 0o777).to.equal(0o600);
      } finally {
        await wd.cleanup();
      }
    });
  });
});
