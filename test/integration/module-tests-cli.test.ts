import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, doc } from '../helpers/api.js';
import { createOrg, uniq } from '../helpers/fixtures.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { CLI_HOST, terraform, terraformAvailable, writeCliConfig } from '../helpers/terraform.js';

const MAIN_TF = `variable "name" {
  type    = string
  default = "nobody"
}
resource "terraform_data" "greeting" { input = "hello \${var.name}" }
output "greeting" { value = terraform_data.greeting.output }
`;

const test = (expected: string) => `run "greets" {
  assert {
    condition     = output.greeting == "${expected}"
    error_message = "unexpected greeting \${output.greeting}"
  }
}
`;

/**
 * The result lines of each file and run block and the summary. A local run prints a run block as
 * `run "name"... pass`, a remote one as `name... pass`; both are reduced to the latter.
 */
const resultLines = (output: string) =>
  output
    .split('\n')
    .filter((l) => /^\s*(tests\/\S+\.\.\. |(run )?"?\w+"?\.\.\. (pass|fail|skip|error))|^(Success|Failure)!/.test(l))
    .map((l) =>
      l
        .replace(/^(\s*)run "/, '$1')
        .replace(/"/g, '')
        .trimEnd(),
    );

describe("terraform test -cloud-run runs a module's tests on the service (real CLI)", function () {
  this.timeout(300_000);
  let worker: WorkerProcess;
  let dir: string;

  before(async function () {
    if (!terraformAvailable()) this.skip();
    worker = spawnWorkers(['test-run-execution', 'deadline-expiry'], { RECONCILE_INTERVAL_MS: '2000' });
    await workersReady(worker);
    dir = await mkdtemp(join(tmpdir(), 'rls-cli-test-'));
  });

  after(async () => {
    await worker?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('prints the same results and summary as a local terraform test, exit 0 on pass and 1 on failure', async () => {
    const org = await createOrg();
    const name = uniq('greeter').replace(/-/g, '');
    const mod = await api('POST', `/organizations/${org.name}/registry-modules`, {
      token: org.owner.token,
      body: doc('registry-modules', { name, provider: 'null', 'registry-name': 'private', namespace: org.name }),
    });
    expect(mod.status, mod.text).to.equal(201);
    const env = await writeCliConfig(dir, org.owner.token);
    await writeFile(join(dir, 'main.tf'), MAIN_TF);
    await mkdir(join(dir, 'tests'), { recursive: true });
    const source = `-cloud-run=${CLI_HOST}/${org.name}/${name}/null`;

    await writeFile(join(dir, 'tests', 'basic.tftest.hcl'), test('hello world'));
    const local = await terraform(dir, env, ['test', '-no-color', '-var', 'name=world']);
    const remote = await terraform(dir, env, ['test', '-no-color', '-var', 'name=world', source]);
    expect(remote.code, remote.output).to.equal(0);
    expect(remote.output).to.include('  greets... pass');
    expect(remote.output).to.include('Success! 1 passed, 0 failed.');
    expect(resultLines(remote.output)).to.deep.equal(resultLines(local.output));

    await writeFile(join(dir, 'tests', 'basic.tftest.hcl'), test('hello stranger'));
    const localFail = await terraform(dir, env, ['test', '-no-color', '-var', 'name=world']);
    const remoteFail = await terraform(dir, env, ['test', '-no-color', '-var', 'name=world', source]);
    expect(remoteFail.code, remoteFail.output).to.equal(1);
    expect(remoteFail.output).to.include('Failure! 0 passed, 1 failed.');
    expect(remoteFail.output).to.include('unexpected greeting hello world');
    expect(resultLines(remoteFail.output)).to.deep.equal(resultLines(localFail.output));

    const runs = await api(
      'GET',
      `/organizations/${org.name}/tests/registry-modules/private/${org.name}/${name}/null/test-runs`,
      { token: org.owner.token },
    );
    expect(
      runs.body.data.map((r: { attributes: Record<string, unknown> }) => [
        r.attributes.source,
        r.attributes.status,
        r.attributes['test-status'],
      ]),
    ).to.deep.equal([
      ['terraform', 'finished', 'fail'],
      ['terraform', 'finished', 'pass'],
    ]);
  });
});
