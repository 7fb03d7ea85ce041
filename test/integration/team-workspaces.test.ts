import { expect } from 'chai';
import { api, doc, expectError, type ApiResponse } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import {
  countRows,
  createOrg,
  createTeam,
  createUser,
  createWorkspace,
  joinOrg,
  uniq,
  type TestUser,
} from '../helpers/fixtures.js';

type Org = { name: string; owner: TestUser };
type Access = 'read' | 'plan' | 'write' | 'admin';

const twRow = (id: string) => harness().rt.db('team_workspaces').where({ id }).first();
const wsRow = (id: string) => harness().rt.db('workspaces').where({ id }).first();

function expectPointer(res: ApiResponse, pointer: string): void {
  const pointers = res.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer);
  expect(pointers, res.text).to.include(pointer);
}

const twBody = (access: unknown, workspaceId: string, teamId: string) =>
  doc(
    'team-workspaces',
    { access },
    {
      workspace: { data: { type: 'workspaces', id: workspaceId } },
      team: { data: { type: 'teams', id: teamId } },
    },
  );

async function grantAccess(org: Org, teamId: string, workspaceId: string, access: Access): Promise<string> {
  const res = await api('POST', '/team-workspaces', {
    token: org.owner.token,
    body: twBody(access, workspaceId, teamId),
  });
  expect(res.status, res.text).to.equal(201);
  return res.body.data.id;
}

async function addToTeam(org: Org, teamId: string, user: TestUser): Promise<void> {
  const res = await api('POST', `/teams/${teamId}/relationships/users`, {
    token: org.owner.token,
    body: { data: [{ type: 'users', id: user.username }] },
  });
  expect(res.status, res.text).to.equal(204);
}

/** A fresh member of `org` on a fresh team of their own. */
async function memberOnTeam(
  org: Org,
  teamAttrs: Record<string, unknown> = {},
): Promise<{ user: TestUser; teamId: string }> {
  const user = await createUser();
  await joinOrg(org, user);
  const teamId = await createTeam(org, teamAttrs);
  await addToTeam(org, teamId, user);
  return { user, teamId };
}

const setAccess = (id: string, access: unknown, token: string) =>
  api('PATCH', `/team-workspaces/${id}`, { token, body: doc('team-workspaces', { access }) });

const createIn = (o: Org, token: string, name = uniq('ws')) =>
  api('POST', `/organizations/${o.name}/workspaces`, { token, body: doc('workspaces', { name }) });

const patchWorkspace = (id: string, attrs: Record<string, unknown>, token: string) =>
  api('PATCH', `/workspaces/${id}`, { token, body: doc('workspaces', attrs) });

const listIds = (res: ApiResponse): string[] => res.body.data.map((r: { id: string }) => r.id);

