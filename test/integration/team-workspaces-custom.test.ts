import { expect } from 'chai';
import { createHash, randomUUID } from 'node:crypto';
import { api, doc, expectError } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import {
  countRows,
  createCv,
  createOrg,
  createTeam,
  createWorkspace,
  memberWithAccess,
  putArchive,
  tarGz,
  type TestUser,
} from '../helpers/fixtures.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startTaskIntegration, type TaskIntegration } from '../helpers/run-task-integration.js';
import { createTask } from '../helpers/run-task-fixtures.js';

type Org = Awaited<ReturnType<typeof createOrg>>;

const twRow = (id: string) => harness().rt.db('team_workspaces').where({ id }).first();

/** A team-workspaces document as go-tfe's TeamAccessAddOptions marshals it. */
const addBody = (attributes: Record<string, unknown>, workspaceId: string, teamId: string) =>
  doc('team-workspaces', attributes, {
    workspace: { data: { type: 'workspaces', id: workspaceId } },
    team: { data: { type: 'teams', id: teamId } },
  });

const add = (org: Org, attributes: Record<string, unknown>, workspaceId: string, teamId: string) =>
  api('POST', '/team-workspaces', { token: org.owner.token, body: addBody(attributes, workspaceId, teamId) });
const update = (org: Org, id: string, attributes: Record<string, unknown>) =>
  api('PATCH', `/team-workspaces/${id}`, { token: org.owner.token, body: doc('team-workspaces', attributes) });

const permissionsOf = (res: { body: { data: { attributes: Record<string, unknown> } } }) => {
  const { access: _access, ...rest } = res.body.data.attributes;
  return rest;
};

const READ_OUTPUTS = {
  runs: 'read',
  variables: 'read',
  'state-versions': 'read-outputs',
  'sentinel-mocks': 'none',
  'workspace-locking': false,
  'run-tasks': false,
};

