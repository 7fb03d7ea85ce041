import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { harness, secondAppForSuite } from '../helpers/harness.js';
import { countRows, createOrg, createUser, createWorkspace } from '../helpers/fixtures.js';
import {
  createPolicy,
  createPolicySet,
  idsOf,
  linkages,
  memberWithPermissions,
  orgForSuite,
  policyDoc,
  policySetDoc,
  refusedPolicy,
  uploadCode,
  type Org,
} from '../helpers/policy-fixtures.js';
import { policySetsForRun } from '../../shared/policies/repo.js';

const postSet = (org: string, token: string, body: unknown, base = '') =>
  api('POST', `${base}/organizations/${org}/policy-sets`, { token, body });
const patchSet = (id: string, token: string, attrs: Record<string, unknown>) =>
  api('PATCH', `/policy-sets/${id}`, { token, body: doc('policy-sets', attrs) });
const showSet = (id: string, token: string, query = '') => api('GET', `/policy-sets/${id}${query}`, { token });
/** POST or DELETE on a relationship endpoint (`what` is policies or workspaces). */
const relate = (method: 'POST' | 'DELETE', setId: string, what: string, token: string, body: unknown, base = '') =>
  api(method, `${base}/policy-sets/${setId}/relationships/${what}`, { token, body });
const opaPolicy = (org: Org, attrs: Record<string, unknown> = {}) =>
  createPolicy(org.name, org.owner.token, { kind: 'opa', query: 'data.t.deny', ...attrs });

