import { expect } from 'chai';
import { harness } from '../helpers/harness.js';
import { enqueueDeliveries, firstTries, jobs } from '../../shared/queues.js';
import { newId } from '../../shared/ids.js';

describe('notification delivery jobs: gathering after commit', () => {
  it('gathers the deliveries queued in one turn of the event loop into one job, and settles every caller once it is added', async () => {
    const { queues, logger } = harness().rt;
    const a = [newId('ndel'), newId('ndel')];
    const b = [newId('ndel')];
    await Promise.all([enqueueDeliveries(queues, firstTries(a), logger), enqueueDeliveries(queues, firstTries(b), logger)]);
    const spec = jobs.notificationDeliveries(firstTries([...a, ...b]));
    const job = await queues['notification-delivery'].getJob(spec.jobId);
    expect(job?.data).to.deep.equal({ deliveryIds: [...a, ...b] });

    // The next turn starts a new job; queueing the same attempts again adds nothing new.
    const c = [newId('ndel')];
    await enqueueDeliveries(queues, firstTries(c), logger);
    expect((await queues['notification-delivery'].getJob(`${c[0]}-a1`))?.data).to.deep.equal({ deliveryId: c[0] });
    const waiting = await queues['notification-delivery'].count();
    await enqueueDeliveries(queues, firstTries([...a, ...b]), logger);
    expect(await queues['notification-delivery'].count()).to.equal(waiting);
    expect(await enqueueDeliveries(queues, [], logger)).to.equal(undefined);
  });
});
