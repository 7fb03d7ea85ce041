import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api } from '../helpers/api.js';
import { createOrg, createWorkspace, joinOrg, createUser, uniq } from '../helpers/fixtures.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';
import {
  CLI_HOST,
  startRun,
  terraform,
  terraformAvailable,
  uploadConfig,
  waitForRun,
  writeCliConfig,
} from '../helpers/terraform.js';
import { createPolicy, createPolicySet, linkages, uploadCode } from '../helpers/policy-fixtures.js';
import {
  policyWorkers,
  regoPolicy,
  runtimeInstalled,
  sentinelPolicy,
  startPolicyWorker,
} from '../helpers/policy-runtimes.js';
import { attachTask, createTask, runEvents } from '../helpers/run-task-fixtures.js';
import { answerThenCallBack, startTaskIntegration, type SentCallback } from '../helpers/run-task-integration.js';

/** What these tests read of a policy check's attributes. */
type CheckAttributes = {
  status: string;
  scope: string;
  result: Record<string, unknown>;
  actions: Record<string, boolean>;
  [name: string]: unknown;
};

const CONFIG = { 'main.tf': 'resource "terraform_data" "bucket" { input = { acl = "public-read" } }\n' };

type Org = Awaited<ReturnType<typeof createOrg>>;

/** An organization with one global policy set holding one policy with `code`; returns a workspace in it. */
async function orgWithPolicy(
  policy: { kind: 'sentinel' | 'opa'; level: string; code: string; query?: string },
  set: Record<string, unknown> = {},
) {
  const org = await createOrg();
  const token = org.owner.token;
  const pol = await createPolicy(org.name, token, {
    name: uniq('pol'),
    kind: policy.kind,
    'enforcement-level': policy.level,
    ...(policy.query ? { query: policy.query } : {}),
  });
  expect((await uploadCode(pol.id, token, policy.code)).status).to.equal(204);
  const ps = await createPolicySet(org.name, token, { kind: policy.kind, global: true, ...set });
  const link = await api('POST', `/policy-sets/${ps.id}/relationships/policies`, {
    token,
    body: linkages('policies', [pol.id]),
  });
  expect(link.status, link.text).to.equal(204);
  const ws = await createWorkspace(org, { 'auto-apply': false });
  return { org, token, ws };
}

async function runWithChecks(org: Org, wsId: string, statuses: string[], attrs: Record<string, unknown> = {}) {
  const token = org.owner.token;
  const cv = await uploadConfig(wsId, token, CONFIG);
  const runId = await startRun(wsId, token, attrs, cv);
  const run = await waitForRun(runId, token, statuses, 90_000);
  const checks = await api('GET', `/runs/${runId}/policy-checks`, { token });
  expect(checks.status, checks.text).to.equal(200);
  return { runId, run, checks: checks.body.data as { id: string; attributes: CheckAttributes }[] };
}

const output = async (checkId: string, token: string) =>
  (await api('GET', `/policy-checks/${checkId}/output`, { token })).text;