describe('team-workspaces: custom access and the permissions each access gives', function () {
  this.timeout(60_000);
  let org: Org;

  before(async () => {
    org = await createOrg();
  });

  describe('as go-tfe and the tfe provider send it', () => {
    it('answers each fixed level with the permissions it implies', async () => {
      const expected = {
        read: READ_OUTPUTS,
        plan: { ...READ_OUTPUTS, runs: 'plan' },
        write: {
          runs: 'apply',
          variables: 'write',
          'state-versions': 'write',
          'sentinel-mocks': 'read',
          'workspace-locking': true,
          'run-tasks': false,
        },
        admin: {
          runs: 'apply',
          variables: 'write',
          'state-versions': 'write',
          'sentinel-mocks': 'read',
          'workspace-locking': true,
          'run-tasks': true,
        },
      };
      for (const [access, permissions] of Object.entries(expected)) {
        const res = await add(org, { access }, (await createWorkspace(org)).id, await createTeam(org));
        expect(res.status, res.text).to.equal(201);
        expect(res.body.data.attributes.access).to.equal(access);
        expect(permissionsOf(res), access).to.deep.equal(permissions);
        expect(await twRow(res.body.data.id)).to.include({ access, permissions: null });
      }
    });

    it("creates a custom access with the permissions given and TFE's defaults for the rest, and reads it back", async () => {
      const ws = await createWorkspace(org);
      const created = await add(
        org,
        { access: 'custom', runs: 'read', 'state-versions': 'none' },
        ws.id,
        await createTeam(org),
      );
      expect(created.status, created.text).to.equal(201);
      const defaults = {
        runs: 'read',
        variables: 'none',
        'state-versions': 'none',
        'sentinel-mocks': 'none',
        'workspace-locking': false,
        'run-tasks': false,
      };
      expect(created.body.data.attributes.access).to.equal('custom');
      expect(permissionsOf(created)).to.deep.equal(defaults);
      const read = await api('GET', `/team-workspaces/${created.body.data.id}`, { token: org.owner.token });
      expect(read.status, read.text).to.equal(200);
      expect(read.body.data.attributes).to.deep.equal({ access: 'custom', ...defaults });
      expect((await twRow(created.body.data.id)).permissions).to.deep.equal(defaults);
    });

    it('refuses a permission a fixed level does not imply with 422, worded as TFE does, creating nothing', async () => {
      const ws = await createWorkspace(org);
      const teamId = await createTeam(org);
      const before = await countRows('team_workspaces');
      const res = await add(org, { access: 'read', runs: 'apply' }, ws.id, teamId);
      expectError(res, 422);
      expect(res.body.errors[0]).to.deep.include({
        title: 'invalid attribute',
        detail: "Runs is read-only when access level is 'read'; use the 'custom' access level to set this attribute.",
        source: { pointer: '/data/attributes/runs' },
      });
      const locking = await add(org, { access: 'plan', 'workspace-locking': true }, ws.id, teamId);
      expectError(locking, 422, /Workspace locking is read-only when access level is 'plan'/);
      expect(await countRows('team_workspaces')).to.equal(before);
      // What the level implies anyway may be repeated.
      const same = await add(org, { access: 'write', runs: 'apply', 'workspace-locking': true }, ws.id, teamId);
      expect(same.status, same.text).to.equal(201);
    });

    it("refuses permission values outside TFE's with 422 naming the attribute", async () => {
      const ws = await createWorkspace(org);
      const teamId = await createTeam(org);
      for (const [attribute, value] of [
        ['runs', 'destroy'],
        ['variables', 'all'],
        ['state-versions', 'read-all'],
        ['sentinel-mocks', 'write'],
        ['workspace-locking', 'yes'],
        ['run-tasks', 1],
      ] as const) {
        const res = await add(org, { access: 'custom', [attribute]: value }, ws.id, teamId);
        expectError(res, 422);
        expect(res.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer)).to.include(
          `/data/attributes/${attribute}`,
        );
      }
      expect(await harness().rt.db('team_workspaces').where({ team_id: teamId })).to.deep.equal([]);
    });

    it('updates to custom keeping the permissions the earlier level gave, then changes one at a time, then back to a level', async () => {
      const created = await add(org, { access: 'admin' }, (await createWorkspace(org)).id, await createTeam(org));
      const id = created.body.data.id;
      const toCustom = await update(org, id, { access: 'custom', runs: 'plan' });
      expect(toCustom.status, toCustom.text).to.equal(200);
      expect(toCustom.body.data.attributes).to.deep.equal({
        access: 'custom',
        runs: 'plan',
        variables: 'write',
        'state-versions': 'write',
        'sentinel-mocks': 'read',
        'workspace-locking': true,
        'run-tasks': true,
      });
      // A custom access changes without naming its level again.
      const narrower = await update(org, id, { variables: 'none', 'run-tasks': false });
      expect(narrower.status, narrower.text).to.equal(200);
      expect(narrower.body.data.attributes).to.include({
        access: 'custom',
        runs: 'plan',
        variables: 'none',
        'run-tasks': false,
        'workspace-locking': true,
      });
      const back = await update(org, id, { access: 'read' });
      expect(back.status, back.text).to.equal(200);
      expect(back.body.data.attributes).to.deep.equal({ access: 'read', ...READ_OUTPUTS });
      expect(await twRow(id)).to.include({ access: 'read', permissions: null });
      // A fixed level's permissions are not changed on their own.
      const refused = await update(org, id, { 'state-versions': 'write' });
      expectError(refused, 422, /State versions is read-only when access level is 'read'/);
      expect(await twRow(id)).to.include({ access: 'read', permissions: null });
    });
  });

  describe('what a custom access lets its team do', () => {
    let ws: { id: string; name: string };
    let cvId: string;

    before(async () => {
      ws = await createWorkspace(org);
      const cv = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false });
      expect(
        (await putArchive(cv.uploadUrl, await tarGz({ 'main.tf': 'output "ok" { value = true }\n' }))).status,
      ).to.equal(200);
      cvId = cv.id;
    });

    const runBody = (attrs: Record<string, unknown> = {}) =>
      doc('runs', attrs, {
        workspace: { data: { type: 'workspaces', id: ws.id } },
        'configuration-version': { data: { type: 'configuration-versions', id: cvId } },
      });
    const permissions = async (user: TestUser) => {
      const res = await api('GET', `/workspaces/${ws.id}`, { token: user.token });
      expect(res.status, res.text).to.equal(200);
      return res.body.data.attributes.permissions as Record<string, boolean>;
    };

    it('runs "read": reads the workspace and its runs, queues no run and uploads no configuration', async () => {
      const user = await memberWithAccess(org, ws.id, 'custom', { runs: 'read', variables: 'write' });
      expect(await permissions(user)).to.include({
        'can-queue-run': false,
        'can-queue-apply': false,
        'can-update-variable': true,
        'can-update': false,
      });
      const before = await countRows('runs');
      expectError(await api('POST', '/runs', { token: user.token, body: runBody({ 'plan-only': true }) }), 404);
      expectError(
        await api('POST', `/workspaces/${ws.id}/configuration-versions`, {
          token: user.token,
          body: doc('configuration-versions', {}),
        }),
        404,
      );
      expect(await countRows('runs')).to.equal(before);
      expect((await api('GET', `/workspaces/${ws.id}/runs`, { token: user.token })).status).to.equal(200);
    });

    it('runs "plan": queues plan-only runs, never one that applies', async () => {
      const user = await memberWithAccess(org, ws.id, 'custom', { runs: 'plan' });
      expect(await permissions(user)).to.include({ 'can-queue-run': true, 'can-queue-apply': false });
      const before = await countRows('runs');
      expectError(await api('POST', '/runs', { token: user.token, body: runBody({ 'plan-only': false }) }), 404);
      expect(await countRows('runs')).to.equal(before);
      const planned = await api('POST', '/runs', { token: user.token, body: runBody({ 'plan-only': true }) });
      expect(planned.status, planned.text).to.equal(201);
      expect(planned.body.data.attributes.permissions).to.include({ 'can-apply': false, 'can-cancel': true });
      // A configuration it uploads can only be speculative.
      const cv = await api('POST', `/workspaces/${ws.id}/configuration-versions`, {
        token: user.token,
        body: doc('configuration-versions', {}),
      });
      expect(cv.status, cv.text).to.equal(201);
      expect(cv.body.data.attributes.speculative).to.equal(true);
    });

    it('variables "none": the workspace\'s variables and variable sets are hidden (404); "read" lists them; "write" changes them', async () => {
      const key = `k_${randomUUID().slice(0, 8)}`;
      const made = await api('POST', `/workspaces/${ws.id}/vars`, {
        token: org.owner.token,
        body: doc('vars', { key, value: 'v', category: 'terraform' }),
      });
      expect(made.status, made.text).to.equal(201);
      const none = await memberWithAccess(org, ws.id, 'custom', { runs: 'apply', variables: 'none' });
      expect(await permissions(none)).to.include({
        'can-read-variable': false,
        'can-update-variable': false,
        'can-queue-apply': true,
      });
      expectError(await api('GET', `/workspaces/${ws.id}/vars`, { token: none.token }), 404);
      expectError(await api('GET', `/workspaces/${ws.id}/vars/${made.body.data.id}`, { token: none.token }), 404);
      expectError(
        await api('GET', `/vars?filter[organization][name]=${org.name}&filter[workspace][name]=${ws.name}`, {
          token: none.token,
        }),
        404,
      );
      expectError(await api('GET', `/workspaces/${ws.id}/varsets`, { token: none.token }), 404);

      const reader = await memberWithAccess(org, ws.id, 'custom', { variables: 'read' });
      const listed = await api('GET', `/workspaces/${ws.id}/vars`, { token: reader.token });
      expect(listed.status, listed.text).to.equal(200);
      expect(listed.body.data.map((v: { attributes: { key: string } }) => v.attributes.key)).to.include(key);
      const before = await countRows('variables');
      expectError(
        await api('POST', `/workspaces/${ws.id}/vars`, {
          token: reader.token,
          body: doc('vars', { key: `${key}_r`, value: 'v', category: 'env' }),
        }),
        404,
      );
      expectError(
        await api('PATCH', `/workspaces/${ws.id}/vars/${made.body.data.id}`, {
          token: reader.token,
          body: doc('vars', { value: 'changed' }),
        }),
        404,
      );
      expect(await countRows('variables')).to.equal(before);

      const writer = await memberWithAccess(org, ws.id, 'custom', { variables: 'write' });
      const written = await api('POST', `/workspaces/${ws.id}/vars`, {
        token: writer.token,
        body: doc('vars', { key: `${key}_w`, value: 'v', category: 'env' }),
      });
      expect(written.status, written.text).to.equal(201);
    });

    it('state-versions "none" hides states and outputs; "read-outputs" shows outputs only; "read" downloads states; "write" creates them', async () => {
      const target = await createWorkspace(org);
      const state = Buffer.from(
        JSON.stringify({
          version: 4,
          terraform_version: '1.11.4',
          serial: 1,
          lineage: randomUUID(),
          outputs: {
            shown: { value: 'plain', type: 'string' },
            hidden: { value: 'hunter2', type: 'string', sensitive: true },
          },
          resources: [],
          check_results: null,
        }),
      );
      const md5 = createHash('md5').update(state).digest('hex');
      expect(
        (await api('POST', `/workspaces/${target.id}/actions/lock`, { token: org.owner.token, body: {} })).status,
      ).to.equal(200);
      const pushed = await api('POST', `/workspaces/${target.id}/state-versions`, {
        token: org.owner.token,
        body: doc('state-versions', {
          serial: 1,
          md5,
          state: state.toString('base64'),
          lineage: JSON.parse(state.toString()).lineage,
        }),
      });
      expect(pushed.status, pushed.text).to.equal(201);
      expect(
        (await api('POST', `/workspaces/${target.id}/actions/unlock`, { token: org.owner.token, body: {} })).status,
      ).to.equal(200);
      const svId = pushed.body.data.id;

      const none = await memberWithAccess(org, target.id, 'custom', { 'state-versions': 'none' });
      for (const path of [
        `/workspaces/${target.id}/current-state-version`,
        `/workspaces/${target.id}/state-versions`,
        `/state-versions/${svId}`,
        `/state-versions/${svId}/outputs`,
        `/workspaces/${target.id}/current-state-version-outputs`,
      ]) {
        expectError(await api('GET', path, { token: none.token }), 404);
      }
      const withOutputs = await api('GET', `/workspaces/${target.id}?include=outputs`, { token: none.token });
      expect(withOutputs.status, withOutputs.text).to.equal(200);
      expect(withOutputs.body.included ?? []).to.deep.equal([]);
      expect(withOutputs.body.data.attributes.permissions).to.include({
        'can-read-state-versions': false,
        'can-read-state-outputs': false,
      });

      const outputsOnly = await memberWithAccess(org, target.id, 'custom', { 'state-versions': 'read-outputs' });
      const shown = await api('GET', `/state-versions/${svId}?include=outputs`, { token: outputsOnly.token });
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.data.attributes['hosted-state-download-url']).to.equal(null);
      expect(shown.text).not.to.include('hunter2');

      const whole = await memberWithAccess(org, target.id, 'custom', { 'state-versions': 'read' });
      const download = await api('GET', `/state-versions/${svId}`, { token: whole.token });
      expect(download.body.data.attributes['hosted-state-download-url']).to.be.a('string');
      const secret = download.body.included.find(
        (o: { attributes: { name: string } }) => o.attributes.name === 'hidden',
      );
      expect(
        (await api('GET', `/state-version-outputs/${secret.id}`, { token: whole.token })).body.data.attributes.value,
      ).to.equal('hunter2');
      // Reading whole states is not writing them.
      expectError(
        await api('POST', `/workspaces/${target.id}/state-versions`, {
          token: whole.token,
          body: doc('state-versions', { serial: 2, md5 }),
        }),
        404,
      );
      expect(
        (await api('GET', `/workspaces/${target.id}`, { token: whole.token })).body.data.attributes.permissions,
      ).to.include({ 'can-read-state-versions': true, 'can-create-state-versions': false });
    });

    it('workspace-locking: locks and unlocks only with it, whatever the runs permission', async () => {
      const target = await createWorkspace(org);
      const applier = await memberWithAccess(org, target.id, 'custom', { runs: 'apply', 'workspace-locking': false });
      expectError(await api('POST', `/workspaces/${target.id}/actions/lock`, { token: applier.token, body: {} }), 404);
      expect((await harness().rt.db('workspaces').where({ id: target.id }).first()).locked).to.equal(false);
      const locker = await memberWithAccess(org, target.id, 'custom', { runs: 'read', 'workspace-locking': true });
      const locked = await api('POST', `/workspaces/${target.id}/actions/lock`, { token: locker.token, body: {} });
      expect(locked.status, locked.text).to.equal(200);
      expect(locked.body.data.attributes.permissions).to.include({
        'can-lock': true,
        'can-unlock': true,
        'can-force-unlock': false,
      });
      expect(
        (await api('POST', `/workspaces/${target.id}/actions/unlock`, { token: locker.token, body: {} })).status,
      ).to.equal(200);
    });

    it('never administers the workspace: no settings, no team access, no deletion', async () => {
      const target = await createWorkspace(org);
      const user = await memberWithAccess(org, target.id, 'custom', {
        runs: 'apply',
        variables: 'write',
        'state-versions': 'write',
        'sentinel-mocks': 'read',
        'workspace-locking': true,
        'run-tasks': true,
      });
      const before = await harness().rt.db('workspaces').where({ id: target.id }).first();
      expect(
        (await api('GET', `/workspaces/${target.id}`, { token: user.token })).body.data.attributes.permissions,
      ).to.include({ 'can-update': false, 'can-destroy': false, 'can-queue-apply': true });
      expectError(
        await api('PATCH', `/workspaces/${target.id}`, {
          token: user.token,
          body: doc('workspaces', { description: 'x' }),
        }),
        404,
      );
      expectError(await api('GET', `/team-workspaces?filter[workspace][id]=${target.id}`, { token: user.token }), 404);
      expectError(await api('DELETE', `/workspaces/${target.id}`, { token: user.token }), 404);
      expect(await harness().rt.db('workspaces').where({ id: target.id }).first()).to.deep.equal(before);
    });

    it('takes the stronger of each permission over a custom and a fixed access of two teams', async () => {
      const target = await createWorkspace(org);
      const user = await memberWithAccess(org, target.id, 'custom', { runs: 'read', variables: 'write' });
      const team = await createTeam(org);
      expect(
        (
          await api('POST', `/teams/${team}/relationships/users`, {
            token: org.owner.token,
            body: { data: [{ type: 'users', id: user.username }] },
          })
        ).status,
      ).to.equal(204);
      expect((await add(org, { access: 'plan' }, target.id, team)).status).to.equal(201);
      const p = (await api('GET', `/workspaces/${target.id}`, { token: user.token })).body.data.attributes.permissions;
      expect(p).to.include({
        'can-queue-run': true,
        'can-queue-apply': false,
        'can-update-variable': true,
        'can-lock': false,
      });
    });
  });

  describe('run-tasks', () => {
    let worker: WorkerProcess;
    let integration: TaskIntegration;

    before(async () => {
      worker = spawnWorkers(['verification']);
      await workersReady(worker);
      integration = await startTaskIntegration(null);
    });

    after(async () => {
      await worker.stop();
      await integration.close();
    });

    it('attaches and detaches run tasks only with the run-tasks permission', async () => {
      const target = await createWorkspace(org);
      const taskId = await createTask(org.name, org.owner.token, integration.url);
      const attach = (token: string) =>
        api('POST', `/workspaces/${target.id}/tasks`, {
          token,
          body: doc(
            'workspace-tasks',
            { 'enforcement-level': 'advisory' },
            { task: { data: { type: 'tasks', id: taskId } } },
          ),
        });
      const without = await memberWithAccess(org, target.id, 'custom', { runs: 'apply', 'run-tasks': false });
      expectError(await attach(without.token), 404);
      expect((await api('GET', `/workspaces/${target.id}/tasks`, { token: without.token })).status).to.equal(200);
      const withIt = await memberWithAccess(org, target.id, 'custom', { 'run-tasks': true });
      expect(
        (await api('GET', `/workspaces/${target.id}`, { token: withIt.token })).body.data.attributes.permissions[
          'can-manage-run-tasks'
        ],
      ).to.equal(true);
      const attached = await attach(withIt.token);
      expect(attached.status, attached.text).to.equal(201);
      expectError(
        await api('DELETE', `/workspaces/${target.id}/tasks/${attached.body.data.id}`, { token: without.token }),
        404,
      );
      expect(
        (await api('DELETE', `/workspaces/${target.id}/tasks/${attached.body.data.id}`, { token: withIt.token }))
          .status,
      ).to.equal(204);
    });
  });
});
