import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { createOrg, createWorkspace, uniq, type TestUser } from '../helpers/fixtures.js';
import { startRun, terraformWorkers, uploadConfig, waitForRun } from '../helpers/terraform.js';

type Org = { name: string; owner: TestUser };
type Linkage = { type: string; id: string } | null;

const CONFIG = { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' };

/** Requests as go-tfe's Workspaces service sends them, and what its integration tests assert. */
describe('workspaces as go-tfe uses them: current and latest runs, run locks, includes, sort and filters', function () {
  this.timeout(180_000);
  let org: Org;
  before(async () => {
    org = await createOrg();
  });

  const read = async (id: string, query = '') => {
    const res = await api('GET', `/workspaces/${id}${query}`, { token: org.owner.token });
    expect(res.status, res.text).to.equal(200);
    return res.body;
  };
  const rel = (body: { data: { relationships: Record<string, { data: Linkage }> } }, name: string) =>
    body.data.relationships[name].data;

  it('answers trigger-prefixes and trigger-patterns alike at creation and on read, [] when none was sent (the tfe provider)', async () => {
    // What the tfe provider sends for a workspace without file triggers: neither attribute.
    const created = await api('POST', `/organizations/${org.name}/workspaces`, {
      token: org.owner.token,
      body: doc('workspaces', { name: uniq('ws'), 'file-triggers-enabled': false }),
    });
    expect(created.status, created.text).to.equal(201);
    const readBack = await read(created.body.data.id);
    for (const attrs of [created.body.data.attributes, readBack.data.attributes]) {
      expect(attrs['trigger-prefixes']).to.deep.equal([]);
      expect(attrs['trigger-patterns']).to.deep.equal([]);
    }
    // Sent empty, as go-tfe marshals an empty list with the attribute present.
    const empty = await api('POST', `/organizations/${org.name}/workspaces`, {
      token: org.owner.token,
      body: doc('workspaces', { name: uniq('ws'), 'trigger-prefixes': [], 'trigger-patterns': [] }),
    });
    expect(empty.status, empty.text).to.equal(201);
    const emptyRead = await read(empty.body.data.id);
    for (const attrs of [empty.body.data.attributes, emptyRead.data.attributes]) {
      expect(attrs['trigger-prefixes']).to.deep.equal([]);
      expect(attrs['trigger-patterns']).to.deep.equal([]);
    }
  });

  it('a new workspace has no current or latest run and is unlocked', async () => {
    const w = await createWorkspace(org);
    const body = await read(w.id);
    expect(rel(body, 'current-run')).to.equal(null);
    expect(rel(body, 'latest-run')).to.equal(null);
    expect(body.data.attributes).to.include({ locked: false, 'workspace-kpis-runs-count': 0 });
  });

  describe('without a worker: runs that hold the workspace and runs that wait', () => {
    it('a run holding the workspace is its current run and locks it; unlock is refused naming the run (TestWorkspacesUnlock)', async () => {
      const w = await createWorkspace(org);
      await uploadConfig(w.id, org.owner.token, CONFIG);
      const first = await startRun(w.id, org.owner.token);
      const second = await startRun(w.id, org.owner.token);
      const body = await read(w.id);
      // The first run took the workspace (plan_queued: nothing plans it here), the second waits.
      expect(rel(body, 'current-run')).to.deep.equal({ type: 'runs', id: first });
      expect(rel(body, 'latest-run')).to.deep.equal({ type: 'runs', id: second });
      expect(body.data.attributes).to.include({ locked: true, 'workspace-kpis-runs-count': 2 });
      expect(rel(body, 'locked-by')).to.deep.equal({ type: 'runs', id: first });

      // go-tfe tells ErrWorkspaceLockedByRun by "is locked by Run" in a 409.
      const unlock = await api('POST', `/workspaces/${w.id}/actions/unlock`, { token: org.owner.token });
      expectError(unlock, 409, /is locked by Run/);
      expect(unlock.text).to.contain(first);

      // A lock by hand is refused while the run holds the workspace, and nothing changed.
      expectError(
        await api('POST', `/workspaces/${w.id}/actions/lock`, { token: org.owner.token, body: {} }),
        409,
        /locked by Run/,
      );
      expect(rel(await read(w.id), 'locked-by')).to.deep.equal({ type: 'runs', id: first });
    });

    it('once the holder ended, the next pending run is current; the ended one stays the latest holder while none waits', async () => {
      const w = await createWorkspace(org);
      await uploadConfig(w.id, org.owner.token, CONFIG);
      const first = await startRun(w.id, org.owner.token);
      const second = await startRun(w.id, org.owner.token);
      const cancel = await api('POST', `/runs/${first}/actions/cancel`, { token: org.owner.token, body: {} });
      expect(cancel.status, cancel.text).to.equal(202);
      // Nothing queues the second run without a worker: it is pending, next in line, and the workspace is not locked.
      const waiting = await read(w.id);
      expect(rel(waiting, 'current-run')).to.deep.equal({ type: 'runs', id: second });
      expect(waiting.data.attributes.locked).to.equal(false);
      expect(rel(waiting, 'locked-by')).to.equal(null);

      const cancelSecond = await api('POST', `/runs/${second}/actions/cancel`, { token: org.owner.token, body: {} });
      expect(cancelSecond.status, cancelSecond.text).to.equal(202);
      // The second never held the workspace; the first did last.
      const idle = await read(w.id);
      expect(rel(idle, 'current-run')).to.deep.equal({ type: 'runs', id: first });
      expect(rel(idle, 'latest-run')).to.deep.equal({ type: 'runs', id: second });
      expect(idle.data.attributes.locked).to.equal(false);
    });

    it('a workspace locked by hand shows its pending run as current (the CLI waits for the manual lock) and the lock as locked-by', async () => {
      const w = await createWorkspace(org);
      const lock = await api('POST', `/workspaces/${w.id}/actions/lock`, {
        token: org.owner.token,
        body: { reason: 'hands off' },
      });
      expect(lock.status, lock.text).to.equal(200);
      await uploadConfig(w.id, org.owner.token, CONFIG);
      const run = await startRun(w.id, org.owner.token);
      const body = await read(w.id);
      expect(rel(body, 'current-run')).to.deep.equal({ type: 'runs', id: run });
      expect((await api('GET', `/runs/${run}`, { token: org.owner.token })).body.data.attributes.status).to.equal(
        'pending',
      );
      expect(body.data.attributes.locked).to.equal(true);
      expect(rel(body, 'locked-by')).to.deep.equal({ type: 'users', id: org.owner.id });
    });

    it('a speculative plan is never the current run, but it is the latest', async () => {
      const w = await createWorkspace(org);
      await uploadConfig(w.id, org.owner.token, CONFIG, { speculative: true });
      const plan = await startRun(w.id, org.owner.token, { 'plan-only': true });
      const body = await read(w.id);
      expect(rel(body, 'current-run')).to.equal(null);
      expect(rel(body, 'latest-run')).to.deep.equal({ type: 'runs', id: plan });
      expect(body.data.attributes.locked).to.equal(false);
    });

    it("lists sort by the current run's creation either way and filter by its status (TestWorkspacesList)", async () => {
      const o = await createOrg();
      const idle = await createWorkspace(o, { name: uniq('a-idle') });
      const older = await createWorkspace(o, { name: uniq('z-older') });
      const newer = await createWorkspace(o, { name: uniq('m-newer') });
      await uploadConfig(older.id, o.owner.token, CONFIG);
      const olderRun = await startRun(older.id, o.owner.token);
      await uploadConfig(newer.id, o.owner.token, CONFIG);
      const newerRun = await startRun(newer.id, o.owner.token);
      const list = (query: string) =>
        api('GET', `/organizations/${o.name}/workspaces?${query}`, { token: o.owner.token });

      const asc = await list('include=current_run&sort=current-run.created-at');
      expect(asc.status, asc.text).to.equal(200);
      expect(asc.body.data.map((d: { id: string }) => d.id)).to.deep.equal([older.id, newer.id, idle.id]);
      expect(asc.body.included.map((r: { type: string; id: string }) => `${r.type}:${r.id}`)).to.have.members([
        `runs:${olderRun}`,
        `runs:${newerRun}`,
      ]);
      const desc = await list('sort=-current-run.created-at');
      expect(desc.body.data.map((d: { id: string }) => d.id)).to.deep.equal([newer.id, older.id, idle.id]);
      expectError(await list('sort=created-at'), 400, /sort/);

      await api('POST', `/runs/${olderRun}/actions/cancel`, { token: o.owner.token, body: {} });
      const canceled = await list('filter[current-run][status]=canceled');
      expect(canceled.body.data.map((d: { id: string }) => d.id)).to.deep.equal([older.id]);
      expect(canceled.body.meta.pagination['total-count']).to.equal(1);
      const queued = await list('filter[current-run][status]=plan_queued,canceled');
      expect(queued.body.data.map((d: { id: string }) => d.id)).to.have.members([older.id, newer.id]);
    });
  });

  describe('with a worker: an applied run and its state', () => {
    terraformWorkers(['run-pipeline']);

    it('include=current_state_version,current_run includes the state with its download URL and the run with its message', async () => {
      const w = await createWorkspace(org);
      await uploadConfig(w.id, org.owner.token, CONFIG);
      const run = await startRun(w.id, org.owner.token, { message: 'applied by the test' });
      await waitForRun(run, org.owner.token, ['planned', 'errored']);
      const apply = await api('POST', `/runs/${run}/actions/apply`, { token: org.owner.token, body: {} });
      expect(apply.status, apply.text).to.equal(202);
      await waitForRun(run, org.owner.token, ['applied', 'errored']);

      // go-tfe's WSCurrentStateVer and WSCurrentRun, on the list and on a read.
      const listed = await api(
        'GET',
        `/organizations/${org.name}/workspaces?include=current-state-version,current-run&search[name]=${w.name}`,
        { token: org.owner.token },
      );
      expect(listed.status, listed.text).to.equal(200);
      const byId = await read(w.id, '?include=current_state_version,current_run');
      for (const body of [{ data: listed.body.data[0], included: listed.body.included }, byId]) {
        const svId = body.data.relationships['current-state-version'].data.id;
        expect(body.data.relationships['current-run'].data).to.deep.equal({ type: 'runs', id: run });
        const sv = body.included.find(
          (r: { type: string; id: string }) => r.type === 'state-versions' && r.id === svId,
        );
        expect(sv.attributes['hosted-state-download-url']).to.be.a('string').and.not.equal('');
        const included = body.included.find((r: { type: string; id: string }) => r.type === 'runs' && r.id === run);
        expect(included.attributes).to.include({ message: 'applied by the test', status: 'applied' });
      }
      expect(byId.data.attributes).to.include({ locked: false, 'workspace-kpis-runs-count': 1, 'resource-count': 1 });
    });
  });
});
