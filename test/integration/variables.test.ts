import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { createOrg, createWorkspace, memberWithAccess, type TestUser } from '../helpers/fixtures.js';
import { harness } from '../helpers/harness.js';

type Org = { name: string; owner: TestUser };

const varDoc = (attrs: Record<string, unknown>) => doc('vars', attrs);

describe('workspace variables', function () {
  this.timeout(60_000);
  let org: Org;
  let ws: { id: string; name: string };
  let token: string;

  before(async () => {
    org = await createOrg();
    token = org.owner.token;
    ws = await createWorkspace(org);
  });

  const create = (attrs: Record<string, unknown>, as = token, workspaceId = ws.id) =>
    api('POST', `/workspaces/${workspaceId}/vars`, { token: as, body: varDoc(attrs) });

  it('creates, lists, updates and deletes a variable', async () => {
    const made = await create({ key: 'region', value: 'eu-west-1', description: 'where', category: 'terraform' });
    expect(made.status, made.text).to.equal(201);
    const v = made.body.data;
    expect(v.type).to.equal('vars');
    expect(v.id).to.match(/^var-/);
    expect(v.attributes).to.include({
      key: 'region',
      value: 'eu-west-1',
      description: 'where',
      category: 'terraform',
      hcl: false,
      sensitive: false,
    });
    expect(v.attributes['version-id']).to.be.a('string');
    expect(v.relationships.configurable.data).to.deep.equal({ type: 'workspaces', id: ws.id });

    const list = await api('GET', `/workspaces/${ws.id}/vars`, { token });
    expect(list.status).to.equal(200);
    expect(list.body.data.map((d: { id: string }) => d.id)).to.include(v.id);

    const patched = await api('PATCH', `/workspaces/${ws.id}/vars/${v.id}`, {
      token,
      body: varDoc({ value: 'us-east-1', hcl: false }),
    });
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body.data.attributes).to.include({ key: 'region', value: 'us-east-1', description: 'where' });
    expect(patched.body.data.attributes['version-id']).to.not.equal(v.attributes['version-id']);

    expect((await api('DELETE', `/workspaces/${ws.id}/vars/${v.id}`, { token })).status).to.equal(204);
    expect((await api('DELETE', `/workspaces/${ws.id}/vars/${v.id}`, { token })).status).to.equal(404);
  });

  it('validates keys and categories, and refuses a second key of a category with 422 "has already been taken"', async () => {
    expectError(await create({ value: 'x', category: 'terraform' }), 422, /key is required/);
    expectError(await create({ key: 'a' }), 422, /category is required/);
    expectError(await create({ key: 'a', category: 'other' }), 422, /category must be one of/);
    expectError(await create({ key: '', category: 'terraform' }), 422, /can't be blank/);
    expectError(await create({ key: '-abc', category: 'terraform' }), 422, /key is invalid/);
    expectError(await create({ key: 'a b', category: 'terraform' }), 422, /key is invalid/);
    expectError(await create({ key: 'A-B', category: 'env' }), 422, /key is invalid/);
    expectError(await create({ key: 'PATH', category: 'env' }), 422, /set by the service/);
    expect((await create({ key: 'my-var_1', category: 'terraform' })).status).to.equal(201);

    expect((await create({ key: 'dup', value: '1', category: 'terraform' })).status).to.equal(201);
    expectError(await create({ key: 'dup', value: '2', category: 'terraform' }), 422, /has already been taken/);
    // The same key in the other category is another variable.
    const env = await create({ key: 'dup', value: '3', category: 'env' });
    expect(env.status, env.text).to.equal(201);
    // Renaming onto a taken key is refused too.
    const other = (await create({ key: 'other', category: 'terraform' })).body.data.id;
    expectError(
      await api('PATCH', `/workspaces/${ws.id}/vars/${other}`, { token, body: varDoc({ key: 'dup' }) }),
      422,
      /has already been taken/,
    );
  });

  it('keeps a sensitive value write-only: null in every response, sealed in the database, sensitive for good', async () => {
    const secret = `s3cret-${Date.now()}`;
    const made = await create({ key: 'password', value: secret, category: 'terraform', sensitive: true });
    expect(made.status, made.text).to.equal(201);
    const id = made.body.data.id;
    expect(made.body.data.attributes.value).to.equal(null);
    expect(made.body.data.attributes.sensitive).to.equal(true);

    const list = await api('GET', `/workspaces/${ws.id}/vars`, { token });
    expect(list.text).to.not.include(secret);
    expect(list.body.data.find((d: { id: string }) => d.id === id).attributes.value).to.equal(null);
    const legacy = await api('GET', `/vars?filter[organization][name]=${org.name}&filter[workspace][name]=${ws.name}`, {
      token,
    });
    expect(legacy.status, legacy.text).to.equal(200);
    expect(legacy.text).to.not.include(secret);

    const patched = await api('PATCH', `/workspaces/${ws.id}/vars/${id}`, {
      token,
      body: varDoc({ description: 'db' }),
    });
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body.data.attributes.value).to.equal(null);
    expectError(
      await api('PATCH', `/workspaces/${ws.id}/vars/${id}`, { token, body: varDoc({ sensitive: false }) }),
      422,
      /cannot be made non-sensitive/,
    );

    const row = await harness().rt.db('variables').where({ id }).first();
    expect(row.value).to.equal(null);
    expect(row.value_sealed).to.be.a('string').and.not.include(secret);
    expect(JSON.stringify(row)).to.not.include(secret);

    // Making a plain variable sensitive seals the value it had.
    const plain = (await create({ key: 'token', value: `plain-${secret}`, category: 'env' })).body.data.id;
    const sealed = await api('PATCH', `/workspaces/${ws.id}/vars/${plain}`, {
      token,
      body: varDoc({ sensitive: true }),
    });
    expect(sealed.status, sealed.text).to.equal(200);
    expect(sealed.body.data.attributes).to.include({ value: null, sensitive: true });
    const after = await harness().rt.db('variables').where({ id: plain }).first();
    expect(JSON.stringify(after)).to.not.include(secret);
  });

  it('serves the older /vars endpoints', async () => {
    const made = await api('POST', '/vars', {
      token,
      body: doc(
        'vars',
        { key: 'legacy', value: 'v', category: 'env' },
        { workspace: { data: { type: 'workspaces', id: ws.id } } },
      ),
    });
    expect(made.status, made.text).to.equal(201);
    const id = made.body.data.id;
    const list = await api('GET', `/vars?filter[organization][name]=${org.name}&filter[workspace][name]=${ws.name}`, {
      token,
    });
    expect(list.body.data.map((d: { id: string }) => d.id)).to.include(id);
    expectError(await api('GET', `/vars?filter[organization][name]=${org.name}`, { token }), 400);
    expect(
      (await api('GET', `/vars?filter[organization][name]=${org.name}&filter[workspace][name]=nope`, { token })).status,
    ).to.equal(404);
    const patched = await api('PATCH', `/vars/${id}`, { token, body: varDoc({ value: 'w' }) });
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body.data.attributes.value).to.equal('w');
    expectError(
      await api('POST', '/vars', { token, body: varDoc({ key: 'x', category: 'env' }) }),
      422,
      /relationships is required/,
    );
    expect((await api('DELETE', `/vars/${id}`, { token })).status).to.equal(204);
    expect((await api('DELETE', `/vars/${id}`, { token })).status).to.equal(404);
  });

  it('lets read and plan access list (sensitive values null) and write access change; others get 404', async () => {
    const secret = `perm-${Date.now()}`;
    const target = await createWorkspace(org);
    const id = (await create({ key: 'k', value: secret, category: 'env', sensitive: true }, token, target.id)).body.data
      .id;
    const users = Object.fromEntries(
      await Promise.all(
        (['read', 'plan', 'write', 'admin'] as const).map(async (l) => [l, await memberWithAccess(org, target.id, l)]),
      ),
    );
    const outsider = (await createOrg()).owner;
    for (const level of ['read', 'plan', 'write', 'admin']) {
      const list = await api('GET', `/workspaces/${target.id}/vars`, { token: users[level].token });
      expect(list.status, `${level}: ${list.text}`).to.equal(200);
      expect(list.text).to.not.include(secret);
    }
    expect((await api('GET', `/workspaces/${target.id}/vars`, { token: outsider.token })).status).to.equal(404);
    for (const level of ['read', 'plan']) {
      expect((await create({ key: `x_${level}`, category: 'env' }, users[level].token, target.id)).status).to.equal(
        404,
      );
      expect(
        (
          await api('PATCH', `/workspaces/${target.id}/vars/${id}`, {
            token: users[level].token,
            body: varDoc({ description: 'no' }),
          })
        ).status,
      ).to.equal(404);
      expect((await api('DELETE', `/vars/${id}`, { token: users[level].token })).status).to.equal(404);
    }
    expect((await create({ key: 'x', category: 'env' }, outsider.token, target.id)).status).to.equal(404);
    for (const level of ['write', 'admin']) {
      const made = await create({ key: `x_${level}`, category: 'env' }, users[level].token, target.id);
      expect(made.status, made.text).to.equal(201);
      expect(
        (await api('PATCH', `/vars/${made.body.data.id}`, { token: users[level].token, body: varDoc({ value: 'y' }) }))
          .status,
      ).to.equal(200);
      expect(
        (await api('DELETE', `/workspaces/${target.id}/vars/${made.body.data.id}`, { token: users[level].token }))
          .status,
      ).to.equal(204);
    }
    // A variable is reached through its own workspace only.
    expect(
      (await api('PATCH', `/workspaces/${ws.id}/vars/${id}`, { token, body: varDoc({ description: 'no' }) })).status,
    ).to.equal(404);
  });
});
