import http from 'node:http';
import { expect } from 'chai';
import { api, doc } from '../helpers/api.js';
import { waitFor } from '../helpers/processes.js';
import { startRun, uploadConfig, waitForRun, terraformWorkers } from '../helpers/terraform.js';
import {
  answerThenCallBack,
  callback,
  outcome,
  startTaskIntegration,
  type ReceivedTaskRequest,
  type SentCallback,
  type TaskIntegration,
} from '../helpers/run-task-integration.js';
import {
  attachTask,
  createTask,
  runEvents,
  SIMPLE_CONFIG,
  stageOf,
  stagesOfRun,
  taskResult,
  taskSetup,
  waitForResult,
} from '../helpers/run-task-fixtures.js';
import { uniq } from '../helpers/fixtures.js';

const KEY = 'flows-shared-hmac-key';

/** The run task requests the integration received for one run and stage. */
const requestsFor = (integration: TaskIntegration, runId: string, stage?: string): ReceivedTaskRequest[] =>
  integration.requests.filter((r) => r.body.run_id === runId && (!stage || r.body.stage === stage));

const sentFor = (sent: SentCallback[], resultId: string) => sent.filter((s) => s.resultId === resultId);

describe('run tasks: a real integration at each stage', function () {
  this.timeout(90_000);
  let integration: TaskIntegration;
  terraformWorkers(['run-pipeline', 'run-task-dispatch', 'deadline-expiry', 'verification'], {
    RECONCILE_INTERVAL_MS: '2000',
  });

  before(async () => {
    integration = await startTaskIntegration(KEY);
  });

  after(async () => {
    await integration?.close();
  });

  it('verifies the signature, answers 200, calls back running twice with outcomes and then passed; the run plans', async () => {
    const sent: SentCallback[] = [];
    const first = outcome('CHK-1', { body: '# first pass', tags: { Severity: [{ label: 'High', level: 'error' }] } });
    const second = [
      outcome('CHK-1', { description: 'no public buckets', body: '# second pass', url: 'https://scan.example/o/1' }),
      outcome('CHK-2', {
        description: 'cost within budget',
        body: '**two**',
        url: 'https://scan.example/o/2',
        tags: {
          'Cost Centre': [{ label: 'IT-OPS' }],
          Status: [
            { label: 'Denied', level: 'warning' },
            { label: 'Recoverable', level: 'info' },
          ],
        },
      }),
    ];
    integration.reply = answerThenCallBack(
      [
        { status: 'running', message: 'scanning 1/2', outcomes: [first] },
        { status: 'running', message: 'scanning 2/2', outcomes: second },
        { status: 'passed', message: 'all checks passed', url: 'https://scan.example/r/1' },
      ],
      sent,
    );
    const s = await taskSetup(integration.url, { level: 'mandatory', stages: ['pre_plan'], hmacKey: KEY });
    await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    const runId = await startRun(s.ws.id, s.token);

    const stage = await stageOf(runId, s.token, 'pre_plan');
    const resultId = stage.results[0].id;
    await waitFor(() => sentFor(sent, resultId).length === 3, 'the three callbacks');
    expect(sentFor(sent, resultId).map((c) => [c.step.status, c.status])).to.deep.equal([
      ['running', 200],
      ['running', 200],
      ['passed', 200],
    ]);
    const reqs = requestsFor(integration, runId);
    expect(reqs).to.have.length(1);
    expect(reqs[0].signatureValid).to.equal(true);
    expect(reqs[0].body).to.include({
      stage: 'pre_plan',
      task_result_id: resultId,
      task_result_enforcement_level: 'mandatory',
    });

    // The stage passed, so the run went on to plan; with changes and no later stage it waits in `planned`.
    const run = await waitForRun(runId, s.token, ['planned', 'errored']);
    expect(run.attributes.status).to.equal('planned');
    expect(run.attributes['has-changes']).to.equal(true);
    // The stage's completion and the plan's queueing are written by one statement, as two events in order.
    const actions = (await runEvents(runId, s.token)).map((e) => e.action);
    expect(actions.slice(actions.indexOf('complete_pre_plan'), actions.indexOf('complete_pre_plan') + 2)).to.deep.equal(
      ['complete_pre_plan', 'queue_plan'],
    );
    expect(run.attributes['status-timestamps']).to.include.all.keys('pre-plan-completed-at', 'plan-queued-at');

    const passedStage = await stageOf(runId, s.token, 'pre_plan');
    expect(passedStage.status).to.equal('passed');
    expect(passedStage.timestamps).to.have.property('running-at').that.is.a('string');
    expect(passedStage.timestamps).to.have.property('passed-at').that.is.a('string');
    // The stage as terraform reads it (the docs' hyphenated include name works too).
    const shown = await api('GET', `/task-stages/${passedStage.id}?include=task-results`, { token: s.token });
    expect(shown.status, shown.text).to.equal(200);
    expect(shown.body.data).to.deep.include({ type: 'task-stages', id: passedStage.id });
    expect(shown.body.data.attributes).to.include({ stage: 'pre_plan', status: 'passed' });
    expect(shown.body.data.relationships.run.data).to.deep.equal({ type: 'runs', id: runId });
    expect(shown.body.included.map((i: { type: string; id: string }) => [i.type, i.id])).to.deep.equal([
      ['task-results', resultId],
    ]);
    const withStages = await api('GET', `/runs/${runId}?include=task_stages`, { token: s.token });
    expect(withStages.body.data.relationships['task-stages'].data).to.deep.equal([
      { type: 'task-stages', id: passedStage.id },
    ]);

    const result = await taskResult(resultId, s.token);
    expect(result.data.attributes).to.include({
      status: 'passed',
      message: 'all checks passed',
      url: 'https://scan.example/r/1',
      'task-id': s.taskId,
      'task-name': s.taskName,
      'task-url': integration.url,
      'workspace-task-id': s.workspaceTaskId,
      'workspace-task-enforcement-level': 'mandatory',
      stage: 'pre_plan',
    });
    expect(result.data.attributes['status-timestamps']).to.have.all.keys('running-at', 'passed-at');
    expect(
      result.data.attributes['delivery-attempts'].map((a: { 'status-code': number }) => a['status-code']),
    ).to.deep.equal([200]);
    // The second running callback replaced the first one's outcomes; `passed` without outcomes kept them.
    const outcomes = (result.included ?? []).map((o) => o.attributes);
    expect(outcomes.map((o) => o['outcome-id'])).to.deep.equal(['CHK-1', 'CHK-2']);
    expect(outcomes[0]).to.include({
      description: 'no public buckets',
      body: '# second pass',
      url: 'https://scan.example/o/1',
    });
    expect(outcomes[0].tags).to.deep.equal({});
    expect(outcomes[1]).to.include({
      description: 'cost within budget',
      body: '**two**',
      url: 'https://scan.example/o/2',
    });
    expect(outcomes[1].tags).to.deep.equal({
      'Cost Centre': [{ label: 'IT-OPS', level: 'none' }],
      Status: [
        { label: 'Denied', level: 'warning' },
        { label: 'Recoverable', level: 'info' },
      ],
    });
  });

  it('errors the run when a mandatory task fails, and the run events say which task', async () => {
    const sent: SentCallback[] = [];
    integration.reply = answerThenCallBack(
      [
        { status: 'running', message: 'checking' },
        { status: 'failed', message: 'public bucket found' },
      ],
      sent,
    );
    const s = await taskSetup(integration.url, { level: 'mandatory', stages: ['post_plan'], hmacKey: KEY });
    await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    const runId = await startRun(s.ws.id, s.token);

    const run = await waitForRun(runId, s.token, ['errored', 'post_plan_completed', 'planned', 'applied']);
    expect(run.attributes.status).to.equal('errored');
    const stage = await stageOf(runId, s.token, 'post_plan');
    expect(stage.status).to.equal('failed');
    expect(stage.timestamps).to.have.property('failed-at');
    expect(stage.results[0].attributes).to.include({
      status: 'failed',
      message: 'public bucket found',
      'workspace-task-enforcement-level': 'mandatory',
    });
    expect(sentFor(sent, stage.results[0].id).map((c) => c.status)).to.deep.equal([200, 200]);

    const events = await runEvents(runId, s.token);
    expect(
      events.map((e) => e.action),
      JSON.stringify(events),
    ).to.include('error');
    const reason = events.map((e) => e.description ?? '').find((d) => d.includes(s.taskName));
    expect(reason, JSON.stringify(events)).to.be.a('string');
    expect(reason)
      .to.match(/mandatory/)
      .and.match(/post_plan/)
      .and.match(/failed/);
    // The plan ran (the stage follows it); nothing was applied.
    expect(requestsFor(integration, runId, 'post_plan')).to.have.length(1);
    expect(requestsFor(integration, runId, 'post_plan')[0].body.plan_json_api_url).to.be.a('string');
  });

  it('lets the run continue when an advisory task fails', async () => {
    const sent: SentCallback[] = [];
    integration.reply = answerThenCallBack([{ status: 'failed', message: 'advisory finding' }], sent);
    const s = await taskSetup(integration.url, { level: 'advisory', stages: ['pre_plan'], hmacKey: KEY });
    await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    const runId = await startRun(s.ws.id, s.token);

    const run = await waitForRun(runId, s.token, ['planned', 'errored']);
    expect(run.attributes.status).to.equal('planned');
    const stage = await stageOf(runId, s.token, 'pre_plan');
    expect(stage.status).to.equal('passed');
    expect(stage.results[0].attributes).to.include({
      status: 'failed',
      message: 'advisory finding',
      'workspace-task-enforcement-level': 'advisory',
    });
    expect(sentFor(sent, stage.results[0].id).map((c) => c.status)).to.deep.equal([200]);
  });

  it('completes a stage only when every result is final (mandatory passed, advisory failed: the stage passes)', async () => {
    const sent: SentCallback[] = [];
    // The advisory task fails at once; the mandatory one is answered by hand below.
    integration.reply = answerThenCallBack(
      (req) => (req.body.task_result_enforcement_level === 'advisory' ? [{ status: 'failed' }] : []),
      sent,
    );
    const s = await taskSetup(integration.url, { level: 'mandatory', stages: ['post_plan'], hmacKey: KEY });
    const second = await createTask(s.org.name, s.token, integration.url, { 'hmac-key': KEY });
    await attachTask(s.ws.id, s.token, second, { 'enforcement-level': 'advisory', stages: ['post_plan'] });
    await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    const runId = await startRun(s.ws.id, s.token);

    const initial = await stageOf(runId, s.token, 'post_plan');
    expect(initial.results.map((r) => r.attributes['workspace-task-enforcement-level']).sort()).to.deep.equal([
      'advisory',
      'mandatory',
    ]);
    const advisory = initial.results.find((r) => r.attributes['workspace-task-enforcement-level'] === 'advisory')!;
    const mandatory = initial.results.find((r) => r.attributes['workspace-task-enforcement-level'] === 'mandatory')!;
    await waitForResult(advisory.id, s.token, ['failed']);
    await waitFor(() => requestsFor(integration, runId).length === 2, 'both run task requests');
    await new Promise((r) => setTimeout(r, 500));
    expect((await stageOf(runId, s.token, 'post_plan')).status).to.equal('running');
    expect((await waitForRun(runId, s.token, ['post_plan_running'])).attributes.status).to.equal('post_plan_running');

    const req = requestsFor(integration, runId).find((r) => r.body.task_result_id === mandatory.id)!;
    const cb = await callback(String(req.body.task_result_callback_url), String(req.body.access_token), {
      status: 'passed',
    });
    expect(cb.status, cb.text).to.equal(200);
    const run = await waitForRun(runId, s.token, ['post_plan_completed', 'errored']);
    expect(run.attributes.status).to.equal('post_plan_completed');
    expect(run.attributes.actions['is-confirmable']).to.equal(true);
    const stage = await stageOf(runId, s.token, 'post_plan');
    expect(stage.status).to.equal('passed');
    expect(
      stage.results.map((r) => [r.attributes['workspace-task-enforcement-level'], r.attributes.status]).sort(),
    ).to.deep.equal([
      ['advisory', 'failed'],
      ['mandatory', 'passed'],
    ]);
  });

  it('completes the stage exactly once when its results become final at the same moment', async () => {
    integration.reply = answerThenCallBack([], []);
    const s = await taskSetup(integration.url, { level: 'mandatory', stages: ['post_plan'], hmacKey: KEY });
    for (const level of ['mandatory', 'advisory']) {
      const taskId = await createTask(s.org.name, s.token, integration.url, { 'hmac-key': KEY });
      await attachTask(s.ws.id, s.token, taskId, { 'enforcement-level': level, stages: ['post_plan'] });
    }
    await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    const runId = await startRun(s.ws.id, s.token);
    await waitFor(() => requestsFor(integration, runId).length === 3, 'the three run task requests');
    const answers = await Promise.all(
      requestsFor(integration, runId).map((r) =>
        callback(String(r.body.task_result_callback_url), String(r.body.access_token), { status: 'passed' }),
      ),
    );
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200]);
    const run = await waitForRun(runId, s.token, ['post_plan_completed', 'errored']);
    expect(run.attributes.status).to.equal('post_plan_completed');
    const stage = await stageOf(runId, s.token, 'post_plan');
    expect(stage.status).to.equal('passed');
    expect(stage.results.map((r) => r.attributes.status)).to.deep.equal(['passed', 'passed', 'passed']);
    const actions = (await runEvents(runId, s.token)).map((e) => e.action);
    expect(actions.filter((a) => a === 'start_post_plan')).to.have.length(1);
    expect(actions.filter((a) => a === 'complete_post_plan')).to.have.length(1);
  });

  it('retries a request answered 500 twice (after ~5 s and ~15 s), records three attempts, and the run proceeds', async function () {
    this.timeout(90_000);
    const sent: SentCallback[] = [];
    const accept = answerThenCallBack([{ status: 'passed', message: 'third time lucky' }], sent);
    let failures = 0;
    integration.reply = (req, i) => {
      if (req.body.stage === 'test') return 200;
      if (failures < 2) {
        failures++;
        return 500;
      }
      return accept(req, i);
    };
    const s = await taskSetup(integration.url, { level: 'mandatory', stages: ['pre_plan'], hmacKey: KEY });
    await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    const runId = await startRun(s.ws.id, s.token);
    const resultId = (await stageOf(runId, s.token, 'pre_plan')).results[0].id;

    const run = await waitForRun(runId, s.token, ['planned', 'errored'], 60_000);
    expect(run.attributes.status).to.equal('planned');

    const reqs = requestsFor(integration, runId);
    expect(reqs).to.have.length(3);
    for (const r of reqs) {
      expect(r.signatureValid).to.equal(true);
      expect(r.body.task_result_id).to.equal(resultId);
    }
    // Every attempt carries the same access token.
    expect(new Set(reqs.map((r) => r.body.access_token)).size).to.equal(1);
    const gap1 = reqs[1].at - reqs[0].at;
    const gap2 = reqs[2].at - reqs[1].at;
    expect(gap1, 'first retry delay').to.be.within(3900, 8500);
    expect(gap2, 'second retry delay').to.be.within(11_900, 20_500);

    const result = await taskResult(resultId, s.token);
    expect(result.data.attributes).to.include({ status: 'passed', message: 'third time lucky' });
    const attempts = result.data.attributes['delivery-attempts'] as Record<string, unknown>[];
    expect(attempts.map((a) => a.attempt)).to.deep.equal([1, 2, 3]);
    expect(attempts.map((a) => a['status-code'])).to.deep.equal([500, 500, 200]);
    expect(attempts[0].error).to.be.a('string').and.match(/500/);
    expect(attempts[1].error).to.be.a('string').and.match(/500/);
    expect(attempts[2].error).to.equal(null);
    for (const a of attempts) {
      expect(a['duration-ms']).to.be.a('number').and.at.least(0);
      expect(Number.isNaN(Date.parse(String(a['sent-at'])))).to.equal(false);
    }
    expect(sentFor(sent, resultId).map((c) => c.status)).to.deep.equal([200]);
  });

  it('enters pre_apply only after the apply action, and a failed mandatory post_apply task leaves the run applied', async () => {
    const sent: SentCallback[] = [];
    integration.reply = answerThenCallBack(
      (req) => [
        { status: req.body.stage === 'post_apply' ? 'failed' : 'passed', message: `${String(req.body.stage)} done` },
      ],
      sent,
    );
    const s = await taskSetup(integration.url, {
      level: 'mandatory',
      stages: ['pre_apply', 'post_apply'],
      hmacKey: KEY,
    });
    await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    const runId = await startRun(s.ws.id, s.token);

    await waitForRun(runId, s.token, ['planned']);
    // Created with the run, not entered before the apply is confirmed.
    expect((await stagesOfRun(runId, s.token)).map((st) => [st.stage, st.status])).to.deep.equal([
      ['pre_apply', 'pending'],
      ['post_apply', 'pending'],
    ]);
    expect(requestsFor(integration, runId)).to.have.length(0);

    const confirmedAt = Date.now();
    const confirm = await api('POST', `/runs/${runId}/actions/apply`, { token: s.token, body: {} });
    expect(confirm.status, confirm.text).to.equal(202);
    const run = await waitForRun(runId, s.token, ['applied', 'errored']);
    expect(run.attributes.status).to.equal('applied');

    const reqs = requestsFor(integration, runId);
    expect(reqs.map((r) => r.body.stage)).to.deep.equal(['pre_apply', 'post_apply']);
    expect(reqs[0].at).to.be.at.least(confirmedAt);
    const stages = await stagesOfRun(runId, s.token);
    expect(stages.map((st) => [st.stage, st.status])).to.deep.equal([
      ['pre_apply', 'passed'],
      ['post_apply', 'failed'],
    ]);
    expect(stages[1].results[0].attributes).to.include({ status: 'failed', message: 'post_apply done' });
    const events = await runEvents(runId, s.token);
    expect(
      events.some((e) => (e.description ?? '').includes(s.taskName)),
      JSON.stringify(events),
    ).to.equal(true);
    expect(events.map((e) => e.action)).to.not.include('error');
  });

  it('cancels running results and marks unreached stages unreachable when the run is canceled', async () => {
    integration.reply = answerThenCallBack([], []);
    const s = await taskSetup(integration.url, { level: 'mandatory', stages: ['pre_plan', 'post_plan'], hmacKey: KEY });
    await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    const runId = await startRun(s.ws.id, s.token);
    await waitForRun(runId, s.token, ['pre_plan_running']);
    await waitFor(() => requestsFor(integration, runId).length === 1, 'the pre-plan request');
    const req = requestsFor(integration, runId)[0];
    const token = String(req.body.access_token);
    const cvUrl = String(req.body.configuration_version_download_url);
    expect((await fetch(cvUrl, { headers: { Authorization: `Bearer ${token}` }, redirect: 'manual' })).status).to.equal(
      302,
    );

    const cancel = await api('POST', `/runs/${runId}/actions/cancel`, { token: s.token, body: {} });
    expect(cancel.status, cancel.text).to.equal(202);
    const run = await waitForRun(runId, s.token, ['canceled']);
    expect(run.attributes.status).to.equal('canceled');
    const stages = await stagesOfRun(runId, s.token);
    expect(stages.map((st) => [st.stage, st.status, st.results.map((r) => r.attributes.status)])).to.deep.equal([
      ['pre_plan', 'canceled', ['canceled']],
      ['post_plan', 'unreachable', ['unreachable']],
    ]);
    // The result is final: its token no longer works, and a late callback changes nothing.
    const late = await callback(String(req.body.task_result_callback_url), token, { status: 'passed' });
    expect(late.status, late.text).to.equal(422);
    expect((await taskResult(stages[0].results[0].id, s.token)).data.attributes.status).to.equal('canceled');
    expect((await fetch(cvUrl, { headers: { Authorization: `Bearer ${token}` }, redirect: 'manual' })).status).to.equal(
      401,
    );
  });

  it('a last callback whose run is canceled while its body is still arriving changes nothing (422)', async () => {
    integration.reply = answerThenCallBack([], []);
    const s = await taskSetup(integration.url, { level: 'mandatory', stages: ['pre_plan'], hmacKey: KEY });
    await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    const runId = await startRun(s.ws.id, s.token);
    await waitForRun(runId, s.token, ['pre_plan_running']);
    await waitFor(() => requestsFor(integration, runId).length === 1, 'the pre-plan request');
    const req = requestsFor(integration, runId)[0];
    // The headers go first: the token is checked (and the run read) before the body is read.
    const bodyText = JSON.stringify({ data: { type: 'task-results', attributes: { status: 'passed' } } });
    const sending = http.request(String(req.body.task_result_callback_url), {
      method: 'PATCH',
      headers: {
        Authorization: `Bearer ${String(req.body.access_token)}`,
        'Content-Type': 'application/vnd.api+json',
        'Content-Length': Buffer.byteLength(bodyText),
      },
    });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      sending.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      });
      sending.on('error', reject);
    });
    sending.write(bodyText.slice(0, 10));
    // Time for the token's read, which nothing outside shows: were it later than the cancel, the
    // callback would find the result final in that read instead, with the same answer.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const cancel = await api('POST', `/runs/${runId}/actions/cancel`, { token: s.token, body: {} });
    expect(cancel.status, cancel.text).to.equal(202);
    await waitForRun(runId, s.token, ['canceled']);
    sending.end(bodyText.slice(10));
    const late = await answer;
    expect(late.status, late.text).to.equal(422);
    const stages = await stagesOfRun(runId, s.token);
    expect(stages.map((st) => [st.stage, st.status, st.results.map((r) => r.attributes.status)])).to.deep.equal([
      ['pre_plan', 'canceled', ['canceled']],
    ]);
    const actions = (await runEvents(runId, s.token)).map((e) => e.action);
    expect(actions).to.not.include('complete_pre_plan');
    expect(actions[actions.length - 1]).to.equal('cancel');
  });

  it('marks the pre-apply stage unreachable when the run is discarded', async () => {
    const sent: SentCallback[] = [];
    integration.reply = answerThenCallBack([{ status: 'passed' }], sent);
    const s = await taskSetup(integration.url, {
      level: 'mandatory',
      stages: ['post_plan', 'pre_apply'],
      hmacKey: KEY,
    });
    await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    const runId = await startRun(s.ws.id, s.token);
    await waitForRun(runId, s.token, ['post_plan_completed']);
    const discard = await api('POST', `/runs/${runId}/actions/discard`, { token: s.token, body: {} });
    expect(discard.status, discard.text).to.equal(202);
    await waitForRun(runId, s.token, ['discarded']);
    const stages = await stagesOfRun(runId, s.token);
    expect(stages.map((st) => [st.stage, st.status, st.results.map((r) => r.attributes.status)])).to.deep.equal([
      ['post_plan', 'passed', ['passed']],
      ['pre_apply', 'unreachable', ['unreachable']],
    ]);
    expect(requestsFor(integration, runId).map((r) => r.body.stage)).to.deep.equal(['post_plan']);
  });

  it('does not run a disabled task: new runs get no stage for it', async () => {
    integration.reply = answerThenCallBack([{ status: 'passed' }], []);
    const s = await taskSetup(integration.url, {
      level: 'mandatory',
      stages: ['pre_plan', 'post_plan'],
      hmacKey: KEY,
      name: uniq('off'),
    });
    const off = await api('PATCH', `/tasks/${s.taskId}`, { token: s.token, body: doc('tasks', { enabled: false }) });
    expect(off.status, off.text).to.equal(200);
    expect(off.body.data.attributes.enabled).to.equal(false);
    await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    const runId = await startRun(s.ws.id, s.token);
    const run = await waitForRun(runId, s.token, ['planned', 'errored']);
    expect(run.attributes.status).to.equal('planned');
    expect(run.relationships['task-stages'].data).to.deep.equal([]);
    expect(requestsFor(integration, runId)).to.have.length(0);
  });
});

