import { expect } from 'chai';
import { Worker } from 'bullmq';
import { api, expectError } from '../helpers/api.js';
import { createOrg, createWorkspace, memberWithAccess } from '../helpers/fixtures.js';
import { harness } from '../helpers/harness.js';
import { startRun, terraformWorkers, uploadConfig, waitForRun } from '../helpers/terraform.js';
import { bullPrefix } from '../../shared/platform/queues.js';
import { createRedis, type RedisConnection } from '../../shared/platform/redis.js';
import { startPendingRun } from '../../shared/runs/commands.js';

const lock = (id: string, token: string, reason?: string) =>
  api('POST', `/workspaces/${id}/actions/lock`, { token, body: reason ? { reason } : {} });
const unlock = (id: string, token: string, force = false) =>
  api('POST', `/workspaces/${id}/actions/${force ? 'force-unlock' : 'unlock'}`, { token, body: {} });

/** A workspace with a configuration, locked by its organization's owner, and a run made after the lock (pending). */
async function lockedWorkspaceWithRun() {
  const org = await createOrg();
  const token = org.owner.token;
  const ws = await createWorkspace(org);
  await uploadConfig(ws.id, token, { 'main.tf': 'output "ok" { value = true }\n' });
  expect((await lock(ws.id, token, 'hold')).status).to.equal(200);
  return { token, ws, held: await startRun(ws.id, token) };
}

describe('workspace locks', function () {
  this.timeout(120_000);

  it("locks for the caller with a reason, refuses a second lock and another holder's unlock (409), unlocks for the holder, force-unlocks for an admin", async () => {
    const org = await createOrg();
    const ws = await createWorkspace(org);
    const writer = await memberWithAccess(org, ws.id, 'write');
    const other = await memberWithAccess(org, ws.id, 'write');
    const planner = await memberWithAccess(org, ws.id, 'plan');

    const locked = await lock(ws.id, writer.token, 'migrating state');
    expect(locked.status, locked.text).to.equal(200);
    expect(locked.body.data.attributes).to.include({ locked: true, 'locked-reason': 'migrating state' });
    expect(locked.body.data.relationships['locked-by'].data).to.deep.equal({ type: 'users', id: writer.id });

    expectError(await lock(ws.id, other.token), 409, /already locked/);
    expectError(await unlock(ws.id, other.token), 409, /is locked by User \(another user\)/);
    // Plan access is not enough to lock, unlock or see why (write is).
    expectError(await lock(ws.id, planner.token), 404);
    expectError(await unlock(ws.id, planner.token), 404);
    // Force-unlock needs admin access.
    expectError(await unlock(ws.id, other.token, true), 404);

    const released = await unlock(ws.id, writer.token);
    expect(released.status, released.text).to.equal(200);
    expect(released.body.data.attributes.locked).to.equal(false);
    expect(released.body.data.relationships['locked-by'].data).to.equal(null);
    expectError(await unlock(ws.id, writer.token), 409, /not locked/);

    expect((await lock(ws.id, other.token)).status).to.equal(200);
    const forced = await unlock(ws.id, org.owner.token, true);
    expect(forced.status, forced.text).to.equal(200);
    expect(forced.body.data.attributes.locked).to.equal(false);
  });

  describe('with a worker', () => {
    terraformWorkers(['run-pipeline']);

    it("holds a locked workspace's runs pending (speculative plans still run) and lets them go once it is unlocked", async () => {
      const { token, ws, held } = await lockedWorkspaceWithRun();
      const speculative = await startRun(ws.id, token, { 'plan-only': true });
      expect((await waitForRun(speculative, token, ['planned_and_finished', 'errored'])).attributes.status).to.equal(
        'planned_and_finished',
      );
      expect((await api('GET', `/runs/${held}`, { token })).body.data.attributes.status).to.equal('pending');

      expect((await unlock(ws.id, token)).status).to.equal(200);
      expect((await waitForRun(held, token, ['planned', 'errored'])).attributes.status).to.equal('planned');
    });

    it('refuses a lock (409, naming the run) while a run holds the workspace, and takes it once the run is final', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const ws = await createWorkspace(org);
      await uploadConfig(ws.id, token, { 'main.tf': 'output "ok" { value = true }\n' });
      const runId = await startRun(ws.id, token);
      expect((await waitForRun(runId, token, ['planned', 'errored'])).attributes.status).to.equal('planned');
      const refused = await lock(ws.id, token, 'maintenance');
      expect(refused.status, refused.text).to.equal(409);
      expect(refused.body.errors[0].detail).to.include(`is locked by Run ${runId}`);
      // As TFE shows it: a workspace a run holds reads locked, by that run.
      const held = (await api('GET', `/workspaces/${ws.id}`, { token })).body.data;
      expect(held.attributes.locked).to.equal(true);
      expect(held.relationships['locked-by'].data).to.deep.equal({ type: 'runs', id: runId });
      expect((await api('POST', `/runs/${runId}/actions/discard`, { token, body: {} })).status).to.equal(202);
      await waitForRun(runId, token, ['discarded']);
      expect((await lock(ws.id, token, 'maintenance')).status).to.equal(200);
    });
  });

  describe("when the unlock comes while a waiting run's step is under way", () => {
    let connection: RedisConnection | undefined;
    let worker: Worker | undefined;
    after(async () => {
      await worker?.close();
      connection?.disconnect();
    });

    it('starts the run: the step that found the workspace locked just before is followed by another', async () => {
      const h = harness();
      const { token, ws, held } = await lockedWorkspaceWithRun();

      // The run pipeline's worker, in this process, so that the run's first step can be held
      // open: it finds the workspace locked, and has not ended yet when the unlock comes.
      let foundLocked!: () => void;
      const found = new Promise<void>((resolve) => (foundLocked = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const steps: { jobId: string; moved: string | undefined }[] = [];
      connection = createRedis(h.config, 'worker');
      worker = new Worker(
        'run-pipeline',
        async (job) => {
          const { runId, step } = job.data as { runId: string; step: string };
          if (runId !== held || step !== 'queue') return;
          const moved = await startPendingRun(h.rt, runId);
          steps.push({ jobId: job.id!, moved: moved?.status });
          if (steps.length === 1) {
            foundLocked();
            await released;
          }
        },
        { connection, prefix: bullPrefix(h.config.queuePrefix) },
      );
      // The step the run's creation queued is the first this worker takes.
      await found;

      expect((await unlock(ws.id, token)).status).to.equal(200);
      release();
      expect((await waitForRun(held, token, ['plan_queued'], 10_000)).attributes.status).to.equal('plan_queued');
      expect(steps[0].moved, 'the first step found the workspace locked').to.equal(undefined);
      expect(steps[1].moved).to.equal('plan_queued');
      expect(steps[1].jobId).to.not.equal(steps[0].jobId);
    });
  });
});
