import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { api } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { createWorkspace } from '../helpers/fixtures.js';
import { waitFor } from '../helpers/processes.js';
import { startRun, uploadConfig, waitForRun, terraformWorkers } from '../helpers/terraform.js';
import {
  callback,
  startTaskIntegration,
  type ReceivedTaskRequest,
  type TaskIntegration,
} from '../helpers/run-task-integration.js';
import { SIMPLE_CONFIG, stageOf, taskSetup, type TaskSetup } from '../helpers/run-task-fixtures.js';

/** The run task request body keys (both spellings of capabilities), and each one's JSON type. */
const BASE_KEYS: Record<string, string> = {
  payload_version: 'number',
  stage: 'string',
  access_token: 'string',
  capabilitites: 'object',
  capabilities: 'object',
  configuration_version_download_url: 'string',
  configuration_version_id: 'string',
  is_speculative: 'boolean',
  organization_name: 'string',
  run_app_url: 'string',
  run_created_at: 'string',
  run_created_by: 'string',
  run_id: 'string',
  run_message: 'string',
  task_result_callback_url: 'string',
  task_result_enforcement_level: 'string',
  task_result_id: 'string',
  // A workspace without a VCS repository sends these as null.
  vcs_branch: 'null',
  vcs_commit_url: 'null',
  vcs_pull_request_url: 'null',
  vcs_repo_url: 'null',
  workspace_app_url: 'string',
  workspace_id: 'string',
  workspace_name: 'string',
  workspace_working_directory: 'string',
};
const STAGES_WITH_PLAN = ['post_plan', 'pre_apply', 'post_apply'];

/** What a stage's request must describe. */
interface ExpectedContext {
  s: TaskSetup;
  run: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  stage: string;
  resultId: string;
  cvId: string;
  speculative: boolean;
  level: string;
}

const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

const get = (url: string, token: string) =>
  fetch(url, { headers: { Authorization: `Bearer ${token}` }, redirect: 'manual' });

