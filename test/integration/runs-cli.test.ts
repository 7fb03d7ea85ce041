import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, doc } from '../helpers/api.js';
import { callback, startTaskIntegration } from '../helpers/run-task-integration.js';
import { createOrg, createWorkspace, uniq } from '../helpers/fixtures.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { CLI_HOST, terraform, terraformAvailable, writeCliConfig } from '../helpers/terraform.js';
import { readWholeLog } from '../helpers/module-tests.js';

/** A CLI configuration and a `cloud` block for `workspace` in `org`, written to `dir`; returns the CLI's environment. */
async function cliSetup(
  dir: string,
  org: { name: string; owner: { token: string } },
  workspace: string,
  body: string,
): Promise<NodeJS.ProcessEnv> {
  const env = await writeCliConfig(dir, org.owner.token);
  await writeFile(
    join(dir, 'main.tf'),
    `terraform {\n  cloud {\n    hostname     = "${CLI_HOST}"\n    organization = "${org.name}"\n    workspaces { name = "${workspace}" }\n  }\n}\n${body}`,
  );
  return env;
}

describe('the terraform CLI drives a remote run end to end (cloud block, plain HTTP host)', function () {
  this.timeout(300_000);
  let worker: WorkerProcess;
  let dir: string;

  before(async function () {
    if (!terraformAvailable()) this.skip();
    worker = spawnWorkers(['run-pipeline', 'deadline-expiry', 'run-task-dispatch', 'verification'], {
      RECONCILE_INTERVAL_MS: '2000',
    });
    await workersReady(worker);
    dir = await mkdtemp(join(tmpdir(), 'rls-cli-'));
  });

  after(async () => {
    await worker?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('runs init, plan, apply -auto-approve, and a second plan that reports no changes', async () => {
    const org = await createOrg();
    const env = await cliSetup(
      dir,
      org,
      uniq('cli'),
      `variable "greeting" {
  type    = string
  default = "hello"
}
resource "terraform_data" "a" { input = var.greeting }
output "x" { value = terraform_data.a.output }
`,
    );

    const init = await terraform(dir, env, ['init', '-input=false', '-no-color']);
    expect(init.code, init.output).to.equal(0);

    const plan = await terraform(dir, env, ['plan', '-input=false', '-no-color']);
    expect(plan.code, plan.output).to.equal(0);
    expect(plan.output).to.include('Plan: 1 to add, 0 to change, 0 to destroy.');

    const apply = await terraform(dir, env, [
      'apply',
      '-auto-approve',
      '-input=false',
      '-no-color',
      '-var',
      'greeting=hi there',
    ]);
    expect(apply.code, apply.output).to.equal(0);
    expect(apply.output).to.include('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');

    const again = await terraform(dir, env, [
      'plan',
      '-input=false',
      '-no-color',
      '-detailed-exitcode',
      '-var',
      'greeting=hi there',
    ]);
    expect(again.code, again.output).to.equal(0);
    expect(again.output).to.include('No changes.');

    const output = await terraform(dir, env, ['output', '-json']);
    expect(output.code, output.output).to.equal(0);
    expect(JSON.parse(output.output).x.value).to.equal('hi there');
  });

  it('renders a structured run output: the plan from the redacted JSON plan, once, without sensitive values', async () => {
    const org = await createOrg();
    const ws = await createWorkspace(org, { 'structured-run-output-enabled': true });
    const sroDir = await mkdtemp(join(tmpdir(), 'rls-cli-sro-'));
    try {
      const env = await cliSetup(
        sroDir,
        org,
        ws.name,
        `variable "secret" {
  type      = string
  sensitive = true
  default   = "hunter2-in-plain-text"
}
resource "terraform_data" "a" { input = "visible" }
resource "terraform_data" "b" { input = var.secret }
output "s" {
  value     = var.secret
  sensitive = true
}
`,
      );
      const init = await terraform(sroDir, env, ['init', '-input=false', '-no-color']);
      expect(init.code, init.output).to.equal(0);

      const plan = await terraform(sroDir, env, ['plan', '-input=false', '-no-color']);
      expect(plan.code, plan.output).to.equal(0);
      // Rendered by the CLI from json-output-redacted (the log is JSON lines, which it does not print as they are).
      expect(plan.output).to.include('Terraform will perform the following actions:');
      expect(plan.output.split('# terraform_data.a will be created').length - 1, plan.output).to.equal(1);
      expect(plan.output).to.include('+ input  = "visible"');
      expect(plan.output).to.match(/\+ input\s+= \(sensitive value\)/);
      expect(plan.output).to.match(/Changes to Outputs:\s+\+ s = \(sensitive value\)/);
      expect(plan.output).to.include('Plan: 2 to add, 0 to change, 0 to destroy.');
      expect(plan.output).not.to.include('No changes.');
      expect(plan.output).not.to.include('"@level"');
      expect(plan.output).not.to.include('hunter2-in-plain-text');

      // What the CLI read: a plan log of Terraform's JSON lines after the three preamble lines, and
      // a redacted plan carrying the schema of the one type it changes.
      const runs = await api('GET', `/workspaces/${ws.id}/runs?include=plan`, { token: org.owner.token });
      const planned = runs.body.included.find((r: { type: string }) => r.type === 'plans');
      const log = (await readWholeLog(planned.attributes['log-read-url']))
        .replace(/^\x02|\x03$/g, '')
        .trim()
        .split('\n');
      expect(log.slice(0, 3)).to.deep.equal([
        'Terraform v1.11.4',
        'on linux_amd64',
        'Initializing plugins and modules...',
      ]);
      for (const line of log.slice(3)) expect(JSON.parse(line), line).to.have.property('@level');
      const redacted = await api('GET', `/plans/${planned.id}/json-output-redacted`, { token: org.owner.token });
      expect(redacted.status, redacted.text).to.equal(200);
      expect(redacted.body.plan_format_version).to.equal(redacted.body.format_version);
      expect(redacted.body.provider_format_version).to.equal('1.0');
      expect(Object.keys(redacted.body.provider_schemas)).to.deep.equal(['terraform.io/builtin/terraform']);
      expect(
        Object.keys(redacted.body.provider_schemas['terraform.io/builtin/terraform'].resource_schemas),
      ).to.deep.equal(['terraform_data']);
      expect(redacted.text).not.to.include('hunter2-in-plain-text');

      const apply = await terraform(sroDir, env, ['apply', '-auto-approve', '-input=false', '-no-color']);
      expect(apply.code, apply.output).to.equal(0);
      expect(apply.output).to.include('Apply complete! Resources: 2 added, 0 changed, 0 destroyed.');
      // The apply's JSON lines, rendered by the CLI.
      expect(apply.output).to.include('terraform_data.b: Creation complete');
      expect(apply.output).not.to.include('"@level"');
      expect(apply.output).not.to.include('hunter2-in-plain-text');

      const again = await terraform(sroDir, env, ['plan', '-input=false', '-no-color']);
      expect(again.code, again.output).to.equal(0);
      expect(again.output).to.include('No changes.');
    } finally {
      await rm(sroDir, { recursive: true, force: true });
    }
  });

  it('shows run task stage results during terraform plan, without hanging', async () => {
    const org = await createOrg();
    const workspace = uniq('cli-tasks');
    const taskDir = await mkdtemp(join(tmpdir(), 'rls-cli-tasks-'));
    // An integration that answers 200 and calls back `passed` a moment later, as real ones do.
    const integration = await startTaskIntegration(null, (req) => {
      const body = req.body as { access_token?: string; task_result_callback_url?: string; task_result_id?: string };
      if (body.task_result_callback_url && body.access_token && !String(body.task_result_id).endsWith('-test')) {
        setTimeout(
          () =>
            void callback(body.task_result_callback_url!, body.access_token!, {
              status: 'passed',
              message: 'post-plan check: passed',
              url: 'https://scan.example/r/1',
            }),
          300,
        );
      }
      return 200;
    });
    try {
      const env = await cliSetup(taskDir, org, workspace, 'resource "terraform_data" "a" { input = "x" }\n');
      const init = await terraform(taskDir, env, ['init', '-input=false', '-no-color']);
      expect(init.code, init.output).to.equal(0);
      const ws = await api('GET', `/organizations/${org.name}/workspaces/${workspace}`, { token: org.owner.token });
      const task = await api('POST', `/organizations/${org.name}/tasks`, {
        token: org.owner.token,
        body: doc('tasks', { name: 'security-scan', url: integration.url, category: 'task' }),
      });
      expect(task.status, task.text).to.equal(201);
      const attach = await api('POST', `/workspaces/${ws.body.data.id}/tasks`, {
        token: org.owner.token,
        body: doc(
          'workspace-tasks',
          { 'enforcement-level': 'mandatory', stages: ['post_plan'] },
          { task: { data: { type: 'tasks', id: task.body.data.id } } },
        ),
      });
      expect(attach.status, attach.text).to.equal(201);

      const plan = await terraform(taskDir, env, ['plan', '-input=false', '-no-color']);
      expect(plan.code, plan.output).to.equal(0);
      expect(plan.output).to.include('Post-plan Tasks:');
      expect(plan.output).to.match(/All tasks completed! 1 passed, 0 failed/);
      expect(plan.output).to.include('security-scan');
      expect(plan.output).to.include('post-plan check: passed');
      expect(plan.output).to.include('Overall Result: Passed');
    } finally {
      await integration.close();
      await rm(taskDir, { recursive: true, force: true });
    }
  });
  it('applies remotely with workspace variables and a variable set, by their precedence, and never shows the sensitive value', async () => {
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    const secret = `s3cr3t-${uniq('pw')}`;
    const addVar = async (path: string, attributes: Record<string, unknown>) => {
      const res = await api('POST', path, { token, body: doc('vars', attributes) });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.attributes.value).to.equal(attributes.sensitive ? null : attributes.value);
    };
    await addVar(`/workspaces/${ws.id}/vars`, { key: 'region', value: 'eu-west-1', category: 'terraform' });
    await addVar(`/workspaces/${ws.id}/vars`, { key: 'zones', value: '["a", "b"]', category: 'terraform', hcl: true });
    await addVar(`/workspaces/${ws.id}/vars`, { key: 'TF_VAR_tier', value: 'gold', category: 'env' });
    await addVar(`/workspaces/${ws.id}/vars`, {
      key: 'db_password',
      value: secret,
      category: 'terraform',
      sensitive: true,
    });
    // A variable set applied to the workspace: the workspace's own region wins, the set's owner is used.
    const set = await api('POST', `/organizations/${org.name}/varsets`, {
      token,
      body: doc('varsets', { name: uniq('set'), global: false }),
    });
    expect(set.status, set.text).to.equal(201);
    await addVar(`/varsets/${set.body.data.id}/relationships/vars`, {
      key: 'region',
      value: 'us-east-1',
      category: 'terraform',
    });
    await addVar(`/varsets/${set.body.data.id}/relationships/vars`, {
      key: 'owner',
      value: 'team-a',
      category: 'terraform',
    });
    const applied = await api('POST', `/varsets/${set.body.data.id}/relationships/workspaces`, {
      token,
      body: { data: [{ type: 'workspaces', id: ws.id }] },
    });
    expect(applied.status, applied.text).to.equal(204);

    const varsDir = await mkdtemp(join(tmpdir(), 'rls-cli-vars-'));
    try {
      const env = await cliSetup(
        varsDir,
        org,
        ws.name,
        `variable "region" { type = string }
variable "owner" { type = string }
variable "zones" { type = list(string) }
variable "tier" { type = string }
variable "db_password" {
  type      = string
  sensitive = true
}
resource "terraform_data" "a" { input = "\${var.region}/\${var.owner}/\${join(",", var.zones)}/\${var.tier}" }
output "summary" { value = terraform_data.a.output }
output "password_length" { value = nonsensitive(length(var.db_password)) }
`,
      );
      expect((await terraform(varsDir, env, ['init', '-input=false', '-no-color'])).code).to.equal(0);
      const apply = await terraform(varsDir, env, ['apply', '-auto-approve', '-input=false', '-no-color']);
      expect(apply.code, apply.output).to.equal(0);
      expect(apply.output).to.not.include(secret);
      const output = await terraform(varsDir, env, ['output', '-json']);
      expect(output.code, output.output).to.equal(0);
      const values = JSON.parse(output.output);
      expect(values.summary.value).to.equal('eu-west-1/team-a/a,b/gold');
      expect(values.password_length.value).to.equal(secret.length);

      // Neither the run's logs nor what the API answers about the workspace's variables hold the value.
      const runs = await api('GET', `/workspaces/${ws.id}/runs`, { token });
      const run = runs.body.data[0];
      const plan = await api('GET', `/plans/${run.relationships.plan.data.id}`, { token });
      const applyRes = await api('GET', `/applies/${run.relationships.apply.data.id}`, { token });
      const logs =
        (await readWholeLog(plan.body.data.attributes['log-read-url'])) +
        (await readWholeLog(applyRes.body.data.attributes['log-read-url']));
      expect(logs).to.include('db_password');
      expect(logs).to.not.include(secret);
      const listed = await api('GET', `/workspaces/${ws.id}/vars`, { token });
      expect(listed.text).to.not.include(secret);
      expect(JSON.stringify(run)).to.not.include(secret);
    } finally {
      await rm(varsDir, { recursive: true, force: true });
    }
  });
});
