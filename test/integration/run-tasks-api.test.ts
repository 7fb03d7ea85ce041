import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { harness, secondAppForSuite } from '../helpers/harness.js';
import {
  countRows,
  createOrg,
  createTeam,
  createUser,
  createWorkspace,
  joinOrg,
  memberWithAccess,
  uniq,
} from '../helpers/fixtures.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startTaskIntegration, type TaskIntegration } from '../helpers/run-task-integration.js';
import { attachTask, createTask } from '../helpers/run-task-fixtures.js';

const taskRow = (id: string) => harness().rt.db('tasks').where({ id }).first();
const taskDoc = (attributes: Record<string, unknown>) => doc('tasks', attributes);
/** A valid create body for a task at `url` with a fresh name. */
const newTask = (url: string, extra: Record<string, unknown> = {}) =>
  taskDoc({ name: uniq('t'), url, category: 'task', ...extra });
const wsTaskDoc = (attributes: Record<string, unknown>, taskId?: string) =>
  doc('workspace-tasks', attributes, taskId ? { task: { data: { type: 'tasks', id: taskId } } } : undefined);

/** POST a task definition; `base` is '' for the test API or another app's API root. */
const postTask = (org: string, token: string, body: unknown, base = '') =>
  api('POST', `${base}/organizations/${org}/tasks`, { token, body });
/** POST a workspace attachment of `taskId`; `base` as for postTask. */
const postWsTask = (wsId: string, token: string, attributes: Record<string, unknown>, taskId?: string, base = '') =>
  api('POST', `${base}/workspaces/${wsId}/tasks`, { token, body: wsTaskDoc(attributes, taskId) });
const patchWsTask = (wsId: string, id: string, token: string, attributes: Record<string, unknown>) =>
  api('PATCH', `/workspaces/${wsId}/tasks/${id}`, { token, body: doc('workspace-tasks', attributes) });

