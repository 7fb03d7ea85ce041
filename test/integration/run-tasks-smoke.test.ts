import { expect } from 'chai';
import { api, doc } from '../helpers/api.js';
import { createOrg, createWorkspace, uniq } from '../helpers/fixtures.js';
import { waitFor } from '../helpers/processes.js';
import { startRun, uploadConfig, waitForRun, terraformWorkers } from '../helpers/terraform.js';
import { callback, startTaskIntegration, type TaskIntegration } from '../helpers/run-task-integration.js';

describe('run tasks: a post-plan task end to end', function () {
  this.timeout(120_000);
  let integration: TaskIntegration;
  terraformWorkers(['run-pipeline', 'run-task-dispatch', 'deadline-expiry', 'verification'], {
    RECONCILE_INTERVAL_MS: '2000',
  });

  before(async () => {
    integration = await startTaskIntegration('s3cret');
  });

  after(async () => {
    await integration?.close();
  });

  it('calls the integration after the plan, accepts running and passed callbacks, and the run proceeds', async () => {
    const org = await createOrg();
    const token = org.owner.token;
    const task = await api('POST', `/organizations/${org.name}/tasks`, {
      token,
      body: doc('tasks', {
        name: uniq('scan'),
        url: integration.url,
        category: 'task',
        'hmac-key': 's3cret',
        enabled: true,
      }),
    });
    expect(task.status, task.text).to.equal(201);
    expect(task.body.data.attributes['hmac-key']).to.equal(null);
    expect(integration.requests).to.have.length(1);
    expect(integration.requests[0].body.stage).to.equal('test');
    expect(integration.requests[0].signatureValid).to.equal(true);

    const ws = await createWorkspace(org);
    const attach = await api('POST', `/workspaces/${ws.id}/tasks`, {
      token,
      body: doc(
        'workspace-tasks',
        { 'enforcement-level': 'mandatory', stages: ['post_plan'] },
        { task: { data: { type: 'tasks', id: task.body.data.id } } },
      ),
    });
    expect(attach.status, attach.text).to.equal(201);

    await uploadConfig(ws.id, token, { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' });
    const runId = await startRun(ws.id, token);
    const created = await api('GET', `/runs/${runId}?include=task_stages`, { token });
    expect(created.body.included.map((s: { attributes: { stage: string } }) => s.attributes.stage)).to.deep.equal([
      'post_plan',
    ]);

    await waitForRun(runId, token, ['post_plan_running']);
    await waitFor(() => integration.requests.length === 2, 'the run task request');
    const req = integration.requests[1];
    expect(req.signatureValid).to.equal(true);
    expect(req.body.stage).to.equal('post_plan');
    expect(req.body.plan_json_api_url).to.match(/\/plans\/plan-\w+\/json-output$/);
    const accessToken = req.body.access_token as string;
    const planJson = await fetch(req.body.plan_json_api_url as string, {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    expect(planJson.status).to.equal(200);

    const cbUrl = req.body.task_result_callback_url as string;
    const outcome = {
      type: 'task-result-outcomes',
      attributes: {
        'outcome-id': 'X-1',
        description: 'checked',
        tags: { Severity: [{ label: 'High', level: 'error' }, { label: 'Low' }] },
      },
    };
    expect((await callback(cbUrl, accessToken, { status: 'running', message: 'scanning' }, [outcome])).status).to.equal(
      200,
    );
    expect((await callback(cbUrl, accessToken, { status: 'running', message: 'still scanning' })).status).to.equal(200);
    expect((await callback(cbUrl, 'wrong', { status: 'passed' })).status).to.equal(401);
    expect((await callback(cbUrl, accessToken, { status: 'done' })).status).to.equal(422);
    expect(
      (await callback(cbUrl, accessToken, { status: 'passed', message: 'all good', url: 'https://scan.example/1' }))
        .status,
    ).to.equal(200);
    expect((await callback(cbUrl, accessToken, { status: 'failed' })).status).to.equal(422);

    // With a post-plan stage the run waits for confirmation in post_plan_completed, as in TFE.
    const run = await waitForRun(runId, token, ['post_plan_completed']);
    expect(run.attributes.actions['is-confirmable']).to.equal(true);
    expect(run.relationships['task-stages'].data).to.have.length(1);
    const stage = await api('GET', `/task-stages/${run.relationships['task-stages'].data[0].id}?include=task_results`, {
      token,
    });
    expect(stage.body.data.attributes.status).to.equal('passed');
    const result = stage.body.included[0];
    expect(result.attributes).to.include({
      status: 'passed',
      message: 'all good',
      'workspace-task-enforcement-level': 'mandatory',
    });
    const withOutcomes = await api('GET', `/task-results/${result.id}?include=outcomes`, { token });
    expect(withOutcomes.body.included[0].attributes.tags.Severity[1]).to.deep.equal({ label: 'Low', level: 'none' });
  });
});
