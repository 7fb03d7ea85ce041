import { expect } from 'chai';
import { api, expectError, type ApiResponse } from '../helpers/api.js';
import { createOrg, createWorkspace, memberWithAccess, onTestServer, type TestUser } from '../helpers/fixtures.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startRun, terraformAvailable, uploadConfig, waitForRun } from '../helpers/terraform.js';

type Org = { name: string; owner: TestUser };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const WORKER_ENV = {
  RUN_LEASE_SECONDS: '3',
  RECONCILE_INTERVAL_MS: '1000',
  FORCE_CANCEL_COOLOFF_SECONDS: '1',
  RUN_CONCURRENCY: '4',
};
const FINAL = ['applied', 'planned_and_finished', 'discarded', 'errored', 'canceled', 'force_canceled'];
const ISO_Z = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const NO_ACTIONS = {
  'is-cancelable': false,
  'is-confirmable': false,
  'is-discardable': false,
  'is-force-cancelable': false,
};

const MAIN_TF = `
resource "terraform_data" "a" {
  input = "x"
}

output "o" {
  value = "hello"
}

output "s" {
  value     = "secret"
  sensitive = true
}
`;
const FAILING_TF = 'resource "terraform_data" "a" {\n  input = var.missing\n}\n';
const SLOW_APPLY_TF =
  'resource "terraform_data" "slow" {\n  provisioner "local-exec" {\n    command = "sleep 20"\n  }\n}\n';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads bytes of a log through its pre-signed URL, without a token. */
async function readLog(url: string, offset = 0, limit = 1024 * 1024): Promise<Buffer> {
  const res = await fetch(`${url}?limit=${limit}&offset=${offset}`);
  expect(res.status).to.equal(200);
  return Buffer.from(await res.arrayBuffer());
}

/** Waits until the run is `wanted` or final; on a different outcome fails with the plan and apply logs. */
async function settle(runId: string, token: string, wanted: string, timeoutMs = 60_000): Promise<Doc> {
  const run = await waitForRun(runId, token, [wanted, 'planned', ...FINAL], timeoutMs);
  if (run.attributes.status !== wanted) {
    const res = await api('GET', `/runs/${runId}?include=plan,apply`, { token });
    const logs = await Promise.all(
      res.body.included.map(async (r: Doc) => (await readLog(r.attributes['log-read-url'])).toString()),
    );
    expect.fail(`run ${runId} is ${run.attributes.status}, expected ${wanted}\n${logs.join('\n----\n')}`);
  }
  return run;
}

const getRun = async (runId: string, token: string): Promise<Doc> => {
  const res = await api('GET', `/runs/${runId}`, { token });
  expect(res.status, res.text).to.equal(200);
  return res.body.data;
};

const eventsOf = async (
  runId: string,
  token: string,
): Promise<{ action: string; description: string | null; 'created-at': string }[]> => {
  const res = await api('GET', `/runs/${runId}/run-events`, { token });
  expect(res.status, res.text).to.equal(200);
  for (const e of res.body.data) expect(e.type).to.equal('run-events');
  return res.body.data.map((e: Doc) => e.attributes);
};
const actionsOf = async (runId: string, token: string) => (await eventsOf(runId, token)).map((e) => e.action);

const action = (runId: string, name: string, token: string, body: unknown = {}) =>
  api('POST', `/runs/${runId}/actions/${name}`, { token, body });

/** Asserts every action in `names` is refused with 409 and leaves the run's status as it was. */
async function expectRefused(runId: string, token: string, names: string[]): Promise<void> {
  const before = (await getRun(runId, token)).attributes.status;
  for (const name of names) {
    const res = await action(runId, name, token);
    expectError(res, 409);
    expect((await getRun(runId, token)).attributes.status, `${name} on ${before}`).to.equal(before);
  }
}

