import { expect } from 'chai';
import { Queue, type Job } from 'bullmq';
import { harness } from '../helpers/harness.js';
import { uniq } from '../helpers/fixtures.js';
import { waitFor } from '../helpers/processes.js';
import { bullPrefix } from '../../shared/queues.js';
import { createRedis, type RedisConnection } from '../../shared/redis.js';
import { OrganizationSlots } from '../../workers/organization-slots.js';

/**
 * A worker process's fair share, on a queue of its own in this run's Redis that no worker takes
 * from: jobs parked for their organization's share wait in the delayed set until the process
 * promotes them.
 */
describe('fair share: parked jobs', function () {
  let connection: RedisConnection;
  let queue: Queue;

  before(() => {
    connection = createRedis(harness().config, 'producer');
    queue = new Queue(uniq('fair-share'), { connection, prefix: bullPrefix(harness().config.queuePrefix) });
  });

  after(async () => {
    await queue?.obliterate({ force: true });
    await queue?.close();
    connection?.disconnect();
  });

  /** A job that waits in the delayed set, as one parked by inFairSlot does. */
  const parkedJob = (name: string) => queue.add(name, {}, { delay: 600_000 });
  const stateOf = async (job: Job) => (await queue.getJob(job.id!))!.getState();

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
    await waitFor(async () => (await stateOf(parked[2])) === 'waiting', 'the third parked job to be promoted once the queue is drained');
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
    await waitFor(async () => (await stateOf(other)) === 'waiting', "the other organization's parked job, which has a free slot");
    expect(await stateOf(job)).to.equal('delayed');
  });
});
