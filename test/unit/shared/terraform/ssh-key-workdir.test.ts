import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { prepareWorkdir, sshKeyEnv, type TerraformSettings } from '../../../../shared/platform/terraform/runner.js';
import { tarGz } from '../../../helpers/fixtures.js';
import { unsandboxed } from '../../../helpers/sandbox.js';

describe("working directories: the workspace's SSH key", () => {
  let settings: TerraformSettings;
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'workdir-ssh-test-'));
    settings = { bin: 'terraform', cliConfigFile: null, sandbox: unsandboxed(), maxArchiveEntries: 50, workRoot: root };
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const prepare = async (sshKey: string | null, environment: Record<string, string> = {}) =>
    prepareWorkdir(settings, {
      archive: Readable.from([await tarGz({ 'main.tf': '' })]),
      workingDirectory: '',
      sshKey,
      environment,
    });

  it('writes the key into a private file beside the configuration, names it in GIT_SSH_COMMAND over a workspace variable of that name, and removes it with the directory', async () => {
    const wd = await prepare('-----BEGIN OPENSSH PRIVATE KEY-----\r\nAAAA\r\n-----END OPENSSH PRIVATE KEY-----', {
      GIT_SSH_COMMAND: 'ssh -i /elsewhere',
    });
    const file = join(wd.root, 'ssh', 'id_key');
    expect(readFileSync(file, 'utf8')).to.equal(
      '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n',
    );
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    expect(statSync(join(wd.root, 'ssh')).mode & 0o777).to.equal(0o700);
    expect(file.startsWith(wd.dir)).to.equal(false);
    expect(wd.env.GIT_SSH_COMMAND).to.equal(sshKeyEnv(wd.root, 'key').GIT_SSH_COMMAND);
    expect(wd.env.GIT_SSH_COMMAND)
      .to.include(`-i '${file}'`)
      .and.include('IdentitiesOnly=yes')
      .and.include('BatchMode=yes');
    await wd.cleanup();
    expect(existsSync(file)).to.equal(false);
  });

  it('writes nothing and sets nothing without a key (a workspace variable GIT_SSH_COMMAND then stays)', async () => {
    const wd = await prepare(null, { GIT_SSH_COMMAND: 'ssh -p 2222' });
    expect(existsSync(join(wd.root, 'ssh'))).to.equal(false);
    expect(wd.env.GIT_SSH_COMMAND).to.equal('ssh -p 2222');
    await wd.cleanup();
  });

  it('quotes the paths for the shell git runs the command with', () => {
    expect(sshKeyEnv("/tmp/it's here", 'key').GIT_SSH_COMMAND).to.include(`-i '/tmp/it'\\''s here/ssh/id_key'`);
    expect(sshKeyEnv('/tmp/x', null)).to.deep.equal({});
  });
});
