import { expect } from 'chai';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startRun, terraformAvailable, uploadConfig, waitForRun } from '../helpers/terraform.js';
import {
  answerThenCallBack,
  callback,
  startTaskIntegration,
  type SentCallback,
  type TaskIntegration,
} from '../helpers/run-task-integration.js';
import {
  runEvents,
  SIMPLE_CONFIG,
  stageOf,
  taskResult,
  taskSetup,
  waitForResult,
} from '../helpers/run-task-fixtures.js';

// The workers enter the post-plan stages these tests use, so they set each result's deadline from
// their own configuration. (A pre-plan stage is entered by the API when it creates a run on a free
// workspace, with the shared test server's default deadline.)
const DEADLINE_SECONDS = 4;

describe('run tasks: the callback deadline', function () {
  this.timeout(60_000);
  let worker: WorkerProcess;
  let integration: TaskIntegration;

  before(async function () {
    if (!terraformAvailable()) this.skip();
    worker = spawnWorkers(['run-pipeline', 'run-task-dispatch', 'deadline-expiry', 'verification'], {
      RUN_TASK_DEADLINE_SECONDS: String(DEADLINE_SECONDS),
      RECONCILE_INTERVAL_MS: '1000',
    });
    await workersReady(worker);
    integration = await startTaskIntegration(null);
  });

  after(async () => {
    await worker?.stop();
    await integration?.close();
  });

  const requestsFor = (runId: string) => integration.requests.filter((r) => r.body.run_id === runId);

  it('errors a result that gets no callback at the deadline, and a mandatory one errors the run', async () => {
    integration.reply = answerThenCallBack([], []);
    const s = await taskSetup(integration.url, { level: 'mandatory', stages: ['post_plan'] });
    await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    const runId = await startRun(s.ws.id, s.token);
    const resultId = (await stageOf(runId, s.token, 'post_plan')).results[0].id;
    await waitFor(() => requestsFor(runId).length === 1, 'the run task request');
    const req = requestsFor(runId)[0];
    const token = String(req.body.access_token);
    const planUrl = String(req.body.plan_json_api_url);
    expect((await fetch(planUrl, { headers: { Authorization: `Bearer ${token}` } })).status).to.equal(200);

    const errored = await waitForResult(resultId, s.token, ['errored', 'passed', 'failed'], 20_000);
    const elapsed = Date.now() - req.at;
    expect(errored.data.attributes.status).to.equal('errored');
    expect(errored.data.attributes['status-timestamps']).to.have.property('errored-at');
    expect(errored.data.attributes.message)
      .to.be.a('string')
      .and.match(new RegExp(`${DEADLINE_SECONDS} seconds`));
    expect(elapsed, 'errored no earlier than the deadline').to.be.at.least(DEADLINE_SECONDS * 1000 - 500);
    const erroredAt = Date.parse(errored.data.attributes['status-timestamps']['errored-at']);
    const triggeredAt = Date.parse(errored.data.attributes['created-at']);
    expect(erroredAt - triggeredAt).to.be.at.least(DEADLINE_SECONDS * 1000 - 500);

    const run = await waitForRun(runId, s.token, ['errored', 'post_plan_completed']);
    expect(run.attributes.status).to.equal('errored');
    const stage = await stageOf(runId, s.token, 'post_plan');
    expect(stage.status).to.equal('failed');
    const events = await runEvents(runId, s.token);
    const reason = events.map((e) => e.description ?? '').find((d) => d.includes(s.taskName));
    expect(reason, JSON.stringify(events))
      .to.be.a('string')
      .and.match(/errored/);

    // Once final, the token stops working and a late callback changes nothing.
    expect((await fetch(planUrl, { headers: { Authorization: `Bearer ${token}` } })).status).to.equal(401);
    const late = await callback(String(req.body.task_result_callback_url), token, { status: 'passed' });
    expect(late.status, late.text).to.equal(422);
    expect((await taskResult(resultId, s.token)).data.attributes.status).to.equal('errored');
  });

  it('errors a running advisory result at the deadline and lets the run continue', async () => {
    const sent: SentCallback[] = [];
    integration.reply = answerThenCallBack([{ status: 'running', message: 'started, never finishes' }], sent);
    const s = await taskSetup(integration.url, { level: 'advisory', stages: ['post_plan'] });
    await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    const runId = await startRun(s.ws.id, s.token);
    const resultId = (await stageOf(runId, s.token, 'post_plan')).results[0].id;
    await waitFor(() => sent.length === 1, 'the running callback');
    expect(sent[0].status).to.equal(200);

    const errored = await waitForResult(resultId, s.token, ['errored', 'passed', 'failed'], 20_000);
    expect(errored.data.attributes.status).to.equal('errored');
    expect(errored.data.attributes['status-timestamps']).to.have.all.keys('running-at', 'errored-at');
    const run = await waitForRun(runId, s.token, ['post_plan_completed', 'errored']);
    expect(run.attributes.status).to.equal('post_plan_completed');
    expect((await stageOf(runId, s.token, 'post_plan')).status).to.equal('passed');
  });

  it('never starts an attempt past the deadline: an integration answering 500 gets one attempt, then the result errors', async () => {
    integration.reply = (req) => (req.body.stage === 'test' ? 200 : 500);
    const s = await taskSetup(integration.url, { level: 'mandatory', stages: ['post_plan'] });
    await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    const runId = await startRun(s.ws.id, s.token);
    const resultId = (await stageOf(runId, s.token, 'post_plan')).results[0].id;

    const errored = await waitForResult(resultId, s.token, ['errored', 'passed', 'failed'], 20_000);
    expect(errored.data.attributes.status).to.equal('errored');
    const run = await waitForRun(runId, s.token, ['errored', 'planned']);
    expect(run.attributes.status).to.equal('errored');
    // The first retry (5 s ±20%) would start after the 4 s deadline, so it is never made.
    await new Promise((r) => setTimeout(r, 3000));
    expect(requestsFor(runId)).to.have.length(1);
    const attempts = (await taskResult(resultId, s.token)).data.attributes['delivery-attempts'];
    expect(attempts.map((a: { 'status-code': number }) => a['status-code'])).to.deep.equal([500]);
  });
});
