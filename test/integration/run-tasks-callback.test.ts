import { expect } from 'chai';
import { harness } from '../helpers/harness.js';
import { countRows } from '../helpers/fixtures.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startRun, terraformAvailable, uploadConfig, waitForRun } from '../helpers/terraform.js';
import {
  callback,
  outcome,
  rawCallback,
  startTaskIntegration,
  type ReceivedTaskRequest,
  type TaskIntegration,
} from '../helpers/run-task-integration.js';
import {
  attachTask,
  createTask,
  SIMPLE_CONFIG,
  stageOf,
  taskResult,
  taskSetup,
  type TaskSetup,
} from '../helpers/run-task-fixtures.js';
import { up as clearUnsafeLinks } from '../../migrations/20261203110000_clear_unsafe_task_result_links.js';

const FIVE_MB = 5 * 1024 * 1024;

const body = (attributes: Record<string, unknown>, outcomes?: unknown) => {
  const relationships = outcomes !== undefined ? { relationships: { outcomes: { data: outcomes } } } : {};
  return JSON.stringify({ data: { type: 'task-results', attributes, ...relationships } });
};

/**
 * The callback protocol on one run waiting in its post-plan stage with two results (a mandatory
 * and an advisory task). The tests run in order: the last one makes the results final.
 */
