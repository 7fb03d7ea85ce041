import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api } from '../helpers/api.js';
import { createOrg, createWorkspace } from '../helpers/fixtures.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';
import {
  answerThenCallBack,
  startTaskIntegration,
  type SentCallback,
  type TaskIntegration,
} from '../helpers/run-task-integration.js';
import { attachTask, createTask, SIMPLE_CONFIG } from '../helpers/run-task-fixtures.js';
import { CLI_HOST, terraform, terraformAvailable, writeCliConfig } from '../helpers/terraform.js';
import { createPolicy, createPolicySet, linkages, uploadCode } from '../helpers/policy-fixtures.js';
import { policyRuntimeEnv, sentinelPolicy } from '../helpers/policy-runtimes.js';

type Org = Awaited<ReturnType<typeof createOrg>>;

/** What the terraform CLI prints about policies, driven through its cloud backend. */
describe('what the terraform CLI shows of policies', function () {
  this.timeout(300_000);
  let worker: WorkerProcess;
  let integration: TaskIntegration;
  const sent: SentCallback[] = [];

  before(async function () {
    if (!terraformAvailable()) this.skip();
    worker = spawnWorkers(['verification', 'run-task-dispatch', 'run-pipeline', 'deadline-expiry'], {
      RECONCILE_INTERVAL_MS: '2000',
      ...(await policyRuntimeEnv()),
    });
    await workersReady(worker);
    integration = await startTaskIntegration(
      null,
      answerThenCallBack([{ status: 'passed', message: 'all good' }], sent),
    );
  });

  after(async () => {
    await worker?.stop();
    await integration?.close();
  });

  /** A working directory whose `cloud` block names a new workspace of `org`; returns it with the CLI's environment. */
  async function cliDir(org: Org, workspace: string, config = SIMPLE_CONFIG['main.tf']) {
    const dir = await mkdtemp(join(tmpdir(), 'rls-cli-policy-'));
    const env = await writeCliConfig(dir, org.owner.token);
    const cloud = `terraform {\n  cloud {\n    hostname     = "${CLI_HOST}"\n    organization = "${org.name}"\n    workspaces { name = "${workspace}" }\n  }\n}\n`;
    await writeFile(join(dir, 'main.tf'), cloud + config);
    return { dir, env };
  }

  it('a Sentinel policy check is printed when a post-plan task runs before it, as without a task', async () => {
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    const taskId = await createTask(org.name, token, integration.url);
    await attachTask(ws.id, token, taskId, { 'enforcement-level': 'mandatory', stages: ['post_plan'] });
    const policy = await createPolicy(org.name, token, { kind: 'sentinel', 'enforcement-level': 'hard-mandatory' });
    expect((await uploadCode(policy.id, token, sentinelPolicy(false, 'tags are missing'))).status).to.equal(204);
    await createPolicySet(
      org.name,
      token,
      { kind: 'sentinel' },
      { policies: linkages('policies', [policy.id]), workspaces: linkages('workspaces', [ws.id]) },
    );
    const { dir, env } = await cliDir(org, ws.name);
    try {
      expect((await terraform(dir, env, ['init', '-input=false', '-no-color'])).code).to.equal(0);
      const plan = await terraform(dir, env, ['plan', '-input=false', '-no-color']);
      expect(plan.code, plan.output).to.equal(1);
      expect(plan.output, plan.output).to.include('Post-plan Tasks').and.include('All tasks completed');
      expect(plan.output, plan.output).to.include('Sentinel Result: false').and.include('tags are missing');
      expect(plan.output, plan.output).to.match(/hard-mandatory/i);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a passing Sentinel check after a post-plan task: the plan succeeds and prints the check', async () => {
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    await attachTask(ws.id, token, await createTask(org.name, token, integration.url), {
      'enforcement-level': 'advisory',
      stages: ['post_plan'],
    });
    const policy = await createPolicy(org.name, token, { kind: 'sentinel', 'enforcement-level': 'soft-mandatory' });
    expect((await uploadCode(policy.id, token, sentinelPolicy(true, 'tags present'))).status).to.equal(204);
    await createPolicySet(
      org.name,
      token,
      { kind: 'sentinel' },
      { policies: linkages('policies', [policy.id]), workspaces: linkages('workspaces', [ws.id]) },
    );
    const { dir, env } = await cliDir(org, ws.name);
    try {
      expect((await terraform(dir, env, ['init', '-input=false', '-no-color'])).code).to.equal(0);
      const plan = await terraform(dir, env, ['plan', '-input=false', '-no-color']);
      expect(plan.code, plan.output).to.equal(0);
      expect(plan.output, plan.output).to.include('Post-plan Tasks').and.include('Sentinel Result: true');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("an OPA evaluation is printed beside a post-plan task's result", async () => {
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    await attachTask(ws.id, token, await createTask(org.name, token, integration.url), {
      'enforcement-level': 'advisory',
      stages: ['post_plan'],
    });
    const policy = await createPolicy(org.name, token, {
      kind: 'opa',
      query: 'data.example.rule',
      'enforcement-level': 'advisory',
      description: 'no public buckets',
    });
    expect((await uploadCode(policy.id, token, 'package example rule["bucket is public"] { true }')).status).to.equal(
      204,
    );
    await createPolicySet(
      org.name,
      token,
      { kind: 'opa' },
      { policies: linkages('policies', [policy.id]), workspaces: linkages('workspaces', [ws.id]) },
    );
    const { dir, env } = await cliDir(org, ws.name);
    try {
      expect((await terraform(dir, env, ['init', '-input=false', '-no-color'])).code).to.equal(0);
      const plan = await terraform(dir, env, ['plan', '-input=false', '-no-color']);
      expect(plan.output, plan.output)
        .to.include('Post-plan Tasks')
        .and.include('OPA Policy Evaluation')
        .and.include('no public buckets');
      expect(plan.code, plan.output).to.equal(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('an OPA policy that could not be evaluated is never shown as passed, and its reason is printed', async () => {
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    const policy = await createPolicy(org.name, token, {
      kind: 'opa',
      query: 'data.example.rule',
      'enforcement-level': 'advisory',
      description: 'no public buckets',
    });
    // Not Rego at all: no runtime can evaluate it.
    expect((await uploadCode(policy.id, token, 'package example\nthis is not rego {')).status).to.equal(204);
    await createPolicySet(
      org.name,
      token,
      { kind: 'opa' },
      { policies: linkages('policies', [policy.id]), workspaces: linkages('workspaces', [ws.id]) },
    );
    const { dir, env } = await cliDir(org, ws.name);
    try {
      expect((await terraform(dir, env, ['init', '-input=false', '-no-color'])).code).to.equal(0);
      const plan = await terraform(dir, env, ['plan', '-input=false', '-no-color']);
      expect(plan.output, plan.output).to.include('OPA Policy Evaluation').and.include('Overall Result: FAILED');
      expect(plan.output, plan.output).not.to.include('PASSED');
      expect(plan.output, plan.output).to.match(/no public buckets\. Not evaluated: .+/);
      expect(plan.code, plan.output).to.equal(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a soft-failed check on a plan with no changes ends the run instead of waiting for an override', async () => {
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    const policy = await createPolicy(org.name, token, { kind: 'sentinel', 'enforcement-level': 'soft-mandatory' });
    expect((await uploadCode(policy.id, token, sentinelPolicy(false, 'soft rule'))).status).to.equal(204);
    await createPolicySet(
      org.name,
      token,
      { kind: 'sentinel' },
      { policies: linkages('policies', [policy.id]), workspaces: linkages('workspaces', [ws.id]) },
    );
    // A configuration with nothing in it: the plan has no changes.
    const { dir, env } = await cliDir(org, ws.name, '');
    try {
      expect((await terraform(dir, env, ['init', '-input=false', '-no-color'])).code).to.equal(0);
      const apply = await terraform(dir, env, ['apply', '-input=false', '-no-color'], 120_000);
      expect(apply.output, apply.output)
        .to.include('No changes.')
        .and.include('Sentinel Result: false')
        .and.include('soft failed');
      expect(apply.output, apply.output).not.to.include('Do you want to override');
      expect(apply.code, apply.output).to.equal(1);
      const runs = await api('GET', `/workspaces/${ws.id}/runs`, { token });
      expect(
        runs.body.data.map((r: { attributes: { status: string; 'has-changes': boolean } }) => [
          r.attributes.status,
          r.attributes['has-changes'],
        ]),
      ).to.deep.equal([['policy_soft_failed', false]]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
