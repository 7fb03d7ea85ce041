import { expect } from 'chai';
import { api, expectError, type ApiResponse } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { createOrg, createWorkspace, memberWithAccess, type TestUser } from '../helpers/fixtures.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startRun, terraformAvailable, uploadConfig, waitForRun } from '../helpers/terraform.js';
import { transitionRun } from '../../shared/runs/moves.js';
import { findRun, type RunRow } from '../../shared/runs/repo.js';
import { jobs } from '../../shared/platform/queues.js';
import { reconcile } from '../../shared/sweep/reconciler.js';

type Org = { name: string; owner: TestUser };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const TYPE_REQUIRED = "Filter parameter run-trigger type is required and must be either 'inbound' or 'outbound'";
const MAIN_TF = 'resource "terraform_data" "a" {\n  input = "x"\n}\n';

/** The body go-tfe's RunTriggers.Create sends: the source as a `sourceable` relationship, no attributes. */
const createBody = (sourceId: string) => ({
  data: { type: 'run-triggers', relationships: { sourceable: { data: { type: 'workspaces', id: sourceId } } } },
});

const createTrigger = (workspaceId: string, sourceId: string, token: string) =>
  api('POST', `/workspaces/${workspaceId}/run-triggers`, { token, body: createBody(sourceId) });

async function mustCreate(workspaceId: string, sourceId: string, token: string): Promise<Doc> {
  const res = await createTrigger(workspaceId, sourceId, token);
  expect(res.status, res.text).to.equal(201);
  return res.body.data;
}

const list = (workspaceId: string, token: string, query: string) =>
  api('GET', `/workspaces/${workspaceId}/run-triggers${query}`, { token });
const ids = (res: ApiResponse): string[] => res.body.data.map((d: Doc) => d.id);
const triggerRows = (workspaceId: string) => harness().rt.db('run_triggers').where({ workspace_id: workspaceId });

