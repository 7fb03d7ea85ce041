import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { api, doc, expectError, okBody } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import {
  createOrg,
  createTeam,
  createUser,
  createWorkspace,
  joinOrg,
  memberWithAccess,
  uniq,
  type TestUser,
} from '../helpers/fixtures.js';

type Org = { name: string; owner: TestUser };

/** Requests as go-tfe sends them (all-vars, state versions' backing data, variable sets through projects), and what its tests assert. */
describe('go-tfe compatibility (variables in effect, state backing data, variable sets of projects)', function () {
  this.timeout(60_000);
  let org: Org;
  let token: string;

  before(async () => {
    org = await createOrg();
    token = org.owner.token;
  });

  const ok = (method: string, path: string, body?: unknown, as = token) => okBody(method, path, as, body);
  const newSet = async (attrs: Record<string, unknown> = {}) =>
    (
      await ok(
        'POST',
        `/organizations/${org.name}/varsets`,
        doc('varsets', { name: uniq('set'), global: false, ...attrs }),
      )
    ).data;
  const setVar = async (setId: string, attrs: Record<string, unknown>) =>
    (
      await ok(
        'POST',
        `/varsets/${setId}/relationships/vars`,
        doc('vars', { category: 'terraform', description: randomUUID(), ...attrs }),
      )
    ).data;
  const wsVar = async (wsId: string, attrs: Record<string, unknown>) =>
    (
      await ok(
        'POST',
        `/workspaces/${wsId}/vars`,
        doc('vars', { category: 'terraform', description: randomUUID(), ...attrs }),
      )
    ).data;
  const applyTo = (setId: string, wsId: string) =>
    ok('POST', `/varsets/${setId}/relationships/workspaces`, { data: [{ type: 'workspaces', id: wsId }] });
  const newProject = async () =>
    (await ok('POST', `/organizations/${org.name}/projects`, doc('projects', { name: uniq('prj') }))).data;

  describe('GET /workspaces/:id/all-vars', () => {
    it("answers the workspace's variables and its sets', the workspace's winning a key they share (go-tfe's ListAll)", async () => {
      const project = await newProject();
      const ws = (
        await ok(
          'POST',
          `/organizations/${org.name}/workspaces`,
          doc('workspaces', { name: uniq('ws') }, { project: { data: { type: 'projects', id: project.id } } }),
        )
      ).data;
      const orgSet = await newSet();
      const prjSet = await newSet();
      const glVar = await setVar(orgSet.id, { key: 'key1', value: 'gl_value1' });
      const glVarOverwrite = await setVar(orgSet.id, { key: 'key2', value: 'gl_value2' });
      const prjVar = await setVar(prjSet.id, { key: 'key3', value: 'prj_value3' });
      const prjVarOverwrite = await setVar(prjSet.id, { key: 'key4', value: 'prj_value4' });
      const ws1 = await wsVar(ws.id, { key: 'key2', value: 'ws_value2' });
      const ws2 = await wsVar(ws.id, { key: 'key4', value: 'ws_value4' });
      const ws3 = await wsVar(ws.id, { key: 'key5', value: 'ws_value5' });
      await applyTo(orgSet.id, ws.id);
      await applyTo(prjSet.id, ws.id);

      const all = await api('GET', `/workspaces/${ws.id}/all-vars`, { token });
      expect(all.status, all.text).to.equal(200);
      const byId = new Map<string, { type: string; attributes: { key: string; value: string } }>(
        all.body.data.map((v: { id: string }) => [v.id, v]),
      );
      expect([...byId.keys()]).to.have.members([glVar.id, prjVar.id, ws1.id, ws2.id, ws3.id]);
      expect(byId.has(glVarOverwrite.id)).to.equal(false);
      expect(byId.has(prjVarOverwrite.id)).to.equal(false);
      expect(byId.get(glVar.id)!.attributes.value).to.equal('gl_value1');
      expect(byId.get(prjVar.id)!.attributes.value).to.equal('prj_value3');
      expect(byId.get(ws1.id)!.attributes.value).to.equal('ws_value2');
      expect([...byId.values()].every((v) => v.type === 'vars')).to.equal(true);
    });

    it("follows the run's precedence: a priority set beats the workspace, a set applied to the workspace beats one of its project, which beats a global one", async () => {
      const project = await newProject();
      const ws = (
        await ok(
          'POST',
          `/organizations/${org.name}/workspaces`,
          doc('workspaces', { name: uniq('ws') }, { project: { data: { type: 'projects', id: project.id } } }),
        )
      ).data;
      const other = await createWorkspace(org);
      const global = await newSet({ global: true });
      const onProject = await newSet();
      const onWorkspace = await newSet();
      const priority = await newSet({ priority: true });
      await ok('POST', `/varsets/${onProject.id}/relationships/projects`, {
        data: [{ type: 'projects', id: project.id }],
      });
      await applyTo(onWorkspace.id, ws.id);
      await applyTo(priority.id, ws.id);
      const fromGlobal = await setVar(global.id, { key: 'a', value: 'global' });
      await setVar(global.id, { key: 'b', value: 'global' });
      const fromProject = await setVar(onProject.id, { key: 'b', value: 'project' });
      await setVar(onProject.id, { key: 'c', value: 'project' });
      const fromSet = await setVar(onWorkspace.id, { key: 'c', value: 'workspace set' });
      await wsVar(ws.id, { key: 'd', value: 'workspace' });
      const fromPriority = await setVar(priority.id, { key: 'd', value: 'priority' });
      // The same key in another category is another variable; a secret stays hidden.
      const env = await wsVar(ws.id, { key: 'a', value: 'env', category: 'env' });
      const secret = await wsVar(ws.id, { key: 'e', value: 'hunter2', sensitive: true });
      await wsVar(other.id, { key: 'z', value: 'elsewhere' });

      const all = await api('GET', `/workspaces/${ws.id}/all-vars`, { token });
      expect(all.status, all.text).to.equal(200);
      const won = Object.fromEntries(
        all.body.data.map((v: { id: string; attributes: { key: string; category: string } }) => [
          `${v.attributes.category}:${v.attributes.key}`,
          v.id,
        ]),
      );
      expect(won).to.deep.equal({
        'terraform:a': fromGlobal.id,
        'terraform:b': fromProject.id,
        'terraform:c': fromSet.id,
        'terraform:d': fromPriority.id,
        'terraform:e': secret.id,
        'env:a': env.id,
      });
      const hidden = all.body.data.find((v: { id: string }) => v.id === secret.id);
      expect(hidden.attributes).to.include({ sensitive: true, value: null });
      expect(all.text).not.to.include('hunter2');
    });

    it("answers who may read the workspace's variables; 404 for others, a custom access without variables included", async () => {
      const ws = await createWorkspace(org);
      const own = await wsVar(ws.id, { key: 'k', value: 'v' });
      const reader = await memberWithAccess(org, ws.id, 'read');
      expect(
        (await api('GET', `/workspaces/${ws.id}/all-vars`, { token: reader.token })).body.data.map(
          (v: { id: string }) => v.id,
        ),
      ).to.include(own.id);
      const none = await memberWithAccess(org, ws.id, 'custom', { runs: 'apply', variables: 'none' });
      expectError(await api('GET', `/workspaces/${ws.id}/all-vars`, { token: none.token }), 404);
      expectError(await api('GET', `/workspaces/${ws.id}/all-vars`, { token: (await createOrg()).owner.token }), 404);
      expectError(await api('GET', '/workspaces/ws-doesnotexist/all-vars', { token }), 404);
      expectError(await api('GET', `/workspaces/${ws.id}/all-vars`, { token: null }), 401);
    });
  });

  describe('state versions: backing data (self-hosted)', () => {
    const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
    const stateOf = (serial: number, lineage: string) =>
      Buffer.from(
        JSON.stringify({
          version: 4,
          terraform_version: '1.11.4',
          serial,
          lineage,
          outputs: { greeting: { value: 'hello', type: 'string' } },
          resources: [],
          check_results: null,
        }),
      );
    /** go-tfe's createStateVersion: lock, create with the state inline, unlock. */
    async function push(wsId: string, serial: number, lineage: string) {
      await ok('POST', `/workspaces/${wsId}/actions/lock`, {});
      const state = stateOf(serial, lineage);
      const sv = (
        await ok(
          'POST',
          `/workspaces/${wsId}/state-versions`,
          doc('state-versions', { serial, md5: md5(state), lineage, state: state.toString('base64') }),
        )
      ).data;
      await ok('POST', `/workspaces/${wsId}/actions/unlock`, {});
      return sv;
    }
    const action = (svId: string, name: string, as = token) =>
      api('POST', `/state-versions/${svId}/actions/${name}`, { token: as });
    const download = async (url: string) =>
      (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status;

    it("soft deletes, restores and permanently deletes a former version's data; its download URL follows (go-tfe's ManageBackingData)", async () => {
      const ws = await createWorkspace(org);
      const lineage = randomUUID();
      const former = await push(ws.id, 1, lineage);
      await push(ws.id, 2, lineage);
      const url = former.attributes['hosted-state-download-url'] as string;
      expect(await download(url)).to.equal(200);

      const soft = await action(former.id, 'soft_delete_backing_data');
      expect(soft.status, soft.text).to.equal(200);
      expect(soft.text).to.equal('');
      expect(await download(url)).to.equal(404);
      const shown = await ok('GET', `/state-versions/${former.id}`);
      expect(shown.data.attributes).to.include({
        status: 'backing_data_soft_deleted',
        'hosted-state-download-url': null,
      });
      // A deleted state is no state to roll back to.
      await ok('POST', `/workspaces/${ws.id}/actions/lock`, {});
      expectError(
        await api('POST', `/workspaces/${ws.id}/actions/rollback`, {
          token,
          body: { data: { type: 'state-versions', id: former.id } },
        }),
        422,
      );
      await ok('POST', `/workspaces/${ws.id}/actions/unlock`, {});

      expect((await action(former.id, 'restore_backing_data')).status).to.equal(200);
      expect(await download(url)).to.equal(200);
      expect((await ok('GET', `/state-versions/${former.id}`)).data.attributes.status).to.equal('finalized');

      expect((await action(former.id, 'soft_delete_backing_data')).status).to.equal(200);
      expect((await action(former.id, 'permanently_delete_backing_data')).status).to.equal(200);
      const restore = await action(former.id, 'restore_backing_data');
      expectError(restore, 400, /transition not allowed/);
      expect(await download(url)).to.equal(404);
      const row = await harness().rt.db('state_versions').where({ id: former.id }).first();
      expect(row).to.include({ status: 'backing_data_permanently_deleted', object_id: null, json_object_id: null });
      expect(await harness().rt.db('state_version_outputs').where({ state_version_id: former.id })).to.deep.equal([]);
      // The workspace's current state is untouched throughout.
      expect((await ok('GET', `/workspaces/${ws.id}/current-state-version`)).data.attributes.serial).to.equal(2);
    });

    it('keeps the current version\'s data, and refuses moves its status does not allow, with 400 "transition not allowed"', async () => {
      const ws = await createWorkspace(org);
      const lineage = randomUUID();
      const former = await push(ws.id, 1, lineage);
      const current = await push(ws.id, 2, lineage);
      expectError(
        await action(current.id, 'soft_delete_backing_data'),
        400,
        /transition not allowed: the backing data of the current state version cannot be deleted/,
      );
      expectError(await action(former.id, 'restore_backing_data'), 400, /transition not allowed/);
      expectError(await action(former.id, 'permanently_delete_backing_data'), 400, /transition not allowed/);
      expect(
        (await harness().rt.db('state_versions').whereIn('id', [former.id, current.id]).pluck('status')).sort(),
      ).to.deep.equal(['finalized', 'finalized']);
    });

    it('is for workspace admins: 404 for writers, readers and other organizations, changing nothing', async () => {
      const ws = await createWorkspace(org);
      const lineage = randomUUID();
      const former = await push(ws.id, 1, lineage);
      await push(ws.id, 2, lineage);
      for (const who of [
        await memberWithAccess(org, ws.id, 'write'),
        await memberWithAccess(org, ws.id, 'read'),
        (await createOrg()).owner,
      ]) {
        expectError(await action(former.id, 'soft_delete_backing_data', who.token), 404);
      }
      expectError(await action('sv-doesnotexist', 'soft_delete_backing_data'), 404);
      expectError(await action(former.id, 'soft_delete_backing_data', null as unknown as string), 401);
      expect((await harness().rt.db('state_versions').where({ id: former.id }).first()).status).to.equal('finalized');
      const admin = await memberWithAccess(org, ws.id, 'admin');
      expect((await action(former.id, 'soft_delete_backing_data', admin.token)).status).to.equal(200);
    });
  });

  describe('variable sets through project access', () => {
    it('a team with access to a project sees the sets applied to it, and no others', async () => {
      const project = await newProject();
      const applied = await newSet();
      const elsewhere = await newSet();
      await ok('POST', `/varsets/${applied.id}/relationships/projects`, {
        data: [{ type: 'projects', id: project.id }],
      });
      const variable = await setVar(applied.id, { key: 'region', value: 'eu' });
      const user = await createUser();
      await joinOrg(org, user);
      const teamId = await createTeam(org);
      await ok('POST', `/teams/${teamId}/relationships/users`, { data: [{ type: 'users', id: user.username }] });
      // Before the team has access to the project, the set is hidden.
      expectError(await api('GET', `/varsets/${applied.id}`, { token: user.token }), 404);
      await ok(
        'POST',
        '/team-projects',
        doc(
          'team-projects',
          { access: 'read' },
          { project: { data: { type: 'projects', id: project.id } }, team: { data: { type: 'teams', id: teamId } } },
        ),
      );

      const listed = await api('GET', `/organizations/${org.name}/varsets`, { token: user.token });
      expect(listed.status, listed.text).to.equal(200);
      const ids = listed.body.data.map((s: { id: string }) => s.id);
      expect(ids).to.include(applied.id);
      expect(ids).not.to.include(elsewhere.id);
      expect((await api('GET', `/varsets/${applied.id}`, { token: user.token })).status).to.equal(200);
      const vars = await api('GET', `/varsets/${applied.id}/relationships/vars`, { token: user.token });
      expect(vars.status, vars.text).to.equal(200);
      expect(vars.body.data.map((v: { id: string }) => v.id)).to.deep.equal([variable.id]);
      expectError(await api('GET', `/varsets/${elsewhere.id}`, { token: user.token }), 404);
      // Seeing is not managing.
      expectError(
        await api('PATCH', `/varsets/${applied.id}`, {
          token: user.token,
          body: doc('varsets', { name: uniq('renamed') }),
        }),
        404,
      );
    });

    it("a team that reaches a workspace of the project sees the project's sets; a custom project access without variables does not", async () => {
      const project = await newProject();
      const ws = (
        await ok(
          'POST',
          `/organizations/${org.name}/workspaces`,
          doc('workspaces', { name: uniq('ws') }, { project: { data: { type: 'projects', id: project.id } } }),
        )
      ).data;
      const set = await newSet();
      await ok('POST', `/varsets/${set.id}/relationships/projects`, { data: [{ type: 'projects', id: project.id }] });
      const member = await memberWithAccess(org, ws.id, 'plan');
      expect((await api('GET', `/varsets/${set.id}`, { token: member.token })).status).to.equal(200);
      const blind = await memberWithAccess(org, ws.id, 'custom', { runs: 'apply', variables: 'none' });
      expectError(await api('GET', `/varsets/${set.id}`, { token: blind.token }), 404);

      const user = await createUser();
      await joinOrg(org, user);
      const teamId = await createTeam(org);
      await ok('POST', `/teams/${teamId}/relationships/users`, { data: [{ type: 'users', id: user.username }] });
      await ok(
        'POST',
        '/team-projects',
        doc(
          'team-projects',
          { access: 'custom', 'workspace-access': { variables: 'none' } },
          { project: { data: { type: 'projects', id: project.id } }, team: { data: { type: 'teams', id: teamId } } },
        ),
      );
      expectError(await api('GET', `/varsets/${set.id}`, { token: user.token }), 404);
      expectError(await api('GET', `/workspaces/${ws.id}/vars`, { token: user.token }), 404);
    });
  });
});
