import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { createOrg, createWorkspace, memberWithAccess, type TestUser } from '../helpers/fixtures.js';
import { startRun, terraformWorkers, uploadConfig, waitForRun } from '../helpers/terraform.js';

type Org = { name: string; owner: TestUser };

const CONFIG = { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' };
const ws = (id: string) => ({ data: { type: 'workspaces', id } });
const statusOf = async (id: string, token: string): Promise<string> =>
  (await api('GET', `/runs/${id}`, { token })).body.data.attributes.status;

/** Requests as go-tfe's Runs and RunEvents services send them, and what its integration tests assert. */
describe('runs as go-tfe uses them: variables, organization lists, run events, force-execute', function () {
  this.timeout(180_000);
  let org: Org;
  before(async () => {
    org = await createOrg();
  });

  it('the answer to the creation echoes the run variables sent; later reads show their keys only (TestRunsCreate)', async () => {
    const w = await createWorkspace(org);
    await uploadConfig(w.id, org.owner.token, CONFIG);
    // go-tfe's RunCreateOptions marshalled with variables and a null configuration version.
    const vars = [
      { key: 'test_variable', value: 'Hello, World!' },
      { key: 'test_foo', value: 'Hello, Foo!' },
    ];
    const res = await api('POST', '/runs', {
      token: org.owner.token,
      body: doc(
        'runs',
        { message: 'yo', variables: vars },
        { 'configuration-version': { data: null }, workspace: ws(w.id) },
      ),
    });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.attributes.variables).to.deep.equal(vars);
    const read = await api('GET', `/runs/${res.body.data.id}`, { token: org.owner.token });
    expect(read.body.data.attributes.variables).to.deep.equal([{ key: 'test_variable' }, { key: 'test_foo' }]);
    // Sealed at rest: the values are in no column as text.
    const row = await harness().rt.db('runs').where({ id: res.body.data.id }).first();
    expect(JSON.stringify(row)).to.not.contain('Hello, World!');
  });

  it('GET /organizations/:org/runs lists the runs of the workspaces the caller sees, with its filters (TestRunsListForOrganization)', async () => {
    const o = await createOrg();
    const a = await createWorkspace(o);
    const b = await createWorkspace(o);
    await uploadConfig(a.id, o.owner.token, CONFIG);
    await uploadConfig(b.id, o.owner.token, CONFIG);
    const a1 = await startRun(a.id, o.owner.token, { message: 'first of a' });
    const a2 = await startRun(a.id, o.owner.token);
    const b1 = await startRun(b.id, o.owner.token);
    const list = (query: string, token = o.owner.token) =>
      api('GET', `/organizations/${o.name}/runs${query}`, { token });
    const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);

    const all = await list('');
    expect(all.status, all.text).to.equal(200);
    expect(ids(all)).to.deep.equal([b1, a2, a1]);
    expect(all.body.meta.pagination).to.include({ 'current-page': 1, 'next-page': null, 'total-count': 3 });
    const beyond = await list('?page[number]=999&page[size]=100');
    expect(beyond.body.data).to.deep.equal([]);
    expect(beyond.body.meta.pagination).to.include({ 'current-page': 999, 'next-page': null });

    const named = await list(`?filter[workspace_names]=${a.name}&include=workspace`);
    expect(ids(named)).to.deep.equal([a2, a1]);
    expect(named.body.included.map((r: { type: string; id: string }) => `${r.type}:${r.id}`)).to.deep.equal([
      `workspaces:${a.id}`,
    ]);
    expect(ids(await list('?filter[status]=pending'))).to.deep.equal([a2]);
    expect(ids(await list('?filter[status_group]=non_final'))).to.have.members([a1, a2, b1]);
    expect(ids(await list('?filter[status_group]=final'))).to.deep.equal([]);
    expect(ids(await list('?search[basic]=first%20of'))).to.deep.equal([a1]);
    expect(ids(await list('?filter[timeframe]=year&filter[source]=tfe-api'))).to.have.length(3);
    // No run here runs in an agent pool.
    expect(ids(await list('?filter[agent_pool_names]=pool'))).to.deep.equal([]);
    expectError(await list('?filter[status_group]=odd'), 400, /status_group/);
    expectError(await list('?filter[timeframe]=decade'), 400, /timeframe/);

    // A member who sees only one workspace lists only its runs; an outsider gets 404.
    const reader = await memberWithAccess(o, b.id, 'read');
    expect(ids(await list('', reader.token))).to.deep.equal([b1]);
    expectError(await list('', org.owner.token), 404);
  });

  it('a comment is a "commented" run event with its actor and comment, listed, read and included (TestRunEventsList, TestRunEventsRead)', async () => {
    const w = await createWorkspace(org);
    await uploadConfig(w.id, org.owner.token, CONFIG);
    const run = await startRun(w.id, org.owner.token);
    const comment = await api('POST', `/runs/${run}/comments`, {
      token: org.owner.token,
      body: doc('comments', { body: 'Test comment' }),
    });
    expect(comment.status, comment.text).to.equal(201);

    const plain = await api('GET', `/runs/${run}/run-events`, { token: org.owner.token });
    expect(plain.status, plain.text).to.equal(200);
    const event = plain.body.data.find((e: { attributes: { action: string } }) => e.attributes.action === 'commented');
    expect(event.relationships.actor.data).to.deep.equal({ type: 'users', id: org.owner.id });
    expect(event.relationships.comment.data).to.deep.equal({ type: 'comments', id: comment.body.data.id });
    expect(plain.body.included).to.equal(undefined);

    const withAll = await api('GET', `/runs/${run}/run-events?include=actor,comment`, { token: org.owner.token });
    const kinds = withAll.body.included.map((r: { type: string; id: string }) => `${r.type}:${r.id}`);
    expect(kinds).to.include.members([`users:${org.owner.id}`, `comments:${comment.body.data.id}`]);
    expect(withAll.body.included.find((r: { type: string }) => r.type === 'comments').attributes.body).to.equal(
      'Test comment',
    );

    const one = await api('GET', `/run-events/${event.id}?include=actor,comment`, { token: org.owner.token });
    expect(one.status, one.text).to.equal(200);
    expect(one.body.data).to.deep.include({ id: event.id, type: 'run-events' });
    expect(one.body.included.find((r: { type: string }) => r.type === 'users').attributes.username).to.equal(
      org.owner.username,
    );
    expectError(await api('GET', `/run-events/${event.id}?include=target`, { token: org.owner.token }), 400, /include/);
    expectError(await api('GET', '/run-events/re-nonexisting', { token: org.owner.token }), 404);
    // Another organization's owner may not read it.
    expectError(await api('GET', `/run-events/${event.id}`, { token: (await createOrg()).owner.token }), 404);
  });

  describe('force-execute', () => {
    terraformWorkers(['run-pipeline']);

    it('starts a pending run now: the planned run ahead is discarded, a pending one ahead canceled (TestRunsForceExecute)', async () => {
      const w = await createWorkspace(org);
      await uploadConfig(w.id, org.owner.token, CONFIG);
      const ahead = await startRun(w.id, org.owner.token);
      await waitForRun(ahead, org.owner.token, ['planned']);
      const between = await startRun(w.id, org.owner.token);
      const target = await startRun(w.id, org.owner.token);
      const later = await startRun(w.id, org.owner.token);
      const before = await api('GET', `/runs/${target}`, { token: org.owner.token });
      expect(before.body.data.attributes.status).to.equal('pending');
      expect(before.body.data.attributes.permissions['can-force-execute']).to.equal(true);

      // go-tfe's ForceExecute: a POST without a body.
      const res = await api('POST', `/runs/${target}/actions/force-execute`, { token: org.owner.token });
      expect(res.status, res.text).to.equal(202);
      await waitForRun(target, org.owner.token, ['planned', 'planned_and_finished']);
      expect(await statusOf(ahead, org.owner.token)).to.equal('discarded');
      expect(await statusOf(between, org.owner.token)).to.equal('canceled');
      // A run created after the target keeps waiting behind it.
      expect(await statusOf(later, org.owner.token)).to.equal('pending');
      const events = await api('GET', `/runs/${ahead}/run-events`, { token: org.owner.token });
      const discard = events.body.data.find(
        (e: { attributes: { action: string } }) => e.attributes.action === 'discard',
      );
      expect(discard.attributes.description).to.contain(target);
    });

    it('refuses, changing nothing, a run that is not pending, one behind a lock taken by hand, and callers without write access', async () => {
      const w = await createWorkspace(org);
      await uploadConfig(w.id, org.owner.token, CONFIG);
      const first = await startRun(w.id, org.owner.token);
      await waitForRun(first, org.owner.token, ['planned']);
      // Not pending.
      expectError(
        await api('POST', `/runs/${first}/actions/force-execute`, { token: org.owner.token }),
        409,
        /pending/,
      );

      // Behind a workspace locked by hand, no run holds it: refused, the lock and the runs stay.
      const free = await createWorkspace(org);
      await api('POST', `/workspaces/${free.id}/actions/lock`, { token: org.owner.token, body: {} });
      await uploadConfig(free.id, org.owner.token, CONFIG);
      const waiting = await startRun(free.id, org.owner.token);
      expectError(
        await api('POST', `/runs/${waiting}/actions/force-execute`, { token: org.owner.token }),
        409,
        /locked/,
      );
      expect(await statusOf(waiting, org.owner.token)).to.equal('pending');

      const second = await startRun(w.id, org.owner.token);
      // Read access may not, and is told nothing (404); the run stays pending.
      const reader = await memberWithAccess(org, w.id, 'read');
      expectError(await api('POST', `/runs/${second}/actions/force-execute`, { token: reader.token }), 404);
      expect(await statusOf(second, org.owner.token)).to.equal('pending');
      expect(await statusOf(first, org.owner.token)).to.equal('planned');
      expectError(await api('POST', '/runs/run-nonexisting/actions/force-execute', { token: org.owner.token }), 404);
    });
  });
});
