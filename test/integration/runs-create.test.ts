import { expect } from 'chai';
import pg from 'pg';
import { gzipSync } from 'node:zlib';
import { api, expectError, type ApiResponse } from '../helpers/api.js';
import {
  createCv,
  createOrg,
  createWorkspace,
  type TestUser,
  memberWithAccess,
  rowCounts,
} from '../helpers/fixtures.js';
import { uploadConfig } from '../helpers/terraform.js';
import { harness } from '../helpers/harness.js';

type Org = { name: string; owner: TestUser };
type RefusalOpts = { token?: string | null; raw?: string; detail?: RegExp; pointer?: string };

const MAIN_TF = 'resource "terraform_data" "a" {\n  input = "x"\n}\n';
const TABLES = ['runs', 'plans', 'applies', 'run_events', 'logs'];

const tableCounts = () => rowCounts(TABLES);

/** A fresh member of `org` on a fresh team that has `access` to the workspace. */

const wsRel = (id: string) => ({ workspace: { data: { type: 'workspaces', id } } });
const cvRel = (id: string) => ({ 'configuration-version': { data: { type: 'configuration-versions', id } } });
const runDoc = (relationships: Record<string, unknown>, attributes: Record<string, unknown> = {}) => ({
  data: { type: 'runs', attributes, relationships },
});
const postRun = (body: unknown, token: string | null) => api('POST', '/runs', { token, body });

function expectPointer(res: ApiResponse, pointer: string): void {
  const pointers = res.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer);
  expect(pointers, res.text).to.include(pointer);
}

