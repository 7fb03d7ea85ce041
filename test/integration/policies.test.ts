import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { createOrg, createUser } from '../helpers/fixtures.js';
import {
  createPolicy,
  createPolicySet,
  idsOf,
  linkages,
  memberWithPermissions,
  orgForSuite,
  policyDoc,
  refusedPolicy,
  uploadCode,
  type Org,
} from '../helpers/policy-fixtures.js';

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const MB = 1024 * 1024;

const postPolicy = (org: string, token: string, body: unknown) =>
  api('POST', `/organizations/${org}/policies`, { token, body });
const patchPolicy = (
  id: string,
  token: string,
  attrs: Record<string, unknown>,
  relationships?: Record<string, unknown>,
) => api('PATCH', `/policies/${id}`, { token, body: doc('policies', attrs, relationships) });
const download = (id: string, token: string) => api('GET', `/policies/${id}/download`, { token });
const codeRow = async (id: string) =>
  (await harness().rt.db('policies').where({ id }).first('code', 'code_updated_at')) as { code: string | null };

describe('policies', () => {
  const org = orgForSuite();

  describe('create and read', () => {
    it('creates a sentinel policy by default: 200, no code yet, both enforcement spellings, links and relationships', async () => {
      const res = await postPolicy(
        org.name,
        org.token,
        policyDoc({
          name: 'no-public-buckets',
          description: 'Buckets stay **private**',
          'enforcement-level': 'soft-mandatory',
        }),
      );
      expect(res.status, res.text).to.equal(200);
      const p = res.body.data;
      expect(p.type).to.equal('policies');
      expect(p.id).to.match(/^pol-[1-9A-HJ-NP-Za-km-z]{16}$/);
      expect(p.attributes).to.include({
        name: 'no-public-buckets',
        description: 'Buckets stay **private**',
        kind: 'sentinel',
        query: null,
        'enforcement-level': 'soft-mandatory',
        'policy-set-count': 0,
      });
      expect(p.attributes.enforce, 'enforce describes the code file: none yet').to.deep.equal([]);
      expect(p.attributes['updated-at']).to.match(ISO_Z);
      expect(p.relationships.organization.data).to.deep.equal({ type: 'organizations', id: org.name });
      expect(p.relationships['policy-sets'].data).to.deep.equal([]);
      expect(p.links).to.deep.equal({
        self: `/api/v2/policies/${p.id}`,
        upload: `/api/v2/policies/${p.id}/upload`,
        download: `/api/v2/policies/${p.id}/download`,
      });
      expect((await codeRow(p.id)).code).to.equal(null);

      const shown = await api('GET', `/policies/${p.id}`, { token: org.token });
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.data).to.deep.equal(p);
    });

    it('creates an opa policy with its query; once code is uploaded enforce carries the .rego path', async () => {
      const p = await createPolicy(org.name, org.token, {
        name: 'require-tags',
        kind: 'opa',
        query: 'data.terraform.deny',
        'enforcement-level': 'mandatory',
      });
      expect(p.attributes).to.include({ kind: 'opa', query: 'data.terraform.deny', 'enforcement-level': 'mandatory' });
      expect(p.attributes.enforce).to.deep.equal([]);
      expect((await uploadCode(p.id, org.token, 'package terraform\n')).status).to.equal(204);
      const shown = await api('GET', `/policies/${p.id}`, { token: org.token });
      expect(shown.body.data.attributes.enforce).to.deep.equal([{ path: 'require-tags.rego', mode: 'mandatory' }]);
    });

    it('accepts the deprecated enforce alone, and both spellings together when they agree', async () => {
      const viaEnforce = await api('POST', `/organizations/${org.name}/policies`, {
        token: org.token,
        body: doc('policies', { name: 'legacy', enforce: [{ path: 'legacy.sentinel', mode: 'hard-mandatory' }] }),
      });
      expect(viaEnforce.status, viaEnforce.text).to.equal(200);
      expect(viaEnforce.body.data.attributes['enforcement-level']).to.equal('hard-mandatory');
      expect(viaEnforce.body.data.attributes.enforce).to.deep.equal([]);

      const both = await createPolicy(org.name, org.token, {
        name: 'both',
        'enforcement-level': 'advisory',
        enforce: [{ path: 'both.sentinel', mode: 'advisory' }],
      });
      expect(both.attributes['enforcement-level']).to.equal('advisory');
    });

    it('joins the policy sets named on create (same organization and kind)', async () => {
      const set = await createPolicySet(org.name, org.token, { kind: 'opa' });
      const p = await createPolicy(
        org.name,
        org.token,
        { kind: 'opa', query: 'data.x.deny' },
        { 'policy-sets': linkages('policy-sets', [set.id]) },
      );
      expect(p.attributes['policy-set-count']).to.equal(1);
      expect(p.relationships['policy-sets'].data).to.deep.equal([{ type: 'policy-sets', id: set.id }]);
      const shownSet = await api('GET', `/policy-sets/${set.id}`, { token: org.token });
      expect(shownSet.body.data.attributes['policy-count']).to.equal(1);
      expect(shownSet.body.data.relationships.policies.data).to.deep.equal([{ type: 'policies', id: p.id }]);
    });
  });

  describe('validation on create (422 naming the attribute, nothing saved)', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['a missing name', { name: undefined }, '/data/attributes/name'],
      ['a name with characters other than letters, digits, - and _', { name: 'has space!' }, '/data/attributes/name'],
      ['an unknown kind', { kind: 'rego' }, '/data/attributes/kind'],
      ['a query on a sentinel policy', { query: 'data.x' }, '/data/attributes/query'],
      ['an opa policy without a query', { kind: 'opa', 'enforcement-level': 'mandatory' }, '/data/attributes/query'],
      ['an unknown enforcement level', { 'enforcement-level': 'strict' }, '/data/attributes/enforcement-level'],
      ['an opa level on a sentinel policy', { 'enforcement-level': 'mandatory' }, '/data/attributes/enforcement-level'],
      [
        'a sentinel level on an opa policy',
        { kind: 'opa', query: 'data.x', 'enforcement-level': 'soft-mandatory' },
        '/data/attributes/enforcement-level',
      ],
      [
        'neither enforcement-level nor enforce',
        { 'enforcement-level': undefined },
        '/data/attributes/enforcement-level',
      ],
      ['an empty enforce', { 'enforcement-level': undefined, enforce: [] }, '/data/attributes/enforce'],
      [
        'two enforce elements',
        {
          name: 'two',
          'enforcement-level': undefined,
          enforce: [
            { path: 'two.sentinel', mode: 'advisory' },
            { path: 'two.sentinel', mode: 'advisory' },
          ],
        },
        '/data/attributes/enforce',
      ],
      [
        'an enforce path for another name',
        { name: 'mine', 'enforcement-level': undefined, enforce: [{ path: 'other.sentinel', mode: 'advisory' }] },
        '/data/attributes/enforce/0/path',
      ],
      [
        "an enforce path with the other kind's extension",
        { name: 'ext', 'enforcement-level': undefined, enforce: [{ path: 'ext.rego', mode: 'advisory' }] },
        '/data/attributes/enforce/0/path',
      ],
      [
        'an enforce mode of the other kind',
        { name: 'md', 'enforcement-level': undefined, enforce: [{ path: 'md.sentinel', mode: 'mandatory' }] },
        '/data/attributes/enforce/0/mode',
      ],
      [
        'an enforce element without a mode',
        { name: 'nm', 'enforcement-level': undefined, enforce: [{ path: 'nm.sentinel' }] },
        '/data/attributes/enforce/0/mode',
      ],
      [
        'enforce and enforcement-level that disagree',
        { name: 'dis', 'enforcement-level': 'advisory', enforce: [{ path: 'dis.sentinel', mode: 'hard-mandatory' }] },
        '/data/attributes/enforce/0/mode',
      ],
      ['a description that is not a string', { description: 42 }, '/data/attributes/description'],
    ];
    for (const [what, attrs, pointer] of cases) {
      it(`refuses ${what}`, async () => {
        const body = policyDoc(attrs);
        for (const [k, v] of Object.entries(attrs))
          if (v === undefined) delete (body.data.attributes as Record<string, unknown>)[k];
        await refusedPolicy(422, () => postPolicy(org.name, org.token, body), pointer);
      });
    }

    it('refuses a duplicate name in the organization (the same name elsewhere is fine)', async () => {
      const p = await createPolicy(org.name, org.token);
      await refusedPolicy(
        422,
        () => postPolicy(org.name, org.token, policyDoc({ name: p.attributes.name })),
        '/data/attributes/name',
        /taken/,
      );
      const other = await createOrg();
      await createPolicy(other.name, other.owner.token, { name: p.attributes.name });
    });

    it('refuses a wrong document type', async () => {
      await refusedPolicy(
        422,
        () => postPolicy(org.name, org.token, doc('policy', { name: 'x', 'enforcement-level': 'advisory' })),
        '/data/type',
      );
    });

    it('refuses policy-sets linkages of another type, unknown sets, sets of another organization or of the other kind', async () => {
      const opaSet = await createPolicySet(org.name, org.token, { kind: 'opa' });
      const other = await createOrg();
      const foreign = await createPolicySet(other.name, other.owner.token);
      const sentinelSet = await createPolicySet(org.name, org.token);
      const rel = (data: unknown[]) => ({ 'policy-sets': { data } });
      const post = (data: unknown[]) => () => postPolicy(org.name, org.token, policyDoc({}, rel(data)));
      await refusedPolicy(
        422,
        post([{ type: 'workspaces', id: sentinelSet.id }]),
        '/data/relationships/policy-sets/data/0/type',
      );
      await refusedPolicy(
        422,
        post([{ type: 'policy-sets', id: 'polset-doesnotexist0000' }]),
        '/data/relationships/policy-sets/data/0/id',
        /not found/,
      );
      await refusedPolicy(
        422,
        post([
          { type: 'policy-sets', id: sentinelSet.id },
          { type: 'policy-sets', id: foreign.id },
        ]),
        '/data/relationships/policy-sets/data/1/id',
      );
      await refusedPolicy(
        422,
        post([{ type: 'policy-sets', id: opaSet.id }]),
        '/data/relationships/policy-sets/data/0/id',
        /kind/,
      );
    });
  });

  describe('update', () => {
    it('changes description, query and level; enforce follows; the code stays', async () => {
      const p = await createPolicy(org.name, org.token, {
        kind: 'opa',
        query: 'data.a.deny',
        'enforcement-level': 'advisory',
      });
      expect((await uploadCode(p.id, org.token, 'package a\ndeny[msg] { false }\n')).status).to.equal(204);
      const res = await patchPolicy(p.id, org.token, {
        description: 'now mandatory',
        query: 'data.b.deny',
        'enforcement-level': 'mandatory',
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes).to.include({
        description: 'now mandatory',
        query: 'data.b.deny',
        'enforcement-level': 'mandatory',
        name: p.attributes.name,
      });
      expect(res.body.data.attributes.enforce).to.deep.equal([
        { path: `${p.attributes.name}.rego`, mode: 'mandatory' },
      ]);
      expect(Date.parse(res.body.data.attributes['updated-at'])).to.be.at.least(Date.parse(p.attributes['updated-at']));
      const code = await download(p.id, org.token);
      expect(code.text).to.equal('package a\ndeny[msg] { false }\n');

      // The deprecated spelling alone changes the level too; omitted attributes keep their values.
      const legacy = await patchPolicy(p.id, org.token, {
        enforce: [{ path: `${p.attributes.name}.rego`, mode: 'advisory' }],
      });
      expect(legacy.status, legacy.text).to.equal(200);
      expect(legacy.body.data.attributes).to.include({
        'enforcement-level': 'advisory',
        description: 'now mandatory',
        query: 'data.b.deny',
      });
    });

    it('refuses a name (immutable), a kind change, rules of the kind, and policy-sets relationships; nothing changes', async () => {
      const sentinel = await createPolicy(org.name, org.token);
      const opa = await createPolicy(org.name, org.token, {
        kind: 'opa',
        query: 'data.x',
        'enforcement-level': 'advisory',
      });
      const before = await api('GET', `/policies/${sentinel.id}`, { token: org.token });
      const cases: [string, Record<string, unknown>, string, Record<string, unknown>?][] = [
        [sentinel.id, { name: 'renamed' }, '/data/attributes/name'],
        [sentinel.id, { name: sentinel.attributes.name }, '/data/attributes/name'],
        [sentinel.id, { kind: 'opa' }, '/data/attributes/kind'],
        [sentinel.id, { 'enforcement-level': 'mandatory' }, '/data/attributes/enforcement-level'],
        [sentinel.id, { enforce: [{ path: 'wrong.sentinel', mode: 'advisory' }] }, '/data/attributes/enforce/0/path'],
        [
          sentinel.id,
          {
            'enforcement-level': 'advisory',
            enforce: [{ path: `${sentinel.attributes.name}.sentinel`, mode: 'hard-mandatory' }],
          },
          '/data/attributes/enforce/0/mode',
        ],
        [opa.id, { query: null }, '/data/attributes/query'],
        [opa.id, { query: '' }, '/data/attributes/query'],
        [sentinel.id, {}, '/data/relationships/policy-sets', { 'policy-sets': { data: [] } }],
      ];
      for (const [id, attrs, pointer, rel] of cases)
        await refusedPolicy(422, () => patchPolicy(id, org.token, attrs, rel), pointer);
      const after = await api('GET', `/policies/${sentinel.id}`, { token: org.token });
      expect(after.body).to.deep.equal(before.body);
    });
  });

  describe('code upload and download', () => {
    it('404 before any upload; PUT stores the raw text (204) and GET download returns it; a second PUT replaces it', async () => {
      const p = await createPolicy(org.name, org.token);
      expectError(await download(p.id, org.token), 404, /no code/);
      const code = 'import "tfplan/v2" as tfplan\n\nmain = rule { true } # ünïcode\n';
      const put = await uploadCode(p.id, org.token, code);
      expect(put.status, put.text).to.equal(204);
      const got = await download(p.id, org.token);
      expect(got.status).to.equal(200);
      expect(got.headers.get('content-type')).to.match(/^text\/plain/);
      expect(got.text).to.equal(code);
      expect((await uploadCode(p.id, org.token, 'main = rule { false }\n')).status).to.equal(204);
      expect((await download(p.id, org.token)).text).to.equal('main = rule { false }\n');
    });

    it('takes the body raw whatever its content type (the JSON parser never sees it)', async () => {
      const p = await createPolicy(org.name, org.token);
      const text = '{"data": "this looks like JSON but is policy text"}';
      const put = await api('PUT', `/policies/${p.id}/upload`, {
        token: org.token,
        raw: text,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(put.status, put.text).to.equal(204);
      expect((await download(p.id, org.token)).text).to.equal(text);
    });

    it('answers 413 (JSON:API error) for 11 MB and keeps the previous code', async () => {
      const p = await createPolicy(org.name, org.token);
      expect((await uploadCode(p.id, org.token, 'main = rule { true }\n')).status).to.equal(204);
      const big = new Uint8Array(11 * MB).fill(0x61);
      const res = await uploadCode(p.id, org.token, big);
      expectError(res, 413, /10 MB/);
      expect((await download(p.id, org.token)).text).to.equal('main = rule { true }\n');

      // Without a declared length the limit holds while reading.
      const chunks = [big.subarray(0, 6 * MB), big.subarray(6 * MB)];
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      });
      const init = {
        method: 'PUT',
        headers: { Authorization: `Bearer ${org.token}`, 'Content-Type': 'application/octet-stream' },
        body: stream,
        duplex: 'half',
      };
      const streamed = await fetch(`${harness().baseUrl}/api/v2/policies/${p.id}/upload`, init as RequestInit);
      expect(streamed.status, await streamed.text()).to.equal(413);
      expect((await download(p.id, org.token)).text).to.equal('main = rule { true }\n');

      // Exactly 10 MB is within the limit.
      const limit = new Uint8Array(10 * MB).fill(0x62);
      expect((await uploadCode(p.id, org.token, limit)).status).to.equal(204);
      expect((await codeRow(p.id)).code!.length).to.equal(10 * MB);
    });

    it('refuses bytes that are not UTF-8 text (422) and keeps the previous code', async () => {
      const p = await createPolicy(org.name, org.token);
      expect((await uploadCode(p.id, org.token, 'main = rule { true }\n')).status).to.equal(204);
      expectError(await uploadCode(p.id, org.token, new Uint8Array([0x6d, 0xff, 0xfe, 0x00])), 422, /UTF-8/);
      expectError(await uploadCode(p.id, org.token, 'main\u0000'), 422, /NUL/);
      expect((await download(p.id, org.token)).text).to.equal('main = rule { true }\n');
    });

    it('needs a token (401), the policy (404) and manage-policies (404); nothing is stored', async () => {
      const p = await createPolicy(org.name, org.token);
      const reader = await memberWithPermissions(org);
      expectError(
        await api('PUT', `/policies/${p.id}/upload`, {
          token: null,
          raw: 'x',
          headers: { 'Content-Type': 'application/octet-stream' },
        }),
        401,
      );
      expectError(await uploadCode('pol-doesnotexist00000', org.token, 'x'), 404);
      expectError(await uploadCode(p.id, reader.token, 'x'), 404);
      expect((await codeRow(p.id)).code).to.equal(null);
    });
  });

  describe('lists', () => {
    let listOrg: Org;

    before(async () => {
      listOrg = await createOrg();
      for (let i = 0; i < 22; i++)
        await createPolicy(listOrg.name, listOrg.owner.token, { name: `sent-${String(i).padStart(2, '0')}` });
      for (const name of ['opa-alpha', 'opa-Beta', 'opa_100%']) {
        await createPolicy(listOrg.name, listOrg.owner.token, {
          name: name.replace('%', ''),
          kind: 'opa',
          query: 'data.x',
          'enforcement-level': 'advisory',
        });
      }
    });

    const list = (query = '') =>
      api('GET', `/organizations/${listOrg.name}/policies${query}`, { token: listOrg.owner.token });
    const names = (res: { body: { data: { attributes: { name: string } }[] } }) =>
      res.body.data.map((p) => p.attributes.name);

    it('pages by 20 by default, ordered by name, with numeric pagination meta', async () => {
      const first = await list();
      expect(first.status, first.text).to.equal(200);
      expect(first.body.data).to.have.length(20);
      expect(first.body.meta.pagination).to.deep.equal({
        'current-page': 1,
        'page-size': 20,
        'prev-page': null,
        'next-page': 2,
        'total-pages': 2,
        'total-count': 25,
      });
      const sentinels = names(first).filter((n) => n.startsWith('sent-'));
      expect(sentinels).to.deep.equal([...sentinels].sort());
      const second = await list('?page%5Bnumber%5D=2');
      expect(second.body.data).to.have.length(5);
      const all = [...names(first), ...names(second)];
      expect(new Set(all).size).to.equal(25);
      const small = await list('?page%5Bsize%5D=10&page%5Bnumber%5D=3');
      expect(small.body.data).to.have.length(5);
      expect(small.body.meta.pagination).to.include({
        'current-page': 3,
        'total-pages': 3,
        'prev-page': 2,
        'next-page': null,
      });
    });

    it('searches names by substring (case-insensitive, wildcards literal) and filters by kind', async () => {
      expect(names(await list('?search%5Bname%5D=beta'))).to.deep.equal(['opa-Beta']);
      expect(names(await list('?search%5Bname%5D=sent-1'))).to.have.length(10);
      expect(names(await list('?search%5Bname%5D=%25'))).to.deep.equal([]);
      expect(names(await list('?search%5Bname%5D=_1'))).to.deep.equal(['opa_100']);
      const opa = await list('?filter%5Bkind%5D=opa');
      expect(names(opa).sort()).to.deep.equal(['opa-alpha', 'opa-Beta', 'opa_100'].sort());
      expect(opa.body.meta.pagination['total-count']).to.equal(3);
      expect(names(await list('?filter%5Bkind%5D=opa&search%5Bname%5D=alpha'))).to.deep.equal(['opa-alpha']);
      expect((await list('?filter%5Bkind%5D=sentinel')).body.meta.pagination['total-count']).to.equal(22);
      expectError(await list('?filter%5Bkind%5D=rego'), 400, /filter\[kind\]/);
    });

    it('includes the policy sets of the returned policies with include=policy_sets (list and show)', async () => {
      const t = listOrg.owner.token;
      const p = await createPolicy(listOrg.name, t, { name: 'zz-in-sets' });
      const a = await createPolicySet(listOrg.name, t, {}, { policies: linkages('policies', [p.id]) });
      const b = await createPolicySet(listOrg.name, t, {}, { policies: linkages('policies', [p.id]) });
      const shown = await api('GET', `/policies/${p.id}?include=policy_sets`, { token: t });
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.data.attributes['policy-set-count']).to.equal(2);
      expect(idsOf(shown.body.data.relationships['policy-sets'].data).sort()).to.deep.equal([a.id, b.id].sort());
      expect(shown.body.included.map((r: { type: string }) => r.type)).to.deep.equal(['policy-sets', 'policy-sets']);
      expect(idsOf(shown.body.included).sort()).to.deep.equal([a.id, b.id].sort());
      expect(shown.body.included[0].attributes).to.include({ 'policy-count': 1, kind: 'sentinel' });

      const listed = await list('?include=policy-sets&search%5Bname%5D=zz-');
      expect(idsOf(listed.body.data)).to.deep.equal([p.id]);
      expect(idsOf(listed.body.included).sort()).to.deep.equal([a.id, b.id].sort());
      expect(await list('?search%5Bname%5D=zz-')).to.not.have.nested.property('body.included');
      expectError(await list('?include=workspaces'), 400, /include/);
    });
  });

  describe('access', () => {
    it('members read; changes need manage-policies (404 otherwise, nothing changes); managers may change', async () => {
      const p = await createPolicy(org.name, org.token);
      expect((await uploadCode(p.id, org.token, 'main = rule { true }\n')).status).to.equal(204);
      const reader = await memberWithPermissions(org);
      const t = reader.token;
      expect((await api('GET', `/organizations/${org.name}/policies`, { token: t })).status).to.equal(200);
      expect((await api('GET', `/policies/${p.id}`, { token: t })).status).to.equal(200);
      expect((await download(p.id, t)).text).to.equal('main = rule { true }\n');
      await refusedPolicy(404, () => postPolicy(org.name, t, policyDoc()));
      await refusedPolicy(404, () => patchPolicy(p.id, t, { description: 'no' }));
      await refusedPolicy(404, () => api('DELETE', `/policies/${p.id}`, { token: t }));
      expect((await api('GET', `/policies/${p.id}`, { token: org.token })).body.data.attributes.description).to.equal(
        null,
      );

      const manager = await memberWithPermissions(org, { 'manage-policies': true });
      const mine = await createPolicy(org.name, manager.token);
      expect((await patchPolicy(p.id, manager.token, { description: 'by a manager' })).status).to.equal(200);
      expect((await uploadCode(mine.id, manager.token, 'main = rule { false }\n')).status).to.equal(204);
      expect((await api('DELETE', `/policies/${mine.id}`, { token: manager.token })).status).to.equal(204);
      expectError(await api('GET', `/policies/${mine.id}`, { token: org.token }), 404);
    });

    it('hides other organizations: unknown or foreign organization and foreign policies are 404', async () => {
      const p = await createPolicy(org.name, org.token);
      const outsider = await createUser();
      const t = outsider.token;
      await refusedPolicy(404, () => postPolicy(org.name, t, policyDoc()));
      expectError(await api('GET', `/organizations/${org.name}/policies`, { token: t }), 404);
      expectError(await api('GET', `/policies/${p.id}`, { token: t }), 404);
      expectError(await download(p.id, t), 404);
      await refusedPolicy(404, () => patchPolicy(p.id, t, { description: 'x' }));
      await refusedPolicy(404, () => api('DELETE', `/policies/${p.id}`, { token: t }));
      expectError(await api('GET', '/organizations/no-such-org-here/policies', { token: org.token }), 404);
      await refusedPolicy(404, () => postPolicy('no-such-org-here', org.token, policyDoc()));
      expectError(await api('GET', `/organizations/${org.name}/policies`, { token: null }), 401);
    });

    it('deletes a policy (204): it leaves its sets, which stay', async () => {
      const p = await createPolicy(org.name, org.token);
      const set = await createPolicySet(org.name, org.token, {}, { policies: linkages('policies', [p.id]) });
      expect((await api('DELETE', `/policies/${p.id}`, { token: org.token })).status).to.equal(204);
      expectError(await api('GET', `/policies/${p.id}`, { token: org.token }), 404);
      expectError(await api('DELETE', `/policies/${p.id}`, { token: org.token }), 404);
      const shown = await api('GET', `/policy-sets/${set.id}`, { token: org.token });
      expect(shown.body.data.attributes['policy-count']).to.equal(0);
      expect(shown.body.data.relationships.policies.data).to.deep.equal([]);
    });
  });
});