describe('policy checks enforced on runs (real terraform plans)', function () {
  this.timeout(240_000);
  policyWorkers();

  it('a hard-mandatory failure hard-fails the check and errors the run; the check cannot be overridden (409)', async () => {
    const { org, token, ws } = await orgWithPolicy({
      kind: 'sentinel',
      level: 'hard-mandatory',
      code: sentinelPolicy(false, 'buckets must be private'),
    });
    const { run, checks } = await runWithChecks(org, ws.id, ['errored', 'planned', 'policy_checked']);
    expect(run.attributes.status).to.equal('errored');
    expect(checks).to.have.length(1);
    const check = checks[0].attributes;
    expect(check.status).to.equal('hard_failed');
    expect(check.scope).to.equal('organization');
    expect(check.result).to.include({
      result: false,
      passed: 0,
      'total-failed': 1,
      'hard-failed': 1,
      'soft-failed': 0,
      'advisory-failed': 0,
    });
    expect(check.actions['is-overridable']).to.equal(false);
    expect(await output(checks[0].id, token)).to.include('buckets must be private');
    const override = await api('POST', `/policy-checks/${checks[0].id}/actions/override`, { token });
    expect(override.status, override.text).to.equal(409);
  });

  it('a post-plan run task that passes leads the run into its policy check, which is enforced', async () => {
    const key = 'policy-runs-task-key';
    const integration = await startTaskIntegration(key);
    const dispatch = spawnWorkers(['run-task-dispatch', 'verification'], { RECONCILE_INTERVAL_MS: '2000' });
    try {
      await workersReady(dispatch);
      const sent: SentCallback[] = [];
      integration.reply = answerThenCallBack([{ status: 'passed', message: 'no findings' }], sent);
      const { org, token, ws } = await orgWithPolicy({
        kind: 'sentinel',
        level: 'hard-mandatory',
        code: sentinelPolicy(false, 'buckets must be private'),
      });
      const taskId = await createTask(org.name, token, integration.url, { 'hmac-key': key });
      await attachTask(ws.id, token, taskId, { 'enforcement-level': 'mandatory', stages: ['post_plan'] });
      const { runId, run, checks } = await runWithChecks(org, ws.id, [
        'errored',
        'planned',
        'policy_checked',
        'post_plan_completed',
      ]);
      expect(sent.map((c) => [c.step.status, c.status])).to.deep.equal([['passed', 200]]);
      expect(run.attributes.status).to.equal('errored');
      expect(checks.map((c) => c.attributes.status)).to.deep.equal(['hard_failed']);
      // The stage's completion and the entry into the policy check are one move of two events, in order.
      const actions = (await runEvents(runId, token)).map((e) => e.action);
      const completed = actions.indexOf('complete_post_plan');
      expect(actions.slice(completed, completed + 2), JSON.stringify(actions)).to.deep.equal([
        'complete_post_plan',
        'start_policy_check',
      ]);
    } finally {
      await dispatch.stop();
      await integration.close();
    }
  });

  it('a soft-mandatory failure waits in policy_override; an override lets the run be confirmed and applied', async () => {
    const { org, token, ws } = await orgWithPolicy({
      kind: 'sentinel',
      level: 'soft-mandatory',
      code: sentinelPolicy(false, 'needs a second look'),
    });
    const { runId, run, checks } = await runWithChecks(org, ws.id, ['policy_override', 'errored', 'planned']);
    expect(run.attributes.status).to.equal('policy_override');
    expect(run.attributes.actions['is-confirmable']).to.equal(false);
    expect(run.relationships['policy-checks'].data.map((d: { id: string }) => d.id)).to.deep.equal([checks[0].id]);
    expect(checks[0].attributes).to.deep.include({
      status: 'soft_failed',
      actions: { 'is-overridable': true },
      permissions: { 'can-override': true },
    });

    const early = await api('POST', `/runs/${runId}/actions/apply`, { token, body: {} });
    expect(early.status, 'a run in policy_override is not confirmable').to.equal(409);

    const override = await api('POST', `/policy-checks/${checks[0].id}/actions/override`, { token });
    expect(override.status, override.text).to.equal(200);
    expect(override.body.data.attributes.status).to.equal('overridden');
    const checked = await waitForRun(runId, token, ['policy_checked']);
    expect(checked.attributes.actions['is-confirmable']).to.equal(true);
    const apply = await api('POST', `/runs/${runId}/actions/apply`, { token, body: {} });
    expect(apply.status, apply.text).to.equal(202);
    await waitForRun(runId, token, ['applied'], 90_000);
    const again = await api('POST', `/policy-checks/${checks[0].id}/actions/override`, { token });
    expect(again.status).to.equal(409);
  });

  it('an advisory failure only warns: the run goes on and the warning is in the result and output', async () => {
    const { org, token, ws } = await orgWithPolicy({
      kind: 'sentinel',
      level: 'advisory',
      code: sentinelPolicy(false, 'consider tagging the bucket'),
    });
    const { run, checks } = await runWithChecks(org, ws.id, ['policy_checked', 'errored', 'policy_override']);
    expect(run.attributes.status).to.equal('policy_checked');
    expect(checks[0].attributes.status).to.equal('passed');
    expect(checks[0].attributes.result).to.include({ 'advisory-failed': 1, 'total-failed': 1 });
    expect(await output(checks[0].id, token)).to.include('consider tagging the bucket');
  });

  it('an OPA mandatory failure reports in the post-plan stage: overridable (awaiting_override), unless its set is not overridable', async () => {
    const query = 'data.terraform.policies.public_buckets.deny';
    const code = regoPolicy('terraform.policies.public_buckets', ['bucket is public']);
    const stageOf = async (runId: string, token: string) =>
      (await api('GET', `/runs/${runId}/task-stages?include=policy_evaluations`, { token })).body;
    const soft = await orgWithPolicy({ kind: 'opa', level: 'mandatory', code, query }, { overridable: true });
    const a = await runWithChecks(soft.org, soft.ws.id, [
      'post_plan_awaiting_decision',
      'errored',
      'post_plan_completed',
    ]);
    expect(a.run.attributes.status).to.equal('post_plan_awaiting_decision');
    expect(a.checks, 'OPA sets report through policy evaluations, not checks').to.deep.equal([]);
    const softStage = await stageOf(a.runId, soft.token);
    expect(softStage.data[0].attributes.status).to.equal('awaiting_override');
    const evaluation = softStage.included[0];
    expect(evaluation.attributes).to.include({ status: 'failed', 'policy-kind': 'opa' });
    const outcomes = await api('GET', `/policy-evaluations/${evaluation.id}/policy-set-outcomes`, {
      token: soft.token,
    });
    expect(outcomes.body.data[0].attributes.outcomes[0].output).to.deep.equal([{ print: 'bucket is public' }]);

    const strict = await orgWithPolicy({ kind: 'opa', level: 'mandatory', code, query }, { overridable: false });
    const b = await runWithChecks(strict.org, strict.ws.id, [
      'post_plan_awaiting_decision',
      'errored',
      'post_plan_completed',
    ]);
    expect(b.run.attributes.status).to.equal('errored');
    const strictStage = (await stageOf(b.runId, strict.token)).data[0];
    expect(strictStage.attributes.status).to.equal('failed');
    expect(strictStage.attributes.actions['is-overridable']).to.equal(false);
    const override = await api('POST', `/task-stages/${strictStage.id}/actions/override`, {
      token: strict.token,
      body: {},
    });
    expect(override.status, override.text).to.equal(409);
  });

  it('a plan-only run gets checks: passing ends planned_and_finished, a soft failure ends policy_soft_failed', async () => {
    const pass = await orgWithPolicy({
      kind: 'sentinel',
      level: 'soft-mandatory',
      code: sentinelPolicy(true, 'all good'),
    });
    const a = await runWithChecks(pass.org, pass.ws.id, ['planned_and_finished', 'errored', 'policy_soft_failed'], {
      'plan-only': true,
    });
    expect(a.run.attributes.status).to.equal('planned_and_finished');
    expect(a.checks[0].attributes.status).to.equal('passed');
    // can-override is the caller's permission (go-tfe reads it on a passed check); is-overridable, the check's state.
    expect(a.checks[0].attributes).to.deep.include({
      actions: { 'is-overridable': false },
      permissions: { 'can-override': true },
    });

    const fail = await orgWithPolicy({
      kind: 'sentinel',
      level: 'soft-mandatory',
      code: sentinelPolicy(false, 'not this time'),
    });
    const b = await runWithChecks(fail.org, fail.ws.id, ['planned_and_finished', 'errored', 'policy_soft_failed'], {
      'plan-only': true,
    });
    expect(b.run.attributes.status).to.equal('policy_soft_failed');
    expect(b.checks[0].attributes.status).to.equal('soft_failed');
    expect(b.checks[0].attributes).to.deep.include({
      actions: { 'is-overridable': false },
      permissions: { 'can-override': true },
    });
    const override = await api('POST', `/policy-checks/${b.checks[0].id}/actions/override`, { token: fail.token });
    expect(override.status, 'a finished plan-only run cannot be overridden').to.equal(409);
  });

  it('canceling a run while its checks are evaluated cancels the checks', async function () {
    if (runtimeInstalled('sentinel')) this.skip(); // the real runtime has no slow mode to catch the check in progress
    const { token, ws } = await orgWithPolicy({
      kind: 'sentinel',
      level: 'soft-mandatory',
      code: `// slow\n${sentinelPolicy(true, 'fine')}`,
    });
    const cv = await uploadConfig(ws.id, token, CONFIG);
    const runId = await startRun(ws.id, token, {}, cv);
    await waitForRun(runId, token, ['policy_checking'], 90_000);
    const cancel = await api('POST', `/runs/${runId}/actions/cancel`, { token, body: {} });
    expect(cancel.status, cancel.text).to.equal(202);
    await waitForRun(runId, token, ['canceled']);
    const checks = await api('GET', `/runs/${runId}/policy-checks`, { token });
    expect(checks.body.data.map((c: { attributes: { status: string } }) => c.attributes.status)).to.deep.equal([
      'canceled',
    ]);
    // The evaluation that was under way finishes without reviving the check or the run.
    await new Promise((r) => setTimeout(r, 5000));
    const later = await api('GET', `/runs/${runId}?include=task_stages`, { token });
    expect(later.body.data.attributes.status).to.equal('canceled');
    expect(
      (await api('GET', `/policy-checks/${checks.body.data[0].id}`, { token })).body.data.attributes.status,
    ).to.equal('canceled');
  });

  it('override needs manage-policy-overrides; a member without it gets 404', async () => {
    const { org, ws } = await orgWithPolicy({
      kind: 'sentinel',
      level: 'soft-mandatory',
      code: sentinelPolicy(false, 'check me'),
    });
    const { checks } = await runWithChecks(org, ws.id, ['policy_override', 'errored']);
    const member = await createUser();
    await joinOrg(org, member);
    const team = await api('POST', `/organizations/${org.name}/teams`, {
      token: org.owner.token,
      body: {
        data: {
          type: 'teams',
          attributes: { name: uniq('readers'), 'organization-access': { 'read-workspaces': true } },
        },
      },
    });
    expect(team.status, team.text).to.equal(201);
    const add = await api('POST', `/teams/${team.body.data.id}/relationships/users`, {
      token: org.owner.token,
      body: { data: [{ type: 'users', id: member.username }] },
    });
    expect(add.status, add.text).to.equal(204);
    const seen = await api('GET', `/policy-checks/${checks[0].id}`, { token: member.token });
    expect(seen.status, seen.text).to.equal(200);
    expect(seen.body.data.attributes.permissions['can-override']).to.equal(false);
    const refused = await api('POST', `/policy-checks/${checks[0].id}/actions/override`, { token: member.token });
    expect(refused.status).to.equal(404);
  });
});

