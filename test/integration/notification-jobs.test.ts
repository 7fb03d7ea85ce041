import { expect } from 'chai';
import { harness } from '../helpers/harness.js';
import { DELIVERIES_PER_JOB, DELIVERY_ROUND_MS, enqueueDeliveries, firstTries, jobs } from '../../shared/queues.js';
import { newId } from '../../shared/ids.js';

const ids = (n: number) => Array.from({ length: n }, () => newId('ndel'));
const nextTurn = () => new Promise((r) => setImmediate(r));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('notification delivery jobs: rounds after commit', () => {
  const queue = () => harness().rt.queues['notification-delivery'];
  const carried = async (attempts: string[]) => (await queue().getJob(jobs.notificationDeliveries(firstTries(attempts)).jobId))?.data;

  it('adds the deliveries queued in one turn of an idle process in one job, and settles every caller once it is added', async () => {
    const { queues, logger } = harness().rt;
    await pause(DELIVERY_ROUND_MS * 2);
    const [a, b] = [ids(2), ids(1)];
    await Promise.all([enqueueDeliveries(queues, firstTries(a), logger), enqueueDeliveries(queues, firstTries(b), logger)]);
    expect(await carried([...a, ...b])).to.deep.equal({ deliveryIds: [...a, ...b] });

    // Queueing the same attempts again adds nothing.
    await pause(DELIVERY_ROUND_MS * 2);
    const waiting = await queue().count();
    await enqueueDeliveries(queues, firstTries([...a, ...b]), logger);
    expect(await queue().count()).to.equal(waiting);
    expect(await enqueueDeliveries(queues, [], logger)).to.equal(undefined);
  });

  it('gathers the deliveries of a busy process over a short round, and sends a full job at once', async () => {
    const { queues, logger } = harness().rt;
    await pause(DELIVERY_ROUND_MS * 2);
    const first = ids(1);
    await enqueueDeliveries(queues, firstTries(first), logger);
    expect(await carried(first)).to.deep.equal({ deliveryId: first[0] });

    // Right after a round, deliveries queued in later turns wait for the next round together.
    const [c, d] = [ids(1), ids(2)];
    const queued = [enqueueDeliveries(queues, firstTries(c), logger)];
    await nextTurn();
    queued.push(enqueueDeliveries(queues, firstTries(d), logger));
    await Promise.all(queued);
    expect(await carried([...c, ...d])).to.deep.equal({ deliveryIds: [...c, ...d] });

    // A job's worth goes out without waiting for the round.
    const many = ids(DELIVERIES_PER_JOB + 3);
    await enqueueDeliveries(queues, firstTries(many), logger);
    expect(await carried(many.slice(0, DELIVERIES_PER_JOB))).to.deep.equal({ deliveryIds: many.slice(0, DELIVERIES_PER_JOB) });
    expect(await carried(many.slice(DELIVERIES_PER_JOB))).to.deep.equal({ deliveryIds: many.slice(DELIVERIES_PER_JOB) });
  });
});
