import { expect } from 'chai';
import { DELIVERIES_PER_JOB, deliveryJobs, jobs } from '../../../shared/platform/queues.js';

describe('notification delivery jobs', () => {
  const attempts = (n: number, attempt = 1, organization = 'org-a') =>
    Array.from({ length: n }, (_, i) => ({ id: `ndel-${i}`, attempt, organization }));

  it('keeps the per-attempt job id for a single delivery', () => {
    const [spec] = deliveryJobs([{ id: 'ndel-a', attempt: 3, organization: 'org-a' }]);
    expect(spec).to.deep.include({ jobId: 'ndel-a-a3', data: { deliveryId: 'ndel-a', organization: 'org-a' } });
  });

  it('keys a job of several deliveries by the set of attempts it carries, whatever their order', () => {
    const a = jobs.notificationDeliveries(attempts(3));
    const b = jobs.notificationDeliveries(attempts(3).reverse());
    expect(a.jobId).to.equal(b.jobId);
    expect(a.jobId).to.match(/^nb-[0-9a-f]{40}$/);
    expect(a.data).to.deep.equal({ deliveryIds: ['ndel-0', 'ndel-1', 'ndel-2'], organization: 'org-a' });
    expect(jobs.notificationDeliveries(attempts(3, 2)).jobId).to.not.equal(a.jobId);
    expect(jobs.notificationDeliveries(attempts(2)).jobId).to.not.equal(a.jobId);
  });

  it(`puts at most ${DELIVERIES_PER_JOB} deliveries in a job`, () => {
    const specs = deliveryJobs(attempts(2 * DELIVERIES_PER_JOB + 1));
    expect(specs.map((s) => (s.data.deliveryIds ?? [s.data.deliveryId]).length)).to.deep.equal([
      DELIVERIES_PER_JOB,
      DELIVERIES_PER_JOB,
      1,
    ]);
    expect(specs[2].jobId).to.equal(`ndel-${2 * DELIVERIES_PER_JOB}-a1`);
    expect(deliveryJobs([])).to.deep.equal([]);
  });

  it("never mixes organizations in a job (each job counts against its organization's share)", () => {
    const mixed = [
      ...attempts(2, 1, 'org-a'),
      { id: 'ndel-b', attempt: 1, organization: 'org-b' },
      { id: 'ndel-c', attempt: 1, organization: 'org-a' },
    ];
    const specs = deliveryJobs(mixed);
    expect(specs.map((s) => s.data)).to.deep.equal([
      { deliveryIds: ['ndel-0', 'ndel-1', 'ndel-c'], organization: 'org-a' },
      { deliveryId: 'ndel-b', organization: 'org-b' },
    ]);
    expect(() => jobs.notificationDeliveries(mixed)).to.throw(/one organization/);
  });
});