describe('runs: POST /runs refuses bad requests and writes nothing', () => {
  let org: Org;
  let token: string;
  let wsId: string;
  let cvId: string;
  let otherWsId: string;
  let otherCvId: string;

  before(async function () {
    this.timeout(30_000);
    org = await createOrg();
    token = org.owner.token;
    wsId = (await createWorkspace(org)).id;
    cvId = await uploadConfig(wsId, token, { 'main.tf': MAIN_TF });
    otherWsId = (await createWorkspace(org)).id;
    otherCvId = await uploadConfig(otherWsId, token, { 'main.tf': MAIN_TF });
  });

  /** Sends the request, checks the answer, and that no run, plan, apply, event or log row was written. */
  async function refused(body: unknown, status: number, opts: RefusalOpts = {}) {
    const before = await tableCounts();
    const as = opts.token === undefined ? token : opts.token;
    const res =
      opts.raw !== undefined ? await api('POST', '/runs', { token: as, raw: opts.raw }) : await postRun(body, as);
    expectError(res, status, opts.detail);
    if (opts.pointer) expectPointer(res, opts.pointer);
    expect(await tableCounts()).to.deep.equal(before);
    return res;
  }

  /** Cancels a run the test created so it never reaches a worker. */
  async function cancel(runId: string, as = token) {
    const res = await api('POST', `/runs/${runId}/actions/cancel`, { token: as, body: {} });
    expect(res.status, res.text).to.equal(202);
  }

  it('creates a run from a valid request (the baseline the refusals below differ from)', async () => {
    const before = await tableCounts();
    const attrs = { message: 'hello', variables: [{ key: 'size', value: '"3"' }] };
    const res = await postRun(runDoc({ ...wsRel(wsId), ...cvRel(cvId) }, attrs), token);
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.attributes.message).to.equal('hello');
    // The creation answer echoes what its request sent, as TFE does; later reads show keys only
    // (see authorization-fixes.test.ts).
    expect(res.body.data.attributes.variables).to.deep.equal([{ key: 'size', value: '"3"' }]);
    const after = await tableCounts();
    expect(after.runs - before.runs).to.equal(1);
    expect(after.plans - before.plans).to.equal(1);
    expect(after.applies - before.applies).to.equal(1);
    await cancel(res.body.data.id);
  });

  it('answers 400 for a body that is not JSON', async () => {
    await refused(null, 400, { raw: '{"data": {"type": "runs",', detail: /not valid JSON/ });
  });

  it('answers 422 for a wrong data.type', async () => {
    await refused({ data: { type: 'workspaces', relationships: wsRel(wsId) } }, 422, { pointer: '/data/type' });
  });

  it('answers 422 without a workspace relationship', async () => {
    await refused(runDoc({ ...cvRel(cvId) }), 422, { pointer: '/data/relationships/workspace' });
    await refused({ data: { type: 'runs', attributes: {} } }, 422);
  });

  it('answers 404 for a workspace that does not exist', async () => {
    await refused(runDoc(wsRel('ws-doesnotexist0000')), 404);
  });

  it('answers 422 for a configuration version of another workspace', async () => {
    await refused(runDoc({ ...wsRel(wsId), ...cvRel(otherCvId) }), 422, {
      pointer: '/data/relationships/configuration-version',
    });
  });

  it('answers 422 for a configuration version that was never uploaded', async () => {
    // In a workspace of its own: a new version becomes its workspace's current one at once.
    const fresh = await createWorkspace(org);
    const pending = await createCv(fresh.id, token, { 'auto-queue-runs': false });
    await refused(runDoc({ ...wsRel(fresh.id), ...cvRel(pending.id) }), 422, {
      pointer: '/data/relationships/configuration-version',
      detail: /pending/,
    });
  });

  it('answers 422 for a workspace without any configuration version', async () => {
    const empty = await createWorkspace(org);
    await refused(runDoc(wsRel(empty.id)), 422, { pointer: '/data/relationships/configuration-version' });
  });

  it('answers 422 for run variables with a bad key', async () => {
    for (const key of ['1size', 'has space', '']) {
      await refused(runDoc(wsRel(wsId), { variables: [{ key, value: '"3"' }] }), 422, {
        pointer: '/data/attributes/variables/0/key',
      });
    }
    await refused(runDoc(wsRel(wsId), { variables: [{ key: 'size' }] }), 422);
  });

  it('answers 422 for attributes of the wrong type', async () => {
    await refused(runDoc(wsRel(wsId), { 'auto-apply': 'true' }), 422, { pointer: '/data/attributes/auto-apply' });
  });

  it('answers 401 without a token or with a wrong one', async () => {
    await refused(runDoc(wsRel(wsId)), 401, { token: null });
    await refused(runDoc(wsRel(wsId)), 401, { token: 'not-a-real-token' });
  });

  it('answers 401 first to an anonymous request whatever its body, and 400 for a broken body only once the caller is known', async () => {
    // A small body of a run's creation is read before the token is looked up (its workspace is
    // read with the token); what is wrong with it still waits for authentication.
    const broken = '{"data": {"type": "runs",';
    await refused(null, 401, { token: null, raw: broken });
    await refused(null, 401, { token: 'not-a-real-token', raw: broken });
    await refused(null, 400, { raw: broken, detail: /not valid JSON/ });
  });

  it('creates a run from a body too large to be read before authentication, and refuses it anonymously with 401', async () => {
    const big = runDoc(
      { ...wsRel(wsId), ...cvRel(cvId) },
      { variables: [{ key: 'big', value: `"${'x'.repeat(20 * 1024)}"` }] },
    );
    await refused(big, 401, { token: null });
    const res = await postRun(big, token);
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.relationships['configuration-version'].data.id).to.equal(cvId);
    await cancel(res.body.data.id);
    // Compressed, it declares a few hundred bytes but inflates past what is read before
    // authentication: it is read after, as any body.
    const zipped = new Uint8Array(gzipSync(JSON.stringify(big)));
    expect(zipped.byteLength).to.be.below(16 * 1024);
    const compressed = await api('POST', '/runs', { token, raw: zipped, headers: { 'Content-Encoding': 'gzip' } });
    expect(compressed.status, compressed.text).to.equal(201);
    await cancel(compressed.body.data.id);
  });

  it('answers 422 for a configuration version that does not exist, and 404 for a workspace the caller may not see whatever version it names', async () => {
    await refused(runDoc({ ...wsRel(wsId), ...cvRel('cv-doesnotexist0000') }), 422, {
      pointer: '/data/relationships/configuration-version',
      detail: /not found/,
    });
    const stranger = (await createOrg()).owner;
    await refused(runDoc({ ...wsRel(wsId), ...cvRel(cvId) }), 404, { token: stranger.token });
    await refused(runDoc(wsRel(wsId)), 404, { token: stranger.token });
  });

  it('answers 404 to a user who can only read the workspace, even for a plan-only run', async () => {
    const reader = await memberWithAccess(org, wsId, 'read');
    expect((await api('GET', `/workspaces/${wsId}`, { token: reader.token })).status).to.equal(200);
    await refused(runDoc(wsRel(wsId), { 'plan-only': true }), 404, { token: reader.token });
    await refused(runDoc(wsRel(wsId)), 404, { token: reader.token });
  });

  it('lets a user with plan access create (and cancel) a plan-only run, but not a run that could apply', async () => {
    const planner = await memberWithAccess(org, wsId, 'plan');
    await refused(runDoc(wsRel(wsId)), 404, { token: planner.token });
    await refused(runDoc(wsRel(wsId), { 'plan-only': false }), 404, { token: planner.token });
    await refused(runDoc({ ...wsRel(wsId), ...cvRel(cvId) }, { 'auto-apply': true }), 404, { token: planner.token });

    const before = await tableCounts();
    const res = await postRun(runDoc(wsRel(wsId), { 'plan-only': true }), planner.token);
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.attributes['plan-only']).to.equal(true);
    expect(res.body.data.relationships['created-by'].data.id).to.equal(planner.id);
    expect(res.body.data.attributes.permissions['can-apply']).to.equal(false);
    expect(res.body.data.attributes.permissions['can-cancel']).to.equal(true);
    expect((await tableCounts()).runs - before.runs).to.equal(1);
    const apply = await api('POST', `/runs/${res.body.data.id}/actions/apply`, { token: planner.token, body: {} });
    expectError(apply, 404);
    await cancel(res.body.data.id, planner.token);
  });

  it('answers 404 when a user with plan access tries to cancel or force-cancel a run that could apply, changing nothing', async () => {
    const planner = await memberWithAccess(org, wsId, 'plan');
    const res = await postRun(runDoc(wsRel(wsId)), token);
    expect(res.status, res.text).to.equal(201);
    const runId = res.body.data.id;
    const seen = await api('GET', `/runs/${runId}`, { token: planner.token });
    expect(seen.status, seen.text).to.equal(200);
    expect(seen.body.data.attributes.permissions['can-cancel']).to.equal(false);
    for (const action of ['cancel', 'force-cancel']) {
      expectError(await api('POST', `/runs/${runId}/actions/${action}`, { token: planner.token, body: {} }), 404);
    }
    const row = await harness().rt.db('runs').where({ id: runId }).first('status', 'cancel_requested_at');
    expect(row.cancel_requested_at).to.equal(null);
    expect(row.status).to.not.be.oneOf(['canceled', 'force_canceled']);
    await cancel(runId);
  });

  it('shows a run to whoever can read its workspace, with what it refers to, and answers 404 to anyone else and for an unknown run', async () => {
    const res = await postRun(runDoc(wsRel(wsId), { 'plan-only': true }), token);
    expect(res.status, res.text).to.equal(201);
    const runId = res.body.data.id;
    const reader = await memberWithAccess(org, wsId, 'read');
    for (const as of [token, reader.token]) {
      const shown = await api('GET', `/runs/${runId}?include=plan`, { token: as });
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.data.id).to.equal(runId);
      expect(shown.body.data.relationships.plan.data.id).to.equal(res.body.data.relationships.plan.data.id);
      expect(shown.body.data.relationships.apply.data.id).to.equal(res.body.data.relationships.apply.data.id);
      expect(shown.body.included.map((r: { id: string }) => r.id)).to.deep.equal([
        res.body.data.relationships.plan.data.id,
      ]);
    }
    expect(
      (await api('GET', `/runs/${runId}`, { token: reader.token })).body.data.attributes.permissions['can-cancel'],
    ).to.equal(false);
    const elsewhere = await memberWithAccess(org, otherWsId, 'admin');
    const stranger = (await createOrg()).owner;
    for (const as of [elsewhere.token, stranger.token]) {
      expectError(await api('GET', `/runs/${runId}`, { token: as }), 404);
      expectError(await api('GET', `/runs/${runId}/run-events`, { token: as }), 404);
      expectError(await api('POST', `/runs/${runId}/actions/cancel`, { token: as, body: {} }), 404);
    }
    expectError(await api('GET', '/runs/run-doesnotexist0000', { token }), 404);
    expectError(await api('POST', '/runs/run-doesnotexist0000/actions/discard', { token, body: {} }), 404);
    await cancel(runId);
  });

  it('answers 422 for a plan-only false run on a speculative configuration version', async () => {
    const spec = await uploadConfig(wsId, token, { 'main.tf': MAIN_TF }, { speculative: true });
    await refused(runDoc({ ...wsRel(wsId), ...cvRel(spec) }, { 'plan-only': false }), 422, {
      pointer: '/data/attributes/plan-only',
    });
    const res = await postRun(runDoc({ ...wsRel(wsId), ...cvRel(spec) }), token);
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.attributes['plan-only']).to.equal(true);
    await cancel(res.body.data.id);
  });
});

