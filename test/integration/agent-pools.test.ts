import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import {
  countRows,
  createOrg,
  createTeam,
  createUser,
  createWorkspace,
  joinOrg,
  memberWithAccess,
  uniq,
  type TestUser,
} from '../helpers/fixtures.js';
import { startRun, terraformWorkers, uploadConfig, waitForRun } from '../helpers/terraform.js';

type Org = { name: string; owner: TestUser };

const poolBody = (attrs: Record<string, unknown>, relationships?: Record<string, unknown>) =>
  doc('agent-pools', attrs, relationships);
const linkages = (type: string, ids: string[]) => ({ data: ids.map((id) => ({ type, id })) });

/** Agent pools as go-tfe and the tfe provider use them, and what they change for organizations, workspaces and runs. */
describe('agent pools', function () {
  this.timeout(120_000);
  let org: Org;

  before(async () => {
    org = await createOrg();
  });

  const newPool = async (
    within: Org = org,
    attrs: Record<string, unknown> = {},
    relationships?: Record<string, unknown>,
  ) => {
    const res = await api('POST', `/organizations/${within.name}/agent-pools`, {
      token: within.owner.token,
      body: poolBody({ name: uniq('pool'), ...attrs }, relationships),
    });
    expect(res.status, res.text).to.equal(201);
    return res.body.data as {
      id: string;
      attributes: Record<string, unknown>;
      relationships: Record<string, { data: unknown }>;
    };
  };
  const patchOrg = (within: Org, attrs: Record<string, unknown>, pool?: string | null) =>
    api('PATCH', `/organizations/${within.name}`, {
      token: within.owner.token,
      body: doc(
        'organizations',
        attrs,
        pool === undefined
          ? undefined
          : { 'default-agent-pool': { data: pool ? { type: 'agent-pools', id: pool } : null } },
      ),
    });
  const createIn = (within: Org, attrs: Record<string, unknown>) =>
    api('POST', `/organizations/${within.name}/workspaces`, {
      token: within.owner.token,
      body: doc('workspaces', { name: uniq('ws'), ...attrs }),
    });
  const patchWs = (within: Org, id: string, attrs: Record<string, unknown>) =>
    api('PATCH', `/workspaces/${id}`, { token: within.owner.token, body: doc('workspaces', attrs) });

  describe('the pools of an organization', () => {
    it('creates, lists, reads, changes and deletes a pool', async () => {
      const name = uniq('pool');
      const created = await api('POST', `/organizations/${org.name}/agent-pools`, {
        token: org.owner.token,
        body: poolBody({ name }),
      });
      expect(created.status, created.text).to.equal(201);
      const pool = created.body.data;
      expect(pool.type).to.equal('agent-pools');
      expect(pool.id).to.match(/^apool-/);
      expect(pool.attributes).to.include({ name, 'organization-scoped': true, 'agent-count': 0 });
      expect(pool.attributes['created-at']).to.be.a('string');
      expect(pool.relationships.organization.data).to.deep.equal({ type: 'organizations', id: org.name });
      expect(pool.relationships.workspaces.data).to.deep.equal([]);

      const listed = await api(
        'GET',
        `/organizations/${org.name}/agent-pools?q=${encodeURIComponent(name.slice(0, 9))}`,
        { token: org.owner.token },
      );
      expect(listed.status, listed.text).to.equal(200);
      expect(listed.body.data.map((p: { id: string }) => p.id)).to.include(pool.id);
      expect(listed.body.meta.pagination['total-count']).to.equal(listed.body.data.length);
      const elsewhere = await api('GET', `/organizations/${org.name}/agent-pools?q=nothing-matches-this`, {
        token: org.owner.token,
      });
      expect(elsewhere.body.data).to.deep.equal([]);

      expect(
        (await api('GET', `/agent-pools/${pool.id}`, { token: org.owner.token })).body.data.attributes.name,
      ).to.equal(name);
      const ws = await createWorkspace(org);
      const renamed = await api('PATCH', `/agent-pools/${pool.id}`, {
        token: org.owner.token,
        body: poolBody(
          { name: `${name}-b`, 'organization-scoped': false },
          { 'allowed-workspaces': linkages('workspaces', [ws.id]) },
        ),
      });
      expect(renamed.status, renamed.text).to.equal(200);
      expect(renamed.body.data.attributes).to.include({ name: `${name}-b`, 'organization-scoped': false });
      expect(renamed.body.data.relationships['allowed-workspaces'].data).to.deep.equal([
        { type: 'workspaces', id: ws.id },
      ]);

      expect((await api('DELETE', `/agent-pools/${pool.id}`, { token: org.owner.token })).status).to.equal(204);
      expectError(await api('GET', `/agent-pools/${pool.id}`, { token: org.owner.token }), 404);
    });

    it('refuses a taken name, allowed projects and excluded workspaces (not built), and workspaces of another organization, with 422', async () => {
      const taken = await newPool();
      const before = await countRows('agent_pools');
      expectError(
        await api('POST', `/organizations/${org.name}/agent-pools`, {
          token: org.owner.token,
          body: poolBody({ name: taken.attributes.name }),
        }),
        422,
        /Name has already been taken/,
      );
      const project = (await api('GET', `/organizations/${org.name}/projects`, { token: org.owner.token })).body.data[0]
        .id;
      expectError(
        await api('POST', `/organizations/${org.name}/agent-pools`, {
          token: org.owner.token,
          body: poolBody({ name: uniq('pool') }, { 'allowed-projects': linkages('projects', [project]) }),
        }),
        422,
        /allowed-projects/,
      );
      const foreign = await createWorkspace(await createOrg());
      expectError(
        await api('POST', `/organizations/${org.name}/agent-pools`, {
          token: org.owner.token,
          body: poolBody({ name: uniq('pool') }, { 'allowed-workspaces': linkages('workspaces', [foreign.id]) }),
        }),
        422,
        /not found in the organization/,
      );
      expectError(
        await api('POST', `/organizations/${org.name}/agent-pools`, {
          token: org.owner.token,
          body: poolBody({ name: 'no spaces allowed' }),
        }),
        422,
      );
      expect(await countRows('agent_pools')).to.equal(before);
    });

    it('lets members read pools; manage-agent-pools changes them; 404 for everyone else', async () => {
      const pool = await newPool();
      const member = await createUser();
      await joinOrg(org, member);
      expect((await api('GET', `/agent-pools/${pool.id}`, { token: member.token })).status).to.equal(200);
      expect((await api('GET', `/organizations/${org.name}/agent-pools`, { token: member.token })).status).to.equal(
        200,
      );
      expectError(
        await api('POST', `/organizations/${org.name}/agent-pools`, {
          token: member.token,
          body: poolBody({ name: uniq('pool') }),
        }),
        404,
      );
      expectError(
        await api('PATCH', `/agent-pools/${pool.id}`, { token: member.token, body: poolBody({ name: uniq('x') }) }),
        404,
      );
      expectError(await api('DELETE', `/agent-pools/${pool.id}`, { token: member.token }), 404);
      const outsider = (await createOrg()).owner;
      expectError(await api('GET', `/agent-pools/${pool.id}`, { token: outsider.token }), 404);
      expectError(await api('GET', `/organizations/${org.name}/agent-pools`, { token: outsider.token }), 404);
      expectError(await api('GET', `/agent-pools/${pool.id}`, { token: null }), 401);

      const manager = await createUser();
      await joinOrg(org, manager);
      const team = await createTeam(org, { 'organization-access': { 'manage-agent-pools': true } });
      expect(
        (
          await api('POST', `/teams/${team}/relationships/users`, {
            token: org.owner.token,
            body: { data: [{ type: 'users', id: manager.username }] },
          })
        ).status,
      ).to.equal(204);
      const made = await api('POST', `/organizations/${org.name}/agent-pools`, {
        token: manager.token,
        body: poolBody({ name: uniq('pool') }),
      });
      expect(made.status, made.text).to.equal(201);
      expect((await api('DELETE', `/agent-pools/${made.body.data.id}`, { token: manager.token })).status).to.equal(204);
      expect((await api('GET', `/agent-pools/${pool.id}`, { token: org.owner.token })).status).to.equal(200);
    });
  });

  describe("an organization's default agent pool", () => {
    it('goes with the agent default execution mode, as go-tfe expects; its following workspaces take both', async () => {
      const own = await createOrg();
      const pool = await newPool(own);
      const refused = await patchOrg(own, {}, pool.id);
      expectError(refused, 422, /Default agent pool must not be specified unless using 'agent' execution mode/);
      expectError(
        await patchOrg(own, { 'default-execution-mode': 'agent' }),
        422,
        /Default agent pool must be specified when using 'agent' execution mode/,
      );
      const follower = (await createIn(own, {})).body.data;
      const ownMode = (await createIn(own, { 'execution-mode': 'remote' })).body.data;

      const agent = await patchOrg(own, { 'default-execution-mode': 'agent' }, pool.id);
      expect(agent.status, agent.text).to.equal(200);
      expect(agent.body.data.attributes['default-execution-mode']).to.equal('agent');
      expect(agent.body.data.relationships['default-agent-pool'].data).to.deep.equal({
        type: 'agent-pools',
        id: pool.id,
      });
      const read = await api('GET', `/organizations/${own.name}`, { token: own.owner.token });
      expect(read.body.data.relationships['default-agent-pool'].data).to.deep.equal({
        type: 'agent-pools',
        id: pool.id,
      });

      const followed = (await api('GET', `/workspaces/${follower.id}`, { token: own.owner.token })).body.data;
      expect(followed.attributes['execution-mode']).to.equal('agent');
      expect(followed.relationships['agent-pool'].data).to.deep.equal({ type: 'agent-pools', id: pool.id });
      const kept = (await api('GET', `/workspaces/${ownMode.id}`, { token: own.owner.token })).body.data;
      expect(kept.attributes['execution-mode']).to.equal('remote');
      expect(kept.relationships['agent-pool'].data).to.equal(null);
      // A workspace created now follows with the pool; the pool in use cannot be deleted.
      const created = (await createIn(own, {})).body.data;
      expect(created.attributes['execution-mode']).to.equal('agent');
      expect(created.relationships['agent-pool'].data).to.deep.equal({ type: 'agent-pools', id: pool.id });
      expectError(
        await api('DELETE', `/agent-pools/${pool.id}`, { token: own.owner.token }),
        422,
        /default agent pool/,
      );

      const remote = await patchOrg(own, { 'default-execution-mode': 'remote' });
      expect(remote.status, remote.text).to.equal(200);
      expect(remote.body.data.relationships['default-agent-pool'].data).to.equal(null);
      const back = (await api('GET', `/workspaces/${follower.id}`, { token: own.owner.token })).body.data;
      expect(back.attributes['execution-mode']).to.equal('remote');
      expect(back.relationships['agent-pool'].data).to.equal(null);
      const local = await patchOrg(own, { 'default-execution-mode': 'local' });
      expect(local.body.data.attributes['default-execution-mode']).to.equal('local');
      expect(local.body.data.relationships['default-agent-pool'].data).to.equal(null);
      // Nothing uses the pool now.
      expect((await api('DELETE', `/agent-pools/${pool.id}`, { token: own.owner.token })).status).to.equal(204);
    });

    it("refuses an organization created with the agent default, and another organization's pool", async () => {
      const owner = (await createOrg()).owner;
      expectError(
        await api('POST', '/organizations', {
          token: owner.token,
          body: doc('organizations', { name: uniq('org'), email: 'a@example.com', 'default-execution-mode': 'agent' }),
        }),
        422,
        /Default agent pool must be specified/,
      );
      const own = await createOrg();
      const foreign = await newPool(await createOrg());
      expectError(
        await patchOrg(own, { 'default-execution-mode': 'agent' }, foreign.id),
        422,
        /not found in the organization/,
      );
      expect(
        (await harness().rt.db('organizations').where({ name: own.name }).first()).default_execution_mode,
      ).to.equal('remote');
    });

    it('includes the default project with include=default-project', async () => {
      const read = await api('GET', `/organizations/${org.name}?include=default-project`, { token: org.owner.token });
      expect(read.status, read.text).to.equal(200);
      const project = read.body.included.find((r: { type: string }) => r.type === 'projects');
      expect(project.attributes.name).to.equal('Default Project');
      expect(read.body.data.relationships['default-project'].data).to.deep.equal({ type: 'projects', id: project.id });
      expectError(await api('GET', `/organizations/${org.name}?include=owners`, { token: org.owner.token }), 400);
    });
  });

  describe("a workspace's agent pool", () => {
    it('needs the agent mode and a pool together, the pool of its organization that serves it', async () => {
      const pool = await newPool();
      const before = await countRows('workspaces');
      expectError(
        await createIn(org, { 'execution-mode': 'agent' }),
        422,
        /Agent pool must be specified when using 'agent' execution mode/,
      );
      expectError(
        await createIn(org, { 'execution-mode': 'remote', 'agent-pool-id': pool.id }),
        422,
        /Agent pool must not be specified unless using 'agent' execution mode/,
      );
      expectError(await createIn(org, { 'agent-pool-id': pool.id }), 422, /must not be specified/);
      expectError(
        await createIn(org, { 'execution-mode': 'agent', 'agent-pool-id': (await newPool(await createOrg())).id }),
        422,
        /not found in the organization/,
      );
      const closed = await newPool(org, { 'organization-scoped': false });
      expectError(
        await createIn(org, { 'execution-mode': 'agent', 'agent-pool-id': closed.id }),
        422,
        /not available to this workspace/,
      );
      expect(await countRows('workspaces')).to.equal(before);

      const made = await createIn(org, { 'execution-mode': 'agent', 'agent-pool-id': pool.id });
      expect(made.status, made.text).to.equal(201);
      expect(made.body.data.attributes['execution-mode']).to.equal('agent');
      expect(made.body.data.relationships['agent-pool'].data).to.deep.equal({ type: 'agent-pools', id: pool.id });
      const shown = (await api('GET', `/agent-pools/${pool.id}`, { token: org.owner.token })).body.data;
      expect(shown.relationships.workspaces.data).to.deep.equal([{ type: 'workspaces', id: made.body.data.id }]);
      expectError(
        await api('DELETE', `/agent-pools/${pool.id}`, { token: org.owner.token }),
        422,
        /used by workspaces/,
      );
      // A pool that allows the workspace by name serves it; it cannot then stop allowing it.
      const allowed = await api('PATCH', `/agent-pools/${closed.id}`, {
        token: org.owner.token,
        body: poolBody({}, { 'allowed-workspaces': linkages('workspaces', [made.body.data.id]) }),
      });
      expect(allowed.status, allowed.text).to.equal(200);
      const moved = await patchWs(org, made.body.data.id, { 'agent-pool-id': closed.id });
      expect(moved.status, moved.text).to.equal(200);
      expect(moved.body.data.relationships['agent-pool'].data).to.deep.equal({ type: 'agent-pools', id: closed.id });
      expectError(
        await api('PATCH', `/agent-pools/${closed.id}`, {
          token: org.owner.token,
          body: poolBody({}, { 'allowed-workspaces': linkages('workspaces', []) }),
        }),
        422,
        /would no longer be allowed/,
      );
      // Leaving the agent mode drops the pool.
      const remote = await patchWs(org, made.body.data.id, { 'execution-mode': 'remote' });
      expect(remote.status, remote.text).to.equal(200);
      expect(remote.body.data.relationships['agent-pool'].data).to.equal(null);
      expect((await harness().rt.db('workspaces').where({ id: made.body.data.id }).first()).agent_pool_id).to.equal(
        null,
      );
    });

    it("follows the organization's default again with setting-overwrites false", async () => {
      const own = await createOrg();
      const pool = await newPool(own);
      expect((await patchOrg(own, { 'default-execution-mode': 'agent' }, pool.id)).status).to.equal(200);
      const ws = (await createIn(own, { 'execution-mode': 'remote' })).body.data;
      const follows = await patchWs(own, ws.id, {
        'setting-overwrites': { 'execution-mode': false, 'agent-pool': false },
      });
      expect(follows.status, follows.text).to.equal(200);
      expect(follows.body.data.attributes['execution-mode']).to.equal('agent');
      expect(follows.body.data.attributes['setting-overwrites']).to.deep.equal({
        'execution-mode': false,
        'agent-pool': false,
      });
      expect(follows.body.data.relationships['agent-pool'].data).to.deep.equal({ type: 'agent-pools', id: pool.id });
    });
  });

  describe('runs in an agent pool', () => {
    terraformWorkers(['run-pipeline']);

    it("are run by the service's workers, as remote runs are, and listed by their pool's name", async () => {
      const pool = await newPool();
      const ws = (await createIn(org, { 'execution-mode': 'agent', 'agent-pool-id': pool.id, 'auto-apply': true })).body
        .data;
      const other = await createWorkspace(org);
      await uploadConfig(ws.id, org.owner.token, { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' });
      await uploadConfig(other.id, org.owner.token, { 'main.tf': 'output "o" { value = 1 }\n' });
      const runId = await startRun(ws.id, org.owner.token);
      const elsewhere = await startRun(other.id, org.owner.token, { 'plan-only': true });
      expect((await waitForRun(runId, org.owner.token, ['applied', 'errored'])).attributes.status).to.equal('applied');
      const listed = await api(
        'GET',
        `/organizations/${org.name}/runs?filter[agent_pool_names]=${encodeURIComponent(String(pool.attributes.name))}`,
        { token: org.owner.token },
      );
      expect(listed.status, listed.text).to.equal(200);
      const ids = listed.body.data.map((r: { id: string }) => r.id);
      expect(ids).to.include(runId);
      expect(ids).not.to.include(elsewhere);
      // A reader of the workspace sees the run; the filter follows what the caller may see.
      const reader = await memberWithAccess(org, other.id, 'read');
      expect(
        (
          await api(
            'GET',
            `/organizations/${org.name}/runs?filter[agent_pool_names]=${encodeURIComponent(String(pool.attributes.name))}`,
            { token: reader.token },
          )
        ).body.data,
      ).to.deep.equal([]);
    });
  });
});