describe('run tasks: the task result callback', function () {
  this.timeout(60_000);
  let worker: WorkerProcess;
  let integration: TaskIntegration;
  let s: TaskSetup;
  let runId: string;
  let main: ReceivedTaskRequest;
  let other: ReceivedTaskRequest;
  let url: string;
  let token: string;

  /** The main result as the API shows it, outcomes included. */
  const snapshot = () => taskResult(String(main.body.task_result_id), s.token);

  before(async function () {
    if (!terraformAvailable()) this.skip();
    worker = spawnWorkers(['run-pipeline', 'run-task-dispatch', 'deadline-expiry', 'verification'], {
      RECONCILE_INTERVAL_MS: '2000',
    });
    await workersReady(worker);
    integration = await startTaskIntegration(null);
    s = await taskSetup(integration.url, { level: 'mandatory', stages: ['post_plan'] });
    const advisory = await createTask(s.org.name, s.token, integration.url);
    await attachTask(s.ws.id, s.token, advisory, { 'enforcement-level': 'advisory', stages: ['post_plan'] });
    await uploadConfig(s.ws.id, s.token, SIMPLE_CONFIG);
    runId = await startRun(s.ws.id, s.token);
    await waitForRun(runId, s.token, ['post_plan_running']);
    await waitFor(
      () => integration.requests.filter((r) => r.body.run_id === runId).length === 2,
      'both run task requests',
    );
    const reqs = integration.requests.filter((r) => r.body.run_id === runId);
    main = reqs.find((r) => r.body.task_result_enforcement_level === 'mandatory')!;
    other = reqs.find((r) => r.body.task_result_enforcement_level === 'advisory')!;
    url = String(main.body.task_result_callback_url);
    token = String(main.body.access_token);
    expect(url).to.equal(`${harness().baseUrl}/api/v2/task-results/${String(main.body.task_result_id)}/callback`);
    // Let the dispatcher record both deliveries, so the results change only through callbacks from here on.
    for (const r of reqs) {
      const id = String(r.body.task_result_id);
      const row = () => harness().rt.db('task_results').where({ id }).first('dispatch_status');
      await waitFor(async () => (await row()).dispatch_status === 'delivered', 'the delivery record');
    }
  });

  after(async () => {
    await worker?.stop();
    await integration?.close();
  });

  it("answers 401 without the result's own access token, and changes nothing", async () => {
    const before = await snapshot();
    expect(before.data.attributes.status).to.equal('pending');
    const ok = body({ status: 'passed' });
    expect((await rawCallback(url, null, ok)).status).to.equal(401);
    expect((await rawCallback(url, 'not-the-token', ok)).status).to.equal(401);
    expect((await rawCallback(url, s.token, ok)).status, 'an ordinary API token').to.equal(401);
    expect((await rawCallback(url, harness().adminToken, ok)).status, 'the site admin token').to.equal(401);
    expect((await rawCallback(url, String(other.body.access_token), ok)).status, "another result's token").to.equal(
      401,
    );
    expect((await rawCallback(url, `${token}x`, ok)).status).to.equal(401);
    const headers = { Authorization: `Basic ${token}`, 'Content-Type': 'application/vnd.api+json' };
    const basic = await fetch(url, { method: 'PATCH', headers, body: ok });
    expect(basic.status).to.equal(401);
    expect(
      (await rawCallback(url.replace(String(main.body.task_result_id), 'taskrs-doesnotexist'), token, ok)).status,
    ).to.equal(401);
    // Even a malformed body is refused as unauthorized first.
    expect((await rawCallback(url, 'not-the-token', body({ status: 'done' }))).status).to.equal(401);
    // The body is not read before the token is checked: not JSON, or over the 20 MB limit, it is still a 401.
    expect((await rawCallback(url, 'not-the-token', '{"data": ')).status).to.equal(401);
    expect((await rawCallback(url, 'not-the-token', 'x'.repeat(21 * 1024 * 1024))).status).to.equal(401);
    expect(await snapshot()).to.deep.equal(before);
  });

  it('answers 422 to a status other than passed, failed or running, and to a wrong data.type; nothing changes', async () => {
    const before = await snapshot();
    for (const status of ['done', 'errored', 'pending', 'canceled', 'PASSED', '']) {
      const res = await callback(url, token, { status });
      expect(res.status, `status ${JSON.stringify(status)}: ${res.text}`).to.equal(422);
      expect(JSON.parse(res.text).errors[0].status).to.equal('422');
    }
    for (const raw of [
      JSON.stringify({ data: { type: 'task-result', attributes: { status: 'passed' } } }),
      JSON.stringify({ data: { type: 'tasks', attributes: { status: 'passed' } } }),
      JSON.stringify({ data: { attributes: { status: 'passed' } } }),
      JSON.stringify({ data: { type: 'task-results', attributes: {} } }),
      JSON.stringify({ data: { type: 'task-results', attributes: { status: 'passed', message: 42 } } }),
      JSON.stringify({ status: 'passed' }),
    ]) {
      const res = await rawCallback(url, token, raw);
      expect(res.status, `${raw}: ${res.text}`).to.equal(422);
    }
    expect(await snapshot()).to.deep.equal(before);
  });

  it('answers 422 to malformed outcomes; nothing changes', async () => {
    const before = await snapshot();
    const rows = await countRows('task_result_outcomes');
    const bad: [string, unknown][] = [
      ['outcomes not an array', { 'outcome-id': 'A', description: 'd' }],
      ['no attributes', [{ type: 'task-result-outcomes' }]],
      ['wrong type', [{ type: 'outcomes', attributes: { 'outcome-id': 'A', description: 'd' } }]],
      ['missing outcome-id', [{ type: 'task-result-outcomes', attributes: { description: 'd' } }]],
      ['missing description', [{ type: 'task-result-outcomes', attributes: { 'outcome-id': 'A' } }]],
      ['tags not an object', [outcome('A', { tags: 'High' })]],
      ['tag list not an array', [outcome('A', { tags: { Severity: { label: 'High' } } })]],
      ['tag without label', [outcome('A', { tags: { Severity: [{ level: 'error' }] } })]],
      ['unknown tag level', [outcome('A', { tags: { Severity: [{ label: 'High', level: 'critical' }] } })]],
      ['body not a string', [outcome('A', { body: { md: 'x' } })]],
      ['body over 5 MB', [outcome('A', { body: 'x'.repeat(FIVE_MB + 1) })]],
      // One good outcome does not let a bad one through.
      ['one bad among good', [outcome('A'), outcome('B', { tags: { Severity: [{ label: 'High', level: 'fatal' }] } })]],
    ];
    for (const [what, outcomes] of bad) {
      const res = await rawCallback(url, token, body({ status: 'running', message: 'should not be stored' }, outcomes));
      expect(res.status, `${what}: ${res.text.slice(0, 300)}`).to.equal(422);
    }
    const withoutData = {
      data: { type: 'task-results', attributes: { status: 'running' }, relationships: { outcomes: {} } },
    };
    const noData = await rawCallback(url, token, JSON.stringify(withoutData));
    expect(noData.status, noData.text).to.equal(422);
    expect(await countRows('task_result_outcomes')).to.equal(rows);
    expect(await snapshot()).to.deep.equal(before);
  });

  it('answers 422 to a result or outcome url that is not http(s) (javascript:, data:, file:...), pointing at the field; nothing is stored', async () => {
    const before = await snapshot();
    const rows = await countRows('task_result_outcomes');
    const links = [
      'javascript:alert(document.cookie)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'vbscript:msgbox(1)',
      '//evil.example/x',
      'https://scan.example/a b',
    ];
    for (const link of links) {
      const onResult = await callback(url, token, { status: 'running', message: 'should not be stored', url: link });
      expect(onResult.status, `${link}: ${onResult.text}`).to.equal(422);
      expect(
        JSON.parse(onResult.text).errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer),
      ).to.deep.equal(['/data/attributes/url']);
      const onOutcome = await callback(url, token, { status: 'passed', message: 'should not be stored' }, [
        outcome('A', { url: 'https://scan.example/a' }),
        outcome('B', { url: link }),
      ]);
      expect(onOutcome.status, `${link}: ${onOutcome.text}`).to.equal(422);
      expect(
        JSON.parse(onOutcome.text).errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer),
      ).to.deep.equal(['/data/relationships/outcomes/data/1/attributes/url']);
    }
    expect(await countRows('task_result_outcomes')).to.equal(rows);
    expect(await snapshot()).to.deep.equal(before);
  });

  it('accepts running any number of times: outcomes sent replace the stored ones, a callback without outcomes keeps them', async () => {
    const severity = [{ label: 'High', level: 'error' }, { label: 'Low' }];
    const a = outcome('A', {
      description: 'first',
      body: '# A',
      url: 'https://scan.example/a',
      tags: { Severity: severity },
    });
    const b = outcome('B', { description: 'second' });
    let res = await callback(url, token, { status: 'running', message: 'step 1', url: 'https://scan.example/r' }, [
      a,
      b,
    ]);
    expect(res.status, res.text).to.equal(200);
    let doc = await snapshot();
    expect(doc.data.attributes).to.include({ status: 'running', message: 'step 1', url: 'https://scan.example/r' });
    expect(doc.data.attributes['status-timestamps']).to.have.property('running-at');
    expect(doc.included!.map((o) => o.attributes['outcome-id'])).to.deep.equal(['A', 'B']);
    expect(doc.included![0].attributes).to.include({
      description: 'first',
      body: '# A',
      url: 'https://scan.example/a',
    });
    expect(doc.included![0].attributes.tags).to.deep.equal({
      Severity: [severity[0], { label: 'Low', level: 'none' }],
    });
    expect(doc.included![1].attributes).to.include({ description: 'second', body: null, url: null });

    res = await callback(url, token, { status: 'running', message: 'step 2' });
    expect(res.status, res.text).to.equal(200);
    doc = await snapshot();
    expect(doc.data.attributes).to.include({ status: 'running', message: 'step 2', url: 'https://scan.example/r' });
    expect(doc.included!.map((o) => o.attributes['outcome-id'])).to.deep.equal(['A', 'B']);

    res = await callback(url, token, { status: 'running' }, [outcome('C', { description: 'third' })]);
    expect(res.status, res.text).to.equal(200);
    doc = await snapshot();
    expect(doc.data.attributes.message).to.equal('step 2');
    expect(doc.included!.map((o) => [o.attributes['outcome-id'], o.attributes.description])).to.deep.equal([
      ['C', 'third'],
    ]);
    expect(doc.data.relationships.outcomes.data.map((o: { id: string }) => o.id)).to.deep.equal(
      doc.included!.map((o) => o.id),
    );

    // The run and its stage wait while results are running.
    expect((await stageOf(runId, s.token, 'post_plan')).status).to.equal('running');
    expect((await waitForRun(runId, s.token, ['post_plan_running'])).attributes.status).to.equal('post_plan_running');
  });

  it('stores an outcome body of 5 MB in full', async function () {
    this.timeout(60_000);
    const big = `# report\n${'x'.repeat(FIVE_MB - 9)}`;
    expect(big.length).to.equal(FIVE_MB);
    const res = await callback(url, token, { status: 'running', message: 'big report' }, [
      outcome('BIG', { body: big }),
    ]);
    expect(res.status, res.text.slice(0, 300)).to.equal(200);
    const doc = await snapshot();
    expect(doc.included).to.have.length(1);
    expect(doc.included![0].attributes['outcome-id']).to.equal('BIG');
    expect(doc.included![0].attributes.body).to.have.length(FIVE_MB);
    expect(doc.included![0].attributes.body === big).to.equal(true);
  });

  it('makes passed final: any later callback is 422 and changes nothing; the run proceeds once every result is final', async () => {
    const finalOutcomes = [outcome('F', { description: 'final' })];
    const res = await callback(
      url,
      token,
      { status: 'passed', message: 'all good', url: 'https://scan.example/final' },
      finalOutcomes,
    );
    expect(res.status, res.text).to.equal(200);
    const final = await snapshot();
    expect(final.data.attributes).to.include({
      status: 'passed',
      message: 'all good',
      url: 'https://scan.example/final',
    });
    expect(final.data.attributes['status-timestamps']).to.have.all.keys('running-at', 'passed-at');
    expect(final.included!.map((o) => o.attributes['outcome-id'])).to.deep.equal(['F']);
    const rows = await countRows('task_result_outcomes');

    for (const [attrs, outcomes] of [
      [{ status: 'failed', message: 'too late' }, [outcome('LATE')]],
      [{ status: 'running', message: 'too late' }, undefined],
      [{ status: 'passed', message: 'again' }, undefined],
      [{ status: 'passed' }, []],
    ] as [Record<string, unknown>, unknown[] | undefined][]) {
      const late = await callback(url, token, attrs, outcomes);
      expect(late.status, late.text).to.equal(422);
    }
    expect(await snapshot()).to.deep.equal(final);
    expect(await countRows('task_result_outcomes')).to.equal(rows);

    // The advisory result is still open, so the stage is too.
    expect((await stageOf(runId, s.token, 'post_plan')).status).to.equal('running');
    // Two final callbacks at once: exactly one wins (compare-and-set), the other is refused.
    const otherUrl = String(other.body.task_result_callback_url);
    const failed = { status: 'failed', message: 'advisory finding' };
    const passed = { status: 'passed', message: 'advisory ok' };
    const otherToken = String(other.body.access_token);
    const both = await Promise.all([callback(otherUrl, otherToken, failed), callback(otherUrl, otherToken, passed)]);
    expect(both.map((r) => r.status).sort()).to.deep.equal([200, 422]);
    const winner = both[0].status === 200 ? failed : passed;
    expect((await taskResult(String(other.body.task_result_id), s.token)).data.attributes).to.include(winner);
    const run = await waitForRun(runId, s.token, ['post_plan_completed', 'errored']);
    expect(run.attributes.status).to.equal('post_plan_completed');
    expect((await stageOf(runId, s.token, 'post_plan')).status).to.equal('passed');
    expect(await snapshot()).to.deep.equal(final);
  });
  it('the migration clearing stored links removes those that are not http(s) from results and outcomes, and keeps the rest', async () => {
    // Links stored before callbacks were checked, as the callback once accepted them.
    const { db } = harness().rt;
    const mainId = String(main.body.task_result_id);
    const otherId = String(other.body.task_result_id);
    await db('task_results').where({ id: mainId }).update({ url: 'javascript:alert(document.cookie)' });
    await db('task_results').where({ id: otherId }).update({ url: 'https://scan.example/other' });
    const [kept] = await db('task_result_outcomes').where({ task_result_id: mainId }).select('id');
    await db('task_result_outcomes').where({ id: kept.id }).update({ url: 'data:text/html,<script>alert(1)</script>' });
    const extra = {
      id: `${kept.id}x`,
      task_result_id: mainId,
      position: 99,
      outcome_id: 'OK',
      description: 'kept',
      url: 'http://scan.example/ok',
    };
    await db('task_result_outcomes').insert(extra);

    await clearUnsafeLinks(db);
    expect((await taskResult(mainId, s.token)).data.attributes.url).to.equal(null);
    expect((await taskResult(otherId, s.token)).data.attributes.url).to.equal('https://scan.example/other');
    expect((await db('task_result_outcomes').where({ id: kept.id }).first('url')).url).to.equal(null);
    expect((await db('task_result_outcomes').where({ id: extra.id }).first('url')).url).to.equal(
      'http://scan.example/ok',
    );
    await db('task_result_outcomes').where({ id: extra.id }).del();
  });
});
