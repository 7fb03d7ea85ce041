import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { api } from '../helpers/api.js';
import { createOrg, createWorkspace, uniq } from '../helpers/fixtures.js';
import { CLI_HOST, terraform, terraformAvailable, writeCliConfig } from '../helpers/terraform.js';

type Org = Awaited<ReturnType<typeof createOrg>>;

/** Runs the CLI with `answers` on its standard input (the cloud migration asks for approval; -input=false refuses it). */
function terraformAnswering(
  dir: string,
  env: NodeJS.ProcessEnv,
  args: string[],
  answers: string,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('terraform', args, { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, output });
    });
    child.stdin.end(answers);
  });
}

const cloudBlock = (org: string, workspace: string) =>
  `terraform {\n  cloud {\n    hostname     = "${CLI_HOST}"\n    organization = "${org}"\n    workspaces { name = "${workspace}" }\n  }\n}\n`;

/** A local state file as Terraform writes it, with one output. */
const localState = (serial: number, lineage: string, value: string) =>
  `${JSON.stringify({ version: 4, terraform_version: '1.11.4', serial, lineage, outputs: { x: { value, type: 'string' } }, resources: [], check_results: null }, null, 2)}\n`;

describe('the terraform CLI reads and writes state through the state version endpoints', function () {
  this.timeout(300_000);
  let dirs: string[] = [];

  before(function () {
    if (!terraformAvailable()) this.skip();
  });
  afterEach(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    dirs = [];
  });

  async function workdir(org: Org, workspace: string, body = ''): Promise<{ dir: string; env: NodeJS.ProcessEnv }> {
    const dir = await mkdtemp(join(tmpdir(), 'rls-state-'));
    dirs.push(dir);
    const env = await writeCliConfig(dir, org.owner.token);
    await writeFile(join(dir, 'main.tf'), `${cloudBlock(org.name, workspace)}${body}`);
    return { dir, env };
  }

  const workspaceNamed = async (org: Org, name: string) =>
    (await api('GET', `/organizations/${org.name}/workspaces/${name}`, { token: org.owner.token })).body.data;

  it('pushes a local state (state push), pulls it back (state pull) and releases the lock', async () => {
    const org = await createOrg();
    const ws = await createWorkspace(org, { 'execution-mode': 'local' });
    const { dir, env } = await workdir(org, ws.name);
    const init = await terraform(dir, env, ['init', '-input=false', '-no-color']);
    expect(init.code, init.output).to.equal(0);

    const lineage = randomUUID();
    await writeFile(join(dir, 'pushed.tfstate'), localState(4, lineage, 'pushed'));
    const push = await terraform(dir, env, ['state', 'push', '-no-color', 'pushed.tfstate']);
    expect(push.code, push.output).to.equal(0);

    // Into an empty workspace the CLI writes the pushed resources as a new state (its own serial and lineage).
    const current = await api('GET', `/workspaces/${ws.id}/current-state-version`, { token: org.owner.token });
    expect(current.body.data.attributes.status).to.equal('finalized');
    expect((await workspaceNamed(org, ws.name)).attributes.locked).to.equal(false);

    const pull = await terraform(dir, env, ['state', 'pull']);
    expect(pull.code, pull.output).to.equal(0);
    const pulled = JSON.parse(pull.output);
    expect(pulled).to.include({
      serial: current.body.data.attributes.serial,
      lineage: current.body.data.attributes.lineage,
    });
    expect(pulled.outputs.x.value).to.equal('pushed');

    // A later state of the same lineage replaces it.
    await writeFile(join(dir, 'next.tfstate'), localState(pulled.serial + 5, pulled.lineage, 'next'));
    const next = await terraform(dir, env, ['state', 'push', '-no-color', 'next.tfstate']);
    expect(next.code, next.output).to.equal(0);
    const outputs = await api('GET', `/workspaces/${ws.id}/current-state-version-outputs`, { token: org.owner.token });
    expect(outputs.body.data.map((o: { attributes: { value: unknown } }) => o.attributes.value)).to.deep.equal([
      'next',
    ]);
    const versions = await api('GET', `/workspaces/${ws.id}/state-versions`, { token: org.owner.token });
    expect(versions.body.data.map((d: { attributes: { serial: number } }) => d.attributes.serial)[0]).to.be.greaterThan(
      pulled.serial,
    );
    void lineage;

    // A state of another lineage is refused by the CLI; a lower serial too, unless forced.
    await writeFile(join(dir, 'other.tfstate'), localState(9, randomUUID(), 'other'));
    const refused = await terraform(dir, env, ['state', 'push', '-no-color', 'other.tfstate']);
    expect(refused.code, refused.output).to.not.equal(0);
    expect((await workspaceNamed(org, ws.name)).attributes.locked).to.equal(false);
  });

  it('migrates a local state into a new workspace on init (approved on standard input; -input=false refuses it)', async () => {
    const org = await createOrg();
    const name = uniq('migrated');
    const dir = await mkdtemp(join(tmpdir(), 'rls-state-'));
    dirs.push(dir);
    const env = await writeCliConfig(dir, org.owner.token);
    const config = `resource "terraform_data" "a" { input = "kept" }\noutput "x" { value = terraform_data.a.output }\n`;
    await writeFile(join(dir, 'main.tf'), config);
    const localInit = await terraform(dir, env, ['init', '-input=false', '-no-color']);
    expect(localInit.code, localInit.output).to.equal(0);
    const localApply = await terraform(dir, env, ['apply', '-auto-approve', '-input=false', '-no-color']);
    expect(localApply.code, localApply.output).to.equal(0);
    const local = JSON.parse(await readFile(join(dir, 'terraform.tfstate'), 'utf8')) as {
      serial: number;
      lineage: string;
    };

    await writeFile(join(dir, 'main.tf'), `${cloudBlock(org.name, name)}${config}`);
    const init = await terraformAnswering(dir, env, ['init', '-no-color'], 'yes\n');
    expect(init.code, init.output).to.equal(0);
    expect(init.output).to.include('Should Terraform migrate your existing state?');

    const ws = await workspaceNamed(org, name);
    expect(ws.attributes.locked).to.equal(false);
    const current = await api('GET', `/workspaces/${ws.id}/current-state-version-outputs`, { token: org.owner.token });
    expect(
      current.body.data.map((o: { attributes: { name: string; value: unknown } }) => [
        o.attributes.name,
        o.attributes.value,
      ]),
    ).to.deep.equal([['x', 'kept']]);
    // The CLI copies the resources into a new snapshot of the empty workspace (its own lineage).
    const sv = await api('GET', `/workspaces/${ws.id}/current-state-version`, { token: org.owner.token });
    expect(sv.body.data.attributes.status).to.equal('finalized');
    expect(sv.body.data.attributes.serial).to.be.at.least(1);
    expect(local.serial).to.be.at.least(1);
  });

  it('applies locally in a local-mode workspace: locks, stores the state (with its JSON state), unlocks', async () => {
    const org = await createOrg();
    const ws = await createWorkspace(org, { 'execution-mode': 'local' });
    const { dir, env } = await workdir(
      org,
      ws.name,
      `resource "terraform_data" "a" { input = "local" }\noutput "x" { value = terraform_data.a.output }\n`,
    );
    expect((await terraform(dir, env, ['init', '-input=false', '-no-color'])).code).to.equal(0);
    const apply = await terraform(dir, env, ['apply', '-auto-approve', '-input=false', '-no-color']);
    expect(apply.code, apply.output).to.equal(0);
    expect(apply.output).to.include('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');

    const sv = await api('GET', `/workspaces/${ws.id}/current-state-version`, { token: org.owner.token });
    expect(sv.body.data.attributes.status).to.equal('finalized');
    expect(sv.body.data.attributes['hosted-json-state-download-url']).to.be.a('string');
    expect(sv.body.included.map((o: { attributes: { value: unknown } }) => o.attributes.value)).to.deep.equal([
      'local',
    ]);
    expect((await workspaceNamed(org, ws.name)).attributes.locked).to.equal(false);
    // No remote run was made.
    expect((await api('GET', `/workspaces/${ws.id}/runs`, { token: org.owner.token })).body.data).to.have.length(0);

    const again = await terraform(dir, env, ['plan', '-input=false', '-no-color', '-detailed-exitcode']);
    expect(again.code, again.output).to.equal(0);
  });

  it('force-unlocks a workspace locked through the API (terraform force-unlock)', async () => {
    const org = await createOrg();
    const ws = await createWorkspace(org, { 'execution-mode': 'local' });
    const { dir, env } = await workdir(org, ws.name);
    expect((await terraform(dir, env, ['init', '-input=false', '-no-color'])).code).to.equal(0);
    expect(
      (await api('POST', `/workspaces/${ws.id}/actions/lock`, { token: org.owner.token, body: { reason: 'stuck' } }))
        .status,
    ).to.equal(200);
    const blocked = await terraform(dir, env, ['state', 'push', '-no-color', '-lock-timeout=0s', '/dev/null']);
    expect(blocked.code).to.not.equal(0);
    const unlocked = await terraform(dir, env, ['force-unlock', '-force', '-no-color', `${org.name}/${ws.name}`]);
    expect(unlocked.code, unlocked.output).to.equal(0);
    expect((await workspaceNamed(org, ws.name)).attributes.locked).to.equal(false);
  });
});
