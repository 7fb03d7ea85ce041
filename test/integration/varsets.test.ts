import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import {
  createOrg,
  createTeam,
  createUser,
  createWorkspace,
  joinOrg,
  memberWithAccess,
  uniq,
  type TestUser,
} from '../helpers/fixtures.js';
import { harness } from '../helpers/harness.js';
import { resolveVariables, type CandidateVariable } from '../../shared/variables/rules.js';

type Org = { name: string; owner: TestUser };

const ws = (id: string) => ({ type: 'workspaces', id });

describe('variable sets', function () {
  this.timeout(60_000);
  let org: Org;
  let token: string;

  before(async () => {
    org = await createOrg();
    token = org.owner.token;
  });

  const newSet = async (attrs: Record<string, unknown> = {}, workspaces: string[] = []) => {
    const res = await api('POST', `/organizations/${org.name}/varsets`, {
      token,
      body: doc(
        'varsets',
        { name: uniq('set'), ...attrs },
        workspaces.length ? { workspaces: { data: workspaces.map(ws) } } : undefined,
      ),
    });
    expect(res.status, res.text).to.equal(201);
    return res.body.data;
  };

  it('creates, shows, lists, updates and deletes a set; names are unique in the organization', async () => {
    const w = await createWorkspace(org);
    const set = await newSet({ description: 'd', priority: true }, [w.id]);
    expect(set.type).to.equal('varsets');
    expect(set.id).to.match(/^varset-/);
    expect(set.attributes).to.include({
      description: 'd',
      global: false,
      priority: true,
      'workspace-count': 1,
      'var-count': 0,
    });
    expect(set.relationships.workspaces.data).to.deep.equal([ws(w.id)]);

    const shown = await api('GET', `/varsets/${set.id}`, { token });
    expect(shown.status).to.equal(200);
    const list = await api('GET', `/organizations/${org.name}/varsets`, { token });
    expect(list.body.data.map((s: { id: string }) => s.id)).to.include(set.id);
    expect(list.body.meta.pagination['total-count']).to.be.at.least(1);

    const again = await api('POST', `/organizations/${org.name}/varsets`, {
      token,
      body: doc('varsets', { name: set.attributes.name }),
    });
    expectError(again, 422, /has already been taken/);

    const patched = await api('PATCH', `/varsets/${set.id}`, { token, body: doc('varsets', { global: true }) });
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body.data.attributes).to.include({ global: true, 'workspace-count': 0 });
    expectError(
      await api('POST', `/varsets/${set.id}/relationships/workspaces`, { token, body: { data: [ws(w.id)] } }),
      422,
      /global/,
    );

    expect((await api('DELETE', `/varsets/${set.id}`, { token })).status).to.equal(204);
    expect((await api('GET', `/varsets/${set.id}`, { token })).status).to.equal(404);
  });

  it('holds variables (sensitive write-only) and applies to and is removed from workspaces', async () => {
    const set = await newSet();
    const secret = `vs-${Date.now()}`;
    const made = await api('POST', `/varsets/${set.id}/relationships/vars`, {
      token,
      body: doc('vars', { key: 'pw', value: secret, category: 'terraform', sensitive: true }),
    });
    expect(made.status, made.text).to.equal(201);
    expect(made.body.data.attributes.value).to.equal(null);
    expect(made.body.data.relationships.varset.data).to.deep.equal({ type: 'varsets', id: set.id });
    const varId = made.body.data.id;
    expectError(
      await api('POST', `/varsets/${set.id}/relationships/vars`, {
        token,
        body: doc('vars', { key: 'pw', category: 'terraform' }),
      }),
      422,
      /has already been taken/,
    );
    const listed = await api('GET', `/varsets/${set.id}/relationships/vars`, { token });
    expect(listed.status).to.equal(200);
    expect(listed.text).to.not.include(secret);
    const patched = await api('PATCH', `/varsets/${set.id}/relationships/vars/${varId}`, {
      token,
      body: doc('vars', { description: 'x' }),
    });
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.text).to.not.include(secret);
    const row = await harness().rt.db('variables').where({ id: varId }).first();
    expect(JSON.stringify(row)).to.not.include(secret);

    const w = await createWorkspace(org);
    expect(
      (await api('POST', `/varsets/${set.id}/relationships/workspaces`, { token, body: { data: [ws(w.id)] } })).status,
    ).to.equal(204);
    const applied = await api('GET', `/workspaces/${w.id}/varsets`, { token });
    expect(applied.status).to.equal(200);
    expect(applied.body.data.map((s: { id: string }) => s.id)).to.include(set.id);
    expect((await api('GET', `/varsets/${set.id}`, { token })).body.data.attributes['var-count']).to.equal(1);
    const foreign = await createWorkspace(await createOrg());
    expectError(
      await api('POST', `/varsets/${set.id}/relationships/workspaces`, { token, body: { data: [ws(foreign.id)] } }),
      422,
      /not found in organization/,
    );
    expect(
      (await api('DELETE', `/varsets/${set.id}/relationships/workspaces`, { token, body: { data: [ws(w.id)] } }))
        .status,
    ).to.equal(204);
    expect(
      (await api('GET', `/workspaces/${w.id}/varsets`, { token })).body.data.map((s: { id: string }) => s.id),
    ).to.not.include(set.id);

    expect((await api('DELETE', `/varsets/${set.id}/relationships/vars/${varId}`, { token })).status).to.equal(204);
    expect((await api('DELETE', `/varsets/${set.id}/relationships/vars/${varId}`, { token })).status).to.equal(404);
  });

  it('needs manage-var-sets to change sets; members see global sets and sets applied to workspaces they read', async () => {
    const w = await createWorkspace(org);
    const other = await createWorkspace(org);
    const applied = await newSet({}, [w.id]);
    const elsewhere = await newSet({}, [other.id]);
    const global = await newSet({ global: true });
    const reader = await memberWithAccess(org, w.id, 'read');
    const writer = await memberWithAccess(org, w.id, 'write');
    const outsider = (await createOrg()).owner;

    for (const user of [reader, writer]) {
      expect((await api('GET', `/varsets/${applied.id}`, { token: user.token })).status).to.equal(200);
      expect((await api('GET', `/varsets/${global.id}`, { token: user.token })).status).to.equal(200);
      expect((await api('GET', `/varsets/${applied.id}/relationships/vars`, { token: user.token })).status).to.equal(
        200,
      );
      expect((await api('GET', `/varsets/${elsewhere.id}`, { token: user.token })).status).to.equal(404);
      const listed = (await api('GET', `/organizations/${org.name}/varsets`, { token: user.token })).body.data.map(
        (s: { id: string }) => s.id,
      );
      expect(listed).to.include.members([applied.id, global.id]);
      expect(listed).to.not.include(elsewhere.id);
      const onWorkspace = (await api('GET', `/workspaces/${w.id}/varsets`, { token: user.token })).body.data.map(
        (s: { id: string }) => s.id,
      );
      expect(onWorkspace).to.include.members([applied.id, global.id]);
      expect(onWorkspace).to.not.include(elsewhere.id);
      // Workspace write access does not manage sets.
      expect(
        (
          await api('PATCH', `/varsets/${applied.id}`, {
            token: user.token,
            body: doc('varsets', { description: 'x' }),
          })
        ).status,
      ).to.equal(404);
      expect(
        (
          await api('POST', `/varsets/${applied.id}/relationships/vars`, {
            token: user.token,
            body: doc('vars', { key: 'k', category: 'env' }),
          })
        ).status,
      ).to.equal(404);
      expect(
        (
          await api('POST', `/organizations/${org.name}/varsets`, {
            token: user.token,
            body: doc('varsets', { name: uniq('s') }),
          })
        ).status,
      ).to.equal(404);
    }
    for (const path of [
      `/varsets/${applied.id}`,
      `/varsets/${global.id}`,
      `/organizations/${org.name}/varsets`,
      `/workspaces/${w.id}/varsets`,
    ]) {
      expect((await api('GET', path, { token: outsider.token })).status, path).to.equal(404);
    }

    // A team with manage-var-sets manages every set of the organization.
    const manager = await createUser();
    await joinOrg(org, manager);
    const team = await createTeam(org, { 'organization-access': { 'manage-var-sets': true } });
    expect(
      (
        await api('POST', `/teams/${team}/relationships/users`, {
          token,
          body: { data: [{ type: 'users', id: manager.username }] },
        })
      ).status,
    ).to.equal(204);
    expect((await api('GET', `/varsets/${elsewhere.id}`, { token: manager.token })).status).to.equal(200);
    expect(
      (
        await api('PATCH', `/varsets/${elsewhere.id}`, {
          token: manager.token,
          body: doc('varsets', { description: 'managed' }),
        })
      ).status,
    ).to.equal(200);
    expect(
      (
        await api('POST', `/organizations/${org.name}/varsets`, {
          token: manager.token,
          body: doc('varsets', { name: uniq('m') }),
        })
      ).status,
    ).to.equal(201);
  });

  it('resolves precedence: priority set > run > workspace > set applied to the workspace > global set, then by set name', () => {
    const c = (
      source: CandidateVariable['source'],
      value: string,
      extra: Partial<CandidateVariable> = {},
    ): CandidateVariable => ({ key: 'x', category: 'terraform', value, source, ...extra });
    const winner = (...cs: CandidateVariable[]) => resolveVariables(cs).find((v) => v.key === 'x')!.value;
    expect(
      winner(c('varset', 'g', { global: true, setName: 'a' }), c('varset', 'w', { global: false, setName: 'z' })),
    ).to.equal('w');
    expect(
      winner(c('varset', 'b', { global: false, setName: 'B' }), c('varset', 'a', { global: false, setName: 'A' })),
    ).to.equal('a');
    expect(winner(c('varset', 's', { setName: 'a' }), c('workspace', 'ws'))).to.equal('ws');
    expect(winner(c('workspace', 'ws'), c('run', 'run'))).to.equal('run');
    expect(winner(c('run', 'run'), c('priority-varset', 'p', { global: true, setName: 'z' }))).to.equal('p');
    expect(
      winner(
        c('priority-varset', 'pg', { global: true, setName: 'a' }),
        c('priority-varset', 'pw', { global: false, setName: 'z' }),
      ),
    ).to.equal('pw');
    // Categories are separate: an env variable of the same key does not compete.
    const both = resolveVariables([
      c('workspace', 'tf'),
      { key: 'x', category: 'env', value: 'env', source: 'varset', setName: 'a' },
    ]);
    expect(both.map((v) => `${v.category}:${v.value}`)).to.deep.equal(['env:env', 'terraform:tf']);
  });
});
