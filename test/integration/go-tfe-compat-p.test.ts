import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { api, doc, expectError } from '../helpers/api.js';
import { harness, secondAppForSuite } from '../helpers/harness.js';
import { createOrg, createWorkspace, memberWithAccess, putArchive, tarGz, uniq } from '../helpers/fixtures.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startTaskIntegration, type TaskIntegration } from '../helpers/run-task-integration.js';
import { attachTask, SIMPLE_CONFIG, stagesOfRun } from '../helpers/run-task-fixtures.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLI_HOST,
  startRun,
  terraform,
  terraformAvailable,
  uploadConfig,
  waitForRun,
  writeCliConfig,
} from '../helpers/terraform.js';
import { createPolicy, createPolicySet, linkages, uploadCode } from '../helpers/policy-fixtures.js';
import { sentinelPolicy, startPolicyWorker } from '../helpers/policy-runtimes.js';

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

/** go-tfe's test fixture for policy set versions: sentinel.hcl naming one hard-mandatory policy, and the policy. */
const sentinelBundle = (code: string) => ({
  'sentinel.hcl':
    '# Copyright\n\npolicy "enforce-mandatory-tags" {\n  source = "./enforce-mandatory-tags.sentinel"\n  enforcement_level = "hard-mandatory"\n}\n',
  'enforce-mandatory-tags.sentinel': code,
});

/** `POST /policy-sets/:id/versions` as go-tfe sends it (no body). */
async function newVersion(token: string, setId: string) {
  const res = await api('POST', `/policy-sets/${setId}/versions`, { token });
  expect(res.status, res.text).to.equal(201);
  return res.body.data as {
    id: string;
    attributes: Record<string, unknown>;
    relationships: Record<string, { data: { id: string } }>;
    links: Record<string, string>;
  };
}

