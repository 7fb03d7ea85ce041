import { expect } from 'chai';
import { api, doc, expectError, type ApiResponse } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { pointers, refused } from '../helpers/identity.js';
import { countRows, createOrg, createTeam, createUser, joinOrg, uniq, type TestUser } from '../helpers/fixtures.js';

const ISO_Z = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const MALFORMED = '{"data": {"type": "organizations",';

const orgRow = (name: string) => harness().rt.db('organizations').where({ name }).first();
const orgDoc = (name: string, email = `${name}@example.test`) => doc('organizations', { name, email });
const bearer = (token: string) => ({ token });

async function ownersTeamId(org: string): Promise<string> {
  const row = await harness().rt.db('teams').where({ organization_name: org, is_owners: true }).first('id');
  expect(row, `owners team of ${org}`).to.exist;
  return row.id as string;
}

async function issueUserToken(user: TestUser, attributes: Record<string, unknown> = {}): Promise<ApiResponse> {
  const body = doc('authentication-tokens', attributes);
  const res = await api('POST', `/users/${user.id}/authentication-tokens`, { token: user.token, body });
  expect(res.status, res.text).to.equal(201);
  return res;
}

const minutesFromNow = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

describe('organizations', () => {
  describe('POST /organizations', () => {
    it('creates the organization with its owners team and the creator as an active owner', async () => {
      const user = await createUser();
      const name = uniq('org');
      const res = await api('POST', '/organizations', {
        token: user.token,
        body: orgDoc(name, `billing-${name}@example.test`),
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.headers.get('content-type')).to.match(/^application\/vnd\.api\+json/);
      const data = res.body.data;
      expect(data.type).to.equal('organizations');
      expect(data.id).to.equal(name);
      expect(data.attributes.name).to.equal(name);
      expect(data.attributes.email).to.equal(`billing-${name}@example.test`);
      expect(data.attributes['created-at']).to.match(ISO_Z);
      expect(data.attributes.permissions).to.include({
        'can-update': true,
        'can-destroy': true,
        'can-create-team': true,
        'can-create-workspace': true,
      });
      expect(data.attributes['external-id']).to.match(/^org-/);
      expect(data.relationships['entitlement-set'].data).to.deep.equal({
        type: 'entitlement-sets',
        id: data.attributes['external-id'],
      });
      expect(data.links.self).to.equal(`/api/v2/organizations/${name}`);

      const db = harness().rt.db;
      expect(await orgRow(name)).to.include({ name, email: `billing-${name}@example.test` });
      const teams = await db('teams').where({ organization_name: name });
      expect(teams).to.have.length(1);
      expect(teams[0]).to.include({ name: 'owners', is_owners: true });
      const memberships = await db('organization_memberships').where({ organization_name: name });
      expect(memberships).to.have.length(1);
      expect(memberships[0]).to.include({ user_id: user.id, status: 'active' });
      const links = await db('team_members').where({ team_id: teams[0].id });
      expect(links.map((l) => l.organization_membership_id)).to.deep.equal([memberships[0].id]);
    });

    it('refuses a duplicate name with 422 on /data/attributes/name and writes nothing', async () => {
      const org = await createOrg();
      const other = await createUser();
      const post = () => api('POST', '/organizations', { token: other.token, body: orgDoc(org.name) });
      const res = await refused(422, post, '/data/attributes/name');
      expect(res.body.errors[0].detail).to.match(/taken/);
    });

    it('refuses malformed JSON with 400 and writes nothing', async () => {
      const user = await createUser();
      await refused(400, () => api('POST', '/organizations', { token: user.token, raw: MALFORMED }));
    });

    it('refuses a wrong data.type, missing attributes and invalid values with 422 pointers and writes nothing', async () => {
      const user = await createUser();
      const name = uniq('org');
      const post = (body: unknown) => () => api('POST', '/organizations', { token: user.token, body });
      await refused(422, post(doc('workspaces', { name, email: `${name}@example.test` })), '/data/type');
      await refused(422, post(doc('organizations', { email: `${name}@example.test` })), '/data/attributes/name');
      await refused(422, post(doc('organizations', { name })), '/data/attributes/email');
      await refused(422, post(doc('organizations', { name, email: 'not-an-email' })), '/data/attributes/email');
      await refused(
        422,
        post(doc('organizations', { name: 'has spaces', email: `${name}@example.test` })),
        '/data/attributes/name',
      );
      await refused(
        422,
        post(doc('organizations', { name: 42, email: `${name}@example.test` })),
        '/data/attributes/name',
      );
      await refused(422, post({ data: { type: 'organizations' } }), '/data/attributes');
      await refused(422, post({}), '/data');
      expect(await orgRow(name)).to.equal(undefined);
    });

    it('answers 401 without a token or with a wrong one and writes nothing', async () => {
      const name = uniq('org');
      await refused(401, () => api('POST', '/organizations', { token: null, body: orgDoc(name) }));
      await refused(401, () => api('POST', '/organizations', { token: 'not-a-real-token', body: orgDoc(name) }));
      expect(await orgRow(name)).to.equal(undefined);
    });

    it('answers 404 to team and organization tokens, which cannot own an organization', async () => {
      const org = await createOrg();
      const teamId = await createTeam(org);
      const teamToken = await api('POST', `/teams/${teamId}/authentication-token`, { token: org.owner.token });
      const orgToken = await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token });
      expect(teamToken.status, teamToken.text).to.equal(201);
      expect(orgToken.status, orgToken.text).to.equal(201);
      for (const token of [teamToken.body.data.attributes.token, orgToken.body.data.attributes.token]) {
        const name = uniq('org');
        await refused(404, () => api('POST', '/organizations', { token, body: orgDoc(name) }));
        expect(await orgRow(name)).to.equal(undefined);
      }
    });
  });

  describe('GET /organizations', () => {
    it('lists only the organizations where the caller is an active member, paginated', async () => {
      const user = await createUser();
      const a = await createOrg(user);
      const b = await createOrg(user);
      const invitedTo = await createOrg();
      await joinOrg(invitedTo, user, false);
      const stranger = await createOrg();

      const res = await api('GET', '/organizations', bearer(user.token));
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.map((o: { id: string }) => o.id)).to.deep.equal([a.name, b.name].sort());
      expect(res.body.meta.pagination).to.include({
        'current-page': 1,
        'total-count': 2,
        'total-pages': 1,
        'prev-page': null,
        'next-page': null,
      });

      const paged = await api('GET', '/organizations?page[size]=1&page[number]=2', bearer(user.token));
      expect(paged.status, paged.text).to.equal(200);
      expect(paged.body.data.map((o: { id: string }) => o.id)).to.deep.equal([[a.name, b.name].sort()[1]]);
      expect(paged.body.meta.pagination).to.include({
        'current-page': 2,
        'page-size': 1,
        'total-pages': 2,
        'total-count': 2,
        'prev-page': 1,
        'next-page': null,
      });

      const admin = await api('GET', '/organizations?page[size]=100', {});
      expect(admin.status, admin.text).to.equal(200);
      expect(admin.body.meta.pagination['total-count']).to.equal(await countRows('organizations'));
      expect(admin.body.meta.pagination['total-count']).to.be.at.least(4);
      expect(stranger.name).to.not.be.oneOf(res.body.data.map((o: { id: string }) => o.id));
    });

    it('shows the caller its permissions in each organization', async () => {
      const org = await createOrg();
      const member = await createUser();
      await joinOrg(org, member);
      const res = await api('GET', '/organizations', bearer(member.token));
      expect(res.status, res.text).to.equal(200);
      const entry = res.body.data.find((o: { id: string }) => o.id === org.name);
      expect(entry.attributes.permissions).to.include({
        'can-update': false,
        'can-destroy': false,
        'can-manage-users': false,
      });
    });

    it('refuses a bad page parameter with 400', async () => {
      const user = await createUser();
      for (const q of ['page[number]=0', 'page[size]=abc', 'page[number]=-1']) {
        const res = await api('GET', `/organizations?${q}`, bearer(user.token));
        expectError(res, 400);
        expect(res.body.errors[0].source.parameter).to.match(/^page\[/);
      }
    });

    it('answers 401 without a token or with a wrong one', async () => {
      expectError(await api('GET', '/organizations', { token: null }), 401);
      expectError(await api('GET', '/organizations', { token: 'wrong' }), 401);
    });
  });

  describe('GET /organizations/:name', () => {
    it('shows the organization to members, with owner permissions only for owners', async () => {
      const org = await createOrg();
      const member = await createUser();
      await joinOrg(org, member);
      const asOwner = await api('GET', `/organizations/${org.name}`, bearer(org.owner.token));
      expect(asOwner.status, asOwner.text).to.equal(200);
      expect(asOwner.body.data.id).to.equal(org.name);
      expect(asOwner.body.data.attributes.email).to.equal(`${org.name}@example.test`);
      expect(asOwner.body.data.attributes.permissions['can-update']).to.equal(true);
      const asMember = await api('GET', `/organizations/${org.name}`, bearer(member.token));
      expect(asMember.status, asMember.text).to.equal(200);
      const permissions = asMember.body.data.attributes.permissions;
      expect(permissions).to.include({ 'can-update': false, 'can-destroy': false, 'can-update-api-token': false });
    });

    it('answers 404 to strangers, to users only invited, and for unknown names', async () => {
      const org = await createOrg();
      const stranger = await createUser();
      const invited = await createUser();
      await joinOrg(org, invited, false);
      expectError(await api('GET', `/organizations/${org.name}`, bearer(stranger.token)), 404);
      expectError(await api('GET', `/organizations/${org.name}`, bearer(invited.token)), 404);
      expectError(await api('GET', `/organizations/${uniq('nope')}`, bearer(org.owner.token)), 404);
    });

    it('lets the site admin see any organization', async () => {
      const org = await createOrg();
      const res = await api('GET', `/organizations/${org.name}`, {});
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes.permissions['can-update']).to.equal(true);
    });

    it('answers 401 without a token or with a wrong one', async () => {
      const org = await createOrg();
      expectError(await api('GET', `/organizations/${org.name}`, { token: null }), 401);
      expectError(await api('GET', `/organizations/${org.name}`, { token: `${org.owner.token}x` }), 401);
    });
  });

  describe('PATCH /organizations/:name', () => {
    it('updates the email', async () => {
      const org = await createOrg();
      const body = doc('organizations', { email: `new-${org.name}@example.test` });
      const res = await api('PATCH', `/organizations/${org.name}`, { token: org.owner.token, body });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes.email).to.equal(`new-${org.name}@example.test`);
      expect(res.body.data.attributes.name).to.equal(org.name);
      expect((await orgRow(org.name)).email).to.equal(`new-${org.name}@example.test`);
    });

    it('accepts an empty attribute set and changes nothing', async () => {
      const org = await createOrg();
      const before = await orgRow(org.name);
      const res = await api('PATCH', `/organizations/${org.name}`, {
        token: org.owner.token,
        body: doc('organizations', {}),
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes).to.include({ name: org.name, email: before.email });
      expect((await orgRow(org.name)).email).to.equal(before.email);
    });

    it('renames the organization; memberships, teams and tokens follow the new name', async () => {
      const org = await createOrg();
      const member = await createUser();
      await joinOrg(org, member);
      const orgToken = await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token });
      expect(orgToken.status, orgToken.text).to.equal(201);
      const renamed = uniq('renamed');
      const res = await api('PATCH', `/organizations/${org.name}`, {
        token: org.owner.token,
        body: doc('organizations', { name: renamed }),
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.id).to.equal(renamed);
      expect(res.body.data.links.self).to.equal(`/api/v2/organizations/${renamed}`);
      expect(res.body.data.attributes.permissions['can-update']).to.equal(true);

      expectError(await api('GET', `/organizations/${org.name}`, bearer(org.owner.token)), 404);
      expect((await api('GET', `/organizations/${renamed}`, bearer(member.token))).status).to.equal(200);
      const members = await api('GET', `/organizations/${renamed}/organization-memberships`, bearer(org.owner.token));
      expect(members.status, members.text).to.equal(200);
      expect(members.body.data).to.have.length(2);
      const viaToken = await api('GET', '/organizations', bearer(orgToken.body.data.attributes.token));
      expect(viaToken.status, viaToken.text).to.equal(200);
      expect(viaToken.body.data.map((o: { id: string }) => o.id)).to.deep.equal([renamed]);
      expect(await harness().rt.db('teams').where({ organization_name: renamed, is_owners: true }).first()).to.exist;
    });

    it('refuses renaming onto an existing name with 422 and changes nothing', async () => {
      const user = await createUser();
      const a = await createOrg(user);
      const b = await createOrg(user);
      const before = await orgRow(a.name);
      const body = doc('organizations', { name: b.name, email: 'x@example.test' });
      await refused(
        422,
        () => api('PATCH', `/organizations/${a.name}`, { token: user.token, body }),
        '/data/attributes/name',
      );
      expect(await orgRow(a.name)).to.deep.equal(before);
    });

    it('refuses malformed JSON, a wrong type and invalid values, changing nothing', async () => {
      const org = await createOrg();
      const before = await orgRow(org.name);
      const patch = (opts: { body?: unknown; raw?: string }) => () =>
        api('PATCH', `/organizations/${org.name}`, { token: org.owner.token, ...opts });
      await refused(400, patch({ raw: MALFORMED }));
      await refused(422, patch({ body: doc('teams', { email: 'x@example.test' }) }), '/data/type');
      await refused(422, patch({ body: doc('organizations', { email: 'nope' }) }), '/data/attributes/email');
      await refused(422, patch({ body: doc('organizations', { name: 'bad/name' }) }), '/data/attributes/name');
      await refused(422, patch({ body: doc('organizations', { name: '' }) }), '/data/attributes/name');
      await refused(422, patch({ body: { data: { attributes: { email: 'x@example.test' } } } }), '/data/type');
      expect(await orgRow(org.name)).to.deep.equal(before);
    });

    it('answers 404 to members who are not owners, to other organizations and for unknown names', async () => {
      const org = await createOrg();
      const member = await createUser();
      await joinOrg(org, member);
      const other = await createOrg();
      const before = await orgRow(org.name);
      const body = doc('organizations', { email: 'hijack@example.test' });
      await refused(404, () => api('PATCH', `/organizations/${org.name}`, { token: member.token, body }));
      await refused(404, () => api('PATCH', `/organizations/${org.name}`, { token: other.owner.token, body }));
      await refused(404, () => api('PATCH', `/organizations/${uniq('nope')}`, { token: org.owner.token, body }));
      expect(await orgRow(org.name)).to.deep.equal(before);
    });

    it('answers 401 without a token or with a wrong one, changing nothing', async () => {
      const org = await createOrg();
      const before = await orgRow(org.name);
      const body = doc('organizations', { email: 'x@example.test' });
      await refused(401, () => api('PATCH', `/organizations/${org.name}`, { token: null, body }));
      await refused(401, () => api('PATCH', `/organizations/${org.name}`, { token: 'wrong', body }));
      expect(await orgRow(org.name)).to.deep.equal(before);
    });
  });

  describe('DELETE /organizations/:name', () => {
    it('deletes the organization with its teams, memberships and tokens; users remain', async () => {
      const org = await createOrg();
      const member = await createUser();
      await joinOrg(org, member);
      const teamId = await createTeam(org);
      const teamToken = await api('POST', `/teams/${teamId}/authentication-token`, { token: org.owner.token });
      const orgToken = await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token });
      expect(teamToken.status).to.equal(201);
      expect(orgToken.status).to.equal(201);

      const res = await api('DELETE', `/organizations/${org.name}`, bearer(org.owner.token));
      expect(res.status, res.text).to.equal(204);
      expect(res.text).to.equal('');
      const db = harness().rt.db;
      expect(await orgRow(org.name)).to.equal(undefined);
      expect(await db('teams').where({ organization_name: org.name })).to.deep.equal([]);
      expect(await db('organization_memberships').where({ organization_name: org.name })).to.deep.equal([]);
      expect(
        await db('authentication_tokens').whereIn('id', [teamToken.body.data.id, orgToken.body.data.id]),
      ).to.deep.equal([]);
      expect(await db('users').whereIn('id', [org.owner.id, member.id]).pluck('id')).to.have.members([
        org.owner.id,
        member.id,
      ]);

      expectError(await api('GET', `/organizations/${org.name}`, bearer(org.owner.token)), 404);
      expectError(await api('GET', '/organizations', bearer(teamToken.body.data.attributes.token)), 401);
      expectError(await api('GET', '/organizations', bearer(orgToken.body.data.attributes.token)), 401);
      expectError(await api('DELETE', `/organizations/${org.name}`, bearer(org.owner.token)), 404);
    });

    it('answers 404 to non-owner members, to other organizations and for unknown names, deleting nothing', async () => {
      const org = await createOrg();
      const member = await createUser();
      await joinOrg(org, member);
      const other = await createOrg();
      await refused(404, () => api('DELETE', `/organizations/${org.name}`, bearer(member.token)));
      await refused(404, () => api('DELETE', `/organizations/${org.name}`, bearer(other.owner.token)));
      await refused(404, () => api('DELETE', `/organizations/${uniq('nope')}`, bearer(org.owner.token)));
      expect(await orgRow(org.name)).to.exist;
    });

    it('answers 404 to the organization token, which is not an owner', async () => {
      const org = await createOrg();
      const orgToken = await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token });
      await refused(404, () =>
        api('DELETE', `/organizations/${org.name}`, bearer(orgToken.body.data.attributes.token)),
      );
      expect(await orgRow(org.name)).to.exist;
    });

    it('answers 401 without a token or with a wrong one, deleting nothing', async () => {
      const org = await createOrg();
      await refused(401, () => api('DELETE', `/organizations/${org.name}`, { token: null }));
      await refused(401, () => api('DELETE', `/organizations/${org.name}`, { token: 'wrong' }));
      expect(await orgRow(org.name)).to.exist;
    });
  });

  describe('GET /organizations/:name/entitlement-set', () => {
    it('returns the entitlement set referenced by the organization', async () => {
      const org = await createOrg();
      const member = await createUser();
      await joinOrg(org, member);
      const shown = await api('GET', `/organizations/${org.name}`, bearer(org.owner.token));
      for (const token of [org.owner.token, member.token]) {
        const res = await api('GET', `/organizations/${org.name}/entitlement-set`, bearer(token));
        expect(res.status, res.text).to.equal(200);
        expect(res.body.data.type).to.equal('entitlement-sets');
        expect(res.body.data.id).to.equal(shown.body.data.relationships['entitlement-set'].data.id);
        expect(res.body.data.attributes).to.include({
          operations: true,
          'state-storage': true,
          teams: true,
          'private-module-registry': true,
        });
        for (const v of Object.values(res.body.data.attributes))
          expect(v === null || ['boolean', 'number'].includes(typeof v)).to.equal(true);
      }
    });

    it('answers 404 to strangers and for unknown organizations', async () => {
      const org = await createOrg();
      const stranger = await createUser();
      expectError(await api('GET', `/organizations/${org.name}/entitlement-set`, bearer(stranger.token)), 404);
      expectError(await api('GET', `/organizations/${uniq('nope')}/entitlement-set`, bearer(org.owner.token)), 404);
    });

    it('answers 401 without a token or with a wrong one', async () => {
      const org = await createOrg();
      expectError(await api('GET', `/organizations/${org.name}/entitlement-set`, { token: null }), 401);
      expectError(await api('GET', `/organizations/${org.name}/entitlement-set`, { token: 'wrong' }), 401);
    });
  });
});