describe('run tasks: the request sent at each stage', function () {
  this.timeout(90_000);
  let integration: TaskIntegration;
  const KEY = 'payload-hmac-key-7f3a';
  terraformWorkers(['run-pipeline', 'run-task-dispatch', 'deadline-expiry', 'verification'], {
    RECONCILE_INTERVAL_MS: '2000',
  });

  before(async () => {
    integration = await startTaskIntegration(KEY);
  });

  after(async () => {
    await integration?.close();
  });

  const requestsFor = (runId: string, stage: string) =>
    integration.requests.filter((r) => r.body.run_id === runId && r.body.stage === stage);

  /** Asserts the exact key set, the types and the values every stage's request must carry. */
  function expectBody(req: ReceivedTaskRequest, ctx: ExpectedContext) {
    const base = harness().baseUrl;
    const body = req.body;
    const expected = { ...BASE_KEYS, ...(STAGES_WITH_PLAN.includes(ctx.stage) ? { plan_json_api_url: 'string' } : {}) };
    expect(Object.keys(body).sort(), `keys at ${ctx.stage}`).to.deep.equal(Object.keys(expected).sort());
    for (const [key, type] of Object.entries(expected))
      expect(jsonType(body[key]), `${key} at ${ctx.stage}`).to.equal(type);
    expect(Number.isInteger(body.payload_version)).to.equal(true);
    expect(body).to.include({
      payload_version: 1,
      stage: ctx.stage,
      configuration_version_id: ctx.cvId,
      configuration_version_download_url: `${base}/api/v2/configuration-versions/${ctx.cvId}/download`,
      is_speculative: ctx.speculative,
      organization_name: ctx.s.org.name,
      run_id: ctx.run.id,
      run_created_by: ctx.s.org.owner.username,
      run_message: ctx.run.attributes.message,
      task_result_callback_url: `${base}/api/v2/task-results/${ctx.resultId}/callback`,
      task_result_enforcement_level: ctx.level,
      task_result_id: ctx.resultId,
      workspace_id: ctx.s.ws.id,
      workspace_name: ctx.s.ws.name,
      workspace_working_directory: '',
    });
    expect(body.capabilitites).to.deep.equal({ outcomes: true });
    expect(body.capabilities).to.deep.equal({ outcomes: true });
    expect(Date.parse(String(body.run_created_at))).to.equal(Date.parse(ctx.run.attributes['created-at']));
    expect(String(body.run_app_url).startsWith(base)).to.equal(true);
    expect(String(body.run_app_url)).to.include(ctx.run.id);
    expect(String(body.workspace_app_url).startsWith(base)).to.equal(true);
    expect(String(body.workspace_app_url)).to.include(ctx.s.ws.name);
    expect(String(body.access_token)).to.have.length.greaterThan(20);
    if (STAGES_WITH_PLAN.includes(ctx.stage)) {
      expect(body.plan_json_api_url).to.equal(`${base}/api/v2/plans/${ctx.run.relationships.plan.data.id}/json-output`);
    }
    expect(req.headers['content-type']).to.equal('application/json');
    expect(req.headers['user-agent']).to.equal(`RLS/1.0 (+${base}; RLS)`);
  }

  it('sends each stage exactly the documented keys, signed; the token reads the plan and configuration, nothing else', async () => {
    const stages = ['pre_plan', 'post_plan', 'pre_apply', 'post_apply'];
    const s = await taskSetup(integration.url, { level: 'mandatory', stages, hmacKey: KEY });
    // Another run in the same organization whose plan and configuration the token must not read.
    const otherWs = await createWorkspace(s.org);
    const otherCv = await uploadConfig(otherWs.id, s.token, SIMPLE_CONFIG);
    const otherRun = await waitForRun(await startRun(otherWs.id, s.token), s.token, ['planned']);
    const otherPlanJson = `${harness().baseUrl}/api/v2/plans/${otherRun.relationships.plan.data.id}/json-output`;
    const otherCvDownload = `${harness().baseUrl}/api/v2/configuration-versions/${otherCv}/download`;
    expect((await get(otherPlanJson, s.token)).status, 'the owner reads the other plan').to.equal(200);

    const cvId = await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    const runId = await startRun(s.ws.id, s.token);
    for (const stage of stages) {
      if (stage === 'pre_apply') {
        await waitForRun(runId, s.token, ['post_plan_completed']);
        const confirm = await api('POST', `/runs/${runId}/actions/apply`, { token: s.token, body: {} });
        expect(confirm.status, confirm.text).to.equal(202);
      }
      const run = await waitForRun(runId, s.token, [`${stage}_running`]);
      await waitFor(() => requestsFor(runId, stage).length === 1, `the ${stage} request`);
      const req = requestsFor(runId, stage)[0];
      const resultId = (await stageOf(runId, s.token, stage)).results[0].id;
      expectBody(req, { s, run, stage, resultId, cvId, speculative: false, level: 'mandatory' });

      // Signed over the exact body bytes, in both headers.
      const signature = createHmac('sha512', KEY).update(req.raw).digest('hex');
      expect(req.headers['x-svc-task-signature']).to.equal(signature);
      expect(req.headers['x-tfc-task-signature']).to.equal(signature);
      expect(req.signatureValid).to.equal(true);

      const token = String(req.body.access_token);
      const cvDownload = String(req.body.configuration_version_download_url);
      const download = await get(cvDownload, token);
      expect(download.status, `configuration download at ${stage}`).to.equal(302);
      expect(download.headers.get('location')).to.be.a('string').and.include('/v1/object/');
      const planJson = req.body.plan_json_api_url as string | undefined;
      if (planJson) {
        const plan = await get(planJson, token);
        expect(plan.status, `plan JSON at ${stage}`).to.equal(200);
        expect(await plan.json()).to.have.property('format_version');
      }
      // Nothing else: not the run, its plan resource, the workspace, the result, or another run's data.
      const base = `${harness().baseUrl}/api/v2`;
      const forbidden = [
        `/runs/${runId}`,
        `/plans/${run.relationships.plan.data.id}`,
        `/workspaces/${s.ws.id}`,
        `/task-results/${resultId}`,
      ];
      for (const path of [...forbidden, `/runs/${runId}/task-stages`]) {
        expect((await get(`${base}${path}`, token)).status, `${path} with the access token`).to.equal(401);
      }
      expect((await get(otherPlanJson, token)).status, "another run's plan").to.equal(404);
      expect((await get(otherCvDownload, token)).status, "another run's configuration").to.equal(404);

      const done = await callback(String(req.body.task_result_callback_url), token, { status: 'passed' });
      expect(done.status, done.text).to.equal(200);
      // Final: the token no longer reads anything.
      await waitFor(async () => (await get(cvDownload, token)).status === 401, `the ${stage} token to stop working`);
      if (planJson) expect((await get(planJson, token)).status).to.equal(401);
    }
    const applied = await waitForRun(runId, s.token, ['applied', 'errored']);
    expect(applied.attributes.status).to.equal('applied');
    // Each stage got exactly one request, each with its own token and result.
    const all = integration.requests.filter((r) => r.body.run_id === runId);
    expect(all.map((r) => r.body.stage)).to.deep.equal(['pre_plan', 'post_plan', 'pre_apply', 'post_apply']);
    expect(new Set(all.map((r) => r.body.access_token)).size).to.equal(4);
    expect(new Set(all.map((r) => r.body.task_result_id)).size).to.equal(4);
  });

  it('sends an empty signature without a key, and is_speculative true for a plan-only run', async () => {
    const unsigned = await startTaskIntegration(null);
    try {
      const s = await taskSetup(unsigned.url, { level: 'advisory', stages: ['post_plan'] });
      const cvId = await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
      const runId = await startRun(s.ws.id, s.token, { 'plan-only': true });
      const run = await waitForRun(runId, s.token, ['post_plan_running']);
      await waitFor(() => unsigned.requests.some((r) => r.body.run_id === runId), 'the post-plan request');
      const req = unsigned.requests.find((r) => r.body.run_id === runId)!;
      const resultId = (await stageOf(runId, s.token, 'post_plan')).results[0].id;
      expectBody(req, { s, run, stage: 'post_plan', resultId, cvId, speculative: true, level: 'advisory' });
      expect(req.headers).to.have.property('x-svc-task-signature', '');
      expect(req.headers).to.have.property('x-tfc-task-signature', '');
      expect(req.signatureValid).to.equal(true);

      const done = await callback(String(req.body.task_result_callback_url), String(req.body.access_token), {
        status: 'passed',
      });
      expect(done.status, done.text).to.equal(200);
      const finished = await waitForRun(runId, s.token, ['planned_and_finished', 'errored']);
      expect(finished.attributes.status).to.equal('planned_and_finished');
      const result = (await stageOf(runId, s.token, 'post_plan')).results[0];
      expect(result.attributes['is-speculative']).to.equal(true);
    } finally {
      await unsigned.close();
    }
  });
});