describe('policy sets', () => {
  const org = orgForSuite();

  describe('create and read', () => {
    it('creates a sentinel set by default (201) with counts, linkages and links', async () => {
      const res = await postSet(org.name, org.token, policySetDoc({ name: 'baseline', description: 'Org baseline' }));
      expect(res.status, res.text).to.equal(201);
      const s = res.body.data;
      expect(s.type).to.equal('policy-sets');
      expect(s.id).to.match(/^polset-[1-9A-HJ-NP-Za-km-z]{16}$/);
      expect(s.attributes).to.include({
        name: 'baseline',
        description: 'Org baseline',
        kind: 'sentinel',
        global: false,
        overridable: null,
        'policy-count': 0,
        'workspace-count': 0,
      });
      expect(s.attributes['created-at']).to.match(/Z$/);
      expect(s.relationships.organization.data).to.deep.equal({ type: 'organizations', id: org.name });
      expect(s.relationships.policies.data).to.deep.equal([]);
      expect(s.relationships.workspaces.data).to.deep.equal([]);
      expect(s.links.self).to.equal(`/api/v2/policy-sets/${s.id}`);
      expect((await showSet(s.id, org.token)).body.data).to.deep.equal(s);
    });

    it('creates an overridable opa set holding policies and workspaces; include=policies,workspaces returns them', async () => {
      const p1 = await opaPolicy(org);
      const p2 = await opaPolicy(org);
      const ws = await createWorkspace(org);
      const s = await createPolicySet(
        org.name,
        org.token,
        { kind: 'opa', overridable: true },
        {
          policies: linkages('policies', [p1.id, p2.id]),
          workspaces: linkages('workspaces', [ws.id]),
        },
      );
      expect(s.attributes).to.include({ kind: 'opa', overridable: true, 'policy-count': 2, 'workspace-count': 1 });
      expect(idsOf(s.relationships.policies.data).sort()).to.deep.equal([p1.id, p2.id].sort());
      expect(s.relationships.workspaces.data).to.deep.equal([{ type: 'workspaces', id: ws.id }]);

      const shown = await showSet(s.id, org.token, '?include=policies,workspaces');
      expect(shown.status, shown.text).to.equal(200);
      const included = shown.body.included.map((r: { type: string; id: string }) => `${r.type}/${r.id}`).sort();
      expect(included).to.deep.equal([`policies/${p1.id}`, `policies/${p2.id}`, `workspaces/${ws.id}`].sort());
      const incPolicy = shown.body.included.find((r: { id: string }) => r.id === p1.id);
      expect(incPolicy.attributes).to.include({ kind: 'opa', 'policy-set-count': 1 });
      expectError(await showSet(s.id, org.token, '?include=policy_sets'), 400);
    });

    it('lists by pages of 20, searches by name and filters by kind', async () => {
      const listOrg = await createOrg();
      const t = listOrg.owner.token;
      for (let i = 0; i < 21; i++)
        await createPolicySet(listOrg.name, t, { name: `set-${String(i).padStart(2, '0')}` });
      await createPolicySet(listOrg.name, t, { name: 'opa-rules', kind: 'opa' });
      const list = (q = '') => api('GET', `/organizations/${listOrg.name}/policy-sets${q}`, { token: t });
      const first = await list();
      expect(first.status, first.text).to.equal(200);
      expect(first.body.data).to.have.length(20);
      expect(first.body.meta.pagination).to.include({ 'total-count': 22, 'total-pages': 2, 'next-page': 2 });
      expect((await list('?page%5Bnumber%5D=2')).body.data).to.have.length(2);
      const found = await list('?search%5Bname%5D=SET-1');
      expect(found.body.data.map((s: { attributes: { name: string } }) => s.attributes.name)).to.deep.equal(
        Array.from({ length: 10 }, (_, i) => `set-1${i}`),
      );
      const opa = await list('?filter%5Bkind%5D=opa&include=policies');
      expect(opa.body.data.map((s: { attributes: { name: string } }) => s.attributes.name)).to.deep.equal([
        'opa-rules',
      ]);
      expectError(await list('?filter%5Bkind%5D=nope'), 400);
    });
  });

  describe('validation (422 naming the offending part, nothing saved)', () => {
    it('refuses bad attributes and a duplicate name', async () => {
      const existing = await createPolicySet(org.name, org.token);
      const post = (attrs: Record<string, unknown>) => () => postSet(org.name, org.token, policySetDoc(attrs));
      await refusedPolicy(
        422,
        () => postSet(org.name, org.token, doc('policy-sets', { kind: 'opa' })),
        '/data/attributes/name',
      );
      await refusedPolicy(422, post({ name: 'not ok' }), '/data/attributes/name');
      await refusedPolicy(422, post({ name: existing.attributes.name }), '/data/attributes/name', /taken/);
      await refusedPolicy(422, post({ kind: 'rego' }), '/data/attributes/kind');
      await refusedPolicy(422, post({ global: 'yes' }), '/data/attributes/global');
      await refusedPolicy(422, post({ 'agent-enabled': 'yes' }), '/data/attributes/agent-enabled');
      await refusedPolicy(422, post({ 'policy-tool-version': 'newest' }), '/data/attributes/policy-tool-version');
      await refusedPolicy(422, () => postSet(org.name, org.token, doc('policy-set', { name: 'x' })), '/data/type');
    });

    it('refuses policies of the other kind or another organization, foreign workspaces, wrong types, and workspaces on a global set', async () => {
      const other = await createOrg();
      const sentinel = await createPolicy(org.name, org.token);
      const opa = await opaPolicy(org);
      const foreignPolicy = await createPolicy(other.name, other.owner.token);
      const ws = await createWorkspace(org);
      const foreignWs = await createWorkspace(other);
      const post = (attrs: Record<string, unknown>, rels: Record<string, unknown>) => () =>
        postSet(org.name, org.token, policySetDoc(attrs, rels));
      await refusedPolicy(
        422,
        post({}, { policies: linkages('policies', [sentinel.id, opa.id]) }),
        '/data/relationships/policies/data/1/id',
        /kind/,
      );
      await refusedPolicy(
        422,
        post({ kind: 'opa' }, { policies: linkages('policies', [sentinel.id]) }),
        '/data/relationships/policies/data/0/id',
        /kind/,
      );
      await refusedPolicy(
        422,
        post({}, { policies: linkages('policies', [foreignPolicy.id]) }),
        '/data/relationships/policies/data/0/id',
        /not found/,
      );
      await refusedPolicy(
        422,
        post({}, { policies: linkages('workspaces', [sentinel.id]) }),
        '/data/relationships/policies/data/0/type',
      );
      await refusedPolicy(
        422,
        post({}, { workspaces: linkages('workspaces', [ws.id, foreignWs.id]) }),
        '/data/relationships/workspaces/data/1/id',
      );
      await refusedPolicy(
        422,
        post({}, { workspaces: linkages('policies', [ws.id]) }),
        '/data/relationships/workspaces/data/0/type',
      );
      await refusedPolicy(
        422,
        post({ global: true }, { workspaces: linkages('workspaces', [ws.id]) }),
        '/data/relationships/workspaces',
        /global/,
      );
    });
  });

  describe('update and delete', () => {
    it('renames, describes and makes overridable; the kind is refused', async () => {
      const s = await createPolicySet(org.name, org.token, { kind: 'opa' });
      const taken = await createPolicySet(org.name, org.token);
      const res = await patchSet(s.id, org.token, { name: 'renamed-set', description: 'new', overridable: true });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes).to.include({
        name: 'renamed-set',
        description: 'new',
        overridable: true,
        kind: 'opa',
      });
      const unchanged = await patchSet(s.id, org.token, {});
      expect(unchanged.body.data.attributes).to.include({ name: 'renamed-set', description: 'new', overridable: true });
      await refusedPolicy(422, () => patchSet(s.id, org.token, { kind: 'sentinel' }), '/data/attributes/kind');
      await refusedPolicy(
        422,
        () => patchSet(s.id, org.token, { name: taken.attributes.name }),
        '/data/attributes/name',
      );
      expect((await showSet(s.id, org.token)).body.data.attributes.name).to.equal('renamed-set');
    });

    it('turning global on detaches its workspaces; a global set takes no workspaces', async () => {
      const ws = await createWorkspace(org);
      const s = await createPolicySet(org.name, org.token, {}, { workspaces: linkages('workspaces', [ws.id]) });
      const res = await patchSet(s.id, org.token, { global: true });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes).to.include({ global: true, 'workspace-count': 0 });
      await refusedPolicy(
        422,
        () => relate('POST', s.id, 'workspaces', org.token, linkages('workspaces', [ws.id])),
        '/data',
        /global/,
      );
    });

    it('deletes a set (204): its policies and workspaces stay', async () => {
      const p = await createPolicy(org.name, org.token);
      const ws = await createWorkspace(org);
      const s = await createPolicySet(
        org.name,
        org.token,
        {},
        { policies: linkages('policies', [p.id]), workspaces: linkages('workspaces', [ws.id]) },
      );
      const links = await countRows('policy_set_policies');
      expect((await api('DELETE', `/policy-sets/${s.id}`, { token: org.token })).status).to.equal(204);
      expectError(await showSet(s.id, org.token), 404);
      expect(await countRows('policy_set_policies')).to.equal(links - 1);
      const policy = await api('GET', `/policies/${p.id}`, { token: org.token });
      expect(policy.body.data.attributes['policy-set-count']).to.equal(0);
      expect((await api('GET', `/workspaces/${ws.id}`, { token: org.token })).status).to.equal(200);
    });
  });

  describe('relationship endpoints', () => {
    it('adds and removes policies (204, idempotent); kind mismatch, foreign, unknown and wrong-type elements are 422 with nothing applied', async () => {
      const s = await createPolicySet(org.name, org.token, { kind: 'opa' });
      const a = await opaPolicy(org);
      const b = await opaPolicy(org);
      const sentinel = await createPolicy(org.name, org.token);
      const other = await createOrg();
      const foreign = await opaPolicy(other);
      const add = (data: unknown) => relate('POST', s.id, 'policies', org.token, data);
      expect((await add(linkages('policies', [a.id, b.id]))).status).to.equal(204);
      expect((await add(linkages('policies', [a.id]))).status, 'adding again changes nothing').to.equal(204);
      expect((await showSet(s.id, org.token)).body.data.attributes['policy-count']).to.equal(2);

      await refusedPolicy(422, () => add(linkages('policies', [sentinel.id])), '/data/0/id', /kind/);
      await refusedPolicy(422, () => add(linkages('policies', [a.id, foreign.id])), '/data/1/id', /not found/);
      await refusedPolicy(422, () => add(linkages('policies', ['pol-doesnotexist00000'])), '/data/0/id');
      await refusedPolicy(422, () => add(linkages('workspaces', [a.id])), '/data/0/type');
      await refusedPolicy(422, () => add({ data: [] }), '/data');

      expect((await relate('DELETE', s.id, 'policies', org.token, linkages('policies', [a.id]))).status).to.equal(204);
      const shown = await showSet(s.id, org.token);
      expect(shown.body.data.relationships.policies.data).to.deep.equal([{ type: 'policies', id: b.id }]);
      expect(
        (await api('GET', `/policies/${a.id}`, { token: org.token })).body.data.attributes['policy-set-count'],
      ).to.equal(0);
    });

    it('attaches and detaches workspaces of the organization (204); foreign workspaces are 422', async () => {
      const s = await createPolicySet(org.name, org.token);
      const ws1 = await createWorkspace(org);
      const ws2 = await createWorkspace(org);
      const other = await createOrg();
      const foreign = await createWorkspace(other);
      expect(
        (await relate('POST', s.id, 'workspaces', org.token, linkages('workspaces', [ws1.id, ws2.id]))).status,
      ).to.equal(204);
      expect((await showSet(s.id, org.token)).body.data.attributes['workspace-count']).to.equal(2);
      await refusedPolicy(
        422,
        () => relate('POST', s.id, 'workspaces', org.token, linkages('workspaces', [foreign.id])),
        '/data/0/id',
      );
      await refusedPolicy(
        422,
        () => relate('DELETE', s.id, 'workspaces', org.token, linkages('policies', [ws1.id])),
        '/data/0/type',
      );
      expect((await relate('DELETE', s.id, 'workspaces', org.token, linkages('workspaces', [ws1.id]))).status).to.equal(
        204,
      );
      expect((await showSet(s.id, org.token)).body.data.relationships.workspaces.data).to.deep.equal([
        { type: 'workspaces', id: ws2.id },
      ]);
    });
  });

  describe('access', () => {
    it('members read; changes need manage-policies (404, nothing changes); outsiders see nothing', async () => {
      const s = await createPolicySet(org.name, org.token);
      const p = await createPolicy(org.name, org.token);
      const ws = await createWorkspace(org);
      const reader = await memberWithPermissions(org);
      const t = reader.token;
      expect((await api('GET', `/organizations/${org.name}/policy-sets`, { token: t })).status).to.equal(200);
      expect((await showSet(s.id, t)).status).to.equal(200);
      await refusedPolicy(404, () => postSet(org.name, t, policySetDoc()));
      await refusedPolicy(404, () => patchSet(s.id, t, { description: 'x' }));
      await refusedPolicy(404, () => api('DELETE', `/policy-sets/${s.id}`, { token: t }));
      await refusedPolicy(404, () => relate('POST', s.id, 'policies', t, linkages('policies', [p.id])));
      await refusedPolicy(404, () => relate('POST', s.id, 'workspaces', t, linkages('workspaces', [ws.id])));

      const outsider = await createUser();
      expectError(await api('GET', `/organizations/${org.name}/policy-sets`, { token: outsider.token }), 404);
      expectError(await showSet(s.id, outsider.token), 404);
      await refusedPolicy(404, () => relate('DELETE', s.id, 'policies', outsider.token, linkages('policies', [p.id])));
      expectError(await showSet('polset-doesnotexist00', org.token), 404);

      const manager = await memberWithPermissions(org, { 'manage-policies': true });
      expect((await relate('POST', s.id, 'policies', manager.token, linkages('policies', [p.id]))).status).to.equal(
        204,
      );
      expect((await patchSet(s.id, manager.token, { description: 'managed' })).status).to.equal(200);
    });
  });

  describe('policySetsForRun', () => {
    it('returns global sets and those attached to the workspace, of both kinds, with policies and code', async () => {
      const runOrg = await createOrg();
      const t = runOrg.owner.token;
      const ws = await createWorkspace(runOrg);
      const elsewhere = await createWorkspace(runOrg);
      const sentinel = await createPolicy(runOrg.name, t, {
        name: 'a-sentinel',
        'enforcement-level': 'soft-mandatory',
      });
      const opa = await opaPolicy(runOrg, { name: 'b-opa', 'enforcement-level': 'mandatory' });
      expect((await uploadCode(sentinel.id, t, 'main = rule { true }\n')).status).to.equal(204);
      const global = await createPolicySet(
        runOrg.name,
        t,
        { name: 'g-global', global: true },
        { policies: linkages('policies', [sentinel.id]) },
      );
      const attached = await createPolicySet(
        runOrg.name,
        t,
        { name: 'h-attached', kind: 'opa', overridable: true },
        {
          policies: linkages('policies', [opa.id]),
          workspaces: linkages('workspaces', [ws.id]),
        },
      );
      await createPolicySet(
        runOrg.name,
        t,
        { name: 'i-other' },
        { workspaces: linkages('workspaces', [elsewhere.id]) },
      );
      const foreign = await createOrg();
      await createPolicySet(foreign.name, foreign.owner.token, { global: true });

      const sets = await policySetsForRun(harness().rt.db, runOrg.name, ws.id);
      expect(sets).to.deep.equal([
        {
          id: global.id,
          name: 'g-global',
          description: null,
          kind: 'sentinel',
          global: true,
          overridable: false,
          policies: [
            {
              id: sentinel.id,
              name: 'a-sentinel',
              description: null,
              kind: 'sentinel',
              query: null,
              enforcement_level: 'soft-mandatory',
              code: 'main = rule { true }\n',
            },
          ],
        },
        {
          id: attached.id,
          name: 'h-attached',
          description: null,
          kind: 'opa',
          global: false,
          overridable: true,
          policies: [
            {
              id: opa.id,
              name: 'b-opa',
              description: null,
              kind: 'opa',
              query: 'data.t.deny',
              enforcement_level: 'mandatory',
              code: null,
            },
          ],
        },
      ]);
      expect((await policySetsForRun(harness().rt.db, runOrg.name, elsewhere.id)).map((s) => s.name)).to.deep.equal([
        'g-global',
        'i-other',
      ]);
    });
  });

  describe('free edition limits', () => {
    const free = secondAppForSuite({ EDITION: 'free' });

    it('allows one policy set per organization (422 beyond, also under concurrent creates)', async () => {
      const o = await createOrg();
      const results = await Promise.all([0, 1, 2].map(() => postSet(o.name, o.owner.token, policySetDoc(), free.api)));
      expect(results.map((r) => r.status).sort()).to.deep.equal([201, 422, 422]);
      for (const r of results.filter((x) => x.status === 422)) expectError(r, 422, /free edition allows 1 policy set/);
      await refusedPolicy(422, () => postSet(o.name, o.owner.token, policySetDoc(), free.api), '/data', /free edition/);
      // The limit belongs to the edition: the self-hosted API takes a second set.
      await createPolicySet(o.name, o.owner.token);
    });

    it('allows five policies in the set, however they are added (422 beyond, nothing saved)', async () => {
      const o = await createOrg();
      const t = o.owner.token;
      const ps: { id: string }[] = [];
      for (let i = 0; i < 7; i++) ps.push(await createPolicy(o.name, t));
      await refusedPolicy(
        422,
        () => postSet(o.name, t, policySetDoc({}, { policies: linkages('policies', idsOf(ps.slice(0, 6))) }), free.api),
        '/data/relationships/policies',
        /at most 5 policies/,
      );
      const set = await createPolicySet(
        o.name,
        t,
        {},
        { policies: linkages('policies', idsOf(ps.slice(0, 4))) },
        free.api,
      );
      await refusedPolicy(
        422,
        () => relate('POST', set.id, 'policies', t, linkages('policies', idsOf(ps.slice(4, 6))), free.api),
        '/data',
        /at most 5/,
      );
      expect((await relate('POST', set.id, 'policies', t, linkages('policies', [ps[4].id]), free.api)).status).to.equal(
        204,
      );
      // A new policy naming the full set is refused as a whole: the policy is not created either.
      const body = policyDoc({}, { 'policy-sets': linkages('policy-sets', [set.id]) });
      await refusedPolicy(
        422,
        () => api('POST', `${free.api}/organizations/${o.name}/policies`, { token: t, body }),
        '/data/relationships/policy-sets',
        /at most 5/,
      );
      expect((await showSet(set.id, t)).body.data.attributes['policy-count']).to.equal(5);
      // Removing one makes room again.
      expect(
        (await relate('DELETE', set.id, 'policies', t, linkages('policies', [ps[0].id]), free.api)).status,
      ).to.equal(204);
      expect((await relate('POST', set.id, 'policies', t, linkages('policies', [ps[6].id]), free.api)).status).to.equal(
        204,
      );
    });
  });
});