describe('run tasks: definitions and workspace attachments', function () {
  this.timeout(60_000);
  let worker: WorkerProcess;
  let integration: TaskIntegration;
  const KEY = `hmac-${uniq('secret')}`;

  before(async () => {
    worker = spawnWorkers(['verification']);
    await workersReady(worker);
    integration = await startTaskIntegration(KEY);
  });

  after(async () => {
    await worker?.stop();
    await integration?.close();
  });

  describe('task definitions', () => {
    it('creates a task after the endpoint answers a signed test request; the HMAC key is write-only and sealed at rest', async () => {
      const org = await createOrg();
      const before = await countRows('tasks');
      const seen = integration.requests.length;
      const name = uniq('scanner');
      const res = await api('POST', `/organizations/${org.name}/tasks`, {
        token: org.owner.token,
        body: taskDoc({
          name,
          url: integration.url,
          description: 'scans plans',
          category: 'task',
          'hmac-key': KEY,
          enabled: true,
        }),
      });
      expect(res.status, res.text).to.equal(201);
      const data = res.body.data;
      expect(data.type).to.equal('tasks');
      expect(data.id).to.match(/^task-/);
      expect(data.attributes).to.include({
        name,
        url: integration.url,
        description: 'scans plans',
        category: 'task',
        enabled: true,
      });
      expect(data.attributes['hmac-key']).to.equal(null);
      expect(data.relationships.organization.data).to.deep.equal({ type: 'organizations', id: org.name });
      expect(data.relationships['workspace-tasks'].data).to.deep.equal([]);
      expect(await countRows('tasks')).to.equal(before + 1);

      // The endpoint check: one request, stage `test`, signed with the key, the documented headers.
      expect(integration.requests.length).to.equal(seen + 1);
      const check = integration.requests[seen];
      expect(check.body.stage).to.equal('test');
      expect(check.body.organization_name).to.equal(org.name);
      expect(check.signatureValid).to.equal(true);
      expect(check.headers['content-type']).to.equal('application/json');
      expect(check.headers['user-agent']).to.equal(`RLS/1.0 (+${harness().baseUrl}; RLS)`);

      const row = await taskRow(data.id);
      expect(row.hmac_key_sealed).to.be.a('string').and.not.include(KEY);
      expect(row.hmac_key_sealed).to.not.include(Buffer.from(KEY).toString('base64'));
      expect(row.hmac_key_sealed).to.not.include(Buffer.from(KEY).toString('hex'));

      const shown = await api('GET', `/tasks/${data.id}`, { token: org.owner.token });
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.data.attributes['hmac-key']).to.equal(null);
      expect(shown.body.data.attributes.enabled).to.equal(true);
    });

    it('defaults enabled to true and description to null, and keeps enabled a boolean', async () => {
      const org = await createOrg();
      const plain = await postTask(org.name, org.owner.token, newTask(integration.url));
      expect(plain.status, plain.text).to.equal(201);
      expect(plain.body.data.attributes).to.include({ enabled: true, description: null, 'hmac-key': null });
      expect((await taskRow(plain.body.data.id)).hmac_key_sealed).to.equal(null);
      const off = await postTask(org.name, org.owner.token, newTask(integration.url, { enabled: false }));
      expect(off.status, off.text).to.equal(201);
      expect(off.body.data.attributes.enabled).to.equal(false);
    });

    it('refuses with 422 and saves nothing: endpoint not answering 200, blocked address, invalid body', async () => {
      const org = await createOrg();
      const failing = await startTaskIntegration(null, () => 500);
      try {
        const tasks = await countRows('tasks');
        const refused = async (attributes: Record<string, unknown>, detail?: RegExp) => {
          const res = await api('POST', `/organizations/${org.name}/tasks`, {
            token: org.owner.token,
            body: taskDoc(attributes),
          });
          expectError(res, 422, detail);
          expect(await countRows('tasks'), JSON.stringify(attributes)).to.equal(tasks);
        };
        await refused({ name: uniq('t'), url: failing.url, category: 'task' }, /500/);
        expect(failing.requests).to.have.length(1);
        expect(failing.requests[0].body.stage).to.equal('test');
        await refused(
          { name: uniq('t'), url: 'http://169.254.169.254/latest/meta-data', category: 'task' },
          /not allowed/,
        );
        await refused({ name: uniq('t'), url: integration.url, category: 'other' });
        await refused({ name: uniq('t'), url: integration.url });
        await refused({ name: uniq('t'), url: integration.url, category: 'task', enabled: 'true' });
        await refused({ name: uniq('t'), url: 'ftp://example.test/x', category: 'task' });
        await refused({ name: 'has spaces', url: integration.url, category: 'task' });
        await refused({ url: integration.url, category: 'task' });
        await refused({ name: uniq('t'), category: 'task' });
        const wrongType = await postTask(
          org.name,
          org.owner.token,
          doc('workspace-tasks', newTask(integration.url).data.attributes),
        );
        expectError(wrongType, 422);
        expect(await countRows('tasks')).to.equal(tasks);
        const list = await api('GET', `/organizations/${org.name}/tasks`, { token: org.owner.token });
        expect(list.body.data).to.deep.equal([]);
      } finally {
        await failing.close();
      }
    });

    it('keeps names unique within an organization (422, nothing saved), not across organizations', async () => {
      const org = await createOrg();
      const name = uniq('dup');
      await createTask(org.name, org.owner.token, integration.url, { name });
      const tasks = await countRows('tasks');
      const again = await postTask(org.name, org.owner.token, newTask(integration.url, { name }));
      expectError(again, 422, /taken/);
      expect(await countRows('tasks')).to.equal(tasks);

      const other = await createOrg(org.owner);
      await createTask(other.name, org.owner.token, integration.url, { name });
      expect(await countRows('tasks')).to.equal(tasks + 1);

      const second = await createTask(org.name, org.owner.token, integration.url);
      const before = await taskRow(second);
      const rename = await api('PATCH', `/tasks/${second}`, { token: org.owner.token, body: taskDoc({ name }) });
      expectError(rename, 422, /taken/);
      expect(await taskRow(second)).to.deep.equal(before);
    });

    it('needs the manage-run-tasks permission to create, update and delete (404 otherwise)', async () => {
      const org = await createOrg();
      const taskId = await createTask(org.name, org.owner.token, integration.url);
      const member = await createUser();
      await joinOrg(org, member);
      const outsider = await createUser();
      const tasks = await countRows('tasks');
      const before = await taskRow(taskId);

      expectError(await postTask(org.name, member.token, newTask(integration.url)), 404);
      expectError(
        await api('PATCH', `/tasks/${taskId}`, { token: member.token, body: taskDoc({ description: 'changed' }) }),
        404,
      );
      expectError(await api('DELETE', `/tasks/${taskId}`, { token: member.token }), 404);
      expect(await countRows('tasks')).to.equal(tasks);
      expect(await taskRow(taskId)).to.deep.equal(before);
      // Members may read; outsiders see nothing.
      expect((await api('GET', `/organizations/${org.name}/tasks`, { token: member.token })).status).to.equal(200);
      expect((await api('GET', `/tasks/${taskId}`, { token: member.token })).status).to.equal(200);
      expectError(await api('GET', `/organizations/${org.name}/tasks`, { token: outsider.token }), 404);
      expectError(await api('GET', `/tasks/${taskId}`, { token: outsider.token }), 404);
      expectError(await postTask(org.name, outsider.token, newTask(integration.url)), 404);

      const team = await createTeam(org, { 'organization-access': { 'manage-run-tasks': true } });
      const members = { data: [{ type: 'users', id: member.username }] };
      const add = await api('POST', `/teams/${team}/relationships/users`, { token: org.owner.token, body: members });
      expect(add.status, add.text).to.equal(204);
      const mine = await createTask(org.name, member.token, integration.url);
      const patched = await api('PATCH', `/tasks/${taskId}`, {
        token: member.token,
        body: taskDoc({ description: 'by a manager' }),
      });
      expect(patched.status, patched.text).to.equal(200);
      expect((await api('DELETE', `/tasks/${mine}`, { token: member.token })).status).to.equal(204);
    });

    it('lists (paginated), shows and includes workspace tasks and their workspaces', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const first = await createTask(org.name, token, integration.url);
      const second = await createTask(org.name, token, integration.url);
      const ws = await createWorkspace(org);
      const wsTask = await attachTask(ws.id, token, first, { 'enforcement-level': 'advisory' });

      const list = await api('GET', `/organizations/${org.name}/tasks?include=workspace_tasks`, { token });
      expect(list.status, list.text).to.equal(200);
      expect(list.body.data.map((t: { id: string }) => t.id)).to.deep.equal([first, second]);
      expect(list.body.data[0].relationships['workspace-tasks'].data).to.deep.equal([
        { type: 'workspace-tasks', id: wsTask },
      ]);
      expect(list.body.data[1].relationships['workspace-tasks'].data).to.deep.equal([]);
      expect(list.body.included.map((i: { type: string; id: string }) => [i.type, i.id])).to.deep.equal([
        ['workspace-tasks', wsTask],
      ]);
      expect(list.body.meta.pagination['total-count']).to.equal(2);

      const page = await api('GET', `/organizations/${org.name}/tasks?page%5Bsize%5D=1&page%5Bnumber%5D=2`, { token });
      expect(page.status, page.text).to.equal(200);
      expect(page.body.data.map((t: { id: string }) => t.id)).to.deep.equal([second]);
      expect(page.body.meta.pagination).to.include({ 'current-page': 2, 'total-count': 2, 'total-pages': 2 });
      expect(page.body).to.not.have.property('included');

      const shown = await api('GET', `/tasks/${first}?include=workspace_tasks.workspace`, { token });
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.data.id).to.equal(first);
      expect(shown.body.included.map((i: { type: string; id: string }) => [i.type, i.id])).to.deep.equal([
        ['workspaces', ws.id],
      ]);
      const both = await api('GET', `/tasks/${first}?include=workspace_tasks,workspace_tasks.workspace`, { token });
      expect(both.body.included.map((i: { type: string }) => i.type).sort()).to.deep.equal([
        'workspace-tasks',
        'workspaces',
      ]);
      expectError(await api('GET', '/tasks/task-doesnotexist', { token }), 404);
    });

    it("names and includes only the attachments to workspaces the caller can see, with the caller's own permissions", async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const taskId = await createTask(org.name, token, integration.url);
      const [visible, hidden] = [await createWorkspace(org), await createWorkspace(org)];
      const seen = await attachTask(visible.id, token, taskId, { 'enforcement-level': 'advisory' });
      const unseen = await attachTask(hidden.id, token, taskId, { 'enforcement-level': 'advisory' });
      const reader = await memberWithAccess(org, visible.id, 'read');

      const path = `/tasks/${taskId}?include=workspace_tasks,workspace_tasks.workspace`;
      const asOwner = await api('GET', path, { token });
      expect(asOwner.body.data.relationships['workspace-tasks'].data.map((l: { id: string }) => l.id)).to.deep.equal([
        seen,
        unseen,
      ]);
      const asReader = await api('GET', path, { token: reader.token });
      expect(asReader.status, asReader.text).to.equal(200);
      expect(asReader.body.data.relationships['workspace-tasks'].data).to.deep.equal([
        { type: 'workspace-tasks', id: seen },
      ]);
      expect(asReader.body.included.map((i: { type: string; id: string }) => [i.type, i.id])).to.deep.equal([
        ['workspace-tasks', seen],
        ['workspaces', visible.id],
      ]);
      const ws = asReader.body.included.find((i: { type: string }) => i.type === 'workspaces');
      expect(ws.attributes.permissions['can-update']).to.equal(false);
      const listed = await api('GET', `/organizations/${org.name}/tasks?include=workspace_tasks.workspace`, {
        token: reader.token,
      });
      expect(listed.body.included.map((i: { id: string }) => i.id)).to.deep.equal([visible.id]);
      expect(JSON.stringify(listed.body)).to.not.include(hidden.id);
    });

    it('updates only the attributes sent; a new URL is verified first (with the new key), and a refused one changes nothing', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const taskId = await createTask(org.name, token, integration.url, { description: 'before', 'hmac-key': KEY });
      const original = await taskRow(taskId);

      const desc = await api('PATCH', `/tasks/${taskId}`, {
        token,
        body: taskDoc({ description: 'after', enabled: false }),
      });
      expect(desc.status, desc.text).to.equal(200);
      expect(desc.body.data.attributes).to.include({
        description: 'after',
        enabled: false,
        name: original.name,
        url: integration.url,
      });
      expect((await taskRow(taskId)).hmac_key_sealed).to.equal(original.hmac_key_sealed);

      const failing = await startTaskIntegration(null, () => 500);
      const newKey = `hmac-${uniq('rotated')}`;
      const moved = await startTaskIntegration(newKey);
      try {
        const before = await taskRow(taskId);
        const refused = await api('PATCH', `/tasks/${taskId}`, {
          token,
          body: taskDoc({ url: failing.url, description: 'not saved' }),
        });
        expectError(refused, 422, /500/);
        expect(failing.requests).to.have.length(1);
        expect(await taskRow(taskId)).to.deep.equal(before);

        const ok = await api('PATCH', `/tasks/${taskId}`, {
          token,
          body: taskDoc({ url: moved.url, 'hmac-key': newKey }),
        });
        expect(ok.status, ok.text).to.equal(200);
        expect(ok.body.data.attributes).to.include({ url: moved.url, description: 'after', 'hmac-key': null });
        expect(moved.requests).to.have.length(1);
        expect(moved.requests[0].signatureValid, 'the check is signed with the new key').to.equal(true);
        const row = await taskRow(taskId);
        expect(row.hmac_key_sealed).to.be.a('string').and.not.equal(original.hmac_key_sealed);
        expect(row.hmac_key_sealed).to.not.include(newKey);
      } finally {
        await failing.close();
        await moved.close();
      }

      const cleared = await api('PATCH', `/tasks/${taskId}`, { token, body: taskDoc({ 'hmac-key': null }) });
      expect(cleared.status, cleared.text).to.equal(200);
      expect((await taskRow(taskId)).hmac_key_sealed).to.equal(null);

      const before = await taskRow(taskId);
      for (const attrs of [{ category: 'other' }, { enabled: 'false' }, { url: 'not a url' }, { name: '' }]) {
        expectError(await api('PATCH', `/tasks/${taskId}`, { token, body: taskDoc(attrs) }), 422);
      }
      expect(await taskRow(taskId)).to.deep.equal(before);
    });

    it('deletes a task with its workspace attachments', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const taskId = await createTask(org.name, token, integration.url);
      const ws = await createWorkspace(org);
      await attachTask(ws.id, token, taskId, { 'enforcement-level': 'mandatory' });
      const attachments = async () => {
        const [{ count }] = await harness()
          .rt.db('workspace_tasks')
          .where({ task_id: taskId })
          .count<{ count: number }[]>({ count: '*' });
        return Number(count);
      };
      expect(await attachments()).to.equal(1);
      const del = await api('DELETE', `/tasks/${taskId}`, { token });
      expect(del.status, del.text).to.equal(204);
      expectError(await api('GET', `/tasks/${taskId}`, { token }), 404);
      expectError(await api('DELETE', `/tasks/${taskId}`, { token }), 404);
      expect(await taskRow(taskId)).to.equal(undefined);
      expect(await attachments()).to.equal(0);
      const listed = await api('GET', `/workspaces/${ws.id}/tasks`, { token });
      expect(listed.body.data).to.deep.equal([]);
    });
  });

  describe('workspace attachments', () => {
    it('creates (201 with the document), lists, shows, updates and deletes an attachment', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const taskId = await createTask(org.name, token, integration.url);
      const ws = await createWorkspace(org);

      const created = await postWsTask(
        ws.id,
        token,
        { 'enforcement-level': 'mandatory', stages: ['pre_plan', 'post_plan'] },
        taskId,
      );
      expect(created.status, created.text).to.equal(201);
      const data = created.body.data;
      expect(data.type).to.equal('workspace-tasks');
      expect(data.id).to.match(/^wstask-/);
      expect(data.attributes).to.include({ 'enforcement-level': 'mandatory', stage: 'pre_plan' });
      expect(data.attributes.stages).to.deep.equal(['pre_plan', 'post_plan']);
      expect(data.relationships.task.data).to.deep.equal({ type: 'tasks', id: taskId });
      expect(data.relationships.workspace.data).to.deep.equal({ type: 'workspaces', id: ws.id });

      const list = await api('GET', `/workspaces/${ws.id}/tasks`, { token });
      expect(list.status, list.text).to.equal(200);
      expect(list.body.data.map((w: { id: string }) => w.id)).to.deep.equal([data.id]);
      expect(list.body.meta.pagination['total-count']).to.equal(1);
      const shown = await api('GET', `/workspaces/${ws.id}/tasks/${data.id}`, { token });
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.data).to.deep.equal(data);

      const patched = await patchWsTask(ws.id, data.id, token, { 'enforcement-level': 'advisory' });
      expect(patched.status, patched.text).to.equal(200);
      expect(patched.body.data.attributes['enforcement-level']).to.equal('advisory');
      expect(patched.body.data.attributes.stages, 'omitted stages are kept').to.deep.equal(['pre_plan', 'post_plan']);
      const restaged = await patchWsTask(ws.id, data.id, token, { stages: ['post_apply'] });
      expect(restaged.status, restaged.text).to.equal(200);
      expect(restaged.body.data.attributes).to.include({ 'enforcement-level': 'advisory', stage: 'post_apply' });
      expect(restaged.body.data.attributes.stages).to.deep.equal(['post_apply']);
      const legacy = await patchWsTask(ws.id, data.id, token, { stage: 'pre_apply' });
      expect(legacy.status, legacy.text).to.equal(200);
      expect(legacy.body.data.attributes.stages).to.deep.equal(['pre_apply']);

      const del = await api('DELETE', `/workspaces/${ws.id}/tasks/${data.id}`, { token });
      expect(del.status, del.text).to.equal(204);
      expectError(await api('GET', `/workspaces/${ws.id}/tasks/${data.id}`, { token }), 404);
      expect((await api('GET', `/workspaces/${ws.id}/tasks`, { token })).body.data).to.deep.equal([]);
      expect((await api('GET', `/tasks/${taskId}`, { token })).status, 'the task itself stays').to.equal(200);
    });

    it('accepts the deprecated single `stage`, and defaults to post_plan', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const taskId = await createTask(org.name, token, integration.url);
      const legacyWs = await createWorkspace(org);
      const legacy = await postWsTask(
        legacyWs.id,
        token,
        { 'enforcement-level': 'advisory', stage: 'pre_apply' },
        taskId,
      );
      expect(legacy.status, legacy.text).to.equal(201);
      expect(legacy.body.data.attributes).to.include({ stage: 'pre_apply', 'enforcement-level': 'advisory' });
      expect(legacy.body.data.attributes.stages).to.deep.equal(['pre_apply']);
      const plainWs = await createWorkspace(org);
      const plain = await postWsTask(plainWs.id, token, { 'enforcement-level': 'advisory' }, taskId);
      expect(plain.status, plain.text).to.equal(201);
      expect(plain.body.data.attributes.stage).to.equal('post_plan');
      expect(plain.body.data.attributes.stages).to.deep.equal(['post_plan']);
    });

    it('refuses duplicates and invalid attachments without writing anything', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const taskId = await createTask(org.name, token, integration.url);
      const ws = await createWorkspace(org);
      const wsTask = await attachTask(ws.id, token, taskId, { 'enforcement-level': 'mandatory' });
      const foreign = await createOrg(org.owner);
      const foreignTask = await createTask(foreign.name, token, integration.url);
      const reader = await createUser();
      await joinOrg(org, reader);
      const rows = await countRows('workspace_tasks');
      const refused = async (status: number, body: unknown, as = token, detail?: RegExp) => {
        const res = await api('POST', `/workspaces/${ws.id}/tasks`, { token: as, body });
        expectError(res, status, detail);
        expect(await countRows('workspace_tasks'), JSON.stringify(body)).to.equal(rows);
      };
      await refused(422, wsTaskDoc({ 'enforcement-level': 'advisory' }, taskId), token, /already attached/);
      await refused(422, wsTaskDoc({ 'enforcement-level': 'blocking' }, taskId));
      await refused(422, wsTaskDoc({ stages: ['post_plan'] }, taskId));
      await refused(422, wsTaskDoc({ 'enforcement-level': 'advisory', stages: ['mid_plan'] }, taskId));
      await refused(422, wsTaskDoc({ 'enforcement-level': 'advisory', stages: [] }, taskId));
      await refused(422, wsTaskDoc({ 'enforcement-level': 'advisory', stage: 'sometime' }, taskId));
      await refused(422, wsTaskDoc({ 'enforcement-level': 'advisory' }));
      await refused(404, wsTaskDoc({ 'enforcement-level': 'advisory' }, foreignTask));
      await refused(404, wsTaskDoc({ 'enforcement-level': 'advisory' }, 'task-doesnotexist'));
      // Attaching needs admin access to the workspace.
      await refused(404, wsTaskDoc({ 'enforcement-level': 'advisory' }, taskId), reader.token);

      const before = await api('GET', `/workspaces/${ws.id}/tasks/${wsTask}`, { token });
      for (const attrs of [
        { 'enforcement-level': 'strict' },
        { stages: ['pre_plan', 'pre_plan'] },
        { stages: 'pre_plan' },
      ]) {
        expectError(
          await api('PATCH', `/workspaces/${ws.id}/tasks/${wsTask}`, { token, body: doc('workspace-tasks', attrs) }),
          422,
        );
      }
      expectError(await patchWsTask(ws.id, wsTask, reader.token, { 'enforcement-level': 'advisory' }), 404);
      expectError(await api('DELETE', `/workspaces/${ws.id}/tasks/${wsTask}`, { token: reader.token }), 404);
      // The attachment is addressed through its own workspace only.
      const otherWs = await createWorkspace(org);
      expectError(await api('GET', `/workspaces/${otherWs.id}/tasks/${wsTask}`, { token }), 404);
      expectError(await api('DELETE', `/workspaces/${otherWs.id}/tasks/${wsTask}`, { token }), 404);
      const after = await api('GET', `/workspaces/${ws.id}/tasks/${wsTask}`, { token });
      expect(after.body).to.deep.equal(before.body);
      expect(await countRows('workspace_tasks')).to.equal(rows);
    });
  });

  describe('free edition limits', () => {
    const free = secondAppForSuite({ EDITION: 'free' });

    it('allows one task definition per organization (422 beyond, nothing saved)', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const first = await postTask(org.name, token, newTask(integration.url), free.api);
      expect(first.status, first.text).to.equal(201);
      const tasks = await countRows('tasks');
      const seen = integration.requests.length;
      const second = await postTask(org.name, token, newTask(integration.url), free.api);
      expectError(second, 422, /free edition/);
      expect(await countRows('tasks')).to.equal(tasks);
      expect(integration.requests.length, 'refused before any endpoint check').to.equal(seen);
      // The limit belongs to the edition: the same request on the self-hosted API succeeds.
      await createTask(org.name, token, integration.url);
      expect(await countRows('tasks')).to.equal(tasks + 1);
    });

    it('holds the one-task limit under concurrent creates', async () => {
      const org = await createOrg();
      const slow = await startTaskIntegration(null, async () => {
        await new Promise((r) => setTimeout(r, 300));
        return 200;
      });
      try {
        const tasks = await countRows('tasks');
        const results = await Promise.all(
          [0, 1, 2].map(() => postTask(org.name, org.owner.token, newTask(slow.url), free.api)),
        );
        expect(results.map((r) => r.status).sort()).to.deep.equal([201, 422, 422]);
        for (const r of results.filter((x) => x.status === 422)) expectError(r, 422, /free edition/);
        expect(await countRows('tasks')).to.equal(tasks + 1);
      } finally {
        await slow.close();
      }
    });

    it('allows a task on at most ten workspaces (422 beyond, nothing saved)', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const created = await postTask(org.name, token, newTask(integration.url), free.api);
      expect(created.status, created.text).to.equal(201);
      const taskId = created.body.data.id;
      const workspaces = [];
      for (let i = 0; i < 11; i++) workspaces.push(await createWorkspace(org));
      for (const ws of workspaces.slice(0, 10)) {
        const res = await postWsTask(ws.id, token, { 'enforcement-level': 'advisory' }, taskId, free.api);
        expect(res.status, res.text).to.equal(201);
      }
      const rows = await countRows('workspace_tasks');
      const eleventh = await postWsTask(
        workspaces[10].id,
        token,
        { 'enforcement-level': 'advisory' },
        taskId,
        free.api,
      );
      expectError(eleventh, 422, /ten|10/);
      expect(await countRows('workspace_tasks')).to.equal(rows);
      const listed = await api('GET', `${free.api}/workspaces/${workspaces[10].id}/tasks`, { token });
      expect(listed.body.data).to.deep.equal([]);
      // Detaching one makes room again.
      const first = await api('GET', `${free.api}/workspaces/${workspaces[0].id}/tasks`, { token });
      const detach = await api('DELETE', `${free.api}/workspaces/${workspaces[0].id}/tasks/${first.body.data[0].id}`, {
        token,
      });
      expect(detach.status, detach.text).to.equal(204);
      const retry = await postWsTask(workspaces[10].id, token, { 'enforcement-level': 'advisory' }, taskId, free.api);
      expect(retry.status, retry.text).to.equal(201);
    });
  });
});
