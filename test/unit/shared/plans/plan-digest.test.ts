import { expect } from 'chai';
import { digestHere, PlanDigester } from '../../../../shared/plans/digest.js';

/** A JSON plan of `n` created resources, each with a sensitive attribute, about 700 bytes a resource. */
function plan(n: number): Buffer {
  const resource_changes = Array.from({ length: n }, (_, i) => ({
    address: `terraform_data.r[${i}]`,
    mode: 'managed',
    type: 'terraform_data',
    provider_name: 'terraform.io/builtin/terraform',
    change: {
      actions: i % 3 ? ['create'] : ['delete', 'create'],
      before: null,
      after: { input: { password: `secret-${i}`, notes: 'n'.repeat(500) } },
      after_sensitive: { input: { password: true } },
    },
  }));
  return Buffer.from(JSON.stringify({ format_version: '1.2', resource_changes }));
}

const schemas = Buffer.from(
  JSON.stringify({
    format_version: '1.0',
    provider_schemas: {
      'terraform.io/builtin/terraform': {
        resource_schemas: {
          terraform_data: { version: 0, block: { attributes: {} } },
          unused: { version: 0, block: {} },
        },
      },
    },
  }),
);

describe('plan digests', () => {
  it('digests a large plan on a thread as the calling thread would: counts, the schemas of the changed types, the redacted plan', async () => {
    const input = { plan: plan(1000), schemas };
    expect(input.plan.length, 'large enough to go to a thread').to.be.greaterThan(512 * 1024);
    const [threaded, here] = [await new PlanDigester().digest(input), digestHere(input)];
    expect(threaded.counts).to.deep.equal({
      resource_additions: 1000,
      resource_changes: 0,
      resource_destructions: 334,
    });
    expect(threaded.counts).to.deep.equal(here.counts);
    expect(threaded.redacted.equals(here.redacted)).to.equal(true);
    expect(threaded.schemas!.equals(here.schemas!)).to.equal(true);
    expect(
      JSON.parse(threaded.schemas!.toString()).provider_schemas['terraform.io/builtin/terraform'].resource_schemas,
    ).to.have.keys('terraform_data');
    const redacted = threaded.redacted.toString();
    expect(redacted).to.not.include('secret-');
    expect(JSON.parse(redacted).resource_changes[7].change.after.input.password).to.equal('(sensitive value)');
  });

  it('runs several large digests at once, and fails one whose plan is not JSON', async () => {
    const big = plan(800);
    const digester = new PlanDigester();
    const all = await Promise.all([1, 2, 3].map(() => digester.digest({ plan: big, schemas: null })));
    for (const d of all) expect(d.counts.resource_additions).to.equal(800);
    const broken = big.subarray(0, big.length - 10);
    let failed: unknown;
    await digester.digest({ plan: broken, schemas: null }).catch((err: unknown) => (failed = err));
    expect(failed).to.be.instanceOf(Error);
  });
});