describe('run tasks: a run goes on from a stage at once, not when the reconciler next looks', function () {
  this.timeout(90_000);
  let integration: TaskIntegration;
  // The reconciler would restore a missing job only after an hour.
  terraformWorkers(['run-pipeline', 'run-task-dispatch', 'deadline-expiry', 'verification'], {
    RECONCILE_INTERVAL_MS: '3600000',
  });

  before(async () => {
    integration = await startTaskIntegration(KEY);
  });

  after(async () => {
    await integration?.close();
  });

  it("applies as soon as the pre-apply stage passes (the apply is a job of its own, not the confirmation's)", async () => {
    integration.reply = answerThenCallBack([{ status: 'passed', message: 'fine' }], []);
    const s = await taskSetup(integration.url, { level: 'mandatory', stages: ['pre_apply'], hmacKey: KEY });
    await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    const runId = await startRun(s.ws.id, s.token);
    await waitForRun(runId, s.token, ['planned']);
    const confirm = await api('POST', `/runs/${runId}/actions/apply`, { token: s.token, body: {} });
    expect(confirm.status, confirm.text).to.equal(202);
    const run = await waitForRun(runId, s.token, ['applied', 'errored'], 30_000);
    expect(run.attributes.status).to.equal('applied');
    expect((await runEvents(runId, s.token)).map((e) => e.action)).to.include.members([
      'start_pre_apply',
      'complete_pre_apply',
      'queue_apply',
      'start_apply',
    ]);
  });
});
