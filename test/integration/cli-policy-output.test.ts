import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOrg, createWorkspace } from '../helpers/fixtures.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { answerThenCallBack, startTaskIntegration, type SentCallback, type TaskIntegration } from '../helpers/run-task-integration.js';
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
    worker = spawnWorkers(['verification', 'run-task-dispatch', 'run-pipeline', 'deadline-expiry'], { RECONCILE_INTERVAL_MS: '2000', ...(await policyRuntimeEnv()) });
    await workersReady(worker);
    integration = await startTaskIntegration(null, answerThenCallBack([{ status: 'passed', message: 'all good' }], sent));
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
    await createPolicySet(org.name, token, { kind: 'sentinel' }, { policies: linkages('policies', [policy.id]), workspaces: linkages('workspaces', [ws.id]) });
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
});
