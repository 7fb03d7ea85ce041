import { expect } from 'chai';
import { Queue, Worker, type Job } from 'bullmq';
import { harness } from '../helpers/harness.js';
import { uniq } from '../helpers/fixtures.js';
import { waitFor } from '../helpers/processes.js';
import { bullPrefix, closeQueues, createQueues, jobs } from '../../shared/platform/queues.js';
import { createRedis, type RedisConnection } from '../../shared/platform/redis.js';
import { inFairSlot, OrganizationSlots } from '../../workers/organization-slots.js';

/**
 * A queue of its own in this run's Redis that no worker takes from, made before the suite's tests
 * and emptied and closed after them; `queue()` gives it once made.
 */
function scratchQueue(name: string): () => Queue {
  let connection: RedisConnection;
  let queue: Queue;
  before(() => {
    connection = createRedis(harness().config, 'producer');
    queue = new Queue(uniq(name), { connection, prefix: bullPrefix(harness().config.queuePrefix) });
  });
  after(async () => {
    await queue?.obliterate({ force: true });
    await queue?.close();
    connection?.disconnect();
  });
  return () => queue;
}

/**
 * A worker process's fair share, on a queue of its own in this run's Redis that no worker takes
 * from: jobs parked for their organization's share wait in the delayed set until the process
 * promotes them.
 */
describe('fair share: parked jobs', function () {
  const queue = scratchQueue('fair-share');

  /** A job that waits in the delayed set, as one parked by inFairSlot does. */
  const parkedJob = (name: string) => queue().add(name, {}, { delay: 600_000 });
  const stateOf = async (job: Job) => (await queue().getJob(job.id!))!.getState();

  it("lets every parked job go up to the organization's free slots once the queue is drained, where only one went per freed slot", async () => {
    const slots = new OrganizationSlots(2);
    expect([slots.take('a'), slots.take('a'), slots.take('a')]).to.deep.equal([true, true, false]);
    const parked = [await parkedJob('a1'), await parkedJob('a2'), await parkedJob('a3')];
    for (const job of parked) slots.park('a', job);

    // Each freed slot lets the oldest parked job go; say another process took both of them.
    slots.release('a');
    slots.release('a');
    await waitFor(async () => (await stateOf(parked[1])) === 'waiting', 'the second parked job to be promoted');
    expect(await stateOf(parked[0])).to.equal('waiting');
    expect(await stateOf(parked[2]), 'no slot freed for the third').to.equal('delayed');

    // Nothing more for this process to take: the organization's free slots here let the rest go.
    slots.drained();
    await waitFor(
      async () => (await stateOf(parked[2])) === 'waiting',
      'the third parked job to be promoted once the queue is drained',
    );
  });

  it('keeps a parked job waiting when its organization still holds its share', async () => {
    const slots = new OrganizationSlots(1);
    expect(slots.take('b')).to.equal(true);
    const job = await parkedJob('b1');
    slots.park('b', job);
    slots.drained();
    // A promotion is asked asynchronously; one that was asked for a job of another organization shows it went through.
    const other = await parkedJob('c1');
    slots.park('c', other);
    await waitFor(
      async () => (await stateOf(other)) === 'waiting',
      "the other organization's parked job, which has a free slot",
    );
    expect(await stateOf(job)).to.equal('delayed');
  });
});

describe('fair share: a job held for a slot', function () {
  const queue = scratchQueue('fair-hold');

  it('runs in the slot its organization frees while it holds, and is never parked', async () => {
    const slots = new OrganizationSlots(1, 600_000, 5_000);
    expect(slots.take('a')).to.equal(true);
    const job = await queue().add('a2', {}, { delay: 600_000 });
    let ran = false;
    // A token no worker holds: parking the job would fail, so the run shows it was not parked.
    const held = inFairSlot(slots, 'a', job, 'no-lock', async () => void (ran = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(ran, 'still holding: the slot is taken').to.equal(false);
    slots.release('a');
    await held;
    expect(ran).to.equal(true);
    expect(await job.getState(), 'left where it was').to.equal('delayed');
    // Its slot was released in turn: the organization's share is free again.
    expect(slots.take('a')).to.equal(true);
  });

  it('gives the freed slot to the longest-holding job and lets a hold end empty-handed after holdMs', async () => {
    const slots = new OrganizationSlots(1, 600_000, 300);
    expect(slots.take('a')).to.equal(true);
    const first = slots.hold('a');
    const second = slots.hold('a');
    slots.release('a');
    expect(await first).to.equal(true);
    const started = Date.now();
    expect(await second, 'no second slot freed').to.equal(false);
    expect(Date.now() - started).to.be.below(2_000);
    // The slot stayed taken for the first holder: the organization still holds its share.
    expect(slots.take('a')).to.equal(false);
    // Without holdMs a job does not wait at all.
    expect(await new OrganizationSlots(1).hold('a')).to.equal(false);
  });
});

describe('fair order: an organization flooding an outbound queue', function () {
  const prefix = uniq('fair-order');
  let connection: RedisConnection;
  let workerConnection: RedisConnection;
  let worker: Worker;
  let queues: ReturnType<typeof createQueues>;

  before(() => {
    connection = createRedis(harness().config, 'producer');
    workerConnection = createRedis(harness().config, 'worker');
    queues = createQueues(connection, prefix);
    // Takes jobs by hand, one at a time, in the order the queue gives them.
    worker = new Worker('notification-delivery', null, { connection: workerConnection, prefix: bullPrefix(prefix) });
  });

  after(async () => {
    await worker?.close();
    await queues['notification-delivery'].obliterate({ force: true });
    await closeQueues(queues);
    connection?.disconnect();
    workerConnection?.disconnect();
  });

  it("does not put another organization's job behind its backlog", async () => {
    const flood = Array.from({ length: 30 }, (_, i) => jobs.notificationDelivery(`ndel-a${i}`, 'org-a', 1));
    for (const spec of flood) await queues['notification-delivery'].add(spec.name, spec.data, { jobId: spec.jobId });
    const other = jobs.notificationDelivery('ndel-b0', 'org-b', 1);
    await queues['notification-delivery'].add(other.name, other.data, { jobId: other.jobId });

    const taken: string[] = [];
    for (let i = 0; i < 4; i++) {
      const job = await worker.getNextJob('hand', { block: false });
      taken.push(job!.data.deliveryId);
      await job!.moveToCompleted(null, 'hand', false);
    }
    // Organization B's first job goes with A's first: the organizations' jobs interleave.
    expect(taken).to.deep.equal(['ndel-a0', 'ndel-b0', 'ndel-a1', 'ndel-a2']);
  });
});
