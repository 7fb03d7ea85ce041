import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { api, doc, expectError } from '../helpers/api.js';
import { createOrg } from '../helpers/fixtures.js';
import { harness } from '../helpers/harness.js';
import { jobs } from '../../shared/platform/queues.js';
import {
  countsOf,
  createModule,
  createTestRun,
  killProcessesWith,
  localTerraformTest,
  processesWith,
  readLogUrl,
  readWholeLog,
  showTestRun,
  startHeldModuleServer,
  uploadTestConfig,
  waitForTestRun,
  type Org,
  type TestModule,
} from '../helpers/module-tests.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { terraformAvailable } from '../helpers/terraform.js';
import { startWitness, type Witness } from '../helpers/sandbox.js';

/**
 * Module test runs executed by the real `test-run-execution` worker with the real terraform
 * binary. Configurations use only the builtin `terraform_data` resource and `local-exec`
 * provisioners, so nothing is downloaded.
 */

const WORKER_ENV = { RUN_LEASE_SECONDS: '3', RECONCILE_INTERVAL_MS: '1000' };
const QUEUES = ['test-run-execution', 'deadline-expiry'];

const GREETER = `variable "name" {
  type    = string
  default = "nobody"
}
resource "terraform_data" "greeting" { input = "hello \${var.name}" }
output "greeting" { value = terraform_data.greeting.output }
`;

/** One file with a passing and a failing run; another with an erroring run and the run it makes skip. */
const MIXED = {
  'main.tf': GREETER,
  'tests/a_results.tftest.hcl': `run "passes" {
  assert {
    condition     = output.greeting == "hello nobody"
    error_message = "unexpected greeting \${output.greeting}"
  }
}
run "fails" {
  assert {
    condition     = output.greeting == "hello somebody else"
    error_message = "unexpected greeting \${output.greeting}"
  }
}
`,
  'tests/b_errors.tftest.hcl': `run "errors" {
  variables {
    name = 5 + "a"
  }
}
run "skipped_after_error" {
  assert {
    condition     = output.greeting == "hello nobody"
    error_message = "unexpected greeting \${output.greeting}"
  }
}
`,
};

/** Passes only when var.name is `expected`. */
const expectName = (expected: string) => `run "name_is_${expected}" {
  command = plan
  assert {
    condition     = var.name == "${expected}"
    error_message = "name is \${var.name}, not ${expected}"
  }
}
`;

/**
 * A resource whose creation runs `sleep createSeconds` and whose destruction (the test's
 * teardown) runs `sleep destroySeconds` and then leaves a file behind as proof. Both commands
 * ignore interrupts, like steps that must not be cut short, so only Terraform finishing them or
 * a kill ends them, whichever processes an interrupt reaches. The marker is in both commands so
 * the processes can be found.
 */
/** Where sandboxed provisioners report their side effects (started before the suite). */
let witness: Witness;

const slowConfig = (marker: string, createSeconds: number, destroySeconds: number) => ({
  // The run's files stay in its sandbox: the teardown reports itself to the witness.
  'main.tf': `resource "terraform_data" "slow" {
  input = "${marker}"
  provisioner "local-exec" {
    command = "trap '' INT; sleep ${createSeconds} # ${marker}-create"
  }
  provisioner "local-exec" {
    when    = destroy
    command = "trap '' INT; sleep ${destroySeconds} && ${witness.report(`/${marker}-destroyed`)} # \${self.input}-destroy"
  }
}
`,
  'tests/slow.tftest.hcl': `run "first" {
  assert {
    condition     = terraform_data.slow.output == "${marker}"
    error_message = "unexpected output"
  }
}
run "second" {
  command = plan
  assert {
    condition     = terraform_data.slow.output == "${marker}"
    error_message = "unexpected output"
  }
}
`,
});

const newMarker = () => `rlsmt${randomBytes(6).toString('hex')}`;