describe('run triggers: the API', () => {
  let org: Org;
  let token: string;

  before(async () => {
    org = await createOrg();
    token = org.owner.token;
  });

  it('creates one from what go-tfe sends, with both workspaces named, and reads it back the same', async () => {
    const target = await createWorkspace(org);
    const source = await createWorkspace(org);
    const created = await mustCreate(target.id, source.id, token);
    expect(created.type).to.equal('run-triggers');
    expect(created.id).to.match(/^rt-[1-9A-HJ-NP-Za-km-z]{16}$/);
    expect(created.attributes['workspace-name']).to.equal(target.name);
    expect(created.attributes['sourceable-name']).to.equal(source.name);
    expect(created.attributes['created-at']).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(created.relationships.workspace.data).to.deep.equal({ type: 'workspaces', id: target.id });
    expect(created.relationships.sourceable.data).to.deep.equal({ type: 'workspaces', id: source.id });
    expect(await triggerRows(target.id).pluck('sourceable_id')).to.deep.equal([source.id]);

    const read = await api('GET', `/run-triggers/${created.id}`, { token });
    expect(read.status, read.text).to.equal(200);
    expect(read.body.data).to.deep.equal(created);
  });

  it('lists inbound triggers of the target and outbound ones of the source, paged as go-tfe asks', async () => {
    const target = await createWorkspace(org);
    const [s1, s2] = [await createWorkspace(org), await createWorkspace(org)];
    const t1 = await mustCreate(target.id, s1.id, token);
    const t2 = await mustCreate(target.id, s2.id, token);

    const inbound = await list(target.id, token, '?filter%5Brun-trigger%5D%5Btype%5D=inbound');
    expect(inbound.status, inbound.text).to.equal(200);
    expect(inbound.body.data).to.deep.equal([t1, t2]);
    expect(inbound.body.meta.pagination).to.include({ 'current-page': 1, 'total-count': 2 });
    expect(inbound.body).not.to.have.property('included');

    const outbound = await list(s1.id, token, '?filter[run-trigger][type]=outbound');
    expect(ids(outbound)).to.deep.equal([t1.id]);
    expect(ids(await list(target.id, token, '?filter[run-trigger][type]=outbound'))).to.deep.equal([]);

    const beyond = await list(target.id, token, '?filter[run-trigger][type]=inbound&page[number]=999&page[size]=100');
    expect(beyond.status, beyond.text).to.equal(200);
    expect(beyond.body.data).to.deep.equal([]);
    expect(beyond.body.meta.pagination).to.include({ 'current-page': 999, 'total-count': 2 });

    const included = await list(target.id, token, '?filter[run-trigger][type]=inbound&include=sourceable,workspace');
    expect(included.body.included.map((r: Doc) => `${r.type}:${r.id}`).sort()).to.deep.equal(
      [`workspaces:${target.id}`, `workspaces:${s1.id}`, `workspaces:${s2.id}`].sort(),
    );
  });

  it('refuses a list without a type, or with another type, with 400 and what go-tfe prints', async () => {
    const target = await createWorkspace(org);
    for (const query of ['', '?filter[run-trigger][type]=oubound']) {
      const res = await list(target.id, token, query);
      expectError(res, 400);
      expect(res.body.errors[0]).to.include({ title: 'bad request', detail: TYPE_REQUIRED });
    }
  });

  it('deletes one (204), after which it is not found; an unknown id is 404', async () => {
    const target = await createWorkspace(org);
    const source = await createWorkspace(org);
    const created = await mustCreate(target.id, source.id, token);
    const del = await api('DELETE', `/run-triggers/${created.id}`, { token });
    expect(del.status, del.text).to.equal(204);
    expect(await triggerRows(target.id)).to.deep.equal([]);
    expectError(await api('GET', `/run-triggers/${created.id}`, { token }), 404);
    expectError(await api('DELETE', `/run-triggers/${created.id}`, { token }), 404);
    expectError(await api('GET', '/run-triggers/nonexisting', { token }), 404);
  });

  it('refuses a workspace as its own source, a source named twice, and a missing source (422), writing nothing', async () => {
    const target = await createWorkspace(org);
    const source = await createWorkspace(org);
    expectError(await createTrigger(target.id, target.id, token), 422, /itself/);
    await mustCreate(target.id, source.id, token);
    expectError(await createTrigger(target.id, source.id, token), 422, /already/);
    const missing = await api('POST', `/workspaces/${target.id}/run-triggers`, {
      token,
      body: { data: { type: 'run-triggers' } },
    });
    expectError(missing, 422);
    expect(await triggerRows(target.id).pluck('sourceable_id')).to.deep.equal([source.id]);
  });

  it('takes at most 20 sources per workspace, as TFE, even when 21 are asked for at once', async function () {
    this.timeout(60_000);
    const target = await createWorkspace(org);
    const sources = [];
    for (let i = 0; i < 21; i++) sources.push(await createWorkspace(org));
    const answers = await Promise.all(sources.map((s) => createTrigger(target.id, s.id, token)));
    expect(answers.map((r) => r.status).sort()).to.deep.equal([...Array(20).fill(201), 422]);
    expectError(
      answers.find((r) => r.status === 422)!,
      422,
      /at most 20/,
    );
    expect(await triggerRows(target.id)).to.have.length(20);
    expectError(await createTrigger(target.id, (await createWorkspace(org)).id, token), 422, /at most 20/);
  });

  it('refuses (404) a source in another organization, even one the caller owns', async () => {
    const target = await createWorkspace(org);
    const elsewhere = await createOrg(org.owner);
    const foreign = await createWorkspace(elsewhere);
    expectError(await createTrigger(target.id, foreign.id, token), 404);
    expect(await triggerRows(target.id)).to.deep.equal([]);
  });

  it('a workspace admin cannot subscribe to a workspace they cannot read (404, nothing written)', async () => {
    const target = await createWorkspace(org);
    const hidden = await createWorkspace(org);
    const admin = await memberWithAccess(org, target.id, 'admin');
    expectError(await createTrigger(target.id, hidden.id, admin.token), 404);
    expect(await triggerRows(target.id)).to.deep.equal([]);
  });

  it('members below admin can read a trigger of their workspace but neither create nor delete one (404)', async () => {
    const target = await createWorkspace(org);
    const source = await createWorkspace(org);
    const created = await mustCreate(target.id, source.id, token);
    const writer = await memberWithAccess(org, target.id, 'write');
    expect((await api('GET', `/run-triggers/${created.id}`, { token: writer.token })).status).to.equal(200);
    expectError(await createTrigger(target.id, (await createWorkspace(org)).id, writer.token), 404);
    expectError(await api('DELETE', `/run-triggers/${created.id}`, { token: writer.token }), 404);
    expect(await triggerRows(target.id)).to.have.length(1);
    const outsider = (await createOrg()).owner;
    expectError(await api('GET', `/run-triggers/${created.id}`, { token: outsider.token }), 404);
    expectError(await list(target.id, outsider.token, '?filter[run-trigger][type]=inbound'), 404);
  });

  it("lists a source's outbound triggers only into workspaces the caller can see", async () => {
    const source = await createWorkspace(org);
    const [seen, unseen] = [await createWorkspace(org), await createWorkspace(org)];
    const visible = await mustCreate(seen.id, source.id, token);
    await mustCreate(unseen.id, source.id, token);
    const reader = await memberWithAccess(org, source.id, 'read');
    const grant = await api('POST', '/team-workspaces', {
      token,
      body: {
        data: {
          type: 'team-workspaces',
          attributes: { access: 'read' },
          relationships: {
            workspace: { data: { type: 'workspaces', id: seen.id } },
            team: { data: { type: 'teams', id: await teamOf(source.id) } },
          },
        },
      },
    });
    expect(grant.status, grant.text).to.equal(201);
    const res = await list(source.id, reader.token, '?filter[run-trigger][type]=outbound');
    expect(ids(res)).to.deep.equal([visible.id]);
    expect(res.body.meta.pagination['total-count']).to.equal(1);
  });

  it('shows and takes auto-apply-run-trigger on a workspace (false unless set)', async () => {
    const ws = await createWorkspace(org);
    const read = await api('GET', `/workspaces/${ws.id}`, { token });
    expect(read.body.data.attributes['auto-apply-run-trigger']).to.equal(false);
    const patched = await api('PATCH', `/workspaces/${ws.id}`, {
      token,
      body: { data: { type: 'workspaces', attributes: { 'auto-apply-run-trigger': true } } },
    });
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body.data.attributes['auto-apply-run-trigger']).to.equal(true);
    expectError(
      await api('PATCH', `/workspaces/${ws.id}`, {
        token,
        body: { data: { type: 'workspaces', attributes: { 'auto-apply-run-trigger': 'yes' } } },
      }),
      422,
    );
  });
});