describe('users', () => {
  describe('GET /account/details', () => {
    it('describes the calling user, email included', async () => {
      const user = await createUser();
      const res = await api('GET', '/account/details', bearer(user.token));
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.include({ type: 'users', id: user.id });
      expect(res.body.data.attributes).to.include({
        username: user.username,
        email: user.email,
        'is-site-admin': false,
      });
      expect(res.body.data.attributes.permissions).to.include({
        'can-change-email': true,
        'can-change-username': true,
      });
      expect(res.body.data.links.self).to.equal(`/api/v2/users/${user.id}`);
    });

    it('marks the site admin', async () => {
      const res = await api('GET', '/account/details', {});
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes['is-site-admin']).to.equal(true);
    });

    it('answers 404 to team and organization tokens, which are not users', async () => {
      const org = await createOrg();
      const teamId = await createTeam(org);
      const teamToken = await api('POST', `/teams/${teamId}/authentication-token`, { token: org.owner.token });
      const orgToken = await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token });
      expectError(await api('GET', '/account/details', bearer(teamToken.body.data.attributes.token)), 404);
      expectError(await api('GET', '/account/details', bearer(orgToken.body.data.attributes.token)), 404);
    });

    it('answers 401 without a token, with a wrong one, or with a non-bearer scheme', async () => {
      expectError(await api('GET', '/account/details', { token: null }), 401);
      expectError(await api('GET', '/account/details', { token: 'wrong' }), 401);
      const user = await createUser();
      expectError(
        await api('GET', '/account/details', { token: null, headers: { Authorization: `Token ${user.token}` } }),
        401,
      );
    });
  });

  describe('GET /users/:id', () => {
    it('shows a user to itself with the email and to fellow members without it', async () => {
      const org = await createOrg();
      const member = await createUser();
      await joinOrg(org, member);
      const self = await api('GET', `/users/${member.id}`, bearer(member.token));
      expect(self.status, self.text).to.equal(200);
      expect(self.body.data.attributes).to.include({ username: member.username, email: member.email });
      const peer = await api('GET', `/users/${member.id}`, bearer(org.owner.token));
      expect(peer.status, peer.text).to.equal(200);
      expect(peer.body.data.id).to.equal(member.id);
      expect(peer.body.data.attributes.username).to.equal(member.username);
      expect(peer.body.data.attributes).to.not.have.property('email');
      expect(peer.body.data.attributes.permissions['can-change-email']).to.equal(false);
    });

    it('lets the site admin see anyone, with the email', async () => {
      const user = await createUser();
      const res = await api('GET', `/users/${user.id}`, {});
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes.email).to.equal(user.email);
    });

    it('answers 404 for users in no shared organization and for unknown ids', async () => {
      const a = await createOrg();
      const b = await createOrg();
      expectError(await api('GET', `/users/${b.owner.id}`, bearer(a.owner.token)), 404);
      expectError(await api('GET', `/users/user-${uniq('nope')}`, bearer(a.owner.token)), 404);
    });

    it('lets an organization token see the members of its organization only', async () => {
      const org = await createOrg();
      const other = await createOrg();
      const orgToken = await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token });
      const token = orgToken.body.data.attributes.token;
      const res = await api('GET', `/users/${org.owner.id}`, bearer(token));
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes).to.not.have.property('email');
      expectError(await api('GET', `/users/${other.owner.id}`, bearer(token)), 404);
    });

    it('answers 401 without a token or with a wrong one', async () => {
      const user = await createUser();
      expectError(await api('GET', `/users/${user.id}`, { token: null }), 401);
      expectError(await api('GET', `/users/${user.id}`, { token: 'wrong' }), 401);
    });
  });

  describe('POST /admin/users', () => {
    it('lets the site admin create users, optionally site admins', async () => {
      const username = uniq('made');
      const res = await api('POST', '/admin/users', {
        body: doc('users', { username, email: `${username}@example.test` }),
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.type).to.equal('users');
      expect(res.body.data.id).to.match(/^user-/);
      expect(res.body.data.attributes).to.include({
        username,
        email: `${username}@example.test`,
        'is-site-admin': false,
      });
      const row = await harness().rt.db('users').where({ id: res.body.data.id }).first();
      expect(row).to.include({ username, email: `${username}@example.test`, is_admin: false });

      const adminName = uniq('admin');
      const adminBody = doc('users', { username: adminName, email: `${adminName}@example.test`, 'is-admin': true });
      const admin = await api('POST', '/admin/users', { body: adminBody });
      expect(admin.status, admin.text).to.equal(201);
      expect(admin.body.data.attributes['is-site-admin']).to.equal(true);
      const token = await api('POST', `/users/${admin.body.data.id}/authentication-tokens`, {});
      expect(token.status, token.text).to.equal(201);
      const org = await createOrg();
      const seen = await api('GET', `/organizations/${org.name}`, bearer(token.body.data.attributes.token));
      expect(seen.status, seen.text).to.equal(200);
    });

    it('answers 404 to users who are not site admins and creates nothing', async () => {
      const user = await createUser();
      const username = uniq('sneaky');
      const body = doc('users', { username, email: `${username}@example.test` });
      await refused(404, () => api('POST', '/admin/users', { token: user.token, body }));
      expect(await harness().rt.db('users').where({ username }).first()).to.equal(undefined);
    });

    it('answers 404 to organization tokens and creates nothing', async () => {
      const org = await createOrg();
      const orgToken = await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token });
      const username = uniq('sneaky');
      const body = doc('users', { username, email: `${username}@example.test` });
      await refused(404, () => api('POST', '/admin/users', { token: orgToken.body.data.attributes.token, body }));
    });

    it('refuses duplicate usernames and emails (any case) with 422 and creates nothing', async () => {
      const existing = await createUser();
      const fresh = uniq('fresh');
      await refused(
        422,
        () =>
          api('POST', '/admin/users', {
            body: doc('users', { username: existing.username, email: `${fresh}@example.test` }),
          }),
        '/data/attributes/username',
      );
      const sameEmail = doc('users', { username: fresh, email: existing.email });
      await refused(422, () => api('POST', '/admin/users', { body: sameEmail }), '/data/attributes/email');
      await refused(
        422,
        () =>
          api('POST', '/admin/users', { body: doc('users', { username: fresh, email: existing.email.toUpperCase() }) }),
        '/data/attributes/email',
      );
      expect(await harness().rt.db('users').where({ username: fresh }).first()).to.equal(undefined);
    });

    it('creates exactly one user when the same username or email is submitted concurrently', async () => {
      const username = uniq('race');
      const bodies = [0, 1, 2].map((i) => doc('users', { username, email: `${username}-${i}@example.test` }));
      const results = await Promise.all(bodies.map((body) => api('POST', '/admin/users', { body })));
      expect(results.map((r) => r.status).sort(), results.map((r) => r.text).join(' | ')).to.deep.equal([
        201, 422, 422,
      ]);
      for (const r of results.filter((x) => x.status === 422))
        expect(pointers(r)).to.include('/data/attributes/username');
      expect(await harness().rt.db('users').where({ username })).to.have.length(1);

      const email = `${uniq('race')}@example.test`;
      const twoUsers = [uniq('u1'), uniq('u2')].map((u) => doc('users', { username: u, email }));
      const sameEmail = await Promise.all(twoUsers.map((body) => api('POST', '/admin/users', { body })));
      expect(sameEmail.map((r) => r.status).sort()).to.deep.equal([201, 422]);
      expect(pointers(sameEmail.find((r) => r.status === 422)!)).to.include('/data/attributes/email');
      expect(await harness().rt.db('users').where({ email })).to.have.length(1);
    });

    it('refuses malformed JSON, a wrong type, missing and invalid attributes, creating nothing', async () => {
      const username = uniq('bad');
      const email = `${username}@example.test`;
      const post = (opts: { body?: unknown; raw?: string }) => () => api('POST', '/admin/users', opts);
      await refused(400, post({ raw: '{"data":' }));
      await refused(422, post({ body: doc('user', { username, email }) }), '/data/type');
      await refused(422, post({ body: doc('users', { email }) }), '/data/attributes/username');
      await refused(422, post({ body: doc('users', { username }) }), '/data/attributes/email');
      await refused(422, post({ body: doc('users', { username, email: 'nope' }) }), '/data/attributes/email');
      await refused(
        422,
        post({ body: doc('users', { username: 'no spaces allowed', email }) }),
        '/data/attributes/username',
      );
      await refused(
        422,
        post({ body: doc('users', { username, email, 'is-admin': 'yes' }) }),
        '/data/attributes/is-admin',
      );
      expect(await harness().rt.db('users').where({ username }).first()).to.equal(undefined);
    });

    it('answers 401 without a token or with a wrong one, creating nothing', async () => {
      const username = uniq('anon');
      const body = doc('users', { username, email: `${username}@example.test` });
      await refused(401, () => api('POST', '/admin/users', { token: null, body }));
      await refused(401, () => api('POST', '/admin/users', { token: 'wrong', body }));
    });
  });
});

