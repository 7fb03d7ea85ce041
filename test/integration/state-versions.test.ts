import { expect } from 'chai';
import { createHash, randomUUID } from 'node:crypto';
import { api, expectError } from '../helpers/api.js';
import { createOrg, createWorkspace, memberWithAccess, onTestServer, putArchive } from '../helpers/fixtures.js';

type Org = Awaited<ReturnType<typeof createOrg>>;

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const lock = (id: string, token: string) => api('POST', `/workspaces/${id}/actions/lock`, { token, body: {} });
const unlock = (id: string, token: string) => api('POST', `/workspaces/${id}/actions/unlock`, { token, body: {} });

/** A Terraform state file with one plain and one sensitive output. */
function stateFile(serial: number, lineage: string, value = 'hello'): Buffer {
  return Buffer.from(
    JSON.stringify({
      version: 4,
      terraform_version: '1.11.4',
      serial,
      lineage,
      outputs: { greeting: { value, type: 'string' }, secret: { value: 'hunter2', type: 'string', sensitive: true } },
      resources: [],
      check_results: null,
    }),
  );
}

const create = (wsId: string, token: string, attributes: Record<string, unknown>) =>
  api('POST', `/workspaces/${wsId}/state-versions`, { token, body: { data: { type: 'state-versions', attributes } } });

/** Creates a state version with its state inline. */
const push = (wsId: string, token: string, state: Buffer, extra: Record<string, unknown> = {}) => {
  const parsed = JSON.parse(state.toString()) as { serial: number; lineage: string };
  return create(wsId, token, {
    serial: parsed.serial,
    lineage: parsed.lineage,
    md5: md5(state),
    state: state.toString('base64'),
    ...extra,
  });
};

