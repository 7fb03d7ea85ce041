import { expect } from 'chai';
import { DELIVERIES_PER_JOB, deliveryJobs, jobs } from '../../../shared/queues.js';

describe('notification delivery jobs', () => {
  const attempts = (n: number, attempt = 1) => Array.from({ length: n }, (_, i) => ({ id: `ndel-${i}`, attempt }));

  it('keeps the per-attempt job id for a single delivery', () => {
    const [spec] = deliveryJobs([{ id: 'ndel-a', attempt: 3 }]);
    expect(spec).to.deep.include({ jobId: 'ndel-a-a3', data: { deliveryId: 'ndel-a' } });
  });

  it('keys a job of several deliveries by the set of attempts it carries, whatever their order', () => {
    const a = jobs.notificationDeliveries(attempts(3));
    const b = jobs.notificationDeliveries(attempts(3).reverse());
    expect(a.jobId).to.equal(b.jobId);
    expect(a.jobId).to.match(/^nb-[0-9a-f]{40}$/);
    expect(a.data).to.deep.equal({ deliveryIds: ['ndel-0', 'ndel-1', 'ndel-2'] });
    expect(jobs.notificationDeliveries(attempts(3, 2)).jobId).to.not.equal(a.jobId);
    expect(jobs.notificationDeliveries(attempts(2)).jobId).to.not.equal(a.jobId);
  });

  it(`puts at most ${DELIVERIES_PER_JOB} deliveries in a job`, () => {
    const specs = deliveryJobs(attempts(2 * DELIVERIES_PER_JOB + 1));
    expect(specs.map((s) => (s.data.deliveryIds ?? [s.data.deliveryId]).length)).to.deep.equal([DELIVERIES_PER_JOB, DELIVERIES_PER_JOB, 1]);
    expect(specs[2].jobId).to.equal(`ndel-${2 * DELIVERIES_PER_JOB}-a1`);
    expect(deliveryJobs([])).to.deep.equal([]);
  });
});