describe('runs: concurrent creation on one workspace', () => {
  it('creates every run when many arrive at once: one takes the free workspace, the rest wait pending', async function () {
    this.timeout(30_000);
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    await uploadConfig(ws.id, token, { 'main.tf': MAIN_TF });
    const results = await Promise.all(Array.from({ length: 12 }, () => postRun(runDoc(wsRel(ws.id)), token)));
    for (const res of results) expect(res.status, res.text).to.equal(201);
    const statuses = results.map((r) => r.body.data.attributes.status as string);
    expect(statuses.filter((s) => s === 'plan_queued')).to.have.length(1);
    expect(statuses.filter((s) => s === 'pending')).to.have.length(11);
  });

  it('waits, not queues, when another run takes the workspace while the creating statement waits for its lock', async function () {
    this.timeout(30_000);
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    await uploadConfig(ws.id, token, { 'main.tf': MAIN_TF });
    // Another transaction holds the workspace lock and makes a run of its own the holder.
    const other = new pg.Client({ connectionString: harness().config.databaseUrl });
    await other.connect();
    const holder = `run-holder${Date.now()}`;
    try {
      await other.query('begin');
      await other.query('select id from workspaces where id = $1 for update', [ws.id]);
      await other.query(`insert into runs (id, workspace_id, status) values ($1, $2, 'planning')`, [holder, ws.id]);
      const created = postRun(runDoc(wsRel(ws.id)), token);
      const waiting = async () =>
        (
          await other.query(
            `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
          )
        ).rows[0].n > 0;
      for (const deadline = Date.now() + 10_000; !(await waiting());) {
        if (Date.now() > deadline) throw new Error('the creation never waited for the workspace lock');
        await new Promise((r) => setTimeout(r, 20));
      }
      await other.query('commit');
      const res = await created;
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.attributes.status).to.equal('pending');
      const holders = await harness()
        .rt.db('runs')
        .where({ workspace_id: ws.id })
        .whereNotIn('status', ['pending'])
        .pluck('id');
      expect(holders).to.deep.equal([holder]);
    } finally {
      await other.query('rollback').catch(() => undefined);
      await other.query(`update runs set status = 'errored' where id = $1`, [holder]);
      await other.end();
    }
  });

  it('refuses a second non-speculative run holding a workspace in the database itself', async () => {
    const org = await createOrg();
    const ws = await createWorkspace(org);
    const db = harness().rt.db;
    await db('runs').insert({ id: `run-a${Date.now()}`, workspace_id: ws.id, status: 'planned' });
    await db('runs').insert({ id: `run-s${Date.now()}`, workspace_id: ws.id, status: 'planning', plan_only: true });
    await db('runs').insert({ id: `run-p${Date.now()}`, workspace_id: ws.id, status: 'pending' });
    const refused = await db('runs')
      .insert({ id: `run-b${Date.now()}`, workspace_id: ws.id, status: 'applying' })
      .then(
        () => null,
        (err: { code?: string; constraint?: string }) => err,
      );
    expect(refused).to.include({ code: '23505', constraint: 'runs_one_holder_per_workspace' });
    await db('runs').where({ workspace_id: ws.id }).update({ status: 'discarded' });
  });
});