/** The team through which a member made by memberWithAccess reaches a fresh workspace (the only team granted on it). */
async function teamOf(workspaceId: string): Promise<string> {
  return (await harness().rt.db('team_workspaces').where({ workspace_id: workspaceId }).first('team_id')).team_id;
}

/** Moves a run the test put in `applying` to `applied`, in one transaction, as the end of its apply does; returns what its listeners left for after the commit. */
async function finishApply(runId: string, opts: { rollback?: boolean } = {}) {
  const rt = harness().rt;
  const run = (await findRun(rt.db, runId))!;
  return rt.lifecycle.transaction(rt.db, async (m) => {
    const moved = await transitionRun(m, run, 'finish_apply');
    if (opts.rollback) throw new Error('rolled back');
    return moved;
  });
}

const runsOf = (workspaceId: string): Promise<RunRow[]> =>
  harness().rt.db<RunRow>('runs').where({ workspace_id: workspaceId }).orderBy('created_at');

describe('run triggers: an applied run queues runs in the subscribing workspaces', () => {
  let org: Org;
  let token: string;

  before(async () => {
    org = await createOrg();
    token = org.owner.token;
  });

  /** A source workspace with a run the test has put in `applying` (no worker runs here). */
  async function applyingRun(source: { id: string }): Promise<string> {
    await uploadConfig(source.id, token, { 'main.tf': MAIN_TF });
    const runId = await startRun(source.id, token, {});
    await harness().rt.db('runs').where({ id: runId }).update({ status: 'applying' });
    return runId;
  }

  it('writes the triggered runs in the transaction of the move to applied, where a lost follow-up leaves them to the reconciler', async () => {
    const rt = harness().rt;
    const source = await createWorkspace(org);
    const [manual, automatic, empty, local] = [
      await createWorkspace(org),
      await createWorkspace(org, { 'auto-apply': true }),
      await createWorkspace(org),
      await createWorkspace(org, { 'execution-mode': 'local' }),
    ];
    await api('PATCH', `/workspaces/${automatic.id}`, {
      token,
      body: { data: { type: 'workspaces', attributes: { 'auto-apply-run-trigger': true } } },
    });
    for (const ws of [manual, automatic, local]) await uploadConfig(ws.id, token, { 'main.tf': MAIN_TF });
    for (const ws of [manual, automatic, empty, local]) await mustCreate(ws.id, source.id, token);
    const runId = await applyingRun(source);

    // The process "dies" right after the commit: the follow-ups it returned are never run.
    const [moved, followUps] = await finishApply(runId);
    expect(moved?.status).to.equal('applied');
    expect(followUps.map((f) => f.key)).to.include(`run-triggers:${runId}`);

    const [m] = await runsOf(manual.id);
    const [a] = await runsOf(automatic.id);
    expect(await runsOf(empty.id), 'no configuration version: no run').to.deep.equal([]);
    expect(await runsOf(local.id), 'local execution: no run').to.deep.equal([]);
    for (const r of [m, a]) {
      expect(r.status).to.equal('pending');
      expect(r.source).to.equal('tfe-run-trigger');
      expect(r.message).to.include(runId).and.include(source.name);
      expect(r.plan_only).to.equal(false);
      expect(r.is_destroy).to.equal(false);
    }
    // The workspace's auto-apply does not apply triggered runs; auto-apply-run-trigger does.
    expect(m.auto_apply).to.equal(false);
    expect(a.auto_apply).to.equal(true);

    const shown = (await api('GET', `/runs/${a.id}`, { token })).body.data;
    expect(shown.attributes).to.include({
      source: 'tfe-run-trigger',
      'trigger-reason': 'run-trigger',
      'auto-apply': true,
      status: 'pending',
    });
    expect(shown.attributes.message).to.include(runId);
    expect((await api('GET', `/runs/${runId}`, { token })).body.data.attributes['trigger-reason']).to.equal('manual');

    // No job was queued for them; the reconciler's sweep restores each one's queue step.
    const step = jobs.runStep(m.id, 'queue');
    expect(await rt.queues[step.queue].getJob(step.jobId)).to.equal(undefined);
    await reconcile(rt.db, rt.queues, rt.logger);
    for (const r of [m, a]) {
      const spec = jobs.runStep(r.id, 'queue');
      expect(await rt.queues[spec.queue].getJob(spec.jobId), r.id).not.to.equal(undefined);
    }
  });

  it('writes nothing when the move is rolled back, and nothing for a move that is not to applied', async () => {
    const source = await createWorkspace(org);
    const target = await createWorkspace(org);
    await uploadConfig(target.id, token, { 'main.tf': MAIN_TF });
    await mustCreate(target.id, source.id, token);
    const runId = await applyingRun(source);
    await finishApply(runId, { rollback: true }).then(
      () => expect.fail('the transaction should have been rolled back'),
      (err: Error) => expect(err.message).to.equal('rolled back'),
    );
    expect((await findRun(harness().rt.db, runId))!.status).to.equal('applying');
    const rt = harness().rt;
    await rt.lifecycle.transaction(rt.db, async (m) =>
      transitionRun(m, (await findRun(rt.db, runId))!, 'error', { description: 'failed' }),
    );
    expect(await runsOf(target.id)).to.deep.equal([]);
  });

  it('a deleted trigger no longer queues runs', async () => {
    const source = await createWorkspace(org);
    const target = await createWorkspace(org);
    await uploadConfig(target.id, token, { 'main.tf': MAIN_TF });
    const trigger = await mustCreate(target.id, source.id, token);
    expect((await api('DELETE', `/run-triggers/${trigger.id}`, { token })).status).to.equal(204);
    await finishApply(await applyingRun(source));
    expect(await runsOf(target.id)).to.deep.equal([]);
  });
});

