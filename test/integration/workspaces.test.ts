import { expect } from 'chai';
import { api, doc, expectError, type ApiResponse } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { countRows, createOrg, createUser, createWorkspace, uniq, type TestUser } from '../helpers/fixtures.js';

type Org = { name: string; owner: TestUser };

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const PERMISSION_KEYS = [
  'can-update',
  'can-destroy',
  'can-queue-run',
  'can-queue-apply',
  'can-queue-destroy',
  'can-read-variable',
  'can-update-variable',
  'can-read-state-versions',
  'can-read-state-outputs',
  'can-create-state-versions',
  'can-lock',
  'can-unlock',
  'can-force-unlock',
  'can-read-settings',
];

const row = (id: string) => harness().rt.db('workspaces').where({ id }).first();
const rowByName = (org: string, name: string) =>
  harness().rt.db('workspaces').where({ organization_name: org, name }).first();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** POST a workspace document to an organization, as its owner unless a token is given. */
const post = (
  o: Org,
  attrs: Record<string, unknown>,
  opts: { token?: string | null; query?: string; type?: string } = {},
) =>
  api('POST', `/organizations/${o.name}/workspaces${opts.query ?? ''}`, {
    token: opts.token === undefined ? o.owner.token : opts.token,
    body: doc(opts.type ?? 'workspaces', attrs),
  });

const patch = (id: string, attrs: Record<string, unknown>, token: string | null, query = '') =>
  api('PATCH', `/workspaces/${id}${query}`, { token, body: doc('workspaces', attrs) });

const list = (o: Org, query: string, token = o.owner.token) =>
  api('GET', `/organizations/${o.name}/workspaces?${query}`, { token });

function expectPointer(res: ApiResponse, pointer: string): void {
  const pointers = res.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer);
  expect(pointers, res.text).to.include(pointer);
}

type Attributes = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function expectWorkspaceDocument(res: ApiResponse, status: number): Attributes {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/vnd\.api\+json/);
  expect(res.body.data.type).to.equal('workspaces');
  expect(res.body.data.id).to.match(/^ws-/);
  return res.body.data.attributes;
}

function expectAdminPermissions(attrs: Attributes): void {
  expect(attrs.permissions).to.be.an('object');
  for (const key of PERMISSION_KEYS) expect(attrs.permissions[key], key).to.equal(true);
  for (const v of Object.values(attrs.permissions)) expect(v).to.be.a('boolean');
}