describe('state versions', function () {
  this.timeout(60_000);
  let org: Org;
  let token: string;

  beforeEach(async () => {
    org = await createOrg();
    token = org.owner.token;
  });

  it('creates a version with its state inline only for the lock holder, and makes it current', async () => {
    const ws = await createWorkspace(org);
    const lineage = randomUUID();
    const state = stateFile(1, lineage);
    expectError(await push(ws.id, token, state), 409, /must be locked by the caller/);
    const writer = await memberWithAccess(org, ws.id, 'write');
    expect((await lock(ws.id, writer.token)).status).to.equal(200);
    // Locked by someone else.
    expectError(await push(ws.id, token, state), 409, /must be locked by the caller/);
    expect((await unlock(ws.id, writer.token)).status).to.equal(200);
    expect((await lock(ws.id, token)).status).to.equal(200);

    const created = await push(ws.id, token, state);
    expect(created.status, created.text).to.equal(201);
    expect(created.body.data.attributes).to.include({
      serial: 1,
      lineage,
      status: 'finalized',
      md5: md5(state),
      size: state.length,
    });
    expect(created.body.data.attributes['hosted-state-download-url']).to.be.a('string');

    const current = await api('GET', `/workspaces/${ws.id}/current-state-version`, { token });
    expect(current.body.data.id).to.equal(created.body.data.id);
    const download = await fetch(await onTestServer(current.body.data.attributes['hosted-state-download-url']));
    expect(Buffer.from(await download.arrayBuffer()).equals(state)).to.equal(true);
    const outputs = await api('GET', `/workspaces/${ws.id}/current-state-version-outputs`, { token });
    const byName = Object.fromEntries(
      outputs.body.data.map((o: { attributes: { name: string; value: unknown } }) => [
        o.attributes.name,
        o.attributes.value,
      ]),
    );
    expect(byName).to.deep.equal({ greeting: 'hello', secret: null });
  });

  it('validates: missing serial or md5, bad base64, md5 mismatch, a state that is not JSON (422)', async () => {
    const ws = await createWorkspace(org);
    await lock(ws.id, token);
    const state = stateFile(1, randomUUID());
    expectError(await create(ws.id, token, { md5: md5(state) }), 422);
    expectError(await create(ws.id, token, { serial: 1 }), 422);
    expectError(await create(ws.id, token, { serial: 1, md5: 'nothex', state: state.toString('base64') }), 422, /md5/);
    expectError(await create(ws.id, token, { serial: 1, md5: md5(state), state: '%%%not base64%%%' }), 422, /base64/);
    expectError(await push(ws.id, token, state, { md5: md5(Buffer.from('other')) }), 422, /md5 does not match/);
    const notJson = Buffer.from('not json');
    expectError(
      await create(ws.id, token, { serial: 1, md5: md5(notJson), state: notJson.toString('base64') }),
      422,
      /not valid JSON/,
    );
    expect((await api('GET', `/workspaces/${ws.id}/state-versions`, { token })).body.data).to.have.length(0);
  });

  it('refuses a lower serial, the same serial with another state, and another lineage (409), unless forced; takes the same state again', async () => {
    const ws = await createWorkspace(org);
    await lock(ws.id, token);
    const lineage = randomUUID();
    expect((await push(ws.id, token, stateFile(3, lineage))).status).to.equal(201);
    expectError(
      await push(ws.id, token, stateFile(3, lineage, 'changed')),
      409,
      /serial 3 is the current state version's serial and the state differs/,
    );
    expectError(
      await push(ws.id, token, stateFile(2, lineage)),
      409,
      /serial 2 is lower than the current state version's serial 3/,
    );
    expectError(await push(ws.id, token, stateFile(4, randomUUID())), 409, /lineage/);
    // The same bytes with the same serial are a state stored again: a new version, current.
    const again = await push(ws.id, token, stateFile(3, lineage));
    expect(again.status, again.text).to.equal(201);
    expect((await api('GET', `/workspaces/${ws.id}/current-state-version`, { token })).body.data.id).to.equal(
      again.body.data.id,
    );
    const forced = await push(ws.id, token, stateFile(1, randomUUID()), { force: true });
    expect(forced.status, forced.text).to.equal(201);
    expect(
      (await api('GET', `/workspaces/${ws.id}/current-state-version`, { token })).body.data.attributes.serial,
    ).to.equal(1);
  });

  it('creates a pending version finalized through its upload URLs (state checked against the md5; JSON state once)', async () => {
    const ws = await createWorkspace(org);
    await lock(ws.id, token);
    const lineage = randomUUID();
    const state = stateFile(5, lineage, 'uploaded');
    const created = await create(ws.id, token, { serial: 5, lineage, md5: md5(state) });
    expect(created.status, created.text).to.equal(201);
    const attrs = created.body.data.attributes;
    expect(attrs.status).to.equal('pending');
    expect(attrs['hosted-state-download-url']).to.equal(null);
    expect(attrs['hosted-state-upload-url']).to.be.a('string');
    expect(attrs['hosted-json-state-upload-url']).to.be.a('string');
    // Not current until its state arrives.
    expect((await api('GET', `/workspaces/${ws.id}/current-state-version`, { token })).status).to.equal(404);

    const wrong = await putArchive(attrs['hosted-state-upload-url'], stateFile(5, lineage, 'tampered'));
    expect(wrong.status, wrong.text).to.equal(422);
    expect(
      (await api('GET', `/state-versions/${created.body.data.id}`, { token })).body.data.attributes.status,
    ).to.equal('pending');

    const json = Buffer.from(JSON.stringify({ format_version: '1.0', values: {} }));
    expect((await putArchive(attrs['hosted-json-state-upload-url'], json)).status).to.equal(200);
    expect((await putArchive(attrs['hosted-json-state-upload-url'], json)).status).to.equal(403);
    const put = await putArchive(attrs['hosted-state-upload-url'], state);
    expect(put.status, put.text).to.equal(200);
    expect((await putArchive(attrs['hosted-state-upload-url'], state)).status).to.equal(403);

    const shown = await api('GET', `/state-versions/${created.body.data.id}?include=outputs`, { token });
    expect(shown.body.data.attributes).to.include({ status: 'finalized', serial: 5, size: state.length });
    expect(shown.body.data.attributes['hosted-json-state-download-url']).to.be.a('string');
    expect(shown.body.included.map((o: { attributes: { name: string } }) => o.attributes.name)).to.deep.equal([
      'greeting',
      'secret',
    ]);
    const current = await api('GET', `/workspaces/${ws.id}/current-state-version`, { token });
    expect(current.body.data.id).to.equal(created.body.data.id);
  });

  it('shows read and plan access outputs without sensitive values and no downloads; write access whole states; creating needs write', async () => {
    const ws = await createWorkspace(org);
    await lock(ws.id, token);
    const created = await push(ws.id, token, stateFile(1, randomUUID()));
    const svId = created.body.data.id;
    const secretId = created.body.included.find(
      (o: { attributes: { name: string } }) => o.attributes.name === 'secret',
    ).id;
    for (const level of ['read', 'plan'] as const) {
      const member = await memberWithAccess(org, ws.id, level);
      const shown = await api('GET', `/state-versions/${svId}`, { token: member.token });
      expect(shown.status).to.equal(200);
      expect(shown.body.data.attributes['hosted-state-download-url']).to.equal(null);
      const listed = await api('GET', `/workspaces/${ws.id}/state-versions`, { token: member.token });
      expect(listed.body.data[0].attributes['hosted-state-download-url']).to.equal(null);
      expect(
        (await api('GET', `/state-version-outputs/${secretId}`, { token: member.token })).body.data.attributes.value,
      ).to.equal(null);
      expectError(await push(ws.id, member.token, stateFile(2, 'x')), 404);
    }
    const writer = await memberWithAccess(org, ws.id, 'write');
    expect(
      (await api('GET', `/state-versions/${svId}`, { token: writer.token })).body.data.attributes[
        'hosted-state-download-url'
      ],
    ).to.be.a('string');
    expect(
      (await api('GET', `/state-version-outputs/${secretId}`, { token: writer.token })).body.data.attributes.value,
    ).to.equal('hunter2');
    const outsider = await createOrg();
    expectError(await api('GET', `/state-versions/${svId}`, { token: outsider.owner.token }), 404);
  });

  it("lists a workspace's versions newest first, by workspace and organization name, with outputs on request", async () => {
    const ws = await createWorkspace(org);
    await lock(ws.id, token);
    const lineage = randomUUID();
    for (const serial of [1, 2, 3]) expect((await push(ws.id, token, stateFile(serial, lineage))).status).to.equal(201);
    const listed = await api('GET', `/workspaces/${ws.id}/state-versions?page[size]=2`, { token });
    expect(listed.body.data.map((d: { attributes: { serial: number } }) => d.attributes.serial)).to.deep.equal([3, 2]);
    expect(listed.body.meta.pagination['total-count']).to.equal(3);
    const byName = await api(
      'GET',
      `/state-versions?filter[workspace][name]=${ws.name}&filter[organization][name]=${org.name}&include=outputs`,
      { token },
    );
    expect(byName.status, byName.text).to.equal(200);
    expect(byName.body.data).to.have.length(3);
    expect(byName.body.included).to.have.length(6);
    expectError(await api('GET', `/state-versions?filter[workspace][name]=${ws.name}`, { token }), 400);
    const outsider = await createOrg();
    expectError(
      await api('GET', `/state-versions?filter[workspace][name]=${ws.name}&filter[organization][name]=${org.name}`, {
        token: outsider.owner.token,
      }),
      404,
    );
    const outputs = await api('GET', `/state-versions/${listed.body.data[0].id}/outputs`, { token });
    expect(outputs.body.data).to.have.length(2);
  });

  it('rolls back to an earlier version as a new version with the next serial (lock required)', async () => {
    const ws = await createWorkspace(org);
    await lock(ws.id, token);
    const lineage = randomUUID();
    const first = await push(ws.id, token, stateFile(1, lineage, 'first'));
    await push(ws.id, token, stateFile(2, lineage, 'second'));
    const body = { data: { type: 'state-versions', id: first.body.data.id } };
    await unlock(ws.id, token);
    expectError(
      await api('POST', `/workspaces/${ws.id}/actions/rollback`, { token, body }),
      409,
      /locked by the caller/,
    );
    await lock(ws.id, token);
    const rolled = await api('POST', `/workspaces/${ws.id}/actions/rollback`, { token, body });
    expect(rolled.status, rolled.text).to.equal(201);
    expect(rolled.body.data.attributes).to.include({ serial: 3, lineage, status: 'finalized' });
    const outputs = await api('GET', `/workspaces/${ws.id}/current-state-version-outputs`, { token });
    expect(
      outputs.body.data.find((o: { attributes: { name: string } }) => o.attributes.name === 'greeting').attributes
        .value,
    ).to.equal('first');
    const other = await createWorkspace(org);
    await lock(other.id, token);
    expectError(await api('POST', `/workspaces/${other.id}/actions/rollback`, { token, body }), 422);
  });

  it('manages remote state consumers (admin), same organization only', async () => {
    const ws = await createWorkspace(org);
    const a = await createWorkspace(org);
    const b = await createWorkspace(org);
    const path = `/workspaces/${ws.id}/relationships/remote-state-consumers`;
    const linkage = (...ids: string[]) => ({ data: ids.map((id) => ({ type: 'workspaces', id })) });
    const ids = async () => (await api('GET', path, { token })).body.data.map((d: { id: string }) => d.id).sort();
    expect((await api('POST', path, { token, body: linkage(a.id) })).status).to.equal(204);
    expect(await ids()).to.deep.equal([a.id]);
    expect((await api('PATCH', path, { token, body: linkage(b.id) })).status).to.equal(204);
    expect(await ids()).to.deep.equal([b.id]);
    expect((await api('DELETE', path, { token, body: linkage(b.id) })).status).to.equal(204);
    expect(await ids()).to.deep.equal([]);
    const foreign = await createWorkspace(await createOrg());
    expectError(await api('POST', path, { token, body: linkage(foreign.id) }), 422);
    const writer = await memberWithAccess(org, ws.id, 'write');
    expectError(await api('POST', path, { token: writer.token, body: linkage(a.id) }), 404);
    expect((await api('GET', path, { token: writer.token })).status).to.equal(200);
  });

  it("gives a workspace its organization's default execution mode when created without one", async () => {
    const patched = await api('PATCH', `/organizations/${org.name}`, {
      token,
      body: { data: { type: 'organizations', attributes: { 'default-execution-mode': 'local' } } },
    });
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body.data.attributes['default-execution-mode']).to.equal('local');
    const ws = await api('GET', `/workspaces/${(await createWorkspace(org)).id}`, { token });
    expect(ws.body.data.attributes['execution-mode']).to.equal('local');
    const remote = await api('GET', `/workspaces/${(await createWorkspace(org, { 'execution-mode': 'remote' })).id}`, {
      token,
    });
    expect(remote.body.data.attributes['execution-mode']).to.equal('remote');
  });
});