describe('run triggers: real applies through the run-pipeline worker', function () {
  this.timeout(240_000);
  let worker: WorkerProcess | undefined;
  let org: Org;
  let token: string;

  before(async function () {
    if (!terraformAvailable()) this.skip();
    this.timeout(60_000);
    worker = spawnWorkers(['run-pipeline', 'deadline-expiry'], {
      RUN_LEASE_SECONDS: '5',
      RECONCILE_INTERVAL_MS: '1000',
      RUN_CONCURRENCY: '4',
    });
    await workersReady(worker);
    org = await createOrg();
    token = org.owner.token;
  });
  after(async () => {
    await worker?.stop();
  });

  /** Waits for the one run a trigger queued in `workspaceId`, then for it to reach one of `statuses`. */
  async function triggeredRun(workspaceId: string, statuses: string[]): Promise<Doc> {
    const id = await waitFor(
      async () =>
        (await api('GET', `/workspaces/${workspaceId}/runs`, { token })).body.data[0]?.id as string | undefined,
      `a triggered run in ${workspaceId}`,
      60_000,
    );
    if (!id) throw new Error('no triggered run');
    return waitForRun(id, token, statuses, 120_000);
  }

  it('a terraform apply in the source queues a run in each subscriber, planned or applied as its auto-apply-run-trigger says', async () => {
    const source = await createWorkspace(org, { 'auto-apply': true });
    // Auto-apply of the workspace itself does not apply triggered runs: this one waits for confirmation.
    const waiting = await createWorkspace(org, { 'auto-apply': true });
    const applying = await createWorkspace(org);
    const patched = await api('PATCH', `/workspaces/${applying.id}`, {
      token,
      body: { data: { type: 'workspaces', attributes: { 'auto-apply-run-trigger': true } } },
    });
    expect(patched.status, patched.text).to.equal(200);
    for (const ws of [waiting, applying]) {
      await uploadConfig(ws.id, token, { 'main.tf': MAIN_TF });
      await mustCreate(ws.id, source.id, token);
    }
    await uploadConfig(source.id, token, { 'main.tf': MAIN_TF });
    const sourceRun = await startRun(source.id, token, {});
    await waitForRun(sourceRun, token, ['applied', 'errored'], 120_000).then((r: Doc) =>
      expect(r.attributes.status).to.equal('applied'),
    );

    const applied = await triggeredRun(applying.id, ['applied', 'errored', 'planned']);
    expect(applied.attributes).to.include({
      status: 'applied',
      source: 'tfe-run-trigger',
      'trigger-reason': 'run-trigger',
      'auto-apply': true,
    });
    expect(applied.attributes.message).to.include(sourceRun).and.include(source.name);
    const planned = await triggeredRun(waiting.id, ['planned', 'errored', 'applied']);
    expect(planned.attributes).to.include({
      status: 'planned',
      source: 'tfe-run-trigger',
      'trigger-reason': 'run-trigger',
      'auto-apply': false,
    });
    // The subscribers' applied run triggers nothing further: they are no one's source.
    expect((await api('GET', `/workspaces/${source.id}/runs`, { token })).body.data).to.have.length(1);
  });

  it('a triggered run whose queue step was lost after the commit still runs (the reconciler queues it)', async () => {
    const source = await createWorkspace(org);
    const target = await createWorkspace(org);
    await api('PATCH', `/workspaces/${target.id}`, {
      token,
      body: { data: { type: 'workspaces', attributes: { 'auto-apply-run-trigger': true } } },
    });
    await uploadConfig(target.id, token, { 'main.tf': MAIN_TF });
    await mustCreate(target.id, source.id, token);
    // The source's run is made to stand where its apply ended, and moved to applied here, its
    // follow-ups dropped as if the process had died right after the commit.
    await uploadConfig(source.id, token, { 'main.tf': MAIN_TF });
    // Locked, the workspace keeps the run pending until it is put in `applying` under a live
    // lease, which the worker's sweep leaves alone.
    expect((await api('POST', `/workspaces/${source.id}/actions/lock`, { token, body: {} })).status).to.equal(200);
    const runId = await startRun(source.id, token, {});
    await harness()
      .rt.db('runs')
      .where({ id: runId })
      .update({ status: 'applying', lease_owner: 'test', lease_until: new Date(Date.now() + 120_000) });
    await finishApply(runId);
    expect((await api('POST', `/workspaces/${source.id}/actions/unlock`, { token, body: {} })).status).to.equal(200);
    const run = await triggeredRun(target.id, ['applied', 'errored', 'planned']);
    expect(run.attributes).to.include({ status: 'applied', 'trigger-reason': 'run-trigger' });
  });
});