describe('user authentication tokens', () => {
  describe('POST /users/:id/authentication-tokens', () => {
    it('issues a token that authenticates as the user and shows its secret once', async () => {
      const user = await createUser();
      const expiry = new Date(Date.now() + 3_600_000);
      const withOffset = `${new Date(expiry.getTime() + 2 * 3_600_000).toISOString().slice(0, 19)}+02:00`;
      const res = await issueUserToken(user, { description: 'laptop', 'expired-at': withOffset });
      const data = res.body.data;
      expect(data.type).to.equal('authentication-tokens');
      expect(data.id).to.match(/^at-/);
      expect(data.attributes.token).to.be.a('string').with.length.above(20);
      expect(data.attributes.description).to.equal('laptop');
      expect(data.attributes['created-at']).to.match(ISO_Z);
      expect(data.attributes['expired-at']).to.match(ISO_Z);
      expect(new Date(data.attributes['expired-at']).getTime()).to.equal(Math.floor(expiry.getTime() / 1000) * 1000);
      expect(data.relationships['created-by'].data).to.deep.equal({ type: 'users', id: user.id });

      const row = await harness().rt.db('authentication_tokens').where({ id: data.id }).first();
      expect(row).to.include({ kind: 'user', user_id: user.id, description: 'laptop' });
      expect(row.digest).to.not.equal(data.attributes.token);

      const me = await api('GET', '/account/details', bearer(data.attributes.token));
      expect(me.status, me.text).to.equal(200);
      expect(me.body.data.id).to.equal(user.id);

      const shown = await api('GET', `/authentication-tokens/${data.id}`, bearer(user.token));
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.data.attributes.token).to.equal(null);
    });

    it('accepts a request without a body', async () => {
      const user = await createUser();
      const res = await api('POST', `/users/${user.id}/authentication-tokens`, bearer(user.token));
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.attributes).to.include({ description: null, 'expired-at': null });
      expect((await api('GET', '/account/details', bearer(res.body.data.attributes.token))).status).to.equal(200);
    });

    it('issues tokens already expired, which then answer 401', async () => {
      const user = await createUser();
      const res = await issueUserToken(user, { 'expired-at': minutesFromNow(-1) });
      expectError(await api('GET', '/account/details', bearer(res.body.data.attributes.token)), 401);
      expectError(await api('GET', '/organizations', bearer(res.body.data.attributes.token)), 401);
    });

    it('lets the site admin issue a token for another user, recorded as its creator', async () => {
      const user = await createUser();
      const admin = await api('GET', '/account/details', {});
      const body = doc('authentication-tokens', { description: 'by admin' });
      const res = await api('POST', `/users/${user.id}/authentication-tokens`, { body });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.relationships['created-by'].data.id).to.equal(admin.body.data.id);
      const me = await api('GET', '/account/details', bearer(res.body.data.attributes.token));
      expect(me.body.data.id).to.equal(user.id);
    });

    it('answers 404 for another user and for unknown users, issuing nothing', async () => {
      const org = await createOrg();
      const peer = await createUser();
      await joinOrg(org, peer);
      const body = doc('authentication-tokens', { description: 'stolen' });
      await refused(404, () =>
        api('POST', `/users/${peer.id}/authentication-tokens`, { token: org.owner.token, body }),
      );
      await refused(404, () =>
        api('POST', `/users/user-${uniq('nope')}/authentication-tokens`, { token: org.owner.token, body }),
      );
    });

    it('answers 404 to team tokens, issuing nothing', async () => {
      const org = await createOrg();
      const teamId = await createTeam(org, { 'organization-access': { 'manage-membership': true } });
      const teamToken = await api('POST', `/teams/${teamId}/authentication-token`, { token: org.owner.token });
      await refused(404, () =>
        api('POST', `/users/${org.owner.id}/authentication-tokens`, bearer(teamToken.body.data.attributes.token)),
      );
    });

    it('refuses malformed JSON, a wrong type and invalid attributes, issuing nothing', async () => {
      const user = await createUser();
      const post = (opts: { body?: unknown; raw?: string }) => () =>
        api('POST', `/users/${user.id}/authentication-tokens`, { token: user.token, ...opts });
      await refused(400, post({ raw: '{"data": {' }));
      await refused(422, post({ body: doc('users', { description: 'x' }) }), '/data/type');
      await refused(
        422,
        post({ body: doc('authentication-tokens', { 'expired-at': 'tomorrow' }) }),
        '/data/attributes/expired-at',
      );
      await refused(
        422,
        post({ body: doc('authentication-tokens', { description: 'x'.repeat(501) }) }),
        '/data/attributes/description',
      );
      await refused(
        422,
        post({ body: doc('authentication-tokens', { description: 7 }) }),
        '/data/attributes/description',
      );
    });

    it('answers 401 without a token or with a wrong one, issuing nothing', async () => {
      const user = await createUser();
      await refused(401, () => api('POST', `/users/${user.id}/authentication-tokens`, { token: null }));
      await refused(401, () => api('POST', `/users/${user.id}/authentication-tokens`, { token: 'wrong' }));
    });
  });

  describe('GET /users/:id/authentication-tokens', () => {
    it("lists the user's tokens without their secrets", async () => {
      const user = await createUser();
      const second = await issueUserToken(user, { description: 'second' });
      const res = await api('GET', `/users/${user.id}/authentication-tokens`, bearer(user.token));
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.map((t: { id: string }) => t.id)).to.include(second.body.data.id);
      expect(res.body.data).to.have.length(2);
      for (const t of res.body.data) {
        expect(t.type).to.equal('authentication-tokens');
        expect(t.attributes.token).to.equal(null);
        expect(t.attributes['created-at']).to.match(ISO_Z);
      }
      const admin = await api('GET', `/users/${user.id}/authentication-tokens`, {});
      expect(admin.status, admin.text).to.equal(200);
      expect(admin.body.data).to.have.length(2);
    });

    it('answers 404 for another user and for unknown users', async () => {
      const org = await createOrg();
      const peer = await createUser();
      await joinOrg(org, peer);
      expectError(await api('GET', `/users/${peer.id}/authentication-tokens`, bearer(org.owner.token)), 404);
      expectError(await api('GET', `/users/user-${uniq('nope')}/authentication-tokens`, bearer(org.owner.token)), 404);
      expectError(await api('GET', `/users/user-${uniq('nope')}/authentication-tokens`, {}), 404);
    });

    it('answers 401 without a token or with a wrong one', async () => {
      const user = await createUser();
      expectError(await api('GET', `/users/${user.id}/authentication-tokens`, { token: null }), 401);
      expectError(await api('GET', `/users/${user.id}/authentication-tokens`, { token: 'wrong' }), 401);
    });
  });

  describe('GET /authentication-tokens/:id', () => {
    it('shows a token to its user and to the site admin', async () => {
      const user = await createUser();
      const issued = await issueUserToken(user, { description: 'shown' });
      for (const token of [user.token, harness().adminToken]) {
        const res = await api('GET', `/authentication-tokens/${issued.body.data.id}`, bearer(token));
        expect(res.status, res.text).to.equal(200);
        expect(res.body.data).to.include({ type: 'authentication-tokens', id: issued.body.data.id });
        expect(res.body.data.attributes).to.include({ description: 'shown', token: null });
      }
    });

    it("answers 404 for another user's token, organization tokens and unknown ids (a team token: to its managers only)", async () => {
      const org = await createOrg();
      const peer = await createUser();
      await joinOrg(org, peer);
      const peerToken = await issueUserToken(peer);
      const teamId = await createTeam(org);
      const teamToken = await api('POST', `/teams/${teamId}/authentication-token`, { token: org.owner.token });
      const orgToken = await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token });
      expectError(await api('GET', `/authentication-tokens/${peerToken.body.data.id}`, bearer(org.owner.token)), 404);
      expectError(await api('GET', `/authentication-tokens/${teamToken.body.data.id}`, bearer(peer.token)), 404);
      expect(
        (await api('GET', `/authentication-tokens/${teamToken.body.data.id}`, bearer(org.owner.token))).status,
      ).to.equal(200);
      expectError(await api('GET', `/authentication-tokens/${orgToken.body.data.id}`, bearer(org.owner.token)), 404);
      expectError(await api('GET', `/authentication-tokens/at-${uniq('nope')}`, bearer(org.owner.token)), 404);
    });

    it('answers 401 without a token or with a wrong one', async () => {
      const user = await createUser();
      const issued = await issueUserToken(user);
      expectError(await api('GET', `/authentication-tokens/${issued.body.data.id}`, { token: null }), 401);
      expectError(await api('GET', `/authentication-tokens/${issued.body.data.id}`, { token: 'wrong' }), 401);
    });
  });

  describe('DELETE /authentication-tokens/:id', () => {
    it('revokes the token, which then answers 401', async () => {
      const user = await createUser();
      const issued = await issueUserToken(user);
      const secret = issued.body.data.attributes.token;
      expect((await api('GET', '/account/details', bearer(secret))).status).to.equal(200);
      const res = await api('DELETE', `/authentication-tokens/${issued.body.data.id}`, bearer(user.token));
      expect(res.status, res.text).to.equal(204);
      expect(await harness().rt.db('authentication_tokens').where({ id: issued.body.data.id }).first()).to.equal(
        undefined,
      );
      expectError(await api('GET', '/account/details', bearer(secret)), 401);
      expect((await api('GET', '/account/details', bearer(user.token))).status).to.equal(200);
      expectError(await api('DELETE', `/authentication-tokens/${issued.body.data.id}`, bearer(user.token)), 404);
    });

    it("lets the site admin revoke another user's token", async () => {
      const user = await createUser();
      const issued = await issueUserToken(user);
      expect((await api('DELETE', `/authentication-tokens/${issued.body.data.id}`, {})).status).to.equal(204);
      expectError(await api('GET', '/account/details', bearer(issued.body.data.attributes.token)), 401);
    });

    it('lets a token revoke itself', async () => {
      const user = await createUser();
      const issued = await issueUserToken(user);
      const secret = issued.body.data.attributes.token;
      expect((await api('DELETE', `/authentication-tokens/${issued.body.data.id}`, bearer(secret))).status).to.equal(
        204,
      );
      expectError(await api('GET', '/account/details', bearer(secret)), 401);
    });

    it("answers 404 for another user's token and unknown ids, revoking nothing", async () => {
      const org = await createOrg();
      const peer = await createUser();
      await joinOrg(org, peer);
      const peerToken = await issueUserToken(peer);
      await refused(404, () =>
        api('DELETE', `/authentication-tokens/${peerToken.body.data.id}`, bearer(org.owner.token)),
      );
      await refused(404, () => api('DELETE', `/authentication-tokens/at-${uniq('nope')}`, bearer(org.owner.token)));
      expect((await api('GET', '/account/details', bearer(peerToken.body.data.attributes.token))).status).to.equal(200);
    });

    it('answers 404 for organization tokens, which have their own endpoints, and for a team token to one who may not manage it', async () => {
      const org = await createOrg();
      const peer = await createUser();
      await joinOrg(org, peer);
      const teamId = await createTeam(org);
      const teamToken = await api('POST', `/teams/${teamId}/authentication-token`, { token: org.owner.token });
      const orgToken = await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token });
      await refused(404, () => api('DELETE', `/authentication-tokens/${teamToken.body.data.id}`, bearer(peer.token)));
      await refused(404, () => api('DELETE', `/authentication-tokens/${orgToken.body.data.id}`, {}));
    });

    it('never revokes the site admin token that comes from configuration', async () => {
      const row = await harness().rt.db('authentication_tokens').where({ from_configuration: true }).first('id');
      expect(row).to.exist;
      await refused(404, () => api('DELETE', `/authentication-tokens/${row.id}`, {}));
      expect((await api('GET', '/account/details', {})).status).to.equal(200);
    });

    it('answers 401 without a token or with a wrong one, revoking nothing', async () => {
      const user = await createUser();
      const issued = await issueUserToken(user);
      await refused(401, () => api('DELETE', `/authentication-tokens/${issued.body.data.id}`, { token: null }));
      await refused(401, () => api('DELETE', `/authentication-tokens/${issued.body.data.id}`, { token: 'wrong' }));
    });
  });
});

