import { expect } from 'chai';
import { Worker } from 'bullmq';
import { api, doc } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { notifiedWorkspace, startReceiver, type NotificationReceiver } from '../helpers/notification-receiver.js';
import { bullPrefix, type QueueName } from '../../shared/platform/queues.js';
import { createRedis } from '../../shared/platform/redis.js';

interface BoardJob {
  id: string;
  name: string;
  data: Record<string, unknown> & { row?: { kind: string; id: string }; resource?: string };
}

/** Bull Board's API as a site admin uses it (Basic auth with the admin token). */
async function board(method: 'GET' | 'PUT', path: string): Promise<{ status: number; body: unknown }> {
  const h = harness();
  const res = await fetch(`${h.baseUrl}/admin/queues/api${path}`, {
    method,
    headers: { Authorization: `Basic ${Buffer.from(`admin:${h.adminToken}`).toString('base64')}` },
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** The jobs the board lists for one queue in one state. */
async function boardJobs(queue: QueueName, status: 'completed' | 'waiting' | 'failed'): Promise<BoardJob[]> {
  const res = await board('GET', `/queues?activeQueue=${queue}&status=${status}&page=1&jobsPerPage=100`);
  expect(res.status).to.equal(200);
  const queues = (res.body as { queues: { name: string; jobs: BoardJob[] }[] }).queues;
  return queues.find((q) => q.name === queue)!.jobs;
}

/** Retries a job from the board and waits until its processor has run it again to completion. */
async function retryFromBoard(queue: QueueName, jobId: string): Promise<void> {
  const job = (await harness().rt.queues[queue].getJob(jobId))!;
  const finishedBefore = job.finishedOn!;
  const res = await board('PUT', `/queues/${queue}/${encodeURIComponent(jobId)}/retry`);
  expect(res.status).to.equal(204);
  await waitFor(async () => {
    const again = await harness().rt.queues[queue].getJob(jobId);
    return again && (await again.getState()) === 'completed' && again.finishedOn! > finishedBefore;
  }, `job ${jobId} to complete again`);
}

describe('Bull Board: jobs name their row and link to it; retrying finished work does it once', function () {
  this.timeout(60_000);
  let worker: WorkerProcess;
  let receiver: NotificationReceiver;

  before(async () => {
    receiver = await startReceiver('board-token');
    // No run-pipeline worker: the run stays pending, its job waiting on the board.
    worker = spawnWorkers(['notification-delivery', 'verification']);
    await workersReady(worker);
  });

  after(async () => {
    await worker?.stop();
    await receiver?.close();
  });

  it('shows kind, id and resource path, and a retried delivery or verification sends nothing again', async () => {
    const h = harness();
    const { token, ws, cv } = await notifiedWorkspace(receiver.url, ['run:created'], 'board-token');
    expect(receiver.received).to.have.length(1);
    const run = await api('POST', '/runs', {
      token,
      body: doc(
        'runs',
        {},
        {
          workspace: { data: { type: 'workspaces', id: ws.id } },
          'configuration-version': { data: { type: 'configuration-versions', id: cv } },
        },
      ),
    });
    expect(run.status, run.text).to.equal(201);
    const runId = run.body.data.id as string;
    await waitFor(() => receiver.received.some((r) => r.body.run_id === runId), 'the run:created notification');
    const [delivery] = await h.rt.db('notification_deliveries').where({ run_id: runId }).select('id');

    // The run's job: named by its row, with the API path of the run, which answers for the run's owner.
    const runJob = (await boardJobs('run-pipeline', 'waiting')).find((j) => j.data.runId === runId)!;
    expect(runJob.name).to.equal(`run-step · run ${runId}`);
    expect(runJob.data).to.deep.include({ runId, row: { kind: 'run', id: runId }, resource: `/api/v2/runs/${runId}` });
    const linked = await api('GET', runJob.data.resource!, { token });
    expect(linked.status).to.equal(200);
    expect(linked.body.data.id).to.equal(runId);

    // The delivery's job, completed: retried from the board, its processor finds the row delivered and sends nothing.
    const deliveryJob = (await waitFor(
      async () => (await boardJobs('notification-delivery', 'completed')).find((j) => j.data.row?.id === delivery.id),
      'the delivery job on the board',
    ))!;
    expect(deliveryJob.name).to.equal(`notify · notification-delivery ${delivery.id}`);
    expect(deliveryJob.data.row).to.deep.equal({ kind: 'notification-delivery', id: delivery.id });
    await retryFromBoard('notification-delivery', deliveryJob.id);
    const verificationJob = (await boardJobs('verification', 'completed')).find(
      (j) => j.data.row?.kind === 'verification',
    )!;
    expect(verificationJob.name).to.match(/^verify · verification verif/);
    await retryFromBoard('verification', verificationJob.id);

    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.filter((r) => r.body.run_id === runId)).to.have.length(1);
    expect(receiver.received).to.have.length(2);
    const [after] = await h.rt.db('notification_deliveries').where({ id: delivery.id }).select('status', 'attempts');
    expect(after).to.deep.equal({ status: 'delivered', attempts: 1 });
  });
});

describe('Bull Board: a failed delivery job retried from the board delivers once', function () {
  this.timeout(60_000);
  let receiver: NotificationReceiver;
  const started: WorkerProcess[] = [];

  before(async () => {
    receiver = await startReceiver('board-token');
    const verifier = spawnWorkers(['verification']);
    started.push(verifier);
    await workersReady(verifier);
  });

  after(async () => {
    await Promise.all(started.map((w) => w.stop()));
    await receiver?.close();
  });

  it('moves the failed job back to waiting; the worker sends the notification once, and a second retry sends nothing', async () => {
    const h = harness();
    // A worker of the test's own that fails every delivery job before doing anything, as a
    // processor that crashed would: the delivery's job ends failed and its row stays pending.
    const connection = createRedis(h.config, 'worker');
    const failing = new Worker('notification-delivery', () => Promise.reject(new Error('processor crashed')), {
      connection,
      prefix: bullPrefix(h.config.queuePrefix),
    });
    const { token, ws, cv } = await notifiedWorkspace(receiver.url, ['run:created'], 'board-token');
    const run = await api('POST', '/runs', {
      token,
      body: doc(
        'runs',
        {},
        {
          workspace: { data: { type: 'workspaces', id: ws.id } },
          'configuration-version': { data: { type: 'configuration-versions', id: cv } },
        },
      ),
    });
    expect(run.status, run.text).to.equal(201);
    const runId = run.body.data.id as string;
    const [delivery] = await h.rt.db('notification_deliveries').where({ run_id: runId }).select('id');
    const failed = (await waitFor(
      async () => (await boardJobs('notification-delivery', 'failed')).find((j) => j.data.row?.id === delivery.id),
      'the failed delivery job',
    ))!;
    await failing.close();
    connection.disconnect();
    expect(await h.rt.db('notification_deliveries').where({ id: delivery.id }).first('status')).to.deep.equal({
      status: 'pending',
    });

    // Retried from the board, then a real worker starts (its sweep also finds the row due, and finds its job waiting).
    expect(
      (await board('PUT', `/queues/notification-delivery/${encodeURIComponent(failed.id)}/retry`)).status,
    ).to.equal(204);
    const sender = spawnWorkers(['notification-delivery']);
    started.push(sender);
    await workersReady(sender);
    await waitFor(() => receiver.received.some((r) => r.body.run_id === runId), 'the notification');
    await waitFor(
      async () => (await (await h.rt.queues['notification-delivery'].getJob(failed.id))?.getState()) === 'completed',
      'the retried job to complete',
    );
    await retryFromBoard('notification-delivery', failed.id);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.filter((r) => r.body.run_id === runId)).to.have.length(1);
    expect(
      await h.rt.db('notification_deliveries').where({ id: delivery.id }).first('status', 'attempts'),
    ).to.deep.equal({ status: 'delivered', attempts: 1 });
  });
});
