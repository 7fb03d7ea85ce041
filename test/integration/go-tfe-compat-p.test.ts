import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { createOrg, createWorkspace, uniq } from '../helpers/fixtures.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startTaskIntegration, type TaskIntegration } from '../helpers/run-task-integration.js';
import { attachTask, SIMPLE_CONFIG, stagesOfRun } from '../helpers/run-task-fixtures.js';
import { startRun, uploadConfig } from '../helpers/terraform.js';

type Org = Awaited<ReturnType<typeof createOrg>>;

/** go-tfe's RunTaskCreateOptions as it marshals them (description always sent, global-configuration nested). */
const runTaskCreate = (url: string, global?: Record<string, unknown>) =>
  doc('tasks', {
    name: uniq('tst-runtask'),
    url,
    description: 'A Run Task Description',
    category: 'task',
    enabled: true,
    ...(global ? { 'global-configuration': global } : {}),
  });

/** Requests as go-tfe sends them, and what its integration tests assert about the answers. */
describe('go-tfe compatibility: run tasks and policies', function () {
  this.timeout(90_000);

  describe('run tasks: global-configuration', () => {
    let worker: WorkerProcess;
    let integration: TaskIntegration;
    let org: Org;

    before(async () => {
      worker = spawnWorkers(['verification']);
      await workersReady(worker);
      integration = await startTaskIntegration(null);
      org = await createOrg();
    });

    after(async () => {
      await worker?.stop();
      await integration?.close();
    });

    it('Create: the global configuration is stored and returned as sent (stages in their order)', async () => {
      const res = await api('POST', `/organizations/${org.name}/tasks`, {
        token: org.owner.token,
        body: runTaskCreate(integration.url, { enabled: true, stages: ['post_plan', 'pre_plan'], 'enforcement-level': 'mandatory' }),
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.attributes['global-configuration']).to.deep.equal({ enabled: true, stages: ['post_plan', 'pre_plan'], 'enforcement-level': 'mandatory' });
      expect(res.body.data.relationships.organization.data.id).to.equal(org.name);
      const read = await api('GET', `/tasks/${res.body.data.id}`, { token: org.owner.token });
      expect(read.body.data.attributes['global-configuration']).to.deep.equal(res.body.data.attributes['global-configuration']);
    });

    it('a task without one shows it disabled; Update changes only what is sent', async () => {
      const res = await api('POST', `/organizations/${org.name}/tasks`, { token: org.owner.token, body: runTaskCreate(integration.url) });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.attributes['global-configuration']).to.deep.equal({ enabled: false, stages: ['post_plan'], 'enforcement-level': 'advisory' });
      const id = res.body.data.id;
      const patch = (global: unknown) => api('PATCH', `/tasks/${id}`, { token: org.owner.token, body: doc('tasks', { 'global-configuration': global }) });
      const on = await patch({ enabled: true, stages: ['pre_apply'] });
      expect(on.status, on.text).to.equal(200);
      expect(on.body.data.attributes['global-configuration']).to.deep.equal({ enabled: true, stages: ['pre_apply'], 'enforcement-level': 'advisory' });
      // The provider's global settings resource turns it off by sending enabled alone.
      const off = await patch({ enabled: false });
      expect(off.body.data.attributes['global-configuration']).to.deep.equal({ enabled: false, stages: ['pre_apply'], 'enforcement-level': 'advisory' });
    });

    it('validates the global configuration (422 with a pointer, nothing saved)', async () => {
      const bad = [
        { stages: ['planning'] },
        { stages: [] },
        { 'enforcement-level': 'hard-mandatory' },
        { enabled: 'true' },
        { stages: ['post_plan', 'post_plan'] },
        { enabled: true, colour: 'red' },
      ];
      for (const global of bad) {
        const name = uniq('bad');
        const res = await api('POST', `/organizations/${org.name}/tasks`, { token: org.owner.token, body: doc('tasks', { name, url: integration.url, category: 'task', 'global-configuration': global }) });
        expectError(res, 422);
        expect(JSON.stringify(res.body.errors), JSON.stringify(global)).to.include('/data/attributes/global-configuration');
        const list = await api('GET', `/organizations/${org.name}/tasks`, { token: org.owner.token });
        expect(list.body.data.map((t: { attributes: { name: string } }) => t.attributes.name)).to.not.include(name);
      }
    });

    it('a globally enabled task applies to every workspace at its stages without an attachment; an attachment takes its place', async () => {
      const own = await createOrg();
      const token = own.owner.token;
      const created = await api('POST', `/organizations/${own.name}/tasks`, {
        token,
        body: runTaskCreate(integration.url, { enabled: true, stages: ['pre_plan', 'post_plan'], 'enforcement-level': 'mandatory' }),
      });
      expect(created.status, created.text).to.equal(201);
      const taskId = created.body.data.id;
      const plain = await createWorkspace(own);
      const attached = await createWorkspace(own);
      const wsTaskId = await attachTask(attached.id, token, taskId, { 'enforcement-level': 'advisory', stages: ['pre_apply'] });

      const runOf = async (wsId: string) => startRun(wsId, token, {}, await uploadConfig(wsId, token, SIMPLE_CONFIG));
      const globalStages = await stagesOfRun(await runOf(plain.id), token);
      expect(globalStages.map((s) => s.stage)).to.deep.equal(['pre_plan', 'post_plan']);
      for (const s of globalStages) {
        expect(s.results).to.have.length(1);
        expect(s.results[0].attributes).to.include({ 'task-id': taskId, 'workspace-task-id': null, 'workspace-task-enforcement-level': 'mandatory', status: 'pending' });
      }
      const attachedStages = await stagesOfRun(await runOf(attached.id), token);
      expect(attachedStages.map((s) => s.stage)).to.deep.equal(['pre_apply']);
      expect(attachedStages[0].results[0].attributes).to.include({ 'workspace-task-id': wsTaskId, 'workspace-task-enforcement-level': 'advisory' });

      // Turned off (or the task disabled), later runs get no stage for it.
      const off = await api('PATCH', `/tasks/${taskId}`, { token, body: doc('tasks', { 'global-configuration': { enabled: false } }) });
      expect(off.status, off.text).to.equal(200);
      expect(await stagesOfRun(await runOf(plain.id), token)).to.deep.equal([]);
      await api('PATCH', `/tasks/${taskId}`, { token, body: doc('tasks', { 'global-configuration': { enabled: true }, enabled: false }) });
      expect(await stagesOfRun(await runOf(plain.id), token)).to.deep.equal([]);
    });
  });
});