const readVersion = (token: string, id: string) => api('GET', `/policy-set-versions/${id}`, { token });

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
        body: runTaskCreate(integration.url, {
          enabled: true,
          stages: ['post_plan', 'pre_plan'],
          'enforcement-level': 'mandatory',
        }),
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.attributes['global-configuration']).to.deep.equal({
        enabled: true,
        stages: ['post_plan', 'pre_plan'],
        'enforcement-level': 'mandatory',
      });
      expect(res.body.data.relationships.organization.data.id).to.equal(org.name);
      const read = await api('GET', `/tasks/${res.body.data.id}`, { token: org.owner.token });
      expect(read.body.data.attributes['global-configuration']).to.deep.equal(
        res.body.data.attributes['global-configuration'],
      );
    });

    it('a task without one shows it disabled; Update changes only what is sent', async () => {
      const res = await api('POST', `/organizations/${org.name}/tasks`, {
        token: org.owner.token,
        body: runTaskCreate(integration.url),
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.attributes['global-configuration']).to.deep.equal({
        enabled: false,
        stages: ['post_plan'],
        'enforcement-level': 'advisory',
      });
      const id = res.body.data.id;
      const patch = (global: unknown) =>
        api('PATCH', `/tasks/${id}`, {
          token: org.owner.token,
          body: doc('tasks', { 'global-configuration': global }),
        });
      const on = await patch({ enabled: true, stages: ['pre_apply'] });
      expect(on.status, on.text).to.equal(200);
      expect(on.body.data.attributes['global-configuration']).to.deep.equal({
        enabled: true,
        stages: ['pre_apply'],
        'enforcement-level': 'advisory',
      });
      // The provider's global settings resource turns it off by sending enabled alone.
      const off = await patch({ enabled: false });
      expect(off.body.data.attributes['global-configuration']).to.deep.equal({
        enabled: false,
        stages: ['pre_apply'],
        'enforcement-level': 'advisory',
      });
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
        const res = await api('POST', `/organizations/${org.name}/tasks`, {
          token: org.owner.token,
          body: doc('tasks', { name, url: integration.url, category: 'task', 'global-configuration': global }),
        });
        expectError(res, 422);
        expect(JSON.stringify(res.body.errors), JSON.stringify(global)).to.include(
          '/data/attributes/global-configuration',
        );
        const list = await api('GET', `/organizations/${org.name}/tasks`, { token: org.owner.token });
        expect(list.body.data.map((t: { attributes: { name: string } }) => t.attributes.name)).to.not.include(name);
      }
    });

    describe('without the global-run-tasks entitlement (free edition)', () => {
      const free = secondAppForSuite({ EDITION: 'free' });

      it('CreateWithoutGlobalEntitlement: the configuration is accepted and ignored, and not shown', async () => {
        const own = await createOrg();
        const res = await api('POST', `${free.api}/organizations/${own.name}/tasks`, {
          token: own.owner.token,
          body: runTaskCreate(integration.url, {
            enabled: true,
            stages: ['post_plan', 'pre_plan'],
            'enforcement-level': 'mandatory',
          }),
        });
        expect(res.status, res.text).to.equal(201);
        expect(res.body.data.attributes).to.not.have.property('global-configuration');
        const entitlements = await api('GET', `${free.api}/organizations/${own.name}/entitlement-set`, {
          token: own.owner.token,
        });
        expect(entitlements.body.data.attributes['global-run-tasks']).to.equal(false);
        const ws = await createWorkspace(own);
        const runId = await startRun(
          ws.id,
          own.owner.token,
          {},
          await uploadConfig(ws.id, own.owner.token, SIMPLE_CONFIG),
        );
        expect(await stagesOfRun(runId, own.owner.token), 'the task was not made global').to.deep.equal([]);
      });
    });

    it('a globally enabled task applies to every workspace at its stages without an attachment; an attachment takes its place', async () => {
      const own = await createOrg();
      const token = own.owner.token;
      const created = await api('POST', `/organizations/${own.name}/tasks`, {
        token,
        body: runTaskCreate(integration.url, {
          enabled: true,
          stages: ['pre_plan', 'post_plan'],
          'enforcement-level': 'mandatory',
        }),
      });
      expect(created.status, created.text).to.equal(201);
      const taskId = created.body.data.id;
      const plain = await createWorkspace(own);
      const attached = await createWorkspace(own);
      const wsTaskId = await attachTask(attached.id, token, taskId, {
        'enforcement-level': 'advisory',
        stages: ['pre_apply'],
      });

      const runOf = async (wsId: string) => startRun(wsId, token, {}, await uploadConfig(wsId, token, SIMPLE_CONFIG));
      const globalStages = await stagesOfRun(await runOf(plain.id), token);
      expect(globalStages.map((s) => s.stage)).to.deep.equal(['pre_plan', 'post_plan']);
      for (const s of globalStages) {
        expect(s.results).to.have.length(1);
        expect(s.results[0].attributes).to.include({
          'task-id': taskId,
          'workspace-task-id': null,
          'workspace-task-enforcement-level': 'mandatory',
          status: 'pending',
        });
      }
      const attachedStages = await stagesOfRun(await runOf(attached.id), token);
      expect(attachedStages.map((s) => s.stage)).to.deep.equal(['pre_apply']);
      expect(attachedStages[0].results[0].attributes).to.include({
        'workspace-task-id': wsTaskId,
        'workspace-task-enforcement-level': 'advisory',
      });

      // Turned off (or the task disabled), later runs get no stage for it.
      const off = await api('PATCH', `/tasks/${taskId}`, {
        token,
        body: doc('tasks', { 'global-configuration': { enabled: false } }),
      });
      expect(off.status, off.text).to.equal(200);
      expect(await stagesOfRun(await runOf(plain.id), token)).to.deep.equal([]);
      await api('PATCH', `/tasks/${taskId}`, {
        token,
        body: doc('tasks', { 'global-configuration': { enabled: true }, enabled: false }),
      });
      expect(await stagesOfRun(await runOf(plain.id), token)).to.deep.equal([]);
    });
  });

  describe('task stages, policy evaluations and policy set outcomes (OPA sets)', () => {
    let workers: WorkerProcess[] = [];
    let integration: TaskIntegration;

    before(async function () {
      if (!terraformAvailable()) this.skip();
      workers = [await startPolicyWorker(), spawnWorkers(['verification'])];
      await workersReady(workers[1]);
      integration = await startTaskIntegration(null);
    });

    after(async () => {
      for (const w of workers) await w.stop();
      await integration?.close();
    });

    /** go-tfe's createUploadedPolicyWithOptions for OPA: query data.example.rule, one-line Rego that passes or fails. */
    async function opaPolicy(org: Org, pass: boolean, level: 'advisory' | 'mandatory'): Promise<string> {
      const pol = await createPolicy(org.name, org.owner.token, {
        description: 'A sample policy',
        kind: 'opa',
        query: 'data.example.rule',
        enforce: [{ mode: level }],
        'enforcement-level': undefined,
      });
      const rego = `package example rule["not allowed"] { ${!pass} }`;
      expect((await uploadCode(pol.id, org.owner.token, rego)).status).to.equal(204);
      return pol.id;
    }

    /** go-tfe's createPolicySet for OPA: overridable, the policies and the workspaces. */
    const opaSet = async (
      org: Org,
      policies: string[],
      workspaces: string[],
      attrs: Record<string, unknown> = { overridable: true },
    ) =>
      (
        await createPolicySet(
          org.name,
          org.owner.token,
          { kind: 'opa', ...attrs },
          { policies: linkages('policies', policies), workspaces: linkages('workspaces', workspaces) },
        )
      ).id as string;

    const runIn = async (org: Org, wsId: string, attrs: Record<string, unknown> = {}) =>
      startRun(wsId, org.owner.token, attrs, await uploadConfig(wsId, org.owner.token, SIMPLE_CONFIG));

    const stageList = async (org: Org, runId: string) => {
      const res = await api('GET', `/runs/${runId}/task-stages`, { token: org.owner.token });
      expect(res.status, res.text).to.equal(200);
      return res.body.data as { id: string; attributes: Record<string, any>; relationships: Record<string, any> }[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    };

    it('TaskStagesRead/List: a run of a workspace with an OPA set has a stage with its task results and one policy evaluation from creation', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const ws = await createWorkspace(org);
      const tasks = [];
      for (let i = 0; i < 2; i++) {
        const task = await api('POST', `/organizations/${org.name}/tasks`, {
          token,
          body: runTaskCreate(integration.url),
        });
        expect(task.status, task.text).to.equal(201);
        tasks.push(
          await attachTask(ws.id, token, task.body.data.id, { 'enforcement-level': 'advisory', stages: ['post_plan'] }),
        );
      }
      const p1 = await opaPolicy(org, true, 'advisory');
      const p2 = await opaPolicy(org, true, 'advisory');
      await opaSet(org, [p1, p2], [ws.id]);
      await opaSet(org, [p2], [ws.id]);
      const runId = await runIn(org, ws.id);

      const run = await api('GET', `/runs/${runId}?include=task_stages`, { token });
      const stageId = run.body.data.relationships['task-stages'].data[0].id;
      const plain = await api('GET', `/task-stages/${stageId}`, { token });
      expect(plain.status, plain.text).to.equal(200);
      expect(plain.body.data.attributes).to.include({ stage: 'post_plan' });
      expect(plain.body.data.relationships['task-results'].data).to.have.length(2);
      expect(plain.body.data.relationships['policy-evaluations'].data).to.have.length(1);
      expect(plain.body.data.relationships.run.data.id).to.equal(runId);

      const full = await api('GET', `/task-stages/${stageId}?include=task_results%2Cpolicy_evaluations`, { token });
      const evaluation = full.body.included.find((i: { type: string }) => i.type === 'policy-evaluations');
      expect(evaluation.attributes['policy-kind']).to.equal('opa');
      expect(evaluation.attributes.status).to.be.a('string').and.not.equal('');
      expect(evaluation.attributes['created-at']).to.be.a('string');
      expect(evaluation.attributes['updated-at']).to.be.a('string');
      expect(evaluation.attributes['result-count']).to.have.all.keys(
        'advisory-failed',
        'mandatory-failed',
        'passed',
        'errored',
      );
      expect(evaluation.relationships['policy-attachable'].data).to.deep.equal({ type: 'task-stages', id: stageId });
      const results = full.body.included.filter((i: { type: string }) => i.type === 'task-results');
      expect(
        results.map((r: { attributes: Record<string, unknown> }) => r.attributes['workspace-task-id']),
      ).to.have.members(tasks);

      const list = await stageList(org, runId);
      expect(list[0].relationships['task-results'].data).to.have.length(2);
      expect(list[0].relationships['policy-evaluations'].data).to.have.length(1);
      const evaluations = await api('GET', `/task-stages/${stageId}/policy-evaluations`, { token });
      expect(evaluations.status, evaluations.text).to.equal(200);
      expect(evaluations.body.data.map((e: { id: string }) => e.id)).to.deep.equal([evaluation.id]);
      expect(evaluations.body.meta.pagination['total-count']).to.equal(1);
    });

    it('PolicySetOutcomeList/Read: outcomes per set, filters by status and enforcement level', async () => {
      const org = await createOrg();
      const ws = await createWorkspace(org);
      const setId = await opaSet(org, [await opaPolicy(org, true, 'advisory')], [ws.id]);
      const runId = await runIn(org, ws.id);
      await waitForRun(runId, org.owner.token, ['post_plan_completed', 'errored'], 90_000);
      const [stage] = await stageList(org, runId);
      expect(stage.attributes.status).to.equal('passed');
      const evaluationId = stage.relationships['policy-evaluations'].data[0].id;
      const outcomesOf = (query = '') =>
        api('GET', `/policy-evaluations/${evaluationId}/policy-set-outcomes${query}`, { token: org.owner.token });

      const all = await outcomesOf();
      expect(all.status, all.text).to.equal(200);
      expect(all.body.data).to.have.length(1);
      const item = all.body.data[0];
      const evaluation = (await api('GET', `/task-stages/${stage.id}/policy-evaluations`, { token: org.owner.token }))
        .body.data[0];
      expect(evaluation.relationships['policy-set-outcomes'].data).to.deep.equal([
        { type: 'policy-set-outcomes', id: item.id },
      ]);
      expect(item.attributes['policy-set-name']).to.be.a('string').and.not.equal('');
      expect(item.attributes.outcomes).to.deep.equal([
        {
          enforcement_level: 'advisory',
          query: 'data.example.rule',
          status: 'passed',
          policy_name: item.attributes.outcomes[0].policy_name,
          description: 'A sample policy',
          output: [],
        },
      ]);
      expect(item.attributes.result_count).to.deep.equal({
        'advisory-failed': 0,
        'mandatory-failed': 0,
        passed: 1,
        errored: 0,
      });
      expect(item.attributes.overridable).to.equal(true);
      const set = await api('GET', `/policy-sets/${setId}`, { token: org.owner.token });
      expect(item.attributes['policy-set-name']).to.equal(set.body.data.attributes.name);

      const none = await outcomesOf(
        '?filter%5B0%5D%5Bstatus%5D=errored&filter%5B1%5D%5Benforcement_level%5D=mandatory&filter%5B1%5D%5Bstatus%5D=failed',
      );
      expect(none.status, none.text).to.equal(200);
      expect(none.body.data).to.deep.equal([]);
      const some = await outcomesOf('?filter%5B0%5D%5Bstatus%5D=passed&filter%5B0%5D%5Benforcement_level%5D=advisory');
      expect(some.body.data).to.have.length(1);
      expect(some.body.data[0].attributes.outcomes).to.have.length(1);

      const read = await api('GET', `/policy-set-outcomes/${item.id}`, { token: org.owner.token });
      expect(read.status, read.text).to.equal(200);
      expect(read.body.data.attributes.outcomes).to.deep.equal(item.attributes.outcomes);
      expectError(await api('GET', '/policy-set-outcomes/psout-nothing', { token: org.owner.token }), 404);
      expectError(await api('GET', '/task-stages/ts-nothing/policy-evaluations', { token: org.owner.token }), 404);
    });

    it('TaskStageOverride: a failed overridable mandatory policy holds the run in post_plan_awaiting_decision until the stage is overridden', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const ws = await createWorkspace(org, { 'auto-apply': false });
      await opaSet(org, [await opaPolicy(org, false, 'mandatory')], [ws.id]);
      const runId = await runIn(org, ws.id);
      const run = await waitForRun(
        runId,
        token,
        ['post_plan_awaiting_decision', 'errored', 'post_plan_completed'],
        90_000,
      );
      expect(run.attributes.status).to.equal('post_plan_awaiting_decision');
      expect(run.attributes.actions).to.include({ 'is-confirmable': false, 'is-discardable': true });

      const [stage] = await stageList(org, runId);
      expect(stage.attributes.status).to.equal('awaiting_override');
      expect(stage.attributes['status-timestamps']).to.have.property('awaiting-override-at');
      expect(stage.attributes.actions).to.deep.equal({ 'is-overridable': true });
      expect(stage.attributes.permissions).to.include({ 'can-override': true, 'can-override-policy': true });
      expect(stage.relationships['policy-evaluations'].data).to.have.length(1);
      const evaluation = (await api('GET', `/task-stages/${stage.id}/policy-evaluations`, { token })).body.data[0];
      expect(evaluation.attributes).to.include({ status: 'failed' });
      expect(evaluation.attributes['result-count']).to.deep.equal({
        'advisory-failed': 0,
        'mandatory-failed': 1,
        passed: 0,
        errored: 0,
      });
      const outcomes = (await api('GET', `/policy-evaluations/${evaluation.id}/policy-set-outcomes`, { token })).body
        .data[0].attributes.outcomes;
      expect(outcomes[0]).to.include({ status: 'failed', enforcement_level: 'mandatory' });
      expect(outcomes[0].output).to.deep.equal([{ print: 'not allowed' }]);

      // Someone without manage-policy-overrides cannot (404, as for anything a token may not do).
      const member = await memberWithAccess(org, ws.id, 'admin');
      expect(
        (await api('GET', `/task-stages/${stage.id}`, { token: member.token })).body.data.attributes.permissions,
      ).to.include({ 'can-override': false });
      expectError(
        await api('POST', `/task-stages/${stage.id}/actions/override`, { token: member.token, body: {} }),
        404,
      );

      // go-tfe sends the options as plain JSON: {} (or a comment).
      const overridden = await api('POST', `/task-stages/${stage.id}/actions/override`, {
        token,
        body: { comment: 'accepted risk' },
      });
      expect(overridden.status, overridden.text).to.equal(200);
      expect(overridden.body.data.attributes.status).to.equal('passed');
      await waitForRun(runId, token, ['post_plan_completed'], 30_000);
      const after = (await api('GET', `/task-stages/${stage.id}/policy-evaluations`, { token })).body.data[0];
      expect(after.attributes.status).to.equal('overridden');
      const again = await api('POST', `/task-stages/${stage.id}/actions/override`, { token, body: {} });
      expectError(again, 409, /transition not allowed/);
      // The run goes on as after any plan: confirmed, it applies.
      expect((await api('POST', `/runs/${runId}/actions/apply`, { token, body: {} })).status).to.equal(202);
      await waitForRun(runId, token, ['applied'], 90_000);
    });

    it('TaskStageOverride: a passed stage cannot be overridden ("transition not allowed")', async () => {
      const org = await createOrg();
      const ws = await createWorkspace(org, { 'auto-apply': true });
      await opaSet(org, [await opaPolicy(org, true, 'mandatory')], [ws.id]);
      const runId = await runIn(org, ws.id);
      await waitForRun(runId, org.owner.token, ['applied', 'errored'], 90_000);
      const [stage] = await stageList(org, runId);
      expect(stage.attributes.status).to.equal('passed');
      expect(stage.relationships['policy-evaluations'].data).to.have.length(1);
      const res = await api('POST', `/task-stages/${stage.id}/actions/override`, { token: org.owner.token, body: {} });
      expectError(res, 409, /transition not allowed/);
    });

    it('a set that is not overridable fails the stage and errors the run; discarding a waiting run fails its stage; a plan-only run cannot wait', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const strictWs = await createWorkspace(org);
      await opaSet(org, [await opaPolicy(org, false, 'mandatory')], [strictWs.id], { overridable: false });
      const strict = await runIn(org, strictWs.id);
      const errored = await waitForRun(strict, token, ['errored', 'post_plan_awaiting_decision'], 90_000);
      expect(errored.attributes.status).to.equal('errored');
      const [failed] = await stageList(org, strict);
      expect(failed.attributes.status).to.equal('failed');
      expectError(
        await api('POST', `/task-stages/${failed.id}/actions/override`, { token, body: {} }),
        409,
        /transition not allowed/,
      );

      const softWs = await createWorkspace(org);
      await opaSet(org, [await opaPolicy(org, false, 'mandatory')], [softWs.id]);
      const waiting = await runIn(org, softWs.id);
      await waitForRun(waiting, token, ['post_plan_awaiting_decision'], 90_000);
      expect((await api('POST', `/runs/${waiting}/actions/discard`, { token, body: {} })).status).to.equal(202);
      await waitForRun(waiting, token, ['discarded'], 30_000);
      const [discarded] = await stageList(org, waiting);
      expect(discarded.attributes.status).to.equal('failed');
      expect(discarded.attributes.actions).to.deep.equal({ 'is-overridable': false });

      const planOnly = await runIn(org, softWs.id, { 'plan-only': true });
      const ended = await waitForRun(
        planOnly,
        token,
        ['errored', 'post_plan_awaiting_decision', 'planned_and_finished'],
        90_000,
      );
      expect(ended.attributes.status).to.equal('errored');
      expect((await stageList(org, planOnly))[0].attributes.status).to.equal('failed');
    });

    it('overriding a stage while its run is discarded: each request is answered (never a 500) and the stage agrees with the winner', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const race = async () => {
        const ws = await createWorkspace(org, { 'auto-apply': false });
        await opaSet(org, [await opaPolicy(org, false, 'mandatory')], [ws.id]);
        const runId = await runIn(org, ws.id);
        await waitForRun(runId, token, ['post_plan_awaiting_decision'], 90_000);
        const [stage] = await stageList(org, runId);
        const [override, discard] = await Promise.all([
          api('POST', `/task-stages/${stage.id}/actions/override`, { token, body: {} }),
          api('POST', `/runs/${runId}/actions/discard`, { token, body: {} }),
        ]);
        expect([200, 409], override.text).to.include(override.status);
        expect([202, 409], discard.text).to.include(discard.status);
        const [after] = await stageList(org, runId);
        expect(after.attributes.status).to.equal(override.status === 200 ? 'passed' : 'failed');
      };
      await Promise.all([race(), race(), race()]);
    });

    it('legacy Sentinel sets keep reporting through policy checks; agent-enabled Sentinel sets through an evaluation', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const ws = await createWorkspace(org, { 'auto-apply': false });
      const sentinelSet = async (agent: boolean, pass: boolean) => {
        const pol = await createPolicy(org.name, token, { 'enforcement-level': 'soft-mandatory' });
        expect((await uploadCode(pol.id, token, sentinelPolicy(pass, agent ? 'agent' : 'legacy'))).status).to.equal(
          204,
        );
        await createPolicySet(
          org.name,
          token,
          { kind: 'sentinel', 'agent-enabled': agent },
          { policies: linkages('policies', [pol.id]), workspaces: linkages('workspaces', [ws.id]) },
        );
      };
      await sentinelSet(false, false);
      await sentinelSet(true, true);
      await opaSet(org, [await opaPolicy(org, true, 'advisory')], [ws.id]);
      const runId = await runIn(org, ws.id);
      await waitForRun(runId, token, ['policy_override', 'errored', 'post_plan_awaiting_decision'], 90_000);
      const [stage] = await stageList(org, runId);
      expect(stage.attributes.status).to.equal('passed');
      const evaluations = (await api('GET', `/task-stages/${stage.id}/policy-evaluations`, { token })).body.data;
      expect(
        evaluations.map((e: { attributes: Record<string, unknown> }) => [
          e.attributes['policy-kind'],
          e.attributes.status,
        ]),
      ).to.deep.equal([
        ['opa', 'passed'],
        ['sentinel', 'passed'],
      ]);
      const checks = (await api('GET', `/runs/${runId}/policy-checks`, { token })).body.data;
      expect(checks).to.have.length(1);
      expect(checks[0].attributes.status).to.equal('soft_failed');
      expect(
        checks[0].attributes.result.sentinel.policies.map((p: { messages: string[] }) => p.messages),
      ).to.deep.equal([['legacy']]);
    });

    it('an evaluation whose job was lost is picked up by the reconciler (the run does not wait forever)', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const ws = await createWorkspace(org);
      const setId = await opaSet(org, [await opaPolicy(org, true, 'mandatory')], [ws.id]);
      // A locked workspace keeps the run pending; the run is then put where a lost job would leave it.
      expect((await api('POST', `/workspaces/${ws.id}/actions/lock`, { token, body: {} })).status).to.equal(200);
      const runId = await runIn(org, ws.id);
      const db = harness().rt.db;
      await db('runs').where({ id: runId }).update({ status: 'post_plan_running' });
      await db('task_stages').where({ run_id: runId, stage: 'post_plan' }).update({ status: 'running' });
      await db('policy_evaluations').where({ run_id: runId }).update({ status: 'queued' });
      expect(await db('policy_evaluations').where({ run_id: runId }).pluck('policy_set_ids')).to.deep.equal([[setId]]);
      // No job was queued: the sweep finds the evaluation. This run has no plan to read, so its policies error.
      const run = await waitForRun(runId, token, ['errored'], 30_000);
      expect(run.attributes['status-timestamps']).to.have.property('errored-at');
      const evaluation = (
        await api('GET', `/task-stages/${(await stageList(org, runId))[0].id}/policy-evaluations`, { token })
      ).body.data[0];
      expect(evaluation.attributes.status).to.equal('errored');
      const outcome = (await api('GET', `/policy-evaluations/${evaluation.id}/policy-set-outcomes`, { token })).body
        .data[0];
      expect(outcome.attributes.error).to.include('no JSON form');
    });

    it('the terraform CLI prints the evaluation; plan fails on a mandatory failure; apply asks, overrides the stage and applies', async function () {
      this.timeout(240_000);
      const org = await createOrg();
      const token = org.owner.token;
      const pol = await createPolicy(org.name, token, {
        description: 'Buckets must be private',
        kind: 'opa',
        query: 'data.example.rule',
        'enforcement-level': 'mandatory',
      });
      expect((await uploadCode(pol.id, token, 'package example rule["bucket is public"] { true }')).status).to.equal(
        204,
      );
      await createPolicySet(
        org.name,
        token,
        { kind: 'opa', global: true, overridable: true },
        { policies: linkages('policies', [pol.id]) },
      );
      const dir = await mkdtemp(join(tmpdir(), 'rls-cli-opa-'));
      try {
        const env = await writeCliConfig(dir, token);
        const cloud = `terraform {\n  cloud {\n    hostname     = "${CLI_HOST}"\n    organization = "${org.name}"\n    workspaces { name = "${uniq('cli-opa')}" }\n  }\n}\n`;
        await writeFile(join(dir, 'main.tf'), cloud + SIMPLE_CONFIG['main.tf']);
        const init = await terraform(dir, env, ['init', '-input=false', '-no-color']);
        expect(init.code, init.output).to.equal(0);
        // A plan is plan-only: it cannot be overridden, so its stage fails.
        const plan = await terraform(dir, env, ['plan', '-input=false', '-no-color']);
        expect(plan.code, plan.output).to.equal(1);
        expect(plan.output)
          .to.include('OPA Policy Evaluation')
          .and.include('→→ Overall Result: FAILED')
          .and.include('1 policies evaluated');
        expect(plan.output).to.include(`Policy name: ${pol.attributes.name}`).and.include('Buckets must be private');
        expect(plan.output).to.include('Error: Task Stage failed.');
        // terraform asks whether to override (even with -auto-approve); the user types "override".
        const apply = await terraform(dir, env, ['apply', '-auto-approve', '-no-color'], 100_000, 'override\n');
        expect(apply.code, apply.output).to.equal(0);
        expect(apply.output).to.include('Do you want to override the failed policies?');
        expect(apply.output).to.include('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('a set with a ready version evaluates its bundle: a Sentinel bundle in the policy check, an OPA bundle in the evaluation', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const ws = await createWorkspace(org, { 'auto-apply': false });
      const sentinel = await createPolicySet(
        org.name,
        token,
        { kind: 'sentinel' },
        { workspaces: linkages('workspaces', [ws.id]) },
      );
      const sv = await newVersion(token, sentinel.id);
      expect(
        (
          await putArchive(
            sv.links.upload,
            await tarGz(sentinelBundle('print("tags missing")\n\nmain = rule { false }\n')),
          )
        ).status,
      ).to.equal(200);
      const opa = await createPolicySet(
        org.name,
        token,
        { kind: 'opa', overridable: true },
        { workspaces: linkages('workspaces', [ws.id]) },
      );
      const ov = await newVersion(token, opa.id);
      const opaFiles = {
        'policies.hcl':
          'policy "no-public" {\n  query = "data.terraform.policies.public.deny"\n  enforcement_level = "advisory"\n}\n',
        'policies/public.rego': 'package terraform.policies.public\n\ndeny := ["bucket is public"]\n',
      };
      expect((await putArchive(ov.links.upload, await tarGz(opaFiles))).status).to.equal(200);
      expect((await readVersion(token, ov.id)).body.data.attributes.status).to.equal('ready');

      const runId = await runIn(org, ws.id);
      const run = await waitForRun(
        runId,
        token,
        ['errored', 'policy_checked', 'post_plan_awaiting_decision', 'planned'],
        90_000,
      );
      expect(run.attributes.status).to.equal('errored');
      const checks = (await api('GET', `/runs/${runId}/policy-checks`, { token })).body.data;
      expect(checks[0].attributes.status).to.equal('hard_failed');
      expect(
        checks[0].attributes.result.sentinel.policies.map((p: { name: string; messages: string[] }) => [
          p.name,
          p.messages,
        ]),
      ).to.deep.equal([['enforce-mandatory-tags', ['tags missing']]]);
      const [stage] = await stageList(org, runId);
      const evaluationId = stage.relationships['policy-evaluations'].data[0].id;
      const outcomes = (await api('GET', `/policy-evaluations/${evaluationId}/policy-set-outcomes`, { token })).body
        .data[0].attributes.outcomes;
      expect(outcomes).to.deep.equal([
        {
          enforcement_level: 'advisory',
          query: 'data.terraform.policies.public.deny',
          status: 'failed',
          policy_name: 'no-public',
          description: null,
          output: [{ print: 'bucket is public' }],
        },
      ]);
    });
  });

  describe('policy set versions', () => {
    let org: Org;
    before(async () => {
      org = await createOrg();
    });

    it('Create and Read: a pending tfe-api version of the set, with its upload link', async () => {
      const set = await createPolicySet(org.name, org.owner.token, {});
      const psv = await newVersion(org.owner.token, set.id);
      expect(psv.id).to.match(/^polsetver-/);
      expect(psv.attributes).to.include({ source: 'tfe-api', status: 'pending', error: null, 'error-message': null });
      expect(psv.attributes['status-timestamps']).to.have.property('pending-at');
      expect(psv.relationships['policy-set'].data.id).to.equal(set.id);
      expect(psv.links.upload).to.match(/\/v1\/object\//);
      const read = await readVersion(org.owner.token, psv.id);
      expect(read.status, read.text).to.equal(200);
      expect(read.body.data.attributes).to.include({ source: psv.attributes.source, status: psv.attributes.status });
      expect(read.body.data.links.upload, 'go-tfe uploads with the link of a version it read').to.be.a('string');
      expectError(await readVersion(org.owner.token, uniq('polsetver')), 404);
      expectError(await api('POST', '/policy-sets/polset-nothing/versions', { token: org.owner.token }), 404);
    });

    it('Upload: the bundle makes the version ready; the URL takes one upload', async () => {
      const set = await createPolicySet(org.name, org.owner.token, {});
      const psv = await newVersion(org.owner.token, set.id);
      const archive = await tarGz(sentinelBundle('main = rule { true }\n'));
      const put = await putArchive(psv.links.upload, archive);
      expect(put.status, put.text).to.equal(200);
      const read = await readVersion(org.owner.token, psv.id);
      expect(read.body.data.attributes.status).to.equal('ready');
      expect(read.body.data.attributes['status-timestamps']).to.have.property('ready-at');
      expect(read.body.data.links).to.not.have.property('upload');
      expect((await putArchive(psv.links.upload, archive)).status).to.equal(403);
    });

    it('a bundle that does not name its policies errors the version with why; an archive that is not a tar.gz, or too large, is refused', async () => {
      const set = await createPolicySet(org.name, org.owner.token, {});
      const missing = await newVersion(org.owner.token, set.id);
      expect(
        (await putArchive(missing.links.upload, await tarGz({ 'a.sentinel': 'main = rule { true }\n' }))).status,
      ).to.equal(200);
      const a = (await readVersion(org.owner.token, missing.id)).body.data.attributes;
      expect(a.status).to.equal('errored');
      expect(a['error-message']).to.include('sentinel.hcl');
      const badSource = await newVersion(org.owner.token, set.id);
      expect(
        (
          await putArchive(
            badSource.links.upload,
            await tarGz({ 'sentinel.hcl': 'policy "p" {\n  source = "./nowhere.sentinel"\n}\n' }),
          )
        ).status,
      ).to.equal(200);
      expect((await readVersion(org.owner.token, badSource.id)).body.data.attributes['error-message']).to.include(
        './nowhere.sentinel'.slice(2),
      );
      const notGzip = await newVersion(org.owner.token, set.id);
      const refused = await putArchive(notGzip.links.upload, Buffer.from('just text'));
      expect(refused.status, refused.text).to.equal(422);
      expect((await readVersion(org.owner.token, notGzip.id)).body.data.attributes.status).to.equal('errored');

      // A bundle is held to 10 MiB, compressed (413) and unpacked (422).
      const large = await newVersion(org.owner.token, set.id);
      const tooLarge = await putArchive(large.links.upload, randomBytes(10 * 1024 * 1024 + 1));
      expect(tooLarge.status, tooLarge.text).to.equal(413);
      const bomb = await newVersion(org.owner.token, set.id);
      const unpacked = await putArchive(
        bomb.links.upload,
        await tarGz({ 'sentinel.hcl': 'policy "a" {}', 'a.sentinel': 'x'.repeat(10 * 1024 * 1024 + 1) }),
      );
      expect(unpacked.status, unpacked.text).to.equal(422);
      expect((await readVersion(org.owner.token, bomb.id)).body.data.attributes['error-message']).to.include(
        'unpacks to more than',
      );
    });

    it('a bundle is held to 100 policies and to 10 MiB of policy code in all, however many blocks share one source file', async () => {
      const set = await createPolicySet(org.name, org.owner.token, {});
      const blocks = (n: number, source: (i: number) => string) =>
        Array.from(
          { length: n },
          (_, i) => `policy "p${i}" {\n  source = "./${source(i)}"\n  enforcement_level = "advisory"\n}\n`,
        ).join('');
      // 60 blocks naming one 1 MiB file would store 60 MiB of code from an upload of a few KB.
      const shared = await newVersion(org.owner.token, set.id);
      const bundle = await tarGz({
        'sentinel.hcl': blocks(60, () => 'big.sentinel'),
        'big.sentinel': `main = rule { true }\n#${'x'.repeat(1024 * 1024)}\n`,
      });
      expect(bundle.length).to.be.below(64 * 1024);
      expect((await putArchive(shared.links.upload, bundle)).status).to.equal(200);
      const sharedRead = await readVersion(org.owner.token, shared.id);
      expect(sharedRead.body.data.attributes.status).to.equal('errored');
      expect(sharedRead.body.data.attributes['error-message']).to.match(
        /code of the bundle's policies comes to \d+ bytes.*at most 10485760/,
      );

      const many = await newVersion(org.owner.token, set.id);
      expect(
        (
          await putArchive(
            many.links.upload,
            await tarGz({
              'sentinel.hcl': blocks(101, () => 'small.sentinel'),
              'small.sentinel': 'main = rule { true }\n',
            }),
          )
        ).status,
      ).to.equal(200);
      const manyRead = await readVersion(org.owner.token, many.id);
      expect(manyRead.body.data.attributes.status).to.equal('errored');
      expect(manyRead.body.data.attributes['error-message']).to.include(
        'names 101 policies; a bundle may name at most 100',
      );

      // 100 blocks of small code are a bundle; the set's reads and the organization's list still answer.
      const fine = await newVersion(org.owner.token, set.id);
      expect(
        (
          await putArchive(
            fine.links.upload,
            await tarGz({
              'sentinel.hcl': blocks(100, () => 'small.sentinel'),
              'small.sentinel': 'main = rule { true }\n',
            }),
          )
        ).status,
      ).to.equal(200);
      expect((await readVersion(org.owner.token, fine.id)).body.data.attributes.status).to.equal('ready');
      const shown = await api('GET', `/policy-sets/${set.id}?include=current_version%2Cnewest_version`, {
        token: org.owner.token,
      });
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.data.relationships['current-version'].data.id).to.equal(fine.id);
      expect(shown.body.included[0].attributes).to.not.have.property('policies');
      const listed = await api('GET', `/organizations/${org.name}/policy-sets?include=newest_version&page[size]=100`, {
        token: org.owner.token,
      });
      expect(listed.status, listed.text).to.equal(200);
      expect(listed.body.data.map((d: { id: string }) => d.id)).to.include(set.id);
    });

    it('PolicySetsRead with policy set versions: newest-version and current-version (the newest ready one), included on request', async () => {
      const set = await createPolicySet(org.name, org.owner.token, {});
      const readSet = (query = '') => api('GET', `/policy-sets/${set.id}${query}`, { token: org.owner.token });
      const psv = await newVersion(org.owner.token, set.id);
      const first = (await readSet()).body.data.relationships;
      expect(first['newest-version'].data).to.deep.equal({ type: 'policy-set-versions', id: psv.id });
      expect(first['current-version'].data).to.equal(null);

      const psvNew = await newVersion(org.owner.token, set.id);
      expect(
        (await putArchive(psv.links.upload, await tarGz(sentinelBundle('main = rule { true }\n')))).status,
      ).to.equal(200);
      const withVersions = await readSet('?include=current_version%2Cnewest_version');
      expect(withVersions.status, withVersions.text).to.equal(200);
      const rel = withVersions.body.data.relationships;
      expect(rel['newest-version'].data.id).to.equal(psvNew.id);
      expect(rel['current-version'].data.id).to.equal(psv.id);
      const included = new Map(
        withVersions.body.included.map((i: { id: string; attributes: { status: string } }) => [
          i.id,
          i.attributes.status,
        ]),
      );
      expect(Object.fromEntries(included)).to.deep.equal({ [psvNew.id]: 'pending', [psv.id]: 'ready' });
    });

    describe('in the free edition', () => {
      const free = secondAppForSuite({ EDITION: 'free' });

      it('creating a version is refused (422, nothing saved): only higher editions create them through the API', async () => {
        const own = await createOrg();
        const set = await createPolicySet(own.name, own.owner.token, {});
        const res = await api('POST', `${free.api}/policy-sets/${set.id}/versions`, { token: own.owner.token });
        expectError(res, 422, /free edition/);
        const read = await api('GET', `/policy-sets/${set.id}`, { token: own.owner.token });
        expect(read.body.data.relationships['newest-version'].data).to.equal(null);
      });
    });

    it('creating a version needs manage-policies; reading one, membership of the organization', async () => {
      const set = await createPolicySet(org.name, org.owner.token, {});
      const outsider = await createOrg();
      const member = await memberWithAccess(org, (await createWorkspace(org)).id, 'read');
      expectError(await api('POST', `/policy-sets/${set.id}/versions`, { token: member.token }), 404);
      expectError(await api('POST', `/policy-sets/${set.id}/versions`, { token: outsider.owner.token }), 404);
      const psv = await newVersion(org.owner.token, set.id);
      expect((await readVersion(member.token, psv.id)).status).to.equal(200);
      expectError(await readVersion(outsider.owner.token, psv.id), 404);
    });

    it("a member without manage-policies never gets a pending version's upload link, so cannot replace the set's policies", async () => {
      const set = await createPolicySet(org.name, org.owner.token, {});
      const member = await memberWithAccess(org, (await createWorkspace(org)).id, 'read');
      const psv = await newVersion(org.owner.token, set.id);
      expect(psv.links.upload).to.be.a('string');

      // The version read, the set read with include=newest_version, and the organization's set list.
      const shown = await readVersion(member.token, psv.id);
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.data.attributes.status).to.equal('pending');
      expect(shown.body.data.links).to.deep.equal({ self: `/api/v2/policy-set-versions/${psv.id}` });
      const withNewest = await api('GET', `/policy-sets/${set.id}?include=newest_version`, { token: member.token });
      expect(withNewest.status, withNewest.text).to.equal(200);
      const included = withNewest.body.included.find((i: { id: string }) => i.id === psv.id);
      expect(included.links).to.not.have.property('upload');
      const listed = await api('GET', `/organizations/${org.name}/policy-sets?include=newest_version&page[size]=100`, {
        token: member.token,
      });
      expect(listed.status, listed.text).to.equal(200);
      const listedVersion = listed.body.included.find((i: { id: string }) => i.id === psv.id);
      expect(listedVersion.links).to.not.have.property('upload');

      // The owner still sees the link on every read and the upload still works.
      expect((await readVersion(org.owner.token, psv.id)).body.data.links.upload).to.be.a('string');
      const ownerList = await api(
        'GET',
        `/organizations/${org.name}/policy-sets?include=newest_version&page[size]=100`,
        { token: org.owner.token },
      );
      const ownerVersion = ownerList.body.included.find((i: { id: string }) => i.id === psv.id);
      expect(ownerVersion.links.upload).to.be.a('string');
      expect(
        (await putArchive(ownerVersion.links.upload, await tarGz(sentinelBundle('main = rule { true }\n')))).status,
      ).to.equal(200);
      expect((await readVersion(member.token, psv.id)).body.data.attributes.status).to.equal('ready');
    });
  });
});
