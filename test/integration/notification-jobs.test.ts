import { expect } from 'chai';
import { harness } from '../helpers/harness.js';
import { DELIVERIES_PER_JOB, DELIVERY_ROUND_MS, firstTries, jobs } from '../../shared/platform/queues.js';
import { newId } from '../../shared/platform/ids.js';

const ids = (n: number) => Array.from({ length: n }, () => newId('ndel'));
const nextTurn = () => new Promise((r) => setImmediate(r));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ORG = 'org-jobs';

describe('notification delivery jobs: rounds after commit', () => {
  const queue = () => harness().rt.queues['notification-delivery'];
  const carried = async (attempts: string[]) =>
    (await queue().getJob(jobs.notificationDeliveries(firstTries(attempts, ORG)).jobId))?.data;

  it('adds the deliveries queued in one turn of an idle process in one job, and settles every caller once it is added', async () => {
    const { deliveries } = harness().rt;
    await pause(DELIVERY_ROUND_MS * 2);
    const [a, b] = [ids(2), ids(1)];
    await Promise.all([deliveries.add(firstTries(a, ORG)), deliveries.add(firstTries(b, ORG))]);
    expect(await carried([...a, ...b])).to.deep.equal({ deliveryIds: [...a, ...b], organization: ORG });

    // Queueing the same attempts again adds nothing.
    await pause(DELIVERY_ROUND_MS * 2);
    const waiting = await queue().count();
    await deliveries.add(firstTries([...a, ...b], ORG));
    expect(await queue().count()).to.equal(waiting);
    expect(await deliveries.add([])).to.equal(undefined);
  });

  it('gathers the deliveries of a busy process over a short round, and sends a full job at once', async () => {
    const { deliveries } = harness().rt;
    await pause(DELIVERY_ROUND_MS * 2);
    const first = ids(1);
    // An idle process's round goes out at the next turn...
    const queued = [deliveries.add(firstTries(first, ORG))];
    await nextTurn();
    // ...and right after it, deliveries queued in later turns wait for the next round together
    // (queued without waiting for Redis in between, so a slow machine cannot let the round pass).
    const [c, d] = [ids(1), ids(2)];
    queued.push(deliveries.add(firstTries(c, ORG)));
    await nextTurn();
    queued.push(deliveries.add(firstTries(d, ORG)));
    await Promise.all(queued);
    expect(await carried(first)).to.deep.equal({ deliveryId: first[0], organization: ORG });
    expect(await carried([...c, ...d])).to.deep.equal({ deliveryIds: [...c, ...d], organization: ORG });

    // A job's worth goes out without waiting for the round.
    const many = ids(DELIVERIES_PER_JOB + 3);
    await deliveries.add(firstTries(many, ORG));
    expect(await carried(many.slice(0, DELIVERIES_PER_JOB))).to.deep.equal({
      deliveryIds: many.slice(0, DELIVERIES_PER_JOB),
      organization: ORG,
    });
    expect(await carried(many.slice(DELIVERIES_PER_JOB))).to.deep.equal({
      deliveryIds: many.slice(DELIVERIES_PER_JOB),
      organization: ORG,
    });
  });

  it('puts the deliveries of different organizations gathered in one round in jobs of their own', async () => {
    const { deliveries } = harness().rt;
    await pause(DELIVERY_ROUND_MS * 2);
    const [e, f] = [ids(2), ids(3)];
    await Promise.all([deliveries.add(firstTries(e, 'org-e')), deliveries.add(firstTries(f, 'org-f'))]);
    expect(
      await queue()
        .getJob(jobs.notificationDeliveries(firstTries(e, 'org-e')).jobId)
        .then((j) => j?.data),
    ).to.deep.equal({ deliveryIds: e, organization: 'org-e' });
    expect(
      await queue()
        .getJob(jobs.notificationDeliveries(firstTries(f, 'org-f')).jobId)
        .then((j) => j?.data),
    ).to.deep.equal({ deliveryIds: f, organization: 'org-f' });
  });
});