describe('module test runs executed by the worker (real terraform)', function () {
  this.timeout(120_000);
  let org: Org;
  let mod: TestModule;
  let worker: WorkerProcess;
  const markers: string[] = [];
  const extraWorkers: WorkerProcess[] = [];

  before(async function () {
    if (!terraformAvailable()) this.skip();
    org = await createOrg();
    mod = await createModule(org);
    witness = await startWitness();
    worker = spawnWorkers(QUEUES, WORKER_ENV);
    await workersReady(worker);
  });

  after(async () => {
    await worker?.stop();
    for (const w of extraWorkers) await w.stop('SIGKILL');
    for (const m of markers) killProcessesWith(m);
    await witness?.close();
  });

  const token = () => org.owner.token;
  const run = async (files: Record<string, string>, attrs: Record<string, unknown> = {}, m: TestModule = mod) => {
    const cvId = await uploadTestConfig(m, token(), files, { cli: true });
    return (await createTestRun(m, token(), cvId, attrs)).id as string;
  };
  const finalOf = (id: string, m: TestModule = mod, timeoutMs = 60_000) =>
    waitForTestRun(m, token(), id, ['finished', 'errored', 'canceled'], timeoutMs);

  it("counts passed, failed, errored and skipped runs exactly as terraform test -json's summary does", async () => {
    const local = await localTerraformTest(MIXED);
    expect(local.summary, local.output).to.not.equal(null);
    // The configuration produces every kind of result.
    expect(local.summary).to.deep.equal({ status: 'error', passed: 1, failed: 1, errored: 1, skipped: 1 });

    const id = await run(MIXED);
    const done = await finalOf(id);
    expect(done.attributes.status, done.attributes.message).to.equal('finished');
    expect(countsOf(done)).to.deep.equal(local.summary);
    expect(done.attributes['status-timestamps']).to.include.keys('queued-at', 'started-at', 'finished-at');

    // Filters restrict the files executed.
    const localFiltered = await localTerraformTest(MIXED, {}, ['-filter=tests/a_results.tftest.hcl']);
    const filtered = await finalOf(await run(MIXED, { filters: ['tests/a_results.tftest.hcl'] }));
    expect(filtered.attributes.status).to.equal('finished');
    expect(countsOf(filtered)).to.deep.equal(localFiltered.summary);
    expect(countsOf(filtered)).to.deep.equal({ status: 'fail', passed: 1, failed: 1, errored: 0, skipped: 0 });
  });

  it("runs the tests of the given test directory, printing each run's state when verbose", async () => {
    const files = {
      'main.tf': GREETER,
      'spec/unit/basic.tftest.hcl': 'run "applies" {}\n',
      'tests/ignored.tftest.hcl': expectName('never'),
    };
    const quiet = await finalOf(await run(files, { 'test-directory': 'spec/unit' }));
    expect(countsOf(quiet)).to.deep.equal({ status: 'pass', passed: 1, failed: 0, errored: 0, skipped: 0 });
    expect(await readWholeLog(quiet.attributes['log-read-url'])).not.to.include('"test_state"');
    const verbose = await finalOf(await run(files, { 'test-directory': 'spec/unit', verbose: true }));
    expect(countsOf(verbose)).to.deep.equal({ status: 'pass', passed: 1, failed: 0, errored: 0, skipped: 0 });
    expect(await readWholeLog(verbose.attributes['log-read-url'])).to.include('"test_state"');
  });

  it('serves the JSON lines through the log-read-url, framed by STX and ETX, with limit and offset', async () => {
    const files = { 'main.tf': GREETER, 'tests/basic.tftest.hcl': expectName('nobody') };
    const done = await finalOf(await run(files));
    expect(done.attributes.status).to.equal('finished');
    expect(done.attributes['test-status']).to.equal('pass');
    const url = done.attributes['log-read-url'];
    expect(url).to.be.a('string');

    const whole = await readLogUrl(url);
    expect(whole.status).to.equal(200);
    const bytes = whole.body;
    expect(bytes[0]).to.equal(0x02);
    expect(bytes[bytes.length - 1]).to.equal(0x03);
    const lines = bytes
      .subarray(1, bytes.length - 1)
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim());
    const messages = lines.map((l) => JSON.parse(l));
    expect(messages[0]).to.include({ type: 'version' });
    const summary = messages.find((m) => m.type === 'test_summary');
    expect(summary.test_summary).to.deep.equal({ status: 'pass', passed: 1, failed: 0, errored: 0, skipped: 0 });
    expect(
      messages.some(
        (m) => m.type === 'test_run' && m.test_run.run === 'name_is_nobody' && m.test_run.status === 'pass',
      ),
    ).to.equal(true);

    // limit and offset select byte ranges; reading in small chunks gives the same log.
    const slice = await readLogUrl(url, 'limit=10&offset=5');
    expect(slice.status).to.equal(200);
    expect(slice.body.equals(bytes.subarray(5, 15))).to.equal(true);
    expect(await readWholeLog(url, 97)).to.equal(bytes.toString('utf8'));
    const past = await readLogUrl(url, `limit=100&offset=${bytes.length}`);
    expect(past.status).to.equal(200);
    expect(past.body.length).to.equal(0);
  });

  it('keeps long lines of multi-byte characters intact in the log', async () => {
    const big = '日本'.repeat(40_000);
    const files = {
      'main.tf':
        'output "big" { value = join("", [for i in range(1000) : join("", [for j in range(40) : "日本"])]) }\n',
      'tests/u.tftest.hcl': `run "unicode" {
  command = plan
  assert {
    condition     = length(output.big) == 1
    error_message = "big is \${output.big}"
  }
}
`,
    };
    const done = await finalOf(await run(files));
    expect(countsOf(done)).to.deep.equal({ status: 'fail', passed: 0, failed: 1, errored: 0, skipped: 0 });
    const log = await readWholeLog(done.attributes['log-read-url']);
    expect(log.includes('\uFFFD'), 'the log holds replacement characters').to.equal(false);
    const lines = log
      .slice(1, -1)
      .split('\n')
      .filter((l) => l.trim());
    const diagnostics = lines
      .map((l) => JSON.parse(l))
      .filter((m) => m.type === 'diagnostic' && m['@testrun'] === 'unicode');
    expect(diagnostics.map((d) => d.diagnostic.detail)).to.include(`big is ${big}`);
  });

  it("gives the module's test variables to Terraform as environment, overridden by the test run's variables", async () => {
    const own = await createModule(org);
    const v = await api('POST', `${own.tests}/vars`, {
      token: token(),
      body: doc('vars', { key: 'TF_VAR_name', value: 'fromenv', category: 'env', sensitive: true }),
    });
    expect(v.status, v.text).to.equal(201);

    const envOnly = await finalOf(
      await run({ 'main.tf': GREETER, 'tests/v.tftest.hcl': expectName('fromenv') }, {}, own),
      own,
    );
    expect(envOnly.attributes.status, envOnly.attributes.message).to.equal('finished');
    expect(countsOf(envOnly)).to.deep.equal({ status: 'pass', passed: 1, failed: 0, errored: 0, skipped: 0 });

    const overridden = await finalOf(
      await run(
        { 'main.tf': GREETER, 'tests/v.tftest.hcl': expectName('override') },
        { variables: [{ key: 'name', value: '"override"' }] },
        own,
      ),
      own,
    );
    expect(overridden.attributes.status, overridden.attributes.message).to.equal('finished');
    expect(countsOf(overridden)).to.deep.equal({ status: 'pass', passed: 1, failed: 0, errored: 0, skipped: 0 });

    // The same override makes the environment's expectation fail, so the value really came from the test run.
    const mismatch = await finalOf(
      await run(
        { 'main.tf': GREETER, 'tests/v.tftest.hcl': expectName('fromenv') },
        { variables: [{ key: 'name', value: '"override"' }] },
        own,
      ),
      own,
    );
    expect(countsOf(mismatch)).to.deep.equal({ status: 'fail', passed: 0, failed: 1, errored: 0, skipped: 0 });
    expect(await readWholeLog(mismatch.attributes['log-read-url'])).to.include('name is override, not fromenv');
  });

  it("gives Terraform none of the service's own environment, only the module's test variables", async () => {
    const own = await createModule(org);
    const v = await api('POST', `${own.tests}/vars`, {
      token: token(),
      body: doc('vars', { key: 'MT_VISIBLE', value: 'from-the-module', category: 'env' }),
    });
    expect(v.status, v.text).to.equal(201);
    const marker = newMarker();
    markers.push(marker);
    const done = await finalOf(
      await run(
        {
          'main.tf': `resource "terraform_data" "env" {
  provisioner "local-exec" {
    command = "${witness.report(`/${marker}-env`, 'env')}"
  }
}
`,
          'tests/env.tftest.hcl': 'run "dumps" {}\n',
        },
        {},
        own,
      ),
      own,
    );
    expect(done.attributes.status, done.attributes.message).to.equal('finished');
    const env = witness.sightings.find((s) => s.path === `/${marker}-env`)?.body ?? '';
    expect(env).to.include('MT_VISIBLE=from-the-module');
    const h = harness();
    for (const secret of [h.childEnv.DATABASE_URL!, h.childEnv.ENCRYPTION_KEY!, h.adminToken, h.childEnv.REDIS_URL!])
      expect(env).not.to.include(secret);
    expect(env).not.to.match(/^(DATABASE_URL|ENCRYPTION_KEY|SITE_ADMIN_TOKEN|REDIS_URL|QUEUE_PREFIX)=/m);
  });

  it("runs a test run created against another module's configuration version", async () => {
    const owner = await createModule(org);
    const cvId = await uploadTestConfig(
      owner,
      token(),
      { 'main.tf': GREETER, 'tests/basic.tftest.hcl': expectName('nobody') },
      { cli: true },
    );
    const borrowed = await createTestRun(mod, token(), cvId);
    const done = await finalOf(borrowed.id);
    expect(done.attributes.status, done.attributes.message).to.equal('finished');
    expect(countsOf(done)).to.deep.equal({ status: 'pass', passed: 1, failed: 0, errored: 0, skipped: 0 });
    expect(done.relationships['configuration-version'].data.id).to.equal(cvId);
  });

  it('executes the test run queued by an API upload', async () => {
    const own = await createModule(org);
    await uploadTestConfig(own, token(), { 'main.tf': GREETER, 'tests/basic.tftest.hcl': expectName('nobody') });
    const list = await api('GET', `${own.tests}/test-runs`, { token: token() });
    expect(list.body.data).to.have.length(1);
    const done = await finalOf(list.body.data[0].id, own);
    expect(done.attributes.source).to.equal('tfe-configuration-version');
    expect(countsOf(done)).to.deep.equal({ status: 'pass', passed: 1, failed: 0, errored: 0, skipped: 0 });
  });

  it('errors a test run whose configuration cannot be initialised, with a message and the output in the log', async () => {
    const done = await finalOf(
      await run({
        'main.tf': 'resource "terraform_data" "broken" {\n  input = \n',
        'tests/basic.tftest.hcl': expectName('nobody'),
      }),
    );
    expect(done.attributes.status).to.equal('errored');
    expect(done.attributes['test-status']).to.equal('error');
    expect(done.attributes.message).to.be.a('string').and.match(/init/i);
    expect(done.attributes['status-timestamps']).to.include.keys('errored-at');
    const log = await readWholeLog(done.attributes['log-read-url']);
    expect(log.endsWith('\u0003')).to.equal(true);
    expect(log).to.match(/Error/);
    expect(log).to.include('main.tf');
  });

  it('refuses cancel and force-cancel of a finished test run (409)', async () => {
    const done = await finalOf(await run({ 'main.tf': GREETER, 'tests/basic.tftest.hcl': expectName('nobody') }));
    expect(done.attributes.status).to.equal('finished');
    expectError(await api('POST', `${mod.tests}/test-runs/${done.id}/cancel`, { token: token() }), 409);
    expectError(await api('POST', `${mod.tests}/test-runs/${done.id}/force-cancel`, { token: token() }), 409);
    expect((await showTestRun(mod, token(), done.id)).body.data.attributes.status).to.equal('finished');
  });

  it('cancels a running test: Terraform stops, tears down what it created, and the run ends canceled with no process left', async () => {
    const marker = newMarker();
    markers.push(marker);
    const id = await run(slowConfig(marker, 6, 0));
    await waitFor(() => processesWith(`${marker}-create`).length > 0, 'the create provisioner to run', 30_000);
    expect((await showTestRun(mod, token(), id)).body.data.attributes.status).to.equal('running');

    const cancel = await api('POST', `${mod.tests}/test-runs/${id}/cancel`, { token: token() });
    expect(cancel.status, cancel.text).to.equal(202);
    expect(cancel.text).to.equal('');
    // A second cancel (the CLI's second Ctrl-C) is accepted too.
    const again = await api('POST', `${mod.tests}/test-runs/${id}/cancel`, { token: token() });
    expect(again.status, again.text).to.equal(202);

    const done = await finalOf(id, mod, 60_000);
    expect(done.attributes.status, done.attributes.message).to.equal('canceled');
    expect(done.attributes['status-timestamps']).to.include.keys('canceled-at');
    expect(done.attributes['status-timestamps']).not.to.have.property('force-canceled-at');
    // The teardown ran: the destroy provisioner left its file.
    expect(witness.saw(`/${marker}-destroyed`)).to.equal(true);
    expect(processesWith(marker)).to.deep.equal([]);
    const log = await readWholeLog(done.attributes['log-read-url']);
    expect(log).to.include('Interrupt received');
    expect(log).to.include('tearing down');
    expectError(await api('POST', `${mod.tests}/test-runs/${id}/cancel`, { token: token() }), 409);
  });

  it('force-cancels a test stuck in its teardown: canceled at once, Terraform and its provisioner killed', async () => {
    const marker = newMarker();
    markers.push(marker);
    const id = await run(slowConfig(marker, 0, 60));
    await waitFor(() => processesWith(`${marker}-destroy`).length > 0, 'the teardown to start', 30_000);

    // Running but not canceled yet: force-cancel is refused.
    expectError(await api('POST', `${mod.tests}/test-runs/${id}/force-cancel`, { token: token() }), 409, /cancel/);
    expect((await showTestRun(mod, token(), id)).body.data.attributes.status).to.equal('running');

    const cancel = await api('POST', `${mod.tests}/test-runs/${id}/cancel`, { token: token() });
    expect(cancel.status, cancel.text).to.equal(202);
    // The teardown goes on (it sleeps for a minute).
    await new Promise((r) => setTimeout(r, 1500));
    expect((await showTestRun(mod, token(), id)).body.data.attributes.status).to.equal('running');
    expect(processesWith(`${marker}-destroy`)).not.to.deep.equal([]);

    const force = await api('POST', `${mod.tests}/test-runs/${id}/force-cancel`, { token: token() });
    expect(force.status, force.text).to.equal(202);
    expect(force.text).to.equal('');
    const shown = (await showTestRun(mod, token(), id)).body.data;
    expect(shown.attributes.status).to.equal('canceled');
    expect(shown.attributes['status-timestamps']).to.include.keys('canceled-at', 'force-canceled-at');
    expect(shown.attributes.message)
      .to.be.a('string')
      .and.match(/force-canceled/);

    await waitFor(() => processesWith(marker).length === 0, 'terraform and the provisioner to be killed', 10_000);
    expect(witness.saw(`/${marker}-destroyed`)).to.equal(false);
    expectError(await api('POST', `${mod.tests}/test-runs/${id}/force-cancel`, { token: token() }), 409);
    expectError(await api('POST', `${mod.tests}/test-runs/${id}/cancel`, { token: token() }), 409);
    // The worker is done with it: the lease is released, the log ended, and the status stays.
    await waitFor(
      async () => (await harness().rt.db('test_runs').where({ id }).first()).lease_owner === null,
      'the worker to release the run',
    );
    expect((await showTestRun(mod, token(), id)).body.data.attributes.status).to.equal('canceled');
    expect((await readWholeLog(shown.attributes['log-read-url'])).endsWith('\u0003')).to.equal(true);
  });

  it('cancels a test run while terraform init is still busy: init stops and the tests never start', async () => {
    const marker = newMarker();
    markers.push(marker);
    const server = await startHeldModuleServer({ 'main.tf': 'output "v" { value = 1 }\n' });
    try {
      const id = await run({
        'main.tf': `module "slow" { source = "${server.source}" }
resource "terraform_data" "created" {
  input = module.slow.v
  provisioner "local-exec" {
    command = "${witness.report(`/${marker}-created`)}"
  }
}
`,
        'tests/basic.tftest.hcl': 'run "creates" {}\n',
      });
      await waitFor(() => server.requests > 0, 'terraform init to fetch the module', 30_000);
      expect((await showTestRun(mod, token(), id)).body.data.attributes.status).to.equal('running');

      const cancel = await api('POST', `${mod.tests}/test-runs/${id}/cancel`, { token: token() });
      expect(cancel.status, cancel.text).to.equal(202);
      // The module server still holds its answer: only stopping init ends the run.
      const done = await finalOf(id, mod, 20_000);
      expect(done.attributes.status).to.equal('canceled');
      expect(done.attributes.message).to.match(/before its tests started/);
      await waitFor(() => server.abandoned > 0, 'terraform init to give up the download');
      const log = await readWholeLog(done.attributes['log-read-url']);
      expect(log.endsWith('\u0003')).to.equal(true);
      expect(log).not.to.include('"test_run"');
      expect(witness.saw(`/${marker}-created`)).to.equal(false);
    } finally {
      server.release();
      await server.close();
    }
  });

  it('queues a test run again when its job was lost before any worker took it', async () => {
    await worker.stop();
    const id = await run({ 'main.tf': GREETER, 'tests/basic.tftest.hcl': expectName('nobody') });
    const spec = jobs.testRun(id);
    const job = await harness().rt.queues[spec.queue].getJob(spec.jobId);
    expect(job, 'the job queued with the test run').to.not.equal(undefined);
    await job!.remove();
    expect(await harness().rt.queues[spec.queue].getJob(spec.jobId)).to.equal(undefined);
    expect((await harness().rt.db('test_runs').where({ id }).first()).status).to.equal('queued');
    worker = spawnWorkers(QUEUES, WORKER_ENV);
    await workersReady(worker);
    const done = await finalOf(id);
    expect(done.attributes.status, done.attributes.message).to.equal('finished');
    expect(countsOf(done)).to.deep.equal({ status: 'pass', passed: 1, failed: 0, errored: 0, skipped: 0 });
  });

  it('errors a test whose worker was killed, once another worker takes over; it is never left running', async () => {
    const marker = newMarker();
    markers.push(marker);
    const doomed = spawnWorkers(QUEUES, WORKER_ENV);
    extraWorkers.push(doomed);
    await workersReady(doomed);
    // Only the doomed worker takes test runs while this one is queued.
    await worker.stop();
    const id = await run(slowConfig(marker, 60, 0));
    await waitFor(() => processesWith(`${marker}-create`).length > 0, 'the test to run', 30_000);
    const before = await harness().rt.db('test_runs').where({ id }).first();
    expect(before.status).to.equal('running');
    expect(before.lease_owner).to.match(new RegExp(`:${doomed.proc.pid}/[0-9a-f]{12}$`));

    await doomed.stop('SIGKILL');
    worker = spawnWorkers(QUEUES, WORKER_ENV);
    await workersReady(worker);

    const done = await finalOf(id, mod, 60_000);
    expect(done.attributes.status).to.equal('errored');
    expect(done.attributes['test-status']).to.equal('error');
    expect(done.attributes.message).to.match(/worker.*stopped unexpectedly/i);
    const row = await harness().rt.db('test_runs').where({ id }).first();
    expect(row.lease_owner).to.equal(null);
    const log = await readWholeLog(done.attributes['log-read-url']);
    expect(log).to.include('stopped unexpectedly');
    expect(log.endsWith('\u0003')).to.equal(true);
    // It stays errored: the test is not run again.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await showTestRun(mod, token(), id)).body.data.attributes.status).to.equal('errored');
    killProcessesWith(marker);
  });
});
