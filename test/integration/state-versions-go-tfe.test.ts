import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { api, expectError } from '../helpers/api.js';
import { createOrg, createWorkspace, memberWithAccess, putArchive } from '../helpers/fixtures.js';

type Org = Awaited<ReturnType<typeof createOrg>>;

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const lock = (id: string, token: string) => api('POST', `/workspaces/${id}/actions/lock`, { token, body: {} });

/** A state file like go-tfe's fixture: its own serial 5 and lineage, one managed resource in a module, a sensitive output. */
function fixtureState(extra: Record<string, unknown> = {}): Buffer {
  return Buffer.from(
    `${JSON.stringify(
      {
        version: 4,
        terraform_version: '1.3.6',
        serial: 5,
        lineage: '8094ef40-1dbd-95cd-1f60-bb25d84d883b',
        outputs: {
          test_output_string: { value: '9023256633839603543', type: 'string', sensitive: true },
          test_output_number: { value: 5, type: 'number' },
          test_output_bool: { value: true, type: 'bool' },
        },
        resources: [
          {
            module: 'module.media_bucket',
            mode: 'managed',
            type: 'aws_s3_bucket_public_access_block',
            name: 'this',
            provider: 'provider["registry.terraform.io/hashicorp/aws"]',
            instances: [{ index_key: 0, schema_version: 0, attributes: { id: 'b' }, sensitive_attributes: [] }],
          },
        ],
        check_results: null,
        ...extra,
      },
      null,
      2,
    )}\n`,
  );
}

/** What go-tfe's StateVersions.Create sends: the declared serial (and lineage when given), the md5 and the base64 state. */
const create = (wsId: string, token: string, attributes: Record<string, unknown>) =>
  api('POST', `/workspaces/${wsId}/state-versions`, { token, body: { data: { type: 'state-versions', attributes } } });