describe('policy checks without a policy runtime', function () {
  this.timeout(120_000);
  let worker: WorkerProcess;

  before(async function () {
    if (!terraformAvailable()) this.skip();
    worker = spawnWorkers(['run-pipeline'], { SENTINEL_PATH: '/nonexistent/sentinel', OPA_PATH: '/nonexistent/opa' });
    await workersReady(worker);
  });

  after(async () => {
    await worker?.stop();
  });

  it('errors the check with a message naming the missing runtime, and a mandatory check stops the run', async () => {
    const { org, token, ws } = await orgWithPolicy({
      kind: 'sentinel',
      level: 'hard-mandatory',
      code: sentinelPolicy(true, 'fine'),
    });
    const { run, checks } = await runWithChecks(org, ws.id, ['errored', 'planned', 'policy_checked']);
    expect(run.attributes.status).to.equal('errored');
    expect(checks[0].attributes.status).to.equal('errored');
    expect(await output(checks[0].id, token)).to.match(/SENTINEL_PATH/);
  });
});

describe('the terraform CLI shows policy checks and overrides a soft failure with -auto-approve', function () {
  this.timeout(300_000);
  let worker: WorkerProcess;
  let dir: string;

  before(async function () {
    if (!terraformAvailable()) this.skip();
    worker = await startPolicyWorker();
    dir = await mkdtemp(join(tmpdir(), 'rls-cli-policy-'));
  });

  after(async () => {
    await worker?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('terraform plan prints the check and fails on a soft failure; apply -auto-approve overrides it and applies', async () => {
    const { org, token } = await orgWithPolicy({
      kind: 'sentinel',
      level: 'soft-mandatory',
      code: sentinelPolicy(false, 'buckets should be private'),
    });
    const env = await writeCliConfig(dir, token);
    await writeFile(
      join(dir, 'main.tf'),
      `terraform {\n  cloud {\n    hostname     = "${CLI_HOST}"\n    organization = "${org.name}"\n    workspaces { name = "${uniq('cli-policy')}" }\n  }\n}\n${CONFIG['main.tf']}`,
    );
    const init = await terraform(dir, env, ['init', '-input=false', '-no-color']);
    expect(init.code, init.output).to.equal(0);

    const plan = await terraform(dir, env, ['plan', '-input=false', '-no-color']);
    expect(plan.code, plan.output).to.equal(1);
    expect(plan.output).to.include('Organization Policy Check:');
    expect(plan.output).to.include('buckets should be private');
    expect(plan.output).to.include('Organization Policy Check soft failed');

    const apply = await terraform(dir, env, ['apply', '-auto-approve', '-input=false', '-no-color']);
    expect(apply.code, apply.output).to.equal(0);
    expect(apply.output).to.include('buckets should be private');
    expect(apply.output).to.include('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
  });
});