describe('team authentication tokens', () => {
  const issue = (teamId: string, token: string, body?: unknown) =>
    api('POST', `/teams/${teamId}/authentication-token`, { token, body });

  it('issues a token that authenticates as the team, within its organization only', async () => {
    const org = await createOrg();
    const other = await createOrg();
    const teamId = await createTeam(org, { visibility: 'organization' });
    // The legacy token has no description (described ones: POST /teams/:id/authentication-tokens).
    const res = await issue(teamId, org.owner.token, doc('authentication-tokens', { 'expired-at': null }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.type).to.equal('authentication-tokens');
    expect(res.body.data.attributes).to.include({ description: null });
    expect(res.body.data.relationships['created-by'].data.id).to.equal(org.owner.id);
    const secret = res.body.data.attributes.token;
    expect(secret).to.be.a('string');
    const row = await harness().rt.db('authentication_tokens').where({ id: res.body.data.id }).first();
    expect(row).to.include({ kind: 'team', team_id: teamId, user_id: null });

    const list = await api('GET', '/organizations', bearer(secret));
    expect(list.status, list.text).to.equal(200);
    expect(list.body.data.map((o: { id: string }) => o.id)).to.deep.equal([org.name]);
    expect((await api('GET', `/organizations/${org.name}`, bearer(secret))).status).to.equal(200);
    const team = await api('GET', `/teams/${teamId}`, bearer(secret));
    expect(team.status, team.text).to.equal(200);
    expectError(await api('GET', `/organizations/${other.name}`, bearer(secret)), 404);
    expectError(await api('GET', '/account/details', bearer(secret)), 404);
  });

  it('replaces the previous token when regenerated; the old one then answers 401', async () => {
    const org = await createOrg();
    const teamId = await createTeam(org);
    const first = await issue(teamId, org.owner.token);
    expect(first.status, first.text).to.equal(201);
    expect((await api('GET', `/organizations/${org.name}`, bearer(first.body.data.attributes.token))).status).to.equal(
      200,
    );
    const second = await issue(teamId, org.owner.token);
    expect(second.status, second.text).to.equal(201);
    expect(second.body.data.id).to.not.equal(first.body.data.id);
    expectError(await api('GET', `/organizations/${org.name}`, bearer(first.body.data.attributes.token)), 401);
    expect((await api('GET', `/organizations/${org.name}`, bearer(second.body.data.attributes.token))).status).to.equal(
      200,
    );
    const rows = await harness().rt.db('authentication_tokens').where({ kind: 'team', team_id: teamId }).pluck('id');
    expect(rows).to.deep.equal([second.body.data.id]);
  });

  it('issues expired team tokens that answer 401', async () => {
    const org = await createOrg();
    const teamId = await createTeam(org);
    const res = await issue(
      teamId,
      org.owner.token,
      doc('authentication-tokens', { 'expired-at': minutesFromNow(-5) }),
    );
    expect(res.status, res.text).to.equal(201);
    expectError(await api('GET', `/organizations/${org.name}`, bearer(res.body.data.attributes.token)), 401);
  });

  it('deletes the team token, which then answers 401; deleting again is 404', async () => {
    const org = await createOrg();
    const teamId = await createTeam(org);
    const issued = await issue(teamId, org.owner.token);
    const res = await api('DELETE', `/teams/${teamId}/authentication-token`, bearer(org.owner.token));
    expect(res.status, res.text).to.equal(204);
    expectError(await api('GET', `/organizations/${org.name}`, bearer(issued.body.data.attributes.token)), 401);
    expect(await harness().rt.db('authentication_tokens').where({ kind: 'team', team_id: teamId }).first()).to.equal(
      undefined,
    );
    expectError(await api('DELETE', `/teams/${teamId}/authentication-token`, bearer(org.owner.token)), 404);
  });

  it('answers 404 to members without manage-teams, to other organizations and for unknown teams, changing nothing', async () => {
    const org = await createOrg();
    const member = await createUser();
    await joinOrg(org, member);
    const other = await createOrg();
    const teamId = await createTeam(org, { visibility: 'organization' });
    const issued = await issue(teamId, org.owner.token);
    for (const token of [member.token, other.owner.token]) {
      await refused(404, () => issue(teamId, token));
      await refused(404, () => api('DELETE', `/teams/${teamId}/authentication-token`, bearer(token)));
    }
    await refused(404, () => issue(`team-${uniq('nope')}`, org.owner.token));
    await refused(404, () =>
      api('DELETE', `/teams/team-${uniq('nope')}/authentication-token`, bearer(org.owner.token)),
    );
    expect((await api('GET', `/organizations/${org.name}`, bearer(issued.body.data.attributes.token))).status).to.equal(
      200,
    );
  });

  it("keeps the owners team's token to owners: a member with manage-teams gets 404 for it, writing nothing, and still manages other teams' tokens", async () => {
    const org = await createOrg();
    const manager = await createUser();
    await joinOrg(org, manager);
    const managers = await createTeam(org, {
      visibility: 'organization',
      'organization-access': { 'manage-teams': true },
    });
    const added = await api('POST', `/teams/${managers}/relationships/users`, {
      token: org.owner.token,
      body: { data: [{ type: 'users', id: manager.username }] },
    });
    expect(added.status, added.text).to.equal(204);
    const owners = await ownersTeamId(org.name);
    const issued = await issue(owners, org.owner.token);
    expect(issued.status, issued.text).to.equal(201);
    await refused(404, () => issue(owners, manager.token));
    await refused(404, () => api('DELETE', `/teams/${owners}/authentication-token`, bearer(manager.token)));
    expect((await api('GET', `/organizations/${org.name}`, bearer(issued.body.data.attributes.token))).status).to.equal(
      200,
    );
    const teamId = await createTeam(org);
    const own = await issue(teamId, manager.token);
    expect(own.status, own.text).to.equal(201);
    const revoked = await api('DELETE', `/teams/${teamId}/authentication-token`, bearer(manager.token));
    expect(revoked.status, revoked.text).to.equal(204);
  });

  it('refuses malformed JSON, a wrong type and invalid attributes, keeping the current token', async () => {
    const org = await createOrg();
    const teamId = await createTeam(org);
    const issued = await issue(teamId, org.owner.token);
    const post = (opts: { body?: unknown; raw?: string }) => () =>
      api('POST', `/teams/${teamId}/authentication-token`, { token: org.owner.token, ...opts });
    await refused(400, post({ raw: MALFORMED }));
    await refused(422, post({ body: doc('teams', { description: 'x' }) }), '/data/type');
    await refused(
      422,
      post({ body: doc('authentication-tokens', { 'expired-at': 'soon' }) }),
      '/data/attributes/expired-at',
    );
    await refused(
      422,
      post({ body: doc('authentication-tokens', { description: ['x'] }) }),
      '/data/attributes/description',
    );
    const rows = await harness().rt.db('authentication_tokens').where({ kind: 'team', team_id: teamId }).pluck('id');
    expect(rows).to.deep.equal([issued.body.data.id]);
    expect((await api('GET', `/organizations/${org.name}`, bearer(issued.body.data.attributes.token))).status).to.equal(
      200,
    );
  });

  it('answers 401 without a token or with a wrong one, changing nothing', async () => {
    const org = await createOrg();
    const teamId = await createTeam(org);
    await issue(teamId, org.owner.token);
    await refused(401, () => api('POST', `/teams/${teamId}/authentication-token`, { token: null }));
    await refused(401, () => api('POST', `/teams/${teamId}/authentication-token`, { token: 'wrong' }));
    await refused(401, () => api('DELETE', `/teams/${teamId}/authentication-token`, { token: null }));
    await refused(401, () => api('DELETE', `/teams/${teamId}/authentication-token`, { token: 'wrong' }));
  });
});

describe('organization authentication tokens', () => {
  const issue = (org: string, token: string, body?: unknown) =>
    api('POST', `/organizations/${org}/authentication-token`, { token, body });

  it('issues a token that sees only its own organization', async () => {
    const user = await createUser();
    const org = await createOrg(user);
    const sibling = await createOrg(user);
    const res = await issue(org.name, user.token, doc('authentication-tokens', { description: 'automation' }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.attributes.description).to.equal('automation');
    expect(res.body.data.attributes['created-at']).to.match(ISO_Z);
    const secret = res.body.data.attributes.token;
    const row = await harness().rt.db('authentication_tokens').where({ id: res.body.data.id }).first();
    expect(row).to.include({ kind: 'organization', organization_name: org.name, user_id: null, team_id: null });

    const list = await api('GET', '/organizations', bearer(secret));
    expect(list.status, list.text).to.equal(200);
    expect(list.body.data.map((o: { id: string }) => o.id)).to.deep.equal([org.name]);
    const shown = await api('GET', `/organizations/${org.name}`, bearer(secret));
    expect(shown.status, shown.text).to.equal(200);
    expect(shown.body.data.attributes.permissions['can-update']).to.equal(false);
    expect((await api('GET', `/organizations/${org.name}/entitlement-set`, bearer(secret))).status).to.equal(200);
    expectError(await api('GET', `/organizations/${sibling.name}`, bearer(secret)), 404);
    expectError(await api('GET', `/organizations/${sibling.name}/entitlement-set`, bearer(secret)), 404);
    expectError(await api('GET', '/account/details', bearer(secret)), 404);
  });

  it('replaces the previous token when regenerated; the old one then answers 401', async () => {
    const org = await createOrg();
    const first = await issue(org.name, org.owner.token);
    const second = await issue(org.name, org.owner.token);
    expect(first.status, first.text).to.equal(201);
    expect(second.status, second.text).to.equal(201);
    expectError(await api('GET', `/organizations/${org.name}`, bearer(first.body.data.attributes.token)), 401);
    expect((await api('GET', `/organizations/${org.name}`, bearer(second.body.data.attributes.token))).status).to.equal(
      200,
    );
    const rows = await harness()
      .rt.db('authentication_tokens')
      .where({ kind: 'organization', organization_name: org.name })
      .pluck('id');
    expect(rows).to.deep.equal([second.body.data.id]);
  });

  it('does not let the organization token regenerate or delete itself', async () => {
    const org = await createOrg();
    const issued = await issue(org.name, org.owner.token);
    const secret = issued.body.data.attributes.token;
    await refused(404, () => issue(org.name, secret));
    await refused(404, () => api('DELETE', `/organizations/${org.name}/authentication-token`, bearer(secret)));
    expect((await api('GET', `/organizations/${org.name}`, bearer(secret))).status).to.equal(200);
  });

  it('issues expired organization tokens that answer 401', async () => {
    const org = await createOrg();
    const res = await issue(
      org.name,
      org.owner.token,
      doc('authentication-tokens', { 'expired-at': minutesFromNow(-1) }),
    );
    expect(res.status, res.text).to.equal(201);
    expectError(await api('GET', `/organizations/${org.name}`, bearer(res.body.data.attributes.token)), 401);
  });

  it('deletes the organization token, which then answers 401; deleting again is 404', async () => {
    const org = await createOrg();
    const issued = await issue(org.name, org.owner.token);
    const res = await api('DELETE', `/organizations/${org.name}/authentication-token`, bearer(org.owner.token));
    expect(res.status, res.text).to.equal(204);
    expectError(await api('GET', `/organizations/${org.name}`, bearer(issued.body.data.attributes.token)), 401);
    expectError(await api('DELETE', `/organizations/${org.name}/authentication-token`, bearer(org.owner.token)), 404);
  });

  it('lets members of the owners team manage it through a team token', async () => {
    const org = await createOrg();
    const ownersToken = await api('POST', `/teams/${await ownersTeamId(org.name)}/authentication-token`, {
      token: org.owner.token,
    });
    expect(ownersToken.status, ownersToken.text).to.equal(201);
    const res = await issue(org.name, ownersToken.body.data.attributes.token);
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.relationships['created-by'].data).to.equal(null);
  });

  it('answers 404 to non-owners, to other organizations and for unknown organizations, changing nothing', async () => {
    const org = await createOrg();
    const member = await createUser();
    await joinOrg(org, member);
    const other = await createOrg();
    const issued = await issue(org.name, org.owner.token);
    for (const token of [member.token, other.owner.token]) {
      await refused(404, () => issue(org.name, token));
      await refused(404, () => api('DELETE', `/organizations/${org.name}/authentication-token`, bearer(token)));
    }
    await refused(404, () => issue(uniq('nope'), org.owner.token));
    await refused(404, () =>
      api('DELETE', `/organizations/${uniq('nope')}/authentication-token`, bearer(org.owner.token)),
    );
    expect((await api('GET', `/organizations/${org.name}`, bearer(issued.body.data.attributes.token))).status).to.equal(
      200,
    );
  });

  it('refuses malformed JSON, a wrong type and invalid attributes, keeping the current token', async () => {
    const org = await createOrg();
    const issued = await issue(org.name, org.owner.token);
    const post = (opts: { body?: unknown; raw?: string }) => () =>
      api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token, ...opts });
    await refused(400, post({ raw: MALFORMED }));
    await refused(422, post({ body: doc('organizations', { description: 'x' }) }), '/data/type');
    await refused(
      422,
      post({ body: doc('authentication-tokens', { 'expired-at': '2020-13-45' }) }),
      '/data/attributes/expired-at',
    );
    expect((await api('GET', `/organizations/${org.name}`, bearer(issued.body.data.attributes.token))).status).to.equal(
      200,
    );
  });

  it('answers 401 without a token or with a wrong one, changing nothing', async () => {
    const org = await createOrg();
    await issue(org.name, org.owner.token);
    await refused(401, () => api('POST', `/organizations/${org.name}/authentication-token`, { token: null }));
    await refused(401, () => api('POST', `/organizations/${org.name}/authentication-token`, { token: 'wrong' }));
    await refused(401, () => api('DELETE', `/organizations/${org.name}/authentication-token`, { token: null }));
    await refused(401, () => api('DELETE', `/organizations/${org.name}/authentication-token`, { token: 'wrong' }));
  });
});