describe('state versions as go-tfe writes them', function () {
  this.timeout(60_000);
  let org: Org;
  let token: string;
  const state = fixtureState();

  beforeEach(async () => {
    org = await createOrg();
    token = org.owner.token;
  });

  it('stores serials 0 and 1 declared for a state whose own serial is 5, each with its declared serial', async () => {
    const ws = await createWorkspace(org);
    for (const serial of [0, 1]) {
      expect((await lock(ws.id, token)).status).to.equal(200);
      const sv = await create(ws.id, token, { serial, md5: md5(state), state: state.toString('base64') });
      expect(sv.status, sv.text).to.equal(201);
      expect(sv.body.data.attributes).to.include({
        serial,
        status: 'finalized',
        lineage: '8094ef40-1dbd-95cd-1f60-bb25d84d883b',
        'billable-rum-count': 1,
      });
      expect((await api('POST', `/workspaces/${ws.id}/actions/unlock`, { token, body: {} })).status).to.equal(200);
    }
    const listed = await api(
      'GET',
      `/state-versions?filter[organization][name]=${org.name}&filter[workspace][name]=${ws.name}`,
      { token },
    );
    expect(listed.body.data.map((d: { attributes: { serial: number } }) => d.attributes.serial)).to.deep.equal([1, 0]);
    expect(listed.body.meta.pagination['total-count']).to.equal(2);
    // The download is the stored bytes, with the file's own serial.
    const download = await fetch(listed.body.data[0].attributes['hosted-state-download-url']);
    expect(Buffer.from(await download.arrayBuffer()).equals(state)).to.equal(true);
  });

  it("keeps a declared lineage that differs from the file's, takes the same state again at the same serial, and another lineage only with force", async () => {
    const ws = await createWorkspace(org);
    await lock(ws.id, token);
    const declared = {
      lineage: '741c4949-60b9-5bb1-5bf8-b14f4bb14af3',
      md5: md5(state),
      serial: 1,
      state: state.toString('base64'),
    };
    const first = await create(ws.id, token, declared);
    expect(first.status, first.text).to.equal(201);
    expect(first.body.data.attributes).to.include({ serial: 1, lineage: declared.lineage });
    const again = await create(ws.id, token, declared);
    expect(again.status, again.text).to.equal(201);
    const other = { ...declared, lineage: '821c4747-a0b9-3bd1-8bf3-c14f4bb14be7', serial: 2 };
    expectError(await create(ws.id, token, other), 409, /lineage/);
    const forced = await create(ws.id, token, { ...other, force: true });
    expect(forced.status, forced.text).to.equal(201);
    expect(forced.body.data.attributes).to.include({ serial: 2, lineage: other.lineage });
  });

  it("keeps the CLI's order: a lower serial or other content at the same serial is refused (409) and nothing is stored", async () => {
    const ws = await createWorkspace(org);
    await lock(ws.id, token);
    expect(
      (await create(ws.id, token, { serial: 5, md5: md5(state), state: state.toString('base64') })).status,
    ).to.equal(201);
    const older = fixtureState({ serial: 4 });
    expectError(
      await create(ws.id, token, { serial: 4, md5: md5(older), state: older.toString('base64') }),
      409,
      /serial 4 is lower/,
    );
    const changed = fixtureState({ terraform_version: '1.3.7' });
    expectError(
      await create(ws.id, token, { serial: 5, md5: md5(changed), state: changed.toString('base64') }),
      409,
      /differs/,
    );
    expect((await api('GET', `/workspaces/${ws.id}/state-versions`, { token })).body.data).to.have.length(1);
  });

  it('finalizes a pending version through the raw PUT of a state whose own serial and lineage differ from the declared ones', async () => {
    const ws = await createWorkspace(org);
    await lock(ws.id, token);
    const outputs = Buffer.from(JSON.stringify({ a: { sensitive: false, value: 1, type: 'number' } }));
    const created = await create(ws.id, token, {
      lineage: '741c4949-60b9-5bb1-5bf8-b14f4bb14af3',
      md5: md5(state),
      serial: 1,
      'json-state-outputs': outputs.toString('base64'),
    });
    expect(created.status, created.text).to.equal(201);
    const attrs = created.body.data.attributes;
    expect(attrs.status).to.equal('pending');
    const put = await putArchive(attrs['hosted-state-upload-url'], state);
    expect(put.status, put.text).to.equal(200);
    const json = Buffer.from(JSON.stringify({ format_version: '1.0', values: {} }));
    expect((await putArchive(attrs['hosted-json-state-upload-url'], json)).status).to.equal(200);
    const shown = await api('GET', `/state-versions/${created.body.data.id}`, { token });
    expect(shown.body.data.attributes).to.include({
      status: 'finalized',
      serial: 1,
      lineage: '741c4949-60b9-5bb1-5bf8-b14f4bb14af3',
      'resources-processed': true,
    });
    expect(shown.body.data.attributes['hosted-state-download-url']).to.be.a('string');
  });

  it('refuses the PUT of a pending version when a version it may not follow was stored since (409)', async () => {
    const ws = await createWorkspace(org);
    await lock(ws.id, token);
    const pending = await create(ws.id, token, { serial: 1, md5: md5(state) });
    expect(pending.status, pending.text).to.equal(201);
    expect(
      (await create(ws.id, token, { serial: 2, md5: md5(state), state: state.toString('base64') })).status,
    ).to.equal(201);
    const put = await putArchive(pending.body.data.attributes['hosted-state-upload-url'], state);
    expect(put.status, put.text).to.equal(409);
    expect(
      (await api('GET', `/state-versions/${pending.body.data.id}`, { token })).body.data.attributes.status,
    ).to.equal('pending');
  });

  it("lists a version's outputs paged, with sensitive values for whole-state readers only", async () => {
    const ws = await createWorkspace(org);
    await lock(ws.id, token);
    const sv = await create(ws.id, token, { serial: 0, md5: md5(state), state: state.toString('base64') });
    const path = `/state-versions/${sv.body.data.id}/outputs`;
    const all = await api('GET', path, { token });
    expect(all.status, all.text).to.equal(200);
    const values = Object.fromEntries(
      all.body.data.map((o: { attributes: { name: string; value: unknown } }) => [
        o.attributes.name,
        o.attributes.value,
      ]),
    );
    expect(values).to.deep.equal({
      test_output_bool: true,
      test_output_number: 5,
      test_output_string: '9023256633839603543',
    });
    const far = await api('GET', `${path}?page%5Bnumber%5D=999&page%5Bsize%5D=100`, { token });
    expect(far.body.data).to.deep.equal([]);
    expect(far.body.meta.pagination).to.include({ 'current-page': 999, 'total-count': 3 });
    const reader = await memberWithAccess(org, ws.id, 'read');
    const read = await api('GET', path, { token: reader.token });
    expect(
      read.body.data.find((o: { attributes: { name: string } }) => o.attributes.name === 'test_output_string')
        .attributes.value,
    ).to.equal(null);
    // The current outputs withhold sensitive values from everyone, as go-tfe expects.
    const current = await api('GET', `/workspaces/${ws.id}/current-state-version-outputs`, { token });
    expect(
      current.body.data.find((o: { attributes: { name: string } }) => o.attributes.name === 'test_output_string')
        .attributes.value,
    ).to.equal(null);
  });

  it('lists the managed resource instances of the current state as workspace resources, paged; read access; 404 for others', async () => {
    const ws = await createWorkspace(org);
    const empty = await api('GET', `/workspaces/${ws.id}/resources`, { token });
    expect(empty.status, empty.text).to.equal(200);
    expect(empty.body.data).to.deep.equal([]);
    await lock(ws.id, token);
    const more = fixtureState({
      resources: [
        ...(JSON.parse(state.toString()) as { resources: unknown[] }).resources,
        {
          mode: 'data',
          type: 'aws_ami',
          name: 'ubuntu',
          provider: 'provider["registry.terraform.io/hashicorp/aws"]',
          instances: [{ attributes: {} }],
        },
        {
          mode: 'managed',
          type: 'random_pet',
          name: 'animal',
          provider: 'provider["registry.terraform.io/hashicorp/random"].other',
          instances: [{ attributes: {} }],
        },
        {
          mode: 'managed',
          type: 'null_resource',
          name: 'each',
          provider: 'provider["registry.terraform.io/hashicorp/null"]',
          instances: [{ index_key: 'a', attributes: {} }],
        },
        {
          mode: 'managed',
          type: 'null_resource',
          name: 'gone',
          provider: 'provider["registry.terraform.io/hashicorp/null"]',
          instances: [],
        },
      ],
    });
    const sv = await create(ws.id, token, { serial: 0, md5: md5(more), state: more.toString('base64') });
    expect(sv.status, sv.text).to.equal(201);
    const listed = await api('GET', `/workspaces/${ws.id}/resources`, { token });
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.body.meta.pagination).to.include({ 'current-page': 1, 'total-count': 3 });
    const [bucket, pet, each] = listed.body.data as { id: string; type: string; attributes: Record<string, unknown> }[];
    expect(bucket.type).to.equal('resources');
    expect(bucket.id).to.match(/^wsr-/);
    expect(bucket.attributes).to.include({
      address: 'media_bucket.aws_s3_bucket_public_access_block.this[0]',
      name: 'this',
      module: 'media_bucket',
      provider: 'hashicorp/aws',
      'provider-type': 'aws_s3_bucket_public_access_block',
      'name-index': '0',
      'modified-by-state-version-id': sv.body.data.id,
    });
    expect(pet.attributes).to.include({
      address: 'random_pet.animal',
      module: 'root',
      provider: 'hashicorp/random',
      'name-index': null,
    });
    expect(each.attributes).to.include({ address: 'null_resource.each["a"]', 'name-index': 'a' });
    const far = await api('GET', `/workspaces/${ws.id}/resources?page%5Bnumber%5D=999&page%5Bsize%5D=100`, { token });
    expect(far.body.data).to.deep.equal([]);
    expect(far.body.meta.pagination).to.include({ 'current-page': 999, 'total-count': 3 });
    const reader = await memberWithAccess(org, ws.id, 'read');
    expect((await api('GET', `/workspaces/${ws.id}/resources`, { token: reader.token })).body.data).to.have.length(3);
    const outsider = await createOrg();
    expectError(await api('GET', `/workspaces/${ws.id}/resources`, { token: outsider.owner.token }), 404);
  });
});