/** Status-timestamps: exactly `keys`, each an ISO time ending in Z, in the given (chronological) order. */
function expectTimestamps(stamps: Record<string, string>, keys: string[]): void {
  expect(Object.keys(stamps).sort()).to.deep.equal([...keys].sort());
  for (const k of keys) expect(stamps[k], k).to.match(ISO_Z);
  const times = keys.map((k) => Date.parse(stamps[k]));
  expect(times, keys.join(' <= ')).to.deep.equal([...times].sort((a, b) => a - b));
}

const planOf = async (run: Doc, token: string): Promise<Doc> => {
  const res = await api('GET', `/plans/${run.relationships.plan.data.id}`, { token });
  expect(res.status, res.text).to.equal(200);
  return res.body.data;
};
const applyOf = async (run: Doc, token: string): Promise<Doc> => {
  const res = await api('GET', `/applies/${run.relationships.apply.data.id}`, { token });
  expect(res.status, res.text).to.equal(200);
  return res.body.data;
};

describe('runs: the lifecycle of runs executed by the run-pipeline worker', function () {
  this.timeout(120_000);
  let worker: WorkerProcess;
  let org: Org;
  let token: string;

  before(async function () {
    if (!terraformAvailable()) this.skip();
    this.timeout(60_000);
    worker = spawnWorkers(['run-pipeline', 'deadline-expiry'], WORKER_ENV);
    await workersReady(worker);
    org = await createOrg();
    token = org.owner.token;
  });

  after(async () => {
    await worker?.stop();
  });

  describe('a run with changes, confirmed by a user', function () {
    this.timeout(120_000);
    let wsId: string;
    let cvId: string;
    let runId: string;
    let stateBefore: ApiResponse;
    let created: ApiResponse;
    let planned: Doc;
    let stillPlanned: Doc;
    let confirmRes: ApiResponse;
    let final: Doc;

    before(async function () {
      this.timeout(90_000);
      wsId = (await createWorkspace(org)).id;
      cvId = await uploadConfig(wsId, token, { 'main.tf': MAIN_TF });
      stateBefore = await api('GET', `/workspaces/${wsId}/current-state-version`, { token });
      // No configuration-version relationship: the run takes the workspace's current one.
      const body = { data: { type: 'runs', relationships: { workspace: { data: { type: 'workspaces', id: wsId } } } } };
      created = await api('POST', '/runs', { token, body });
      expect(created.status, created.text).to.equal(201);
      runId = created.body.data.id;
      planned = await settle(runId, token, 'planned');
      await sleep(1500);
      stillPlanned = await getRun(runId, token);
      confirmRes = await action(runId, 'apply', token, { comment: 'ship it' });
      await settle(runId, token, 'applied');
      final = await getRun(runId, token);
    });

    it("is created and, the workspace being free, queued at once, on the workspace's current configuration version, with a plan and an apply", () => {
      const run = created.body.data;
      expect(run.type).to.equal('runs');
      expect(run.id).to.match(/^run-/);
      expect(run.attributes.status).to.equal('plan_queued');
      expect(run.attributes.source).to.equal('tfe-api');
      expect(run.attributes.message).to.equal('Queued manually via the Terraform Enterprise API');
      expect(run.attributes['created-at']).to.match(ISO_Z);
      expect(run.attributes['has-changes']).to.equal(false);
      expect(run.attributes['plan-only']).to.equal(false);
      expect(run.attributes['auto-apply']).to.equal(false);
      expectTimestamps(run.attributes['status-timestamps'], ['plan-queueable-at', 'plan-queued-at']);
      expect(run.attributes.actions).to.deep.equal({ ...NO_ACTIONS, 'is-cancelable': true });
      expect(run.relationships['configuration-version'].data).to.deep.equal({
        type: 'configuration-versions',
        id: cvId,
      });
      expect(run.relationships.workspace.data).to.deep.equal({ type: 'workspaces', id: wsId });
      expect(run.relationships['created-by'].data).to.deep.equal({ type: 'users', id: org.owner.id });
      expect(run.relationships.plan.data.type).to.equal('plans');
      expect(run.relationships.plan.data.id).to.match(/^plan-/);
      expect(run.relationships.apply.data.type).to.equal('applies');
      expect(run.relationships.apply.data.id).to.match(/^apply-/);
    });

    it('waits in planned, confirmable and discardable, until a user applies it (202, no body)', () => {
      for (const run of [planned, stillPlanned]) {
        expect(run.attributes.status).to.equal('planned');
        expect(run.attributes['has-changes']).to.equal(true);
        expect(run.attributes.actions).to.deep.equal({ ...NO_ACTIONS, 'is-confirmable': true, 'is-discardable': true });
      }
      expectTimestamps(stillPlanned.attributes['status-timestamps'], [
        'plan-queueable-at',
        'plan-queued-at',
        'planning-at',
        'planned-at',
      ]);
      expect(confirmRes.status, confirmRes.text).to.equal(202);
      expect(confirmRes.text).to.equal('');
    });

    it('ends applied, with a timestamp for every status it passed through, no actions and full permissions', () => {
      const a = final.attributes;
      expect(a.status).to.equal('applied');
      expect(a['has-changes']).to.equal(true);
      expect(a['terraform-version']).to.equal('1.11.4');
      expect(a['error-message']).to.equal(null);
      expectTimestamps(a['status-timestamps'], [
        'plan-queueable-at',
        'plan-queued-at',
        'planning-at',
        'planned-at',
        'confirmed-at',
        'apply-queued-at',
        'applying-at',
        'applied-at',
      ]);
      expect(a.actions).to.deep.equal(NO_ACTIONS);
      expect(a.permissions).to.include.all.keys(
        'can-apply',
        'can-cancel',
        'can-discard',
        'can-force-cancel',
        'can-force-execute',
      );
      for (const k of ['can-apply', 'can-cancel', 'can-discard', 'can-force-cancel', 'can-force-execute']) {
        expect(a.permissions[k], k).to.equal(true);
      }
      const rel = final.relationships;
      expect(rel.plan.data).to.deep.equal(created.body.data.relationships.plan.data);
      expect(rel.apply.data).to.deep.equal(created.body.data.relationships.apply.data);
      expect(rel.workspace.data).to.deep.equal({ type: 'workspaces', id: wsId });
      expect(rel['configuration-version'].data).to.deep.equal({ type: 'configuration-versions', id: cvId });
      expect(rel['task-stages'].data).to.deep.equal([]);
      expect(rel['policy-checks'].data).to.deep.equal([]);
    });

    it('lists the creation and every move, in order, as run events', async () => {
      const events = await eventsOf(runId, token);
      expect(events.map((e) => e.action)).to.deep.equal([
        'created',
        'queue_plan',
        'start_plan',
        'plan_needs_confirmation',
        'confirm',
        'commented',
        'queue_apply',
        'start_apply',
        'finish_apply',
      ]);
      expect(events.find((e) => e.action === 'confirm')!.description).to.equal('ship it');
      const times = events.map((e) => Date.parse(e['created-at']));
      expect(times).to.deep.equal([...times].sort((a, b) => a - b));
      for (const e of events) expect(e['created-at']).to.match(ISO_Z);
    });

    it('includes plan, apply, workspace, created_by, configuration_version and (empty) task_stages; the comma may be encoded', async () => {
      const names = ['plan', 'apply', 'workspace', 'created_by', 'configuration_version', 'task_stages'];
      for (const include of [names.join(','), names.join('%2C')]) {
        const res = await api('GET', `/runs/${runId}?include=${include}`, { token });
        expect(res.status, res.text).to.equal(200);
        expect(res.body.data.id).to.equal(runId);
        const included = res.body.included.map((r: Doc) => `${r.type}/${r.id}`).sort();
        expect(included).to.deep.equal(
          [
            `applies/${final.relationships.apply.data.id}`,
            `configuration-versions/${cvId}`,
            `plans/${final.relationships.plan.data.id}`,
            `users/${org.owner.id}`,
            `workspaces/${wsId}`,
          ].sort(),
        );
        const plan = res.body.included.find((r: Doc) => r.type === 'plans');
        expect(plan.attributes.status).to.equal('finished');
        expect(plan.attributes['log-read-url']).to.match(/\/v1\/logs\//);
      }
      const stages = await api('GET', `/runs/${runId}?include=task_stages`, { token });
      expect(stages.status, stages.text).to.equal(200);
      expect(stages.body.data.relationships['task-stages'].data).to.deep.equal([]);
      expect(stages.body.included ?? []).to.deep.equal([]);
    });

    it('answers 400 "Invalid include parameter" for an include it does not know', async () => {
      expectError(await api('GET', `/runs/${runId}?include=plan,bogus`, { token }), 400, /Invalid include parameter/);
      expectError(
        await api('GET', `/runs/${runId}?include=policy_checks`, { token }),
        400,
        /Invalid include parameter/,
      );
    });

    it('shows the finished plan and apply with their resource counts', async () => {
      const plan = await planOf(final, token);
      expect(plan.attributes.status).to.equal('finished');
      expect(plan.attributes['has-changes']).to.equal(true);
      expect(plan.attributes['resource-additions']).to.equal(1);
      expect(plan.attributes['resource-changes']).to.equal(0);
      expect(plan.attributes['resource-destructions']).to.equal(0);
      expect(plan.relationships.run.data).to.deep.equal({ type: 'runs', id: runId });
      const apply = await applyOf(final, token);
      expect(apply.attributes.status).to.equal('finished');
      expect(apply.attributes['resource-additions']).to.equal(1);
      expect(apply.relationships.run.data).to.deep.equal({ type: 'runs', id: runId });
    });

    it('serves the plan as terraform show -json on json-output (workspace admins), and with sensitive values removed on json-output-redacted (readers)', async () => {
      const planId = final.relationships.plan.data.id;
      const docs: Record<string, Doc> = {};
      for (const path of ['json-output', 'json-output-redacted']) {
        const res = await api('GET', `/plans/${planId}/${path}`, { token });
        expect(res.status, res.text).to.equal(200);
        expect(res.body.format_version).to.be.a('string');
        expect(res.body.terraform_version).to.equal('1.11.4');
        expect(res.body.resource_changes).to.have.length(1);
        expect(res.body.resource_changes[0].address).to.equal('terraform_data.a');
        expect(res.body.resource_changes[0].change.actions).to.deep.equal(['create']);
        expect(res.body.output_changes).to.have.keys('o', 's');
        expect(res.headers.get('etag'), 'the body is sent without being hashed for an ETag').to.equal(null);
        docs[path] = res;
      }
      const [full, redacted] = [docs['json-output'].body, docs['json-output-redacted'].body];
      expect(full.output_changes.s).to.include({ after: 'secret', after_sensitive: true });
      expect(redacted.output_changes.s).to.include({ after: '(sensitive value)', after_sensitive: true });
      // The shape the CLI renders a structured run output from; a workspace without it records no schemas (empty ones stand in).
      expect(redacted.plan_format_version).to.equal(full.format_version);
      expect(redacted.provider_schemas).to.deep.equal({
        'terraform.io/builtin/terraform': { resource_schemas: { terraform_data: { version: 0, block: {} } } },
      });
      expect(redacted.output_changes.o.after).to.equal('hello');
      expect(redacted.planned_values.outputs.s).to.deep.include({ sensitive: true, value: null });
      expect(docs['json-output-redacted'].text).to.not.include('secret');

      const reader = await memberWithAccess(org, wsId, 'read');
      expectError(await api('GET', `/plans/${planId}/json-output`, { token: reader.token }), 404);
      const read = await api('GET', `/plans/${planId}/json-output-redacted`, { token: reader.token });
      expect(read.status, read.text).to.equal(200);
      expect(read.body).to.deep.equal(redacted);
    });

    it('had no state before; after the apply the state downloads without a token and outputs hide sensitive values', async () => {
      expectError(stateBefore, 404);
      const sv = await api('GET', `/workspaces/${wsId}/current-state-version`, { token });
      expect(sv.status, sv.text).to.equal(200);
      expect(sv.body.data.type).to.equal('state-versions');
      expect(sv.body.data.relationships.run.data).to.deep.equal({ type: 'runs', id: runId });
      expect(sv.body.data.relationships.outputs.data).to.have.length(2);
      const url = sv.body.data.attributes['hosted-state-download-url'];
      expect(url).to.be.a('string');
      const download = await fetch(await onTestServer(url));
      expect(download.status).to.equal(200);
      const state = JSON.parse(await download.text());
      expect(state.version).to.equal(4);
      expect(state.serial).to.equal(sv.body.data.attributes.serial);
      expect(state.lineage).to.equal(sv.body.data.attributes.lineage);
      expect(state.resources.map((r: Doc) => `${r.type}.${r.name}`)).to.deep.equal(['terraform_data.a']);
      expect(state.outputs.o.value).to.equal('hello');

      const outputs = await api('GET', `/workspaces/${wsId}/current-state-version-outputs`, { token });
      expect(outputs.status, outputs.text).to.equal(200);
      const byName = Object.fromEntries(outputs.body.data.map((o: Doc) => [o.attributes.name, o]));
      expect(byName.o.attributes).to.include({ sensitive: false, value: 'hello' });
      expect(byName.s.attributes).to.include({ sensitive: true, value: null });

      const secret = await api('GET', `/state-version-outputs/${byName.s.id}`, { token });
      expect(secret.status, secret.text).to.equal(200);
      expect(secret.body.data.attributes).to.include({ name: 's', sensitive: true, value: 'secret' });
    });

    it('refuses apply, discard, cancel and force-cancel on the applied run with 409', async () => {
      await expectRefused(runId, token, ['apply', 'discard', 'cancel', 'force-cancel']);
    });

    it('finishes a second run of the same configuration as planned_and_finished without changes, leaving the state alone', async () => {
      const svBefore = (await api('GET', `/workspaces/${wsId}/current-state-version`, { token })).body.data.id;
      const second = await startRun(wsId, token);
      const run = await settle(second, token, 'planned_and_finished');
      expect(run.attributes['has-changes']).to.equal(false);
      expect(run.attributes.actions).to.deep.equal(NO_ACTIONS);
      expectTimestamps(run.attributes['status-timestamps'], [
        'plan-queueable-at',
        'plan-queued-at',
        'planning-at',
        'planned-and-finished-at',
      ]);
      expect(await actionsOf(second, token)).to.deep.equal(['created', 'queue_plan', 'start_plan', 'finish_plan']);
      expect((await planOf(run, token)).attributes['has-changes']).to.equal(false);
      expect((await applyOf(run, token)).attributes.status).to.equal('unreachable');
      await expectRefused(second, token, ['apply', 'discard', 'cancel']);
      expect((await api('GET', `/workspaces/${wsId}/current-state-version`, { token })).body.data.id).to.equal(
        svBefore,
      );
    });
  });

  describe('auto-apply, discard, plan-only and failing plans', function () {
    this.timeout(120_000);

    it('applies an auto-apply run without confirmation (the run inherits the workspace setting)', async () => {
      const ws = await createWorkspace(org, { 'auto-apply': true });
      await uploadConfig(ws.id, token, { 'main.tf': MAIN_TF });
      const created = await api('POST', '/runs', {
        token,
        body: {
          data: {
            type: 'runs',
            attributes: {},
            relationships: { workspace: { data: { type: 'workspaces', id: ws.id } } },
          },
        },
      });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.data.attributes['auto-apply']).to.equal(true);
      const run = await settle(created.body.data.id, token, 'applied');
      expect(run.attributes['has-changes']).to.equal(true);
      const events = await eventsOf(run.id, token);
      expect(events.map((e) => e.action)).to.deep.equal([
        'created',
        'queue_plan',
        'start_plan',
        'plan_needs_confirmation',
        'confirm',
        'queue_apply',
        'start_apply',
        'finish_apply',
      ]);
      expect(events[4].description).to.equal('auto-apply');
      expect((await api('GET', `/workspaces/${ws.id}/current-state-version`, { token })).status).to.equal(200);
    });

    it('discards a planned run: refused actions before and after, nothing applied', async () => {
      const ws = await createWorkspace(org);
      await uploadConfig(ws.id, token, { 'main.tf': MAIN_TF });
      const runId = await startRun(ws.id, token);
      await settle(runId, token, 'planned');
      await expectRefused(runId, token, ['cancel', 'force-cancel']);

      const res = await action(runId, 'discard', token, { comment: 'not now' });
      expect(res.status, res.text).to.equal(202);
      expect(res.text).to.equal('');
      const run = await getRun(runId, token);
      expect(run.attributes.status).to.equal('discarded');
      expect(run.attributes.actions).to.deep.equal(NO_ACTIONS);
      expectTimestamps(run.attributes['status-timestamps'], [
        'plan-queueable-at',
        'plan-queued-at',
        'planning-at',
        'planned-at',
        'discarded-at',
      ]);
      const events = await eventsOf(runId, token);
      // The discard's comment is a comment of the run too, and so one more event.
      expect(events.map((e) => e.action)).to.deep.equal([
        'created',
        'queue_plan',
        'start_plan',
        'plan_needs_confirmation',
        'discard',
        'commented',
      ]);
      expect(events[4].description).to.equal('not now');
      await expectRefused(runId, token, ['apply', 'discard', 'cancel', 'force-cancel']);
      await sleep(1000);
      expect((await getRun(runId, token)).attributes.status).to.equal('discarded');
      expect((await planOf(run, token)).attributes.status).to.equal('finished');
      expect((await applyOf(run, token)).attributes.status).to.equal('unreachable');
      expectError(await api('GET', `/workspaces/${ws.id}/current-state-version`, { token }), 404);
    });

    it('finishes a plan-only run after the plan, with changes but nothing to confirm', async () => {
      const ws = await createWorkspace(org);
      await uploadConfig(ws.id, token, { 'main.tf': MAIN_TF });
      const runId = await startRun(ws.id, token, { 'plan-only': true });
      const run = await settle(runId, token, 'planned_and_finished');
      expect(run.attributes['plan-only']).to.equal(true);
      expect(run.attributes['has-changes']).to.equal(true);
      expect(run.attributes.actions).to.deep.equal(NO_ACTIONS);
      expect(await actionsOf(runId, token)).to.deep.equal(['created', 'queue_plan', 'start_plan', 'finish_plan']);
      expect((await applyOf(run, token)).attributes.status).to.equal('unreachable');
      await expectRefused(runId, token, ['apply', 'discard', 'cancel', 'force-cancel']);
      expectError(await api('GET', `/workspaces/${ws.id}/current-state-version`, { token }), 404);
    });

    it("errors a run whose plan fails, with Terraform's error in the plan log", async () => {
      const ws = await createWorkspace(org);
      await uploadConfig(ws.id, token, { 'main.tf': FAILING_TF });
      const runId = await startRun(ws.id, token);
      const run = await settle(runId, token, 'errored');
      expect(run.attributes['error-message']).to.match(/terraform plan exited with code 1/);
      expect(run.attributes.actions).to.deep.equal(NO_ACTIONS);
      expectTimestamps(run.attributes['status-timestamps'], [
        'plan-queueable-at',
        'plan-queued-at',
        'planning-at',
        'errored-at',
      ]);
      expect(await actionsOf(runId, token)).to.deep.equal(['created', 'queue_plan', 'start_plan', 'error']);
      const plan = await planOf(run, token);
      expect(plan.attributes.status).to.equal('errored');
      expect((await applyOf(run, token)).attributes.status).to.equal('unreachable');
      const log = (await readLog(plan.attributes['log-read-url'])).toString();
      expect(log.charCodeAt(0)).to.equal(0x02);
      expect(log.charCodeAt(log.length - 1)).to.equal(0x03);
      expect(log).to.include('Reference to undeclared input variable');
      expect(log).to.include('var.missing');
      expectError(await api('GET', `/plans/${plan.id}/json-output`, { token }), 404);
      await expectRefused(runId, token, ['apply', 'discard', 'cancel', 'force-cancel']);
      expectError(await api('GET', `/workspaces/${ws.id}/current-state-version`, { token }), 404);
    });

    it("errors a run whose terraform init fails, with init's output in the plan log and no plan started", async () => {
      const ws = await createWorkspace(org);
      await uploadConfig(ws.id, token, { 'main.tf': 'module "gone" {\n  source = "./not-in-the-archive"\n}\n' });
      const runId = await startRun(ws.id, token);
      const run = await settle(runId, token, 'errored');
      expect(run.attributes['error-message']).to.equal('terraform init failed');
      expect(await actionsOf(runId, token)).to.deep.equal(['created', 'queue_plan', 'start_plan', 'error']);
      const plan = await planOf(run, token);
      expect(plan.attributes.status).to.equal('errored');
      const log = (await readLog(plan.attributes['log-read-url'])).toString();
      expect(log.charCodeAt(log.length - 1)).to.equal(0x03);
      expect(log).to.include('not-in-the-archive');
      expect(log).not.to.include('Terraform will perform the following actions');
      expectError(await api('GET', `/plans/${plan.id}/json-output`, { token }), 404);
    });

    it('cancels an executing apply: Terraform is interrupted and the run ends canceled', async () => {
      const ws = await createWorkspace(org);
      await uploadConfig(ws.id, token, { 'main.tf': SLOW_APPLY_TF });
      const runId = await startRun(ws.id, token, { 'auto-apply': true });
      const applying = await settle(runId, token, 'applying');
      const apply = await applyOf(applying, token);
      const applyLog = async () => (await readLog(apply.attributes['log-read-url'])).toString();
      await waitFor(async () => (await applyLog()).includes('Executing:'), 'the provisioner to start', 30_000);
      const before = await getRun(runId, token);
      expect(before.attributes.status).to.equal('applying');
      expect(before.attributes.actions).to.deep.equal({ ...NO_ACTIONS, 'is-cancelable': true });
      await expectRefused(runId, token, ['apply', 'discard', 'force-cancel']);

      const started = Date.now();
      const res = await action(runId, 'cancel', token);
      expect(res.status, res.text).to.equal(202);
      const run = await settle(runId, token, 'canceled', 15_000);
      expect(Date.now() - started).to.be.below(15_000);
      expect(run.attributes['canceled-at']).to.match(ISO_Z);
      expect(run.attributes['status-timestamps']['canceled-at']).to.match(ISO_Z);
      const actions = await actionsOf(runId, token);
      expect(actions.slice(-3)).to.deep.equal(['start_apply', 'cancel_requested', 'cancel']);
      expect((await applyOf(run, token)).attributes.status).to.equal('canceled');
      const log = await applyLog();
      expect(log.charCodeAt(log.length - 1)).to.equal(0x03);
      await expectRefused(runId, token, ['apply', 'discard', 'cancel', 'force-cancel']);
    });
  });

  describe('one run at a time per workspace', function () {
    this.timeout(180_000);

    it('ends a save-plan run planned_and_saved without holding the workspace; applying it is refused (409) while another run holds the workspace, and applies once it is free', async () => {
      const ws = await createWorkspace(org);
      await uploadConfig(ws.id, token, { 'main.tf': MAIN_TF });
      const saved = await startRun(ws.id, token, { 'save-plan': true });
      const savedRun = await settle(saved, token, 'planned_and_saved');
      expect(savedRun.attributes['has-changes']).to.equal(true);
      expect(savedRun.attributes.actions).to.deep.equal({
        ...NO_ACTIONS,
        'is-confirmable': true,
        'is-discardable': true,
      });

      // The saved plan does not keep the next run waiting; that run then holds the workspace.
      const other = await startRun(ws.id, token);
      await settle(other, token, 'planned');
      const refused = await action(saved, 'apply', token);
      expectError(refused, 409);
      expect(refused.text).to.include('another run holds the workspace');
      expect((await getRun(saved, token)).attributes.status).to.equal('planned_and_saved');

      expect((await action(other, 'discard', token)).status).to.equal(202);
      expect((await action(saved, 'apply', token)).status).to.equal(202);
      await settle(saved, token, 'applied');
      expect(await actionsOf(saved, token)).to.deep.equal([
        'created',
        'queue_plan',
        'start_plan',
        'plan_saved',
        'confirm',
        'queue_apply',
        'start_apply',
        'finish_apply',
      ]);
      expect((await api('GET', `/workspaces/${ws.id}/current-state-version`, { token })).status).to.equal(200);
    });

    it('keeps later runs pending until the first is final, runs plan-only runs alongside, and cancels pending runs at once', async () => {
      const ws = await createWorkspace(org);
      await uploadConfig(ws.id, token, { 'main.tf': MAIN_TF });
      const first = await startRun(ws.id, token);
      await settle(first, token, 'planned');

      const second = await startRun(ws.id, token);
      const third = await startRun(ws.id, token);
      const speculative = await startRun(ws.id, token, { 'plan-only': true });
      const spec = await settle(speculative, token, 'planned_and_finished');
      expect(spec.attributes['has-changes']).to.equal(true);
      await sleep(1500);
      for (const id of [second, third]) {
        const run = await getRun(id, token);
        expect(run.attributes.status, id).to.equal('pending');
        expect(run.attributes.actions).to.deep.equal({ ...NO_ACTIONS, 'is-cancelable': true });
        expect((await planOf(run, token)).attributes.status).to.equal('pending');
        expect(await actionsOf(id, token)).to.deep.equal(['created']);
      }
      expect((await getRun(first, token)).attributes.status).to.equal('planned');

      // A pending run: force-cancel needs a cancel first; cancel ends it at once.
      await expectRefused(third, token, ['apply', 'discard', 'force-cancel']);
      const cancel = await action(third, 'cancel', token);
      expect(cancel.status, cancel.text).to.equal(202);
      const canceled = await getRun(third, token);
      expect(canceled.attributes.status).to.equal('canceled');
      expectTimestamps(canceled.attributes['status-timestamps'], ['plan-queueable-at', 'canceled-at']);
      expect(await actionsOf(third, token)).to.deep.equal(['created', 'cancel']);
      expect((await planOf(canceled, token)).attributes.status).to.equal('unreachable');
      expect((await applyOf(canceled, token)).attributes.status).to.equal('unreachable');
      await expectRefused(third, token, ['cancel', 'force-cancel', 'apply', 'discard']);

      // Discarding the first run lets the second one take the workspace.
      expect((await action(first, 'discard', token)).status).to.equal(202);
      const secondPlanned = await settle(second, token, 'planned');
      const discardedAt = Date.parse((await getRun(first, token)).attributes['status-timestamps']['discarded-at']);
      expect(Date.parse(secondPlanned.attributes['status-timestamps']['plan-queued-at'])).to.be.at.least(discardedAt);
      expect((await getRun(third, token)).attributes.status).to.equal('canceled');

      // A run queued behind the second waits for its apply, then plans on the state it wrote.
      const fourth = await startRun(ws.id, token);
      await sleep(1500);
      expect((await getRun(fourth, token)).attributes.status).to.equal('pending');
      expect((await action(second, 'apply', token)).status).to.equal(202);
      const applied = await settle(second, token, 'applied');
      const after = await settle(fourth, token, 'planned_and_finished');
      expect(after.attributes['has-changes']).to.equal(false);
      expect(Date.parse(after.attributes['status-timestamps']['plan-queued-at'])).to.be.at.least(
        Date.parse(applied.attributes['status-timestamps']['applied-at']),
      );
    });
  });
});