describe('workspaces', () => {
  let org: Org;
  let other: Org;
  let outsider: TestUser;

  before(async () => {
    org = await createOrg();
    other = await createOrg();
    outsider = await createUser();
  });

  describe('POST /organizations/:org/workspaces', () => {
    it('creates a workspace with defaults and the attribute set clients read', async () => {
      const name = uniq('ws');
      const initial = await countRows('workspaces');
      const res = await post(org, { name });
      const a = expectWorkspaceDocument(res, 201);
      expect(a.name).to.equal(name);
      expect(a.description).to.equal('');
      expect(a['working-directory']).to.equal('');
      expect(a['auto-apply']).to.equal(false);
      expect(a['execution-mode']).to.equal('remote');
      expect(a.operations).to.equal(true);
      expect(a['terraform-version']).to.equal('latest');
      expect(a).to.have.property('vcs-repo', null);
      expect(a['assessments-enabled']).to.equal(false);
      expect(a).to.have.property('auto-destroy-at', null);
      expect(a['created-at']).to.be.a('string').that.matches(ISO_Z);
      expect(a['updated-at']).to.be.a('string').that.matches(ISO_Z);
      expect(Date.parse(a['created-at'])).to.be.closeTo(Date.now(), 60_000);
      expectAdminPermissions(a);
      expect(a.actions).to.deep.equal({ 'is-destroyable': true });
      expect(res.body.data.relationships.organization.data).to.deep.equal({ type: 'organizations', id: org.name });
      expect(res.body.data.links.self).to.equal(`/api/v2/organizations/${org.name}/workspaces/${name}`);
      expect(res.body).to.not.have.property('included');
      expect(await countRows('workspaces')).to.equal(initial + 1);
      const stored = await row(res.body.data.id);
      expect(stored).to.include({ organization_name: org.name, name, execution_mode: 'remote', auto_apply: false });
    });

    it('stores every attribute given and echoes it back', async () => {
      const name = uniq('ws');
      const body = doc('workspaces', {
        name,
        description: 'the app',
        'working-directory': 'infra/app',
        'auto-apply': true,
        'execution-mode': 'local',
        'terraform-version': '1.11.4',
        'assessments-enabled': true,
        'auto-destroy-at': '2030-01-02T03:04:05Z',
        'vcs-repo': null,
      });
      const res = await api('POST', `/organizations/${org.name}/workspaces`, { token: org.owner.token, body });
      const a = expectWorkspaceDocument(res, 201);
      expect(a).to.include({
        name,
        description: 'the app',
        'working-directory': 'infra/app',
        'auto-apply': true,
        'execution-mode': 'local',
        operations: false,
        'terraform-version': '1.11.4',
        'assessments-enabled': true,
        'auto-destroy-at': '2030-01-02T03:04:05.000Z',
        'vcs-repo': null,
      });
      const shown = await api('GET', `/workspaces/${res.body.data.id}`, { token: org.owner.token });
      expect(shown.body.data.attributes).to.deep.equal(a);
    });

    it('accepts each execution mode (agent with a pool) and pre-release terraform versions', async () => {
      const pool = await api('POST', `/organizations/${org.name}/agent-pools`, {
        token: org.owner.token,
        body: doc('agent-pools', { name: uniq('pool') }),
      });
      expect(pool.status, pool.text).to.equal(201);
      for (const mode of ['remote', 'local', 'agent']) {
        const res = await api('POST', `/organizations/${org.name}/workspaces`, {
          token: org.owner.token,
          body: doc('workspaces', {
            name: uniq('ws'),
            'execution-mode': mode,
            'terraform-version': '1.12.0-beta1',
            ...(mode === 'agent' ? { 'agent-pool-id': pool.body.data.id } : {}),
          }),
        });
        const a = expectWorkspaceDocument(res, 201);
        expect(a['execution-mode']).to.equal(mode);
        expect(a['terraform-version']).to.equal('1.12.0-beta1');
      }
    });

    it('ignores unknown attributes, as TFE does', async () => {
      const name = uniq('ws');
      const res = await api('POST', `/organizations/${org.name}/workspaces`, {
        token: org.owner.token,
        body: doc('workspaces', { name, 'source-name': 'cli', 'no-such-attribute': 7 }),
      });
      const a = expectWorkspaceDocument(res, 201);
      expect(a.name).to.equal(name);
      expect(a).to.not.have.property('no-such-attribute');
    });

    it('adds the organization to included with include=organization', async () => {
      const res = await api('POST', `/organizations/${org.name}/workspaces?include=organization`, {
        token: org.owner.token,
        body: doc('workspaces', { name: uniq('ws') }),
      });
      expectWorkspaceDocument(res, 201);
      expect(res.body.included).to.have.length(1);
      expect(res.body.included[0]).to.include({ type: 'organizations', id: org.name });
      expect(res.body.included[0].attributes.name).to.equal(org.name);
    });

    it('refuses an unknown include with 400 and creates nothing', async () => {
      const name = uniq('ws');
      const initial = await countRows('workspaces');
      const res = await post(org, { name }, { query: '?include=bogus' });
      expectError(res, 400, /include/i);
      expect(await countRows('workspaces')).to.equal(initial);
      expect(await rowByName(org.name, name)).to.equal(undefined);
    });

    it('refuses a duplicate name in the same organization with 422 and allows it in another', async () => {
      const ws = await createWorkspace(org);
      const initial = await countRows('workspaces');
      const dup = await post(org, { name: ws.name });
      expectError(dup, 422, /taken/);
      expectPointer(dup, '/data/attributes/name');
      expect(await countRows('workspaces')).to.equal(initial);

      const elsewhere = await post(other, { name: ws.name });
      expectWorkspaceDocument(elsewhere, 201);
      expect(elsewhere.body.data.id).to.not.equal(ws.id);
      expect(await countRows('workspaces')).to.equal(initial + 1);
    });

    it('lets exactly one of several concurrent creates of the same name succeed', async () => {
      const name = uniq('race');
      const initial = await countRows('workspaces');
      const results = await Promise.all(Array.from({ length: 6 }, () => post(org, { name })));
      expect(results.filter((r) => r.status === 201)).to.have.length(1);
      for (const r of results.filter((x) => x.status !== 201)) expectError(r, 422);
      expect(await countRows('workspaces')).to.equal(initial + 1);
    });

    it('lets an organization token create and manage workspaces of its own organization only', async () => {
      const tok = await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token });
      expect(tok.status, tok.text).to.equal(201);
      const token = tok.body.data.attributes.token;
      const created = await post(org, { name: uniq('ws') }, { token });
      expect(expectWorkspaceDocument(created, 201).permissions['can-update']).to.equal(true);
      const patched = await api('PATCH', `/workspaces/${created.body.data.id}`, {
        token,
        body: doc('workspaces', { 'auto-apply': true }),
      });
      expect(patched.status, patched.text).to.equal(200);
      const initial = await countRows('workspaces');
      expectError(await post(other, { name: uniq('ws') }, { token }), 404);
      expect(await countRows('workspaces')).to.equal(initial);
      const foreign = await createWorkspace(other);
      expectError(await api('GET', `/workspaces/${foreign.id}`, { token }), 404);
      expectError(await api('DELETE', `/workspaces/${foreign.id}`, { token }), 404);
      expect(await row(foreign.id)).to.not.equal(undefined);
    });

    it('refuses malformed JSON with 400 and creates nothing', async () => {
      const initial = await countRows('workspaces');
      for (const raw of ['{"data":', '{data: {}}', 'not json']) {
        expectError(await api('POST', `/organizations/${org.name}/workspaces`, { token: org.owner.token, raw }), 400);
      }
      expect(await countRows('workspaces')).to.equal(initial);
    });

    it('refuses a wrong data.type with 422 pointing at /data/type', async () => {
      const initial = await countRows('workspaces');
      for (const type of ['workspace', 'organizations', '']) {
        const res = await post(org, { name: uniq('ws') }, { type });
        expectError(res, 422);
        expectPointer(res, '/data/type');
      }
      expect(await countRows('workspaces')).to.equal(initial);
    });

    it('refuses missing data, attributes or name with 422 pointing at what is missing', async () => {
      const initial = await countRows('workspaces');
      const cases: [unknown, string][] = [
        [{}, '/data'],
        [{ data: { type: 'workspaces' } }, '/data/attributes'],
        [doc('workspaces', {}), '/data/attributes/name'],
        [doc('workspaces', { description: 'no name' }), '/data/attributes/name'],
      ];
      for (const [body, pointer] of cases) {
        const res = await api('POST', `/organizations/${org.name}/workspaces`, { token: org.owner.token, body });
        expectError(res, 422);
        expectPointer(res, pointer);
      }
      expect(await countRows('workspaces')).to.equal(initial);
    });

    it('refuses attributes of the wrong type or shape with 422 pointing at the attribute', async () => {
      const initial = await countRows('workspaces');
      const cases: [string, unknown][] = [
        ['auto-apply', 'true'],
        ['auto-apply', 1],
        ['execution-mode', 'cloud'],
        ['execution-mode', null],
        ['assessments-enabled', 'false'],
        ['terraform-version', 'v1.2'],
        ['terraform-version', 1.5],
        ['working-directory', '/absolute'],
        ['working-directory', 'a/../b'],
        ['auto-destroy-at', 'tomorrow'],
        ['vcs-repo', 'github.com/x/y'],
        ['description', 5],
        ['description', 'x'.repeat(4001)],
        ['name', 12],
        ['name', ''],
        ['name', 'has space'],
        ['name', 'x'.repeat(91)],
      ];
      for (const [attr, value] of cases) {
        const attrs: Record<string, unknown> = { name: uniq('ws'), [attr]: value };
        const res = await api('POST', `/organizations/${org.name}/workspaces`, {
          token: org.owner.token,
          body: doc('workspaces', attrs),
        });
        expectError(res, 422);
        expectPointer(res, `/data/attributes/${attr}`);
      }
      expect(await countRows('workspaces')).to.equal(initial);
    });

    it('answers 401 without a valid token and creates nothing', async () => {
      const initial = await countRows('workspaces');
      for (const token of [null, 'not-a-token']) {
        expectError(await post(org, { name: uniq('ws') }, { token }), 401);
      }
      expect(await countRows('workspaces')).to.equal(initial);
    });

    it('answers 404 for an unknown organization or one the caller does not belong to, and creates nothing', async () => {
      const initial = await countRows('workspaces');
      expectError(await post({ name: uniq('nope'), owner: org.owner }, { name: uniq('ws') }), 404);
      expectError(await post(other, { name: uniq('ws') }, { token: org.owner.token }), 404);
      expectError(await post(org, { name: uniq('ws') }, { token: outsider.token }), 404);
      expect(await countRows('workspaces')).to.equal(initial);
    });
  });

  describe('GET /organizations/:org/workspaces', () => {
    let listOrg: Org;
    let names: string[];

    before(async () => {
      listOrg = await createOrg();
      names = [];
      for (let i = 0; i < 23; i++) names.push((await createWorkspace(listOrg)).name);
      names.sort();
    });

    it('returns the first 20 sorted by name with numeric pagination and links', async () => {
      const res = await api('GET', `/organizations/${listOrg.name}/workspaces`, { token: listOrg.owner.token });
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/vnd\.api\+json/);
      expect(res.body.data.map((w: { attributes: { name: string } }) => w.attributes.name)).to.deep.equal(
        names.slice(0, 20),
      );
      expect(res.body.meta.pagination).to.deep.equal({
        'current-page': 1,
        'page-size': 20,
        'prev-page': null,
        'next-page': 2,
        'total-pages': 2,
        'total-count': 23,
      });
      const { links } = res.body;
      expect(links.self).to.be.a('string').that.includes(`/api/v2/organizations/${listOrg.name}/workspaces?`);
      expect(decodeURIComponent(links.self)).to.include('page[number]=1').and.include('page[size]=20');
      expect(decodeURIComponent(links.first)).to.include('page[number]=1');
      expect(links.prev).to.equal(null);
      expect(decodeURIComponent(links.next)).to.include('page[number]=2');
      expect(decodeURIComponent(links.last)).to.include('page[number]=2');
      for (const w of res.body.data) {
        expect(w.type).to.equal('workspaces');
        expectAdminPermissions(w.attributes);
        expect(w.attributes['created-at']).to.match(ISO_Z);
      }
    });

    it('pages with page[number] and page[size]', async () => {
      const p2 = await api('GET', `/organizations/${listOrg.name}/workspaces?page[number]=2`, {
        token: listOrg.owner.token,
      });
      expect(p2.status).to.equal(200);
      expect(p2.body.data.map((w: { attributes: { name: string } }) => w.attributes.name)).to.deep.equal(
        names.slice(20),
      );
      expect(p2.body.meta.pagination).to.include({
        'current-page': 2,
        'prev-page': 1,
        'next-page': null,
        'total-pages': 2,
        'total-count': 23,
      });
      expect(p2.body.links.next).to.equal(null);

      const small = await list(listOrg, 'page%5Bnumber%5D=3&page%5Bsize%5D=5');
      expect(small.status).to.equal(200);
      expect(small.body.data.map((w: { attributes: { name: string } }) => w.attributes.name)).to.deep.equal(
        names.slice(10, 15),
      );
      expect(small.body.meta.pagination).to.deep.equal({
        'current-page': 3,
        'page-size': 5,
        'prev-page': 2,
        'next-page': 4,
        'total-pages': 5,
        'total-count': 23,
      });
      expect(decodeURIComponent(small.body.links.prev)).to.include('page[number]=2').and.include('page[size]=5');
      expect(decodeURIComponent(small.body.links.next)).to.include('page[number]=4');
      expect(decodeURIComponent(small.body.links.last)).to.include('page[number]=5');

      const past = await list(listOrg, 'page[number]=9&page[size]=5');
      expect(past.status).to.equal(200);
      expect(past.body.data).to.deep.equal([]);
      expect(past.body.meta.pagination).to.include({ 'current-page': 9, 'total-count': 23, 'next-page': null });
    });

    it('caps page[size] at 100', async () => {
      const res = await api('GET', `/organizations/${listOrg.name}/workspaces?page[size]=1000`, {
        token: listOrg.owner.token,
      });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.have.length(23);
      expect(res.body.meta.pagination).to.include({ 'page-size': 100, 'total-pages': 1, 'next-page': null });
    });

    it('refuses invalid page parameters with 400', async () => {
      for (const q of ['page[size]=0', 'page[number]=0', 'page[number]=-1', 'page[number]=abc', 'page[size]=1.5']) {
        expectError(
          await api('GET', `/organizations/${listOrg.name}/workspaces?${q}`, { token: listOrg.owner.token }),
          400,
        );
      }
    });

    it('filters by search[name] as a case-insensitive substring, keeping it in the links', async () => {
      const target = names[7];
      const needle = target.slice(-6).toUpperCase();
      const res = await list(listOrg, `search[name]=${needle}&page[size]=5`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.map((w: { attributes: { name: string } }) => w.attributes.name)).to.deep.equal([target]);
      expect(res.body.meta.pagination).to.include({ 'total-count': 1, 'total-pages': 1 });
      expect(decodeURIComponent(res.body.links.self)).to.include(`search[name]=${needle}`);

      const all = await list(listOrg, 'search[name]=ws-&page[size]=100');
      expect(all.body.data).to.have.length(23);

      for (const literal of ['%', '_', 'no-such-workspace']) {
        const none = await list(listOrg, `search[name]=${encodeURIComponent(literal)}`);
        expect(none.status).to.equal(200);
        expect(none.body.data, literal).to.deep.equal([]);
        expect(none.body.meta.pagination).to.include({ 'total-count': 0, 'total-pages': 1, 'current-page': 1 });
      }
    });

    it('lists only the organization asked for', async () => {
      const mine = await createWorkspace(other);
      const res = await api('GET', `/organizations/${listOrg.name}/workspaces?page[size]=100`, {
        token: listOrg.owner.token,
      });
      expect(res.body.data.map((w: { id: string }) => w.id)).to.not.include(mine.id);
      for (const w of res.body.data) expect(w.relationships.organization.data.id).to.equal(listOrg.name);
    });

    it('accepts include=organization and refuses an unknown include with 400', async () => {
      const ok = await api('GET', `/organizations/${listOrg.name}/workspaces?include=organization`, {
        token: listOrg.owner.token,
      });
      expect(ok.status, ok.text).to.equal(200);
      expectError(await list(listOrg, 'include=bogus'), 400, /include/i);
    });

    it('answers 401 without a valid token and 404 for unknown or foreign organizations', async () => {
      expectError(await api('GET', `/organizations/${listOrg.name}/workspaces`, { token: null }), 401);
      expectError(await api('GET', `/organizations/${listOrg.name}/workspaces`, { token: 'wrong' }), 401);
      expectError(await api('GET', `/organizations/${uniq('nope')}/workspaces`, { token: listOrg.owner.token }), 404);
      expectError(await api('GET', `/organizations/${listOrg.name}/workspaces`, { token: other.owner.token }), 404);
      expectError(await api('GET', `/organizations/${listOrg.name}/workspaces`, { token: outsider.token }), 404);
    });
  });

  describe('GET /organizations/:org/workspaces/:name', () => {
    let ws: { id: string; name: string };

    before(async () => {
      ws = await createWorkspace(org, { description: 'by name' });
    });

    it('shows the workspace', async () => {
      const res = await api('GET', `/organizations/${org.name}/workspaces/${ws.name}`, { token: org.owner.token });
      const a = expectWorkspaceDocument(res, 200);
      expect(res.body.data.id).to.equal(ws.id);
      expect(a.name).to.equal(ws.name);
      expect(a.description).to.equal('by name');
      expect(a).to.have.property('vcs-repo', null);
      expectAdminPermissions(a);
      expect(res.body).to.not.have.property('included');
    });

    it('includes the organization on request and refuses unknown includes', async () => {
      const res = await api('GET', `/organizations/${org.name}/workspaces/${ws.name}?include=organization`, {
        token: org.owner.token,
      });
      expectWorkspaceDocument(res, 200);
      expect(res.body.included).to.have.length(1);
      expect(res.body.included[0]).to.include({ type: 'organizations', id: org.name });
      expect(res.body.included[0].attributes).to.include({ name: org.name });
      expect(res.body.included[0].attributes['created-at']).to.match(ISO_Z);
      for (const inc of ['bogus', 'organization,bogus', 'current_run,bogus']) {
        const res = await api('GET', `/organizations/${org.name}/workspaces/${ws.name}?include=${inc}`, {
          token: org.owner.token,
        });
        expectError(res, 400, /include/i);
      }
    });

    it('answers 404 for unknown names and for workspaces of other organizations', async () => {
      const foreign = await createWorkspace(other);
      expectError(
        await api('GET', `/organizations/${org.name}/workspaces/${uniq('missing')}`, { token: org.owner.token }),
        404,
      );
      expectError(
        await api('GET', `/organizations/${org.name}/workspaces/${foreign.name}`, { token: org.owner.token }),
        404,
      );
      expectError(
        await api('GET', `/organizations/${other.name}/workspaces/${foreign.name}`, { token: org.owner.token }),
        404,
      );
      expectError(
        await api('GET', `/organizations/${other.name}/workspaces/${ws.name}`, { token: other.owner.token }),
        404,
      );
      expectError(await api('GET', `/organizations/${org.name}/workspaces/${ws.name}`, { token: outsider.token }), 404);
      expectError(
        await api('GET', `/organizations/${uniq('nope')}/workspaces/${ws.name}`, { token: org.owner.token }),
        404,
      );
    });

    it('answers 401 without a valid token', async () => {
      expectError(await api('GET', `/organizations/${org.name}/workspaces/${ws.name}`, { token: null }), 401);
      expectError(await api('GET', `/organizations/${org.name}/workspaces/${ws.name}`, { token: 'wrong' }), 401);
    });
  });

  describe('GET /workspaces/:id', () => {
    it('shows the workspace, with the organization included on request', async () => {
      const ws = await createWorkspace(org);
      const res = await api('GET', `/workspaces/${ws.id}`, { token: org.owner.token });
      const a = expectWorkspaceDocument(res, 200);
      expect(a.name).to.equal(ws.name);
      expect(res.body).to.not.have.property('included');
      const inc = await api('GET', `/workspaces/${ws.id}?include=organization`, { token: org.owner.token });
      expect(inc.status).to.equal(200);
      expect(inc.body.included.map((r: { type: string; id: string }) => `${r.type}/${r.id}`)).to.deep.equal([
        `organizations/${org.name}`,
      ]);
      expectError(await api('GET', `/workspaces/${ws.id}?include=bogus`, { token: org.owner.token }), 400, /include/i);
    });

    it('answers 404 for unknown ids and other organizations, 401 without a valid token', async () => {
      const ws = await createWorkspace(org);
      expectError(await api('GET', '/workspaces/ws-doesnotexist', { token: org.owner.token }), 404);
      expectError(await api('GET', `/workspaces/${ws.id}`, { token: other.owner.token }), 404);
      expectError(await api('GET', `/workspaces/${ws.id}`, { token: outsider.token }), 404);
      expectError(await api('GET', `/workspaces/${ws.id}`, { token: null }), 401);
      expectError(await api('GET', `/workspaces/${ws.id}`, { token: 'wrong' }), 401);
    });
  });

  describe('PATCH /workspaces/:id', () => {
    it('updates the given attributes, keeps the omitted ones and moves updated-at', async () => {
      const created = await api('POST', `/organizations/${org.name}/workspaces`, {
        token: org.owner.token,
        body: doc('workspaces', {
          name: uniq('ws'),
          description: 'keep me',
          'working-directory': 'dir',
          'terraform-version': '1.9.0',
        }),
      });
      const initial = expectWorkspaceDocument(created, 201);
      await sleep(20);
      const res = await patch(created.body.data.id, { 'auto-apply': true }, org.owner.token);
      const after = expectWorkspaceDocument(res, 200);
      expect(after['auto-apply']).to.equal(true);
      const kept = [
        'name',
        'description',
        'working-directory',
        'terraform-version',
        'execution-mode',
        'vcs-repo',
        'assessments-enabled',
        'created-at',
      ];
      for (const k of kept) {
        expect(after[k], k).to.deep.equal(initial[k]);
      }
      expect(after['updated-at']).to.match(ISO_Z);
      expect(Date.parse(after['updated-at'])).to.be.greaterThan(Date.parse(initial['updated-at']));
      const stored = await row(created.body.data.id);
      expect(stored).to.include({
        auto_apply: true,
        description: 'keep me',
        working_directory: 'dir',
        terraform_version: '1.9.0',
      });
      const shown = await api('GET', `/workspaces/${created.body.data.id}`, { token: org.owner.token });
      expect(shown.body.data.attributes).to.deep.equal(after);
    });

    it('updates several attributes at once and clears description with null', async () => {
      const ws = await createWorkspace(org, { description: 'old' });
      const pool = await api('POST', `/organizations/${org.name}/agent-pools`, {
        token: org.owner.token,
        body: doc('agent-pools', { name: uniq('pool') }),
      });
      expect(pool.status, pool.text).to.equal(201);
      const res = await api('PATCH', `/workspaces/${ws.id}`, {
        token: org.owner.token,
        body: doc('workspaces', {
          description: null,
          'execution-mode': 'agent',
          'agent-pool-id': pool.body.data.id,
          'terraform-version': '1.11.4',
          'assessments-enabled': true,
          'auto-destroy-at': '2031-05-06T07:08:09.123Z',
          'working-directory': null,
        }),
      });
      const a = expectWorkspaceDocument(res, 200);
      expect(a).to.include({
        description: '',
        'execution-mode': 'agent',
        'terraform-version': '1.11.4',
        'assessments-enabled': true,
        'auto-destroy-at': '2031-05-06T07:08:09.123Z',
        'working-directory': '',
      });
      const cleared = await patch(ws.id, { 'auto-destroy-at': null }, org.owner.token);
      expect(cleared.status).to.equal(200);
      expect(cleared.body.data.attributes).to.have.property('auto-destroy-at', null);
      expect(cleared.body.data.attributes['execution-mode']).to.equal('agent');
    });

    it('accepts an empty attribute set and still answers with the document', async () => {
      const ws = await createWorkspace(org);
      const res = await api('PATCH', `/workspaces/${ws.id}`, {
        token: org.owner.token,
        body: { data: { type: 'workspaces' } },
      });
      expect(expectWorkspaceDocument(res, 200).name).to.equal(ws.name);
    });

    it('renames a workspace, which moves its by-name address', async () => {
      const ws = await createWorkspace(org);
      const newName = uniq('renamed');
      const res = await api('PATCH', `/workspaces/${ws.id}`, {
        token: org.owner.token,
        body: doc('workspaces', { name: newName }),
      });
      expect(expectWorkspaceDocument(res, 200).name).to.equal(newName);
      expect(res.body.data.id).to.equal(ws.id);
      expect(res.body.data.links.self).to.equal(`/api/v2/organizations/${org.name}/workspaces/${newName}`);
      expectError(
        await api('GET', `/organizations/${org.name}/workspaces/${ws.name}`, { token: org.owner.token }),
        404,
      );
      const byNew = await api('GET', `/organizations/${org.name}/workspaces/${newName}`, { token: org.owner.token });
      expect(byNew.status).to.equal(200);
      expect(byNew.body.data.id).to.equal(ws.id);
      const same = await api('PATCH', `/workspaces/${ws.id}`, {
        token: org.owner.token,
        body: doc('workspaces', { name: newName }),
      });
      expect(same.status, same.text).to.equal(200);
    });

    it('refuses renaming onto a taken name with 422 and changes nothing', async () => {
      const a = await createWorkspace(org);
      const b = await createWorkspace(org, { description: 'b' });
      const initial = await row(b.id);
      const res = await patch(b.id, { name: a.name, description: 'changed' }, org.owner.token);
      expectError(res, 422, /taken/);
      expectPointer(res, '/data/attributes/name');
      expect(await row(b.id)).to.deep.equal(initial);
      const foreign = await createWorkspace(other);
      const ok = await api('PATCH', `/workspaces/${b.id}`, {
        token: org.owner.token,
        body: doc('workspaces', { name: foreign.name }),
      });
      expect(ok.status, ok.text).to.equal(200);
    });

    it('includes the organization on request; an unknown include is a 400 that changes nothing', async () => {
      const ws = await createWorkspace(org);
      const inc = await patch(ws.id, { description: 'x' }, org.owner.token, '?include=organization');
      expect(inc.status, inc.text).to.equal(200);
      expect(inc.body.included[0]).to.include({ type: 'organizations', id: org.name });
      const initial = await row(ws.id);
      const bad = await patch(ws.id, { description: 'should not stick' }, org.owner.token, '?include=bogus');
      expectError(bad, 400, /include/i);
      expect(await row(ws.id)).to.deep.equal(initial);
    });

    it('refuses malformed JSON, wrong types and invalid attributes, changing nothing', async () => {
      const ws = await createWorkspace(org);
      const initial = await row(ws.id);
      for (const raw of ['{"data":', '[', 'nope']) {
        expectError(await api('PATCH', `/workspaces/${ws.id}`, { token: org.owner.token, raw }), 400);
      }
      const wrongType = await api('PATCH', `/workspaces/${ws.id}`, {
        token: org.owner.token,
        body: doc('organizations', {}),
      });
      expectError(wrongType, 422);
      expectPointer(wrongType, '/data/type');
      const noData = await api('PATCH', `/workspaces/${ws.id}`, {
        token: org.owner.token,
        body: { 'auto-apply': true },
      });
      expectError(noData, 422);
      expectPointer(noData, '/data');
      const cases: [string, unknown][] = [
        ['auto-apply', 'true'],
        ['execution-mode', 'cloud'],
        ['execution-mode', 'REMOTE'],
        ['name', null],
        ['name', 'bad/name'],
        ['terraform-version', 'latest-ish'],
        ['working-directory', '../escape'],
        ['assessments-enabled', 'yes'],
        ['auto-destroy-at', 42],
        ['queue-all-runs', 'false'],
      ];
      for (const [attr, value] of cases) {
        const res = await patch(ws.id, { description: 'changed', [attr]: value }, org.owner.token);
        expectError(res, 422);
        expectPointer(res, `/data/attributes/${attr}`);
      }
      expect(await row(ws.id)).to.deep.equal(initial);
    });

    it('answers 404 for unknown ids and other organizations, 401 without a valid token, changing nothing', async () => {
      const ws = await createWorkspace(org);
      const initial = await row(ws.id);
      const body = doc('workspaces', { description: 'hijacked' });
      expectError(await api('PATCH', '/workspaces/ws-doesnotexist', { token: org.owner.token, body }), 404);
      expectError(await api('PATCH', `/workspaces/${ws.id}`, { token: other.owner.token, body }), 404);
      expectError(await api('PATCH', `/workspaces/${ws.id}`, { token: outsider.token, body }), 404);
      expectError(await api('PATCH', `/workspaces/${ws.id}`, { token: null, body }), 401);
      expectError(await api('PATCH', `/workspaces/${ws.id}`, { token: 'wrong', body }), 401);
      expect(await row(ws.id)).to.deep.equal(initial);
    });
  });

  describe('DELETE /workspaces/:id', () => {
    it('deletes with 204 and no body; the workspace is then gone', async () => {
      const ws = await createWorkspace(org);
      const initial = await countRows('workspaces');
      const res = await api('DELETE', `/workspaces/${ws.id}`, { token: org.owner.token });
      expect(res.status, res.text).to.equal(204);
      expect(res.text).to.equal('');
      expect(await countRows('workspaces')).to.equal(initial - 1);
      expect(await row(ws.id)).to.equal(undefined);
      expectError(await api('GET', `/workspaces/${ws.id}`, { token: org.owner.token }), 404);
      expectError(
        await api('GET', `/organizations/${org.name}/workspaces/${ws.name}`, { token: org.owner.token }),
        404,
      );
      expectError(await api('DELETE', `/workspaces/${ws.id}`, { token: org.owner.token }), 404);
      expect(await countRows('workspaces')).to.equal(initial - 1);
    });

    it('answers 404 for unknown ids and other organizations, 401 without a valid token, deleting nothing', async () => {
      const ws = await createWorkspace(org);
      const initial = await countRows('workspaces');
      expectError(await api('DELETE', '/workspaces/ws-doesnotexist', { token: org.owner.token }), 404);
      expectError(await api('DELETE', `/workspaces/${ws.id}`, { token: other.owner.token }), 404);
      expectError(await api('DELETE', `/workspaces/${ws.id}`, { token: outsider.token }), 404);
      expectError(await api('DELETE', `/workspaces/${ws.id}`, { token: null }), 401);
      expectError(await api('DELETE', `/workspaces/${ws.id}`, { token: 'wrong' }), 401);
      expect(await countRows('workspaces')).to.equal(initial);
      expect(await row(ws.id)).to.not.equal(undefined);
    });
  });

  describe('DELETE /organizations/:org/workspaces/:name', () => {
    it('deletes only the named workspace of that organization', async () => {
      const ws = await createWorkspace(org);
      const twin = await post(other, { name: ws.name });
      expect(twin.status).to.equal(201);
      const initial = await countRows('workspaces');
      const res = await api('DELETE', `/organizations/${org.name}/workspaces/${ws.name}`, { token: org.owner.token });
      expect(res.status, res.text).to.equal(204);
      expect(res.text).to.equal('');
      expect(await countRows('workspaces')).to.equal(initial - 1);
      expect(await row(ws.id)).to.equal(undefined);
      expect(await row(twin.body.data.id)).to.not.equal(undefined);
      expectError(
        await api('DELETE', `/organizations/${org.name}/workspaces/${ws.name}`, { token: org.owner.token }),
        404,
      );
    });

    it('answers 404 for unknown names and other organizations, 401 without a valid token, deleting nothing', async () => {
      const ws = await createWorkspace(org);
      const initial = await countRows('workspaces');
      expectError(
        await api('DELETE', `/organizations/${org.name}/workspaces/${uniq('missing')}`, { token: org.owner.token }),
        404,
      );
      expectError(
        await api('DELETE', `/organizations/${uniq('nope')}/workspaces/${ws.name}`, { token: org.owner.token }),
        404,
      );
      expectError(
        await api('DELETE', `/organizations/${org.name}/workspaces/${ws.name}`, { token: other.owner.token }),
        404,
      );
      expectError(
        await api('DELETE', `/organizations/${other.name}/workspaces/${ws.name}`, { token: other.owner.token }),
        404,
      );
      expectError(
        await api('DELETE', `/organizations/${org.name}/workspaces/${ws.name}`, { token: outsider.token }),
        404,
      );
      expectError(await api('DELETE', `/organizations/${org.name}/workspaces/${ws.name}`, { token: null }), 401);
      expectError(await api('DELETE', `/organizations/${org.name}/workspaces/${ws.name}`, { token: 'wrong' }), 401);
      expect(await countRows('workspaces')).to.equal(initial);
      expect(await row(ws.id)).to.not.equal(undefined);
    });
  });

  describe('the terraform init flow', () => {
    it('GET by name 404, POST, PATCH terraform-version, GET by name 200', async () => {
      const user = await createUser();
      const cliOrg = await createOrg(user);
      const name = uniq('cli');
      const path = `/organizations/${cliOrg.name}/workspaces/${name}`;
      const headers = { 'Terraform-Version': '1.11.4', 'X-Terraform-Integration': 'cloud', 'User-Agent': 'go-tfe' };

      const missing = await api('GET', path, { token: user.token, headers });
      expectError(missing, 404);

      const body = doc('workspaces', { name });
      const created = await api('POST', `/organizations/${cliOrg.name}/workspaces`, {
        token: user.token,
        headers,
        body,
      });
      const c = expectWorkspaceDocument(created, 201);
      expect(c['terraform-version']).to.equal('latest');

      const version = doc('workspaces', { 'terraform-version': '1.11.4' });
      const patched = await api('PATCH', `/workspaces/${created.body.data.id}`, {
        token: user.token,
        headers,
        body: version,
      });
      expect(expectWorkspaceDocument(patched, 200)['terraform-version']).to.equal('1.11.4');

      const shown = await api('GET', path, { token: user.token, headers });
      const a = expectWorkspaceDocument(shown, 200);
      expect(shown.body.data.id).to.equal(created.body.data.id);
      expect(a).to.include({
        name,
        'terraform-version': '1.11.4',
        'execution-mode': 'remote',
        'working-directory': '',
      });
      expect(a).to.have.property('vcs-repo', null);
      expect(a.permissions).to.include({ 'can-queue-run': true, 'can-queue-apply': true, 'can-update': true });
      expect(a['created-at']).to.match(ISO_Z);
      expect(a['updated-at']).to.match(ISO_Z);
      expect(await rowByName(cliOrg.name, name)).to.include({ terraform_version: '1.11.4' });
    });
  });
});