describe('team-workspaces', () => {
  let org: Org;
  let other: Org;
  let outsider: TestUser;

  before(async () => {
    org = await createOrg();
    other = await createOrg();
    outsider = await createUser();
  });

  describe('POST /team-workspaces', () => {
    it('grants each access level with 201 and the team-workspace document', async () => {
      const expected: Record<Access, { runs: string; locking: boolean }> = {
        read: { runs: 'read', locking: false },
        plan: { runs: 'plan', locking: false },
        write: { runs: 'apply', locking: true },
        admin: { runs: 'apply', locking: true },
      };
      for (const access of ['read', 'plan', 'write', 'admin'] as Access[]) {
        const ws = await createWorkspace(org);
        const teamId = await createTeam(org);
        const initial = await countRows('team_workspaces');
        const res = await api('POST', '/team-workspaces', {
          token: org.owner.token,
          body: twBody(access, ws.id, teamId),
        });
        expect(res.status, res.text).to.equal(201);
        expect(res.headers.get('content-type')).to.match(/^application\/vnd\.api\+json/);
        const data = res.body.data;
        expect(data.type).to.equal('team-workspaces');
        expect(data.id).to.match(/^tws-/);
        expect(data.attributes.access).to.equal(access);
        expect(data.attributes.runs).to.equal(expected[access].runs);
        expect(data.attributes['workspace-locking']).to.equal(expected[access].locking);
        expect(data.attributes['run-tasks']).to.equal(access === 'admin');
        for (const k of ['variables', 'state-versions', 'sentinel-mocks'])
          expect(data.attributes[k], k).to.be.a('string');
        expect(data.relationships.team.data).to.deep.equal({ type: 'teams', id: teamId });
        expect(data.relationships.workspace.data).to.deep.equal({ type: 'workspaces', id: ws.id });
        expect(await countRows('team_workspaces')).to.equal(initial + 1);
        expect(await twRow(data.id)).to.include({ team_id: teamId, workspace_id: ws.id, access });
      }
    });

    it('refuses a second grant for the same team and workspace with 422', async () => {
      const ws = await createWorkspace(org);
      const teamId = await createTeam(org);
      await grantAccess(org, teamId, ws.id, 'read');
      const initial = await countRows('team_workspaces');
      const res = await api('POST', '/team-workspaces', {
        token: org.owner.token,
        body: twBody('admin', ws.id, teamId),
      });
      expectError(res, 422);
      expect(await countRows('team_workspaces')).to.equal(initial);
      const rows = await harness().rt.db('team_workspaces').where({ team_id: teamId, workspace_id: ws.id });
      expect(rows.map((r) => r.access)).to.deep.equal(['read']);
    });

    it('lets exactly one of several concurrent grants for the same team and workspace succeed', async () => {
      const ws = await createWorkspace(org);
      const teamId = await createTeam(org);
      const initial = await countRows('team_workspaces');
      const results = await Promise.all(
        (['read', 'plan', 'write', 'admin', 'read'] as Access[]).map((access) =>
          api('POST', '/team-workspaces', { token: org.owner.token, body: twBody(access, ws.id, teamId) }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).to.have.length(1);
      for (const r of results.filter((x) => x.status !== 201)) expectError(r, 422);
      expect(await countRows('team_workspaces')).to.equal(initial + 1);
    });

    it('answers 404 when team and workspace belong to different organizations', async () => {
      const owner = await createUser();
      const a = await createOrg(owner);
      const b = await createOrg(owner);
      const wsA = await createWorkspace(a);
      const teamB = await createTeam(b);
      const initial = await countRows('team_workspaces');
      expectError(
        await api('POST', '/team-workspaces', { token: owner.token, body: twBody('read', wsA.id, teamB) }),
        404,
      );
      expectError(
        await api('POST', '/team-workspaces', { token: harness().adminToken, body: twBody('read', wsA.id, teamB) }),
        404,
      );
      expect(await countRows('team_workspaces')).to.equal(initial);
    });

    it("answers 404 for unknown ids and for another organization's workspace or team, creating nothing", async () => {
      const ws = await createWorkspace(org);
      const teamId = await createTeam(org);
      const foreignWs = await createWorkspace(other);
      const foreignTeam = await createTeam(other);
      const initial = await countRows('team_workspaces');
      expectError(
        await api('POST', '/team-workspaces', {
          token: org.owner.token,
          body: twBody('read', 'ws-doesnotexist', teamId),
        }),
        404,
      );
      expectError(
        await api('POST', '/team-workspaces', {
          token: org.owner.token,
          body: twBody('read', ws.id, 'team-doesnotexist'),
        }),
        404,
      );
      expectError(
        await api('POST', '/team-workspaces', {
          token: org.owner.token,
          body: twBody('read', foreignWs.id, foreignTeam),
        }),
        404,
      );
      expectError(
        await api('POST', '/team-workspaces', { token: org.owner.token, body: twBody('read', ws.id, foreignTeam) }),
        404,
      );
      expectError(
        await api('POST', '/team-workspaces', { token: other.owner.token, body: twBody('read', ws.id, teamId) }),
        404,
      );
      expectError(
        await api('POST', '/team-workspaces', { token: outsider.token, body: twBody('read', ws.id, teamId) }),
        404,
      );
      expect(await countRows('team_workspaces')).to.equal(initial);
    });

    it('answers 401 without a valid token, creating nothing', async () => {
      const ws = await createWorkspace(org);
      const teamId = await createTeam(org);
      const initial = await countRows('team_workspaces');
      expectError(await api('POST', '/team-workspaces', { token: null, body: twBody('read', ws.id, teamId) }), 401);
      expectError(await api('POST', '/team-workspaces', { token: 'wrong', body: twBody('read', ws.id, teamId) }), 401);
      expect(await countRows('team_workspaces')).to.equal(initial);
    });

    it('refuses malformed JSON, wrong types and missing or invalid members, creating nothing', async () => {
      const ws = await createWorkspace(org);
      const teamId = await createTeam(org);
      const initial = await countRows('team_workspaces');
      for (const raw of ['{"data":', '{"data": {"type": "team-workspaces",}}', 'access=read']) {
        expectError(await api('POST', '/team-workspaces', { token: org.owner.token, raw }), 400);
      }
      const good = twBody('read', ws.id, teamId);
      const rels = good.data.relationships as Record<string, unknown>;
      const cases: [unknown, string][] = [
        [{}, '/data'],
        [{ ...good, data: { ...good.data, type: 'team-workspace' } }, '/data/type'],
        [{ ...good, data: { ...good.data, type: 'workspaces' } }, '/data/type'],
        [{ data: { type: 'team-workspaces', relationships: rels } }, '/data/attributes'],
        [{ data: { type: 'team-workspaces', attributes: {}, relationships: rels } }, '/data/attributes/access'],
        [twBody('owner', ws.id, teamId), '/data/attributes/access'],
        [twBody('READ', ws.id, teamId), '/data/attributes/access'],
        [twBody(4, ws.id, teamId), '/data/attributes/access'],
        [twBody(null, ws.id, teamId), '/data/attributes/access'],
        [{ data: { type: 'team-workspaces', attributes: { access: 'read' } } }, '/data/relationships'],
        [doc('team-workspaces', { access: 'read' }, { team: rels.team }), '/data/relationships/workspace'],
        [doc('team-workspaces', { access: 'read' }, { workspace: rels.workspace }), '/data/relationships/team'],
        [
          doc(
            'team-workspaces',
            { access: 'read' },
            { workspace: { data: { type: 'teams', id: ws.id } }, team: rels.team },
          ),
          '/data/relationships/workspace/data/type',
        ],
        [
          doc('team-workspaces', { access: 'read' }, { workspace: rels.workspace, team: { data: { type: 'teams' } } }),
          '/data/relationships/team/data/id',
        ],
        [
          doc('team-workspaces', { access: 'read' }, { workspace: rels.workspace, team: { data: null } }),
          '/data/relationships/team/data',
        ],
      ];
      for (const [body, pointer] of cases) {
        const res = await api('POST', '/team-workspaces', { token: org.owner.token, body });
        expectError(res, 422);
        expectPointer(res, pointer);
      }
      expect(await countRows('team_workspaces')).to.equal(initial);
    });
  });

  describe('GET /team-workspaces', () => {
    it('lists the grants of one workspace with numeric pagination', async () => {
      const ws = await createWorkspace(org);
      const otherWs = await createWorkspace(org);
      const ids: string[] = [];
      for (const access of ['read', 'write', 'admin'] as Access[])
        ids.push(await grantAccess(org, await createTeam(org), ws.id, access));
      const unrelated = await grantAccess(org, await createTeam(org), otherWs.id, 'read');

      const res = await api('GET', `/team-workspaces?filter[workspace][id]=${ws.id}`, { token: org.owner.token });
      expect(res.status, res.text).to.equal(200);
      expect(listIds(res)).to.have.members(ids);
      expect(listIds(res)).to.not.include(unrelated);
      for (const r of res.body.data) {
        expect(r.type).to.equal('team-workspaces');
        expect(r.relationships.workspace.data).to.deep.equal({ type: 'workspaces', id: ws.id });
      }
      expect(res.body.meta.pagination).to.deep.equal({
        'current-page': 1,
        'page-size': 20,
        'prev-page': null,
        'next-page': null,
        'total-pages': 1,
        'total-count': 3,
      });

      const pagedPath = `/team-workspaces?filter%5Bworkspace%5D%5Bid%5D=${ws.id}&page[number]=2&page[size]=2`;
      const paged = await api('GET', pagedPath, { token: org.owner.token });
      expect(paged.status).to.equal(200);
      expect(paged.body.data).to.have.length(1);
      expect(paged.body.meta.pagination).to.deep.equal({
        'current-page': 2,
        'page-size': 2,
        'prev-page': 1,
        'next-page': null,
        'total-pages': 2,
        'total-count': 3,
      });
      expect(decodeURIComponent(paged.body.links.prev)).to.include(`filter[workspace][id]=${ws.id}`);

      const bare = await createWorkspace(org);
      const empty = await api('GET', `/team-workspaces?filter[workspace][id]=${bare.id}`, { token: org.owner.token });
      expect(empty.status).to.equal(200);
      expect(empty.body.data).to.deep.equal([]);
      expect(empty.body.meta.pagination).to.include({ 'total-count': 0, 'total-pages': 1 });
    });

    it('requires filter[workspace][id] (400) and valid page parameters (400)', async () => {
      const ws = await createWorkspace(org);
      const missing = await api('GET', '/team-workspaces', { token: org.owner.token });
      expectError(missing, 400, /filter\[workspace\]\[id\]/);
      expectError(await api('GET', '/team-workspaces?filter[workspace][id]=', { token: org.owner.token }), 400);
      expectError(
        await api('GET', `/team-workspaces?filter[workspace][id]=${ws.id}&page[size]=0`, { token: org.owner.token }),
        400,
      );
    });

    it('answers 404 for unknown or foreign workspaces and 401 without a valid token', async () => {
      const ws = await createWorkspace(org);
      await grantAccess(org, await createTeam(org), ws.id, 'read');
      expectError(
        await api('GET', '/team-workspaces?filter[workspace][id]=ws-doesnotexist', { token: org.owner.token }),
        404,
      );
      expectError(
        await api('GET', `/team-workspaces?filter[workspace][id]=${ws.id}`, { token: other.owner.token }),
        404,
      );
      expectError(await api('GET', `/team-workspaces?filter[workspace][id]=${ws.id}`, { token: outsider.token }), 404);
      expectError(await api('GET', `/team-workspaces?filter[workspace][id]=${ws.id}`, { token: null }), 401);
      expectError(await api('GET', `/team-workspaces?filter[workspace][id]=${ws.id}`, { token: 'wrong' }), 401);
    });
  });

  describe('GET /team-workspaces/:id', () => {
    it('shows a grant', async () => {
      const ws = await createWorkspace(org);
      const teamId = await createTeam(org);
      const id = await grantAccess(org, teamId, ws.id, 'plan');
      const res = await api('GET', `/team-workspaces/${id}`, { token: org.owner.token });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.include({ type: 'team-workspaces', id });
      expect(res.body.data.attributes).to.include({ access: 'plan', runs: 'plan' });
      expect(res.body.data.relationships.team.data).to.deep.equal({ type: 'teams', id: teamId });
      expect(res.body.data.relationships.workspace.data).to.deep.equal({ type: 'workspaces', id: ws.id });
    });

    it('answers 404 for unknown ids and other organizations, 401 without a valid token', async () => {
      const id = await grantAccess(org, await createTeam(org), (await createWorkspace(org)).id, 'read');
      expectError(await api('GET', '/team-workspaces/tws-doesnotexist', { token: org.owner.token }), 404);
      expectError(await api('GET', `/team-workspaces/${id}`, { token: other.owner.token }), 404);
      expectError(await api('GET', `/team-workspaces/${id}`, { token: outsider.token }), 404);
      expectError(await api('GET', `/team-workspaces/${id}`, { token: null }), 401);
      expectError(await api('GET', `/team-workspaces/${id}`, { token: 'wrong' }), 401);
    });
  });

  describe('PATCH /team-workspaces/:id', () => {
    it('changes the access level', async () => {
      const ws = await createWorkspace(org);
      const teamId = await createTeam(org);
      const id = await grantAccess(org, teamId, ws.id, 'read');
      const res = await setAccess(id, 'write', org.owner.token);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.include({ type: 'team-workspaces', id });
      expect(res.body.data.attributes).to.include({ access: 'write', runs: 'apply', 'workspace-locking': true });
      expect(res.body.data.relationships.team.data.id).to.equal(teamId);
      expect(await twRow(id)).to.include({ access: 'write', team_id: teamId, workspace_id: ws.id });
      const shown = await api('GET', `/team-workspaces/${id}`, { token: org.owner.token });
      expect(shown.body.data.attributes.access).to.equal('write');
    });

    it('refuses malformed JSON, a wrong type and an invalid access, changing nothing', async () => {
      const id = await grantAccess(org, await createTeam(org), (await createWorkspace(org)).id, 'plan');
      const initial = await twRow(id);
      for (const raw of ['{"data":', 'nope']) {
        expectError(await api('PATCH', `/team-workspaces/${id}`, { token: org.owner.token, raw }), 400);
      }
      const cases: [unknown, string][] = [
        [{}, '/data'],
        [doc('workspaces', { access: 'admin' }), '/data/type'],
        [doc('team-workspaces', { access: 'owner' }), '/data/attributes/access'],
        [doc('team-workspaces', { access: true }), '/data/attributes/access'],
        [doc('team-workspaces', { access: null }), '/data/attributes/access'],
      ];
      for (const [body, pointer] of cases) {
        const res = await api('PATCH', `/team-workspaces/${id}`, { token: org.owner.token, body });
        expectError(res, 422);
        expectPointer(res, pointer);
      }
      expect(await twRow(id)).to.deep.equal(initial);
    });

    it('answers 404 for unknown ids and other organizations, 401 without a valid token, changing nothing', async () => {
      const id = await grantAccess(org, await createTeam(org), (await createWorkspace(org)).id, 'read');
      const body = doc('team-workspaces', { access: 'admin' });
      expectError(await api('PATCH', '/team-workspaces/tws-doesnotexist', { token: org.owner.token, body }), 404);
      expectError(await api('PATCH', `/team-workspaces/${id}`, { token: other.owner.token, body }), 404);
      expectError(await api('PATCH', `/team-workspaces/${id}`, { token: outsider.token, body }), 404);
      expectError(await api('PATCH', `/team-workspaces/${id}`, { token: null, body }), 401);
      expectError(await api('PATCH', `/team-workspaces/${id}`, { token: 'wrong', body }), 401);
      expect(await twRow(id)).to.include({ access: 'read' });
    });
  });

  describe('DELETE /team-workspaces/:id', () => {
    it('removes the grant with 204 and no body', async () => {
      const id = await grantAccess(org, await createTeam(org), (await createWorkspace(org)).id, 'write');
      const initial = await countRows('team_workspaces');
      const res = await api('DELETE', `/team-workspaces/${id}`, { token: org.owner.token });
      expect(res.status, res.text).to.equal(204);
      expect(res.text).to.equal('');
      expect(await countRows('team_workspaces')).to.equal(initial - 1);
      expect(await twRow(id)).to.equal(undefined);
      expectError(await api('GET', `/team-workspaces/${id}`, { token: org.owner.token }), 404);
      expectError(await api('DELETE', `/team-workspaces/${id}`, { token: org.owner.token }), 404);
    });

    it('answers 404 for unknown ids and other organizations, 401 without a valid token, deleting nothing', async () => {
      const id = await grantAccess(org, await createTeam(org), (await createWorkspace(org)).id, 'read');
      const initial = await countRows('team_workspaces');
      expectError(await api('DELETE', '/team-workspaces/tws-doesnotexist', { token: org.owner.token }), 404);
      expectError(await api('DELETE', `/team-workspaces/${id}`, { token: other.owner.token }), 404);
      expectError(await api('DELETE', `/team-workspaces/${id}`, { token: outsider.token }), 404);
      expectError(await api('DELETE', `/team-workspaces/${id}`, { token: null }), 401);
      expectError(await api('DELETE', `/team-workspaces/${id}`, { token: 'wrong' }), 401);
      expect(await countRows('team_workspaces')).to.equal(initial);
      expect(await twRow(id)).to.not.equal(undefined);
    });

    it('disappears with its workspace or its team', async () => {
      const ws = await createWorkspace(org);
      const byWorkspace = await grantAccess(org, await createTeam(org), ws.id, 'read');
      const teamId = await createTeam(org);
      const byTeam = await grantAccess(org, teamId, (await createWorkspace(org)).id, 'read');
      expect((await api('DELETE', `/workspaces/${ws.id}`, { token: org.owner.token })).status).to.equal(204);
      expect(await twRow(byWorkspace)).to.equal(undefined);
      expect((await api('DELETE', `/teams/${teamId}`, { token: org.owner.token })).status).to.equal(204);
      expect(await twRow(byTeam)).to.equal(undefined);
    });
  });

  describe('effect of access on workspaces', () => {
    let ws: { id: string; name: string };
    let hidden: { id: string; name: string };

    before(async () => {
      ws = await createWorkspace(org);
      hidden = await createWorkspace(org);
    });

    async function visibleTo(user: TestUser, within: Org = org): Promise<string[]> {
      const res = await api('GET', `/organizations/${within.name}/workspaces?page[size]=100`, { token: user.token });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.meta.pagination['total-count']).to.equal(res.body.data.length);
      return listIds(res);
    }

    it('hides every workspace from an org member without team access', async () => {
      const user = await createUser();
      await joinOrg(org, user);
      const initial = await wsRow(ws.id);
      expectError(await api('GET', `/organizations/${org.name}/workspaces/${ws.name}`, { token: user.token }), 404);
      expectError(await api('GET', `/workspaces/${ws.id}`, { token: user.token }), 404);
      expectError(await patchWorkspace(ws.id, { description: 'x' }, user.token), 404);
      expectError(await api('DELETE', `/workspaces/${ws.id}`, { token: user.token }), 404);
      expectError(await api('DELETE', `/organizations/${org.name}/workspaces/${ws.name}`, { token: user.token }), 404);
      expectError(await api('GET', `/team-workspaces?filter[workspace][id]=${ws.id}`, { token: user.token }), 404);
      const list = await api('GET', `/organizations/${org.name}/workspaces`, { token: user.token });
      expect(list.status).to.equal(200);
      expect(list.body.data).to.deep.equal([]);
      expect(list.body.meta.pagination).to.include({ 'total-count': 0, 'total-pages': 1, 'current-page': 1 });
      expect(await wsRow(ws.id)).to.deep.equal(initial);
    });

    it('with read access: visible, cannot queue runs, cannot update or delete', async () => {
      const { user, teamId } = await memberOnTeam(org);
      await grantAccess(org, teamId, ws.id, 'read');
      const res = await api('GET', `/organizations/${org.name}/workspaces/${ws.name}`, { token: user.token });
      expect(res.status, res.text).to.equal(200);
      const p = res.body.data.attributes.permissions;
      expect(p).to.include({
        'can-read-settings': true,
        'can-read-state-versions': true,
        'can-queue-run': false,
        'can-queue-apply': false,
        'can-update': false,
        'can-destroy': false,
        'can-lock': false,
      });
      expect(res.body.data.attributes.actions['is-destroyable']).to.equal(false);
      expect((await api('GET', `/workspaces/${ws.id}`, { token: user.token })).status).to.equal(200);
      const seen = await visibleTo(user);
      expect(seen).to.include(ws.id);
      expect(seen).to.not.include(hidden.id);
      const initial = await wsRow(ws.id);
      expectError(await patchWorkspace(ws.id, { description: 'x' }, user.token), 404);
      expectError(await api('DELETE', `/workspaces/${ws.id}`, { token: user.token }), 404);
      expectError(await api('DELETE', `/organizations/${org.name}/workspaces/${ws.name}`, { token: user.token }), 404);
      expect(await wsRow(ws.id)).to.deep.equal(initial);
      expectError(await api('GET', `/organizations/${org.name}/workspaces/${hidden.name}`, { token: user.token }), 404);
    });

    it('with plan access: can queue runs but not applies', async () => {
      const { user, teamId } = await memberOnTeam(org);
      await grantAccess(org, teamId, ws.id, 'plan');
      const res = await api('GET', `/workspaces/${ws.id}`, { token: user.token });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes.permissions).to.include({
        'can-queue-run': true,
        'can-queue-apply': false,
        'can-update': false,
        'can-lock': false,
      });
      expect(await visibleTo(user)).to.deep.equal([ws.id]);
    });

    it('with write access: can queue applies and lock, but not update', async () => {
      const { user, teamId } = await memberOnTeam(org);
      await grantAccess(org, teamId, ws.id, 'write');
      const res = await api('GET', `/organizations/${org.name}/workspaces/${ws.name}`, { token: user.token });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes.permissions).to.include({
        'can-queue-run': true,
        'can-queue-apply': true,
        'can-lock': true,
        'can-update-variable': true,
        'can-update': false,
        'can-destroy': false,
        'can-force-unlock': false,
      });
      const initial = await wsRow(ws.id);
      expectError(await patchWorkspace(ws.id, { 'auto-apply': true }, user.token), 404);
      expectError(await api('GET', `/team-workspaces?filter[workspace][id]=${ws.id}`, { token: user.token }), 404);
      expect(await wsRow(ws.id)).to.deep.equal(initial);
    });

    it('with admin access: can update, PATCH, manage team access and delete', async () => {
      const target = await createWorkspace(org);
      const { user, teamId } = await memberOnTeam(org);
      const grantId = await grantAccess(org, teamId, target.id, 'admin');
      const res = await api('GET', `/workspaces/${target.id}`, { token: user.token });
      expect(res.status, res.text).to.equal(200);
      const p = res.body.data.attributes.permissions;
      expect(p).to.include({
        'can-update': true,
        'can-destroy': true,
        'can-queue-run': true,
        'can-queue-apply': true,
        'can-force-unlock': true,
      });
      const patched = await patchWorkspace(target.id, { description: 'by admin team' }, user.token);
      expect(patched.status, patched.text).to.equal(200);
      expect(patched.body.data.attributes.description).to.equal('by admin team');
      expect(patched.body.data.attributes.permissions['can-update']).to.equal(true);
      expect(await wsRow(target.id)).to.include({ description: 'by admin team' });
      const grants = await api('GET', `/team-workspaces?filter[workspace][id]=${target.id}`, { token: user.token });
      expect(grants.status, grants.text).to.equal(200);
      expect(listIds(grants)).to.deep.equal([grantId]);
      expect((await api('GET', `/team-workspaces/${grantId}`, { token: user.token })).status).to.equal(200);
      expectError(await createIn(org, user.token), 404);
      const del = await api('DELETE', `/organizations/${org.name}/workspaces/${target.name}`, { token: user.token });
      expect(del.status, del.text).to.equal(204);
      expect(await wsRow(target.id)).to.equal(undefined);
    });

    it('takes the highest level over several teams, and follows changes and removal of the grant', async () => {
      const { user, teamId } = await memberOnTeam(org);
      const second = await createTeam(org);
      await addToTeam(org, second, user);
      const low = await grantAccess(org, teamId, ws.id, 'read');
      const high = await grantAccess(org, second, ws.id, 'write');
      const perms = async () =>
        (await api('GET', `/workspaces/${ws.id}`, { token: user.token })).body?.data?.attributes?.permissions;
      expect(await perms()).to.include({ 'can-queue-apply': true, 'can-update': false });

      expect((await setAccess(high, 'plan', org.owner.token)).status).to.equal(200);
      expect(await perms()).to.include({ 'can-queue-run': true, 'can-queue-apply': false });

      expect((await setAccess(low, 'admin', org.owner.token)).status).to.equal(200);
      expect(await perms()).to.include({ 'can-update': true });

      expect((await api('DELETE', `/team-workspaces/${low}`, { token: org.owner.token })).status).to.equal(204);
      expect(await perms()).to.include({ 'can-queue-run': true, 'can-update': false });
      expect((await api('DELETE', `/team-workspaces/${high}`, { token: org.owner.token })).status).to.equal(204);
      expectError(await api('GET', `/workspaces/${ws.id}`, { token: user.token }), 404);
      expect(await visibleTo(user)).to.deep.equal([]);
    });

    it("lets a team token act with its team's access", async () => {
      const teamId = await createTeam(org);
      await grantAccess(org, teamId, ws.id, 'plan');
      const tok = await api('POST', `/teams/${teamId}/authentication-token`, { token: org.owner.token });
      expect(tok.status, tok.text).to.equal(201);
      const token = tok.body.data.attributes.token;
      const res = await api('GET', `/organizations/${org.name}/workspaces/${ws.name}`, { token });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes.permissions).to.include({ 'can-queue-run': true, 'can-queue-apply': false });
      expectError(await api('GET', `/workspaces/${hidden.id}`, { token }), 404);
      const list = await api('GET', `/organizations/${org.name}/workspaces`, { token });
      expect(listIds(list)).to.deep.equal([ws.id]);
    });

    it('a team with manage-workspaces sees every workspace as admin and can create; a plain member cannot create', async () => {
      const scoped = await createOrg();
      const a = await createWorkspace(scoped);
      const b = await createWorkspace(scoped);
      const { user: manager } = await memberOnTeam(scoped, { 'organization-access': { 'manage-workspaces': true } });
      const list = await api('GET', `/organizations/${scoped.name}/workspaces`, { token: manager.token });
      expect(list.status, list.text).to.equal(200);
      expect(listIds(list)).to.have.members([a.id, b.id]);
      expect(list.body.meta.pagination['total-count']).to.equal(2);
      for (const w of list.body.data) {
        expect(w.attributes.permissions).to.include({
          'can-update': true,
          'can-destroy': true,
          'can-queue-apply': true,
        });
      }
      const shown = await api('GET', `/organizations/${scoped.name}/workspaces/${a.name}`, { token: manager.token });
      expect(shown.body.data.attributes.permissions['can-update']).to.equal(true);

      const name = uniq('ws');
      const created = await createIn(scoped, manager.token, name);
      expect(created.status, created.text).to.equal(201);
      expect(created.body.data.attributes.permissions['can-update']).to.equal(true);
      const patched = await patchWorkspace(a.id, { 'auto-apply': true }, manager.token);
      expect(patched.status, patched.text).to.equal(200);

      const plain = await createUser();
      await joinOrg(scoped, plain);
      const { user: teamMember, teamId: plainTeam } = await memberOnTeam(scoped);
      await grantAccess(scoped, plainTeam, a.id, 'admin');
      const initial = await countRows('workspaces');
      for (const token of [plain.token, teamMember.token]) {
        expectError(await createIn(scoped, token), 404);
      }
      expect(await countRows('workspaces')).to.equal(initial);
      expect(await visibleTo(plain, scoped)).to.deep.equal([]);
    });

    it('a team with read-workspaces sees every workspace with read permissions', async () => {
      const scoped = await createOrg();
      const a = await createWorkspace(scoped);
      const { user } = await memberOnTeam(scoped, { 'organization-access': { 'read-workspaces': true } });
      const res = await api('GET', `/organizations/${scoped.name}/workspaces`, { token: user.token });
      expect(res.status).to.equal(200);
      expect(listIds(res)).to.deep.equal([a.id]);
      const perms = res.body.data[0].attributes.permissions;
      expect(perms).to.include({ 'can-read-settings': true, 'can-queue-run': false, 'can-update': false });
      expectError(await createIn(scoped, user.token), 404);
    });

    it('an invited member who has not accepted sees nothing', async () => {
      const user = await createUser();
      const membershipId = await joinOrg(org, user, false);
      expect(membershipId).to.be.a('string');
      expectError(await api('GET', `/workspaces/${ws.id}`, { token: user.token }), 404);
      expectError(await api('GET', `/organizations/${org.name}/workspaces`, { token: user.token }), 404);
    });
  });
});
