import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { countRows, createOrg, createTeam, createUser, joinOrg, uniq, type TestUser } from '../helpers/fixtures.js';

type Org = { name: string; owner: TestUser };

const PERMISSIONS = [
  'manage-policies',
  'manage-policy-overrides',
  'manage-workspaces',
  'manage-vcs-settings',
  'manage-providers',
  'manage-modules',
  'manage-run-tasks',
  'manage-projects',
  'read-workspaces',
  'read-projects',
  'manage-membership',
  'manage-teams',
  'manage-organization-access',
  'access-secret-teams',
  'manage-agent-pools',
  'manage-var-sets',
];

const accessWith = (...granted: string[]) => Object.fromEntries(PERMISSIONS.map((p) => [p, granted.includes(p)]));

const addUsers = async (org: Org, teamId: string, ...users: TestUser[]) => {
  const res = await api('POST', `/teams/${teamId}/relationships/users`, {
    token: org.owner.token,
    body: { data: users.map((u) => ({ type: 'users', id: u.username })) },
  });
  expect(res.status, res.text).to.equal(204);
};

const ownersTeam = async (org: Org) => {
  const res = await api('GET', `/organizations/${org.name}/teams?filter[names]=owners`, { token: org.owner.token });
  expect(res.status, res.text).to.equal(200);
  expect(res.body.data).to.have.length(1);
  return res.body.data[0];
};

const teamRow = (id: string) => harness().rt.db('teams').where({ id }).first();

const postTeam = (orgName: string, token: string | null, attrs: Record<string, unknown>) =>
  api('POST', `/organizations/${orgName}/teams`, { token, body: doc('teams', attrs) });

const patchTeam = (id: string, token: string | null, attrs: Record<string, unknown>) =>
  api('PATCH', `/teams/${id}`, { token, body: doc('teams', attrs) });

const namesOf = (res: { body: { data: { attributes: { name: string } }[] } }) =>
  res.body.data.map((t) => t.attributes.name);

describe('teams', () => {
  describe('the owners team', () => {
    it('exists as soon as the organization is created, holds the creator and has every permission', async () => {
      const org = await createOrg();
      const owners = await ownersTeam(org);
      expect(owners.type).to.equal('teams');
      expect(owners.id).to.match(/^team-/);
      expect(owners.attributes.name).to.equal('owners');
      expect(owners.attributes['users-count']).to.equal(1);
      expect(owners.attributes['organization-access']).to.deep.equal(accessWith(...PERMISSIONS));
      expect(owners.attributes.permissions).to.include({
        'can-destroy': false,
        'can-update-name': false,
        'can-update-organization-access': false,
        'can-update-membership': true,
      });
      expect(owners.relationships.users.data).to.deep.equal([{ type: 'users', id: org.owner.id }]);
      expect(owners.relationships.organization.data).to.deep.equal({ type: 'organizations', id: org.name });

      const show = await api('GET', `/teams/${owners.id}`, { token: org.owner.token });
      expect(show.status, show.text).to.equal(200);
      expect(show.body.data.attributes.name).to.equal('owners');
      expect(show.body.data.links.self).to.equal(`/api/v2/teams/${owners.id}`);
    });

    it('cannot be deleted (422) and is still there afterwards', async () => {
      const org = await createOrg();
      const owners = await ownersTeam(org);
      expectError(await api('DELETE', `/teams/${owners.id}`, { token: org.owner.token }), 422, /owners/);
      const after = await api('GET', `/teams/${owners.id}?include=users`, { token: org.owner.token });
      expect(after.status, after.text).to.equal(200);
      expect(after.body.data.relationships.users.data.map((u: { id: string }) => u.id)).to.deep.equal([org.owner.id]);
      expect(await teamRow(owners.id)).to.include({ name: 'owners', is_owners: true });
    });

    it('cannot be renamed or have its organization-access changed (422), nothing stored', async () => {
      const org = await createOrg();
      const owners = await ownersTeam(org);
      const before = await teamRow(owners.id);

      const rename = await patchTeam(owners.id, org.owner.token, { name: 'bosses' });
      expectError(rename, 422, /owners/);
      expect(rename.body.errors[0].source).to.deep.equal({ pointer: '/data/attributes/name' });

      for (const access of [{ 'manage-teams': false }, { 'manage-teams': true }]) {
        const res = await patchTeam(owners.id, org.owner.token, { 'organization-access': access });
        expectError(res, 422, /owners/);
        expect(res.body.errors[0].source).to.deep.equal({ pointer: '/data/attributes/organization-access' });
      }

      const combined = await api('PATCH', `/teams/${owners.id}`, {
        token: org.owner.token,
        body: doc('teams', { visibility: 'secret', 'organization-access': { 'manage-workspaces': false } }),
      });
      expectError(combined, 422);

      expect(await teamRow(owners.id)).to.deep.equal(before);
      const after = await api('GET', `/teams/${owners.id}`, { token: org.owner.token });
      expect(after.body.data.attributes.name).to.equal('owners');
      expect(after.body.data.attributes.visibility).to.equal('organization');
      expect(after.body.data.attributes['organization-access']).to.deep.equal(accessWith(...PERMISSIONS));
    });

    it('accepts updates that leave its name and permissions alone', async () => {
      const org = await createOrg();
      const owners = await ownersTeam(org);
      const res = await api('PATCH', `/teams/${owners.id}`, {
        token: org.owner.token,
        body: doc('teams', { name: 'owners', 'sso-team-id': 'sso-owners' }),
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes).to.include({ name: 'owners', 'sso-team-id': 'sso-owners' });
      expect(await teamRow(owners.id)).to.include({ name: 'owners', sso_team_id: 'sso-owners', is_owners: true });
    });
  });

  describe('create', () => {
    it('creates a team (201) and stores the organization-access it was given', async () => {
      const org = await createOrg();
      const name = uniq('platform');
      const res = await api('POST', `/organizations/${org.name}/teams`, {
        token: org.owner.token,
        body: doc('teams', {
          name,
          visibility: 'organization',
          'organization-access': { 'manage-workspaces': true, 'manage-teams': true, 'read-projects': false },
          'sso-team-id': 'sso-123',
          'allow-member-token-management': false,
        }),
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.headers.get('content-type')).to.match(/^application\/vnd\.api\+json/);
      const team = res.body.data;
      expect(team.type).to.equal('teams');
      expect(team.id).to.match(/^team-/);
      expect(team.attributes).to.include({
        name,
        visibility: 'organization',
        'users-count': 0,
        'sso-team-id': 'sso-123',
        'allow-member-token-management': false,
        'is-unified': false,
      });
      expect(team.attributes['created-at']).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      expect(team.attributes['organization-access']).to.deep.equal(accessWith('manage-workspaces', 'manage-teams'));
      expect(team.attributes.permissions).to.include({
        'can-destroy': true,
        'can-update-name': true,
        'can-update-organization-access': true,
      });
      expect(team.relationships.users.data).to.deep.equal([]);
      expect(team.relationships['organization-memberships'].data).to.deep.equal([]);
      expect(team.relationships.organization.data).to.deep.equal({ type: 'organizations', id: org.name });

      const row = await teamRow(team.id);
      expect(row).to.include({ organization_name: org.name, name, is_owners: false, visibility: 'organization' });
      expect(row.allow_member_token_management).to.equal(false);
      expect(row.organization_access).to.deep.equal(accessWith('manage-workspaces', 'manage-teams'));

      const show = await api('GET', `/teams/${team.id}`, { token: org.owner.token });
      expect(show.status, show.text).to.equal(200);
      expect(show.body.data.attributes['organization-access']).to.deep.equal(
        accessWith('manage-workspaces', 'manage-teams'),
      );
      expect(show.body.data.attributes.name).to.equal(name);
    });

    it('defaults to a secret team with no organization permissions', async () => {
      const org = await createOrg();
      const res = await postTeam(org.name, org.owner.token, { name: uniq('plain') });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.attributes.visibility).to.equal('secret');
      expect(res.body.data.attributes['allow-member-token-management']).to.equal(true);
      expect(res.body.data.attributes['sso-team-id']).to.equal(null);
      expect(res.body.data.attributes['organization-access']).to.deep.equal(accessWith());
    });

    it('rejects a name already taken in the organization (422) but allows it in another organization', async () => {
      const org = await createOrg();
      const other = await createOrg();
      const name = uniq('dup');
      await createTeam(org, { name });
      const before = await countRows('teams');
      const dup = await postTeam(org.name, org.owner.token, { name });
      expectError(dup, 422, /taken/);
      expect(dup.body.errors[0].source).to.deep.equal({ pointer: '/data/attributes/name' });
      const owners = await postTeam(org.name, org.owner.token, { name: 'owners' });
      expectError(owners, 422);
      expect(await countRows('teams')).to.equal(before);

      const elsewhere = await postTeam(other.name, other.owner.token, { name });
      expect(elsewhere.status, elsewhere.text).to.equal(201);
    });

    it('validates the document (422) and writes nothing', async () => {
      const org = await createOrg();
      const before = await countRows('teams');
      const bodies: unknown[] = [
        doc('teams', {}),
        doc('teams', { name: '' }),
        doc('teams', { name: 'bad/name' }),
        doc('teams', { name: uniq('t'), visibility: 'public' }),
        doc('teams', { name: uniq('t'), 'organization-access': { 'manage-everything': true } }),
        doc('teams', { name: uniq('t'), 'organization-access': { 'manage-teams': 'true' } }),
        doc('workspaces', { name: uniq('t') }),
        { data: [] },
        {},
      ];
      for (const body of bodies) {
        const res = await api('POST', `/organizations/${org.name}/teams`, { token: org.owner.token, body });
        expectError(res, 422);
      }
      expect(await countRows('teams')).to.equal(before);
    });

    it('answers malformed JSON with 400', async () => {
      const org = await createOrg();
      const before = await countRows('teams');
      expectError(
        await api('POST', `/organizations/${org.name}/teams`, { token: org.owner.token, raw: '{"data": {' }),
        400,
      );
      expect(await countRows('teams')).to.equal(before);
    });

    it('answers 404 for an organization that does not exist or that the caller is not in', async () => {
      const org = await createOrg();
      const stranger = await createUser();
      const before = await countRows('teams');
      expectError(await postTeam(uniq('nope'), org.owner.token, { name: uniq('t') }), 404);
      expectError(await postTeam(org.name, stranger.token, { name: uniq('t') }), 404);
      expect(await countRows('teams')).to.equal(before);
    });
  });

  describe('list', () => {
    it('filters by filter[names] (comma separated, exact) and searches by q (case-insensitive substring)', async () => {
      const org = await createOrg();
      const tag = uniq('x').slice(2);
      const names = [`alpha-${tag}`, `beta-${tag}`, `Gamma-${tag}`, `alphabet-${tag}`];
      for (const name of names) await createTeam(org, { name });

      const filter = encodeURIComponent(`alpha-${tag},Gamma-${tag}`);
      const byNames = await api('GET', `/organizations/${org.name}/teams?filter%5Bnames%5D=${filter}`, {
        token: org.owner.token,
      });
      expect(byNames.status, byNames.text).to.equal(200);
      expect(namesOf(byNames).sort()).to.deep.equal([`Gamma-${tag}`, `alpha-${tag}`].sort());

      const none = await api('GET', `/organizations/${org.name}/teams?filter[names]=alpha`, { token: org.owner.token });
      expect(none.status).to.equal(200);
      expect(none.body.data).to.deep.equal([]);
      expect(none.body.meta.pagination['total-count']).to.equal(0);

      const search = await api('GET', `/organizations/${org.name}/teams?q=ALPHA`, { token: org.owner.token });
      expect(search.status, search.text).to.equal(200);
      expect(namesOf(search).sort()).to.deep.equal([`alpha-${tag}`, `alphabet-${tag}`].sort());
      expect(search.body.meta.pagination['total-count']).to.equal(2);

      const gamma = await api('GET', `/organizations/${org.name}/teams?q=amma`, { token: org.owner.token });
      expect(namesOf(gamma)).to.deep.equal([`Gamma-${tag}`]);

      const all = await api('GET', `/organizations/${org.name}/teams`, { token: org.owner.token });
      expect(namesOf(all).sort()).to.deep.equal([...names, 'owners'].sort());
    });

    it('treats % and _ in q literally', async () => {
      const org = await createOrg();
      await createTeam(org, { name: 'a_b' });
      await createTeam(org, { name: 'axb' });
      await createTeam(org, { name: 'c.d' });
      const underscore = await api('GET', `/organizations/${org.name}/teams?q=a_b`, { token: org.owner.token });
      expect(underscore.status, underscore.text).to.equal(200);
      expect(namesOf(underscore)).to.deep.equal(['a_b']);
      const percent = await api('GET', `/organizations/${org.name}/teams?q=${encodeURIComponent('%')}`, {
        token: org.owner.token,
      });
      expect(percent.status, percent.text).to.equal(200);
      expect(percent.body.data).to.deep.equal([]);
    });

    it('paginates with page[number] and page[size] and numeric meta.pagination', async () => {
      const org = await createOrg();
      for (let i = 0; i < 5; i++) await createTeam(org, { name: `team-${i}` });
      const all = ['owners', 'team-0', 'team-1', 'team-2', 'team-3', 'team-4'].sort();

      const seen: string[] = [];
      for (let number = 1; number <= 3; number++) {
        const query = `page%5Bnumber%5D=${number}&page%5Bsize%5D=2`;
        const res = await api('GET', `/organizations/${org.name}/teams?${query}`, { token: org.owner.token });
        expect(res.status, res.text).to.equal(200);
        expect(res.body.data).to.have.length(2);
        expect(res.body.meta.pagination).to.deep.equal({
          'current-page': number,
          'page-size': 2,
          'prev-page': number > 1 ? number - 1 : null,
          'next-page': number < 3 ? number + 1 : null,
          'total-pages': 3,
          'total-count': 6,
        });
        seen.push(...namesOf(res));
      }
      expect(seen.sort()).to.deep.equal(all);

      const beyond = await api('GET', `/organizations/${org.name}/teams?page[number]=4&page[size]=2`, {
        token: org.owner.token,
      });
      expect(beyond.status).to.equal(200);
      expect(beyond.body.data).to.deep.equal([]);
      expect(beyond.body.meta.pagination['total-count']).to.equal(6);

      const defaults = await api('GET', `/organizations/${org.name}/teams`, { token: org.owner.token });
      expect(defaults.body.data).to.have.length(6);
      expect(defaults.body.meta.pagination).to.include({
        'current-page': 1,
        'page-size': 20,
        'total-pages': 1,
        'total-count': 6,
      });
      expect(defaults.body.meta.pagination['next-page']).to.equal(null);
      expect(defaults.body.meta.pagination['prev-page']).to.equal(null);

      const capped = await api('GET', `/organizations/${org.name}/teams?page[size]=1000`, { token: org.owner.token });
      expect(capped.status).to.equal(200);
      expect(capped.body.meta.pagination['page-size']).to.equal(100);

      const filtered = await api('GET', `/organizations/${org.name}/teams?q=team-&page[size]=4&page[number]=2`, {
        token: org.owner.token,
      });
      expect(filtered.body.data).to.have.length(1);
      expect(filtered.body.meta.pagination).to.include({ 'total-count': 5, 'total-pages': 2, 'current-page': 2 });
    });

    it('rejects a page number or size that is not a positive integer (400)', async () => {
      const org = await createOrg();
      for (const query of ['page[number]=0', 'page[size]=-1', 'page[number]=abc']) {
        expectError(await api('GET', `/organizations/${org.name}/teams?${query}`, { token: org.owner.token }), 400);
      }
    });

    it('answers 404 for another organization and 401 without a valid token', async () => {
      const org = await createOrg();
      const other = await createOrg();
      expectError(await api('GET', `/organizations/${org.name}/teams`, { token: other.owner.token }), 404);
      expectError(await api('GET', `/organizations/${uniq('nope')}/teams`, { token: org.owner.token }), 404);
      expectError(await api('GET', `/organizations/${org.name}/teams`, { token: null }), 401);
      expectError(await api('GET', `/organizations/${org.name}/teams`, { token: 'not-a-token' }), 401);
    });
  });

  describe('include', () => {
    it('includes users (accepted members only) with include=users', async () => {
      const org = await createOrg();
      const [a, b, invitee] = await Promise.all([createUser(), createUser(), createUser()]);
      await joinOrg(org, a);
      await joinOrg(org, b);
      const inviteId = await joinOrg(org, invitee, false);
      const teamId = await createTeam(org);
      await addUsers(org, teamId, a, b);
      const add = await api('POST', `/teams/${teamId}/relationships/organization-memberships`, {
        token: org.owner.token,
        body: { data: [{ type: 'organization-memberships', id: inviteId }] },
      });
      expect(add.status, add.text).to.equal(204);

      const res = await api('GET', `/teams/${teamId}?include=users`, { token: org.owner.token });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes['users-count']).to.equal(2);
      expect(res.body.data.relationships.users.data.map((u: { id: string }) => u.id).sort()).to.deep.equal(
        [a.id, b.id].sort(),
      );
      expect(res.body.data.relationships['organization-memberships'].data).to.have.length(3);
      const included = res.body.included as { type: string; id: string; attributes: { username: string } }[];
      expect(included.map((r) => r.type)).to.deep.equal(['users', 'users']);
      expect(included.map((r) => r.attributes.username).sort()).to.deep.equal([a.username, b.username].sort());
      expect(included.map((r) => r.id).sort()).to.deep.equal([a.id, b.id].sort());

      const plain = await api('GET', `/teams/${teamId}`, { token: org.owner.token });
      expect(plain.body).to.not.have.property('included');
      expect(plain.body.data.relationships.users.data).to.have.length(2);
    });

    it('includes organization memberships with either spelling, invitations too', async () => {
      const org = await createOrg();
      const [a, invitee] = await Promise.all([createUser(), createUser()]);
      const aMembership = await joinOrg(org, a);
      const inviteId = await joinOrg(org, invitee, false);
      const teamId = await createTeam(org);
      const add = await api('POST', `/teams/${teamId}/relationships/organization-memberships`, {
        token: org.owner.token,
        body: {
          data: [
            { type: 'organization-memberships', id: aMembership },
            { type: 'organization-memberships', id: inviteId },
          ],
        },
      });
      expect(add.status, add.text).to.equal(204);

      for (const include of ['organization-memberships', 'organization_memberships']) {
        const res = await api('GET', `/teams/${teamId}?include=${include}`, { token: org.owner.token });
        expect(res.status, res.text).to.equal(200);
        expect(
          res.body.data.relationships['organization-memberships'].data.map((m: { id: string }) => m.id).sort(),
        ).to.deep.equal([aMembership, inviteId].sort());
        type Included = {
          type: string;
          id: string;
          attributes: { status: string };
          relationships: Record<string, { data: unknown }>;
        };
        const included = res.body.included as Included[];
        expect(included.every((r) => r.type === 'organization-memberships')).to.equal(true);
        const byId = new Map(included.map((r) => [r.id, r]));
        expect(byId.size).to.equal(2);
        expect(byId.get(aMembership)!.attributes.status).to.equal('active');
        expect(byId.get(inviteId)!.attributes.status).to.equal('invited');
        expect(byId.get(inviteId)!.relationships.user.data).to.deep.equal({ type: 'users', id: invitee.id });
        expect(byId.get(aMembership)!.relationships.organization.data).to.deep.equal({
          type: 'organizations',
          id: org.name,
        });
      }

      const both = await api('GET', `/teams/${teamId}?include=users,organization-memberships`, {
        token: org.owner.token,
      });
      expect(both.status, both.text).to.equal(200);
      const types = both.body.included.map((r: { type: string }) => r.type).sort();
      expect(types).to.deep.equal(['organization-memberships', 'organization-memberships', 'users']);
    });

    it('serializes included memberships like the membership endpoint, listing only teams the caller may see', async () => {
      const org = await createOrg();
      const [a, viewer] = await Promise.all([createUser(), createUser()]);
      const aMembership = await joinOrg(org, a);
      await joinOrg(org, viewer);
      const visible = await createTeam(org, { visibility: 'organization' });
      const secret = await createTeam(org, { visibility: 'secret' });
      await addUsers(org, visible, a);
      await addUsers(org, secret, a);

      const direct = await api('GET', `/organization-memberships/${aMembership}`, { token: org.owner.token });
      expect(direct.status, direct.text).to.equal(200);

      const asOwner = await api('GET', `/teams/${visible}?include=organization-memberships`, {
        token: org.owner.token,
      });
      expect(asOwner.status, asOwner.text).to.equal(200);
      const included = asOwner.body.included.find((r: { id: string }) => r.id === aMembership);
      expect(included.attributes['created-at']).to.equal(direct.body.data.attributes['created-at']);
      expect(included.attributes.status).to.equal('active');
      expect(included.relationships.teams.data.map((t: { id: string }) => t.id).sort()).to.deep.equal(
        [visible, secret].sort(),
      );

      const asViewer = await api('GET', `/teams/${visible}?include=organization-memberships`, { token: viewer.token });
      expect(asViewer.status, asViewer.text).to.equal(200);
      const seen = asViewer.body.included.find((r: { id: string }) => r.id === aMembership);
      expect(seen.relationships.teams.data).to.deep.equal([{ type: 'teams', id: visible }]);
    });

    it('includes users and memberships on the list too', async () => {
      const org = await createOrg();
      const a = await createUser();
      await joinOrg(org, a);
      const first = await createTeam(org, { name: uniq('first') });
      const second = await createTeam(org, { name: uniq('second') });
      await addUsers(org, first, a);
      await addUsers(org, second, a);
      const res = await api('GET', `/organizations/${org.name}/teams?include=users`, { token: org.owner.token });
      expect(res.status, res.text).to.equal(200);
      const users = (res.body.included as { type: string; id: string }[])
        .filter((r) => r.type === 'users')
        .map((r) => r.id);
      expect(users.sort()).to.deep.equal([a.id, org.owner.id].sort());
      const members = await api('GET', `/organizations/${org.name}/teams?include=organization_memberships`, {
        token: org.owner.token,
      });
      expect(members.status, members.text).to.equal(200);
      expect(members.body.included.every((r: { type: string }) => r.type === 'organization-memberships')).to.equal(
        true,
      );
      expect(members.body.included).to.have.length(2);
    });

    it('rejects an unknown include with 400', async () => {
      const org = await createOrg();
      const teamId = await createTeam(org);
      for (const include of ['workspaces', 'users,bogus', 'organization']) {
        const show = await api('GET', `/teams/${teamId}?include=${include}`, { token: org.owner.token });
        expectError(show, 400, /Invalid include parameter/);
        const list = await api('GET', `/organizations/${org.name}/teams?include=${include}`, {
          token: org.owner.token,
        });
        expectError(list, 400, /Invalid include parameter/);
      }
    });
  });

  describe('show, update and delete', () => {
    it('updates name, visibility and organization-access, merging permissions with the stored ones', async () => {
      const org = await createOrg();
      const teamId = await createTeam(org, {
        'organization-access': { 'manage-workspaces': true, 'read-projects': true },
      });
      const name = uniq('renamed');
      const res = await api('PATCH', `/teams/${teamId}`, {
        token: org.owner.token,
        body: doc('teams', {
          name,
          visibility: 'organization',
          'organization-access': { 'read-projects': false, 'manage-modules': true },
          'allow-member-token-management': false,
        }),
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.id).to.equal(teamId);
      expect(res.body.data.attributes).to.include({
        name,
        visibility: 'organization',
        'allow-member-token-management': false,
      });
      expect(res.body.data.attributes['organization-access']).to.deep.equal(
        accessWith('manage-workspaces', 'manage-modules'),
      );

      const show = await api('GET', `/teams/${teamId}`, { token: org.owner.token });
      expect(show.body.data.attributes).to.include({
        name,
        visibility: 'organization',
        'allow-member-token-management': false,
      });
      expect(show.body.data.attributes['organization-access']).to.deep.equal(
        accessWith('manage-workspaces', 'manage-modules'),
      );
      expect((await teamRow(teamId)).organization_access).to.deep.equal(
        accessWith('manage-workspaces', 'manage-modules'),
      );

      const sso = await patchTeam(teamId, org.owner.token, { 'sso-team-id': 'abc' });
      expect(sso.status, sso.text).to.equal(200);
      expect(sso.body.data.attributes).to.include({ name, 'sso-team-id': 'abc' });
      const cleared = await patchTeam(teamId, org.owner.token, { 'sso-team-id': null });
      expect(cleared.body.data.attributes['sso-team-id']).to.equal(null);
      expect(cleared.body.data.attributes['organization-access']).to.deep.equal(
        accessWith('manage-workspaces', 'manage-modules'),
      );
    });

    it('keeps the members in the PATCH response', async () => {
      const org = await createOrg();
      const a = await createUser();
      await joinOrg(org, a);
      const teamId = await createTeam(org);
      await addUsers(org, teamId, a);
      const res = await patchTeam(teamId, org.owner.token, { visibility: 'organization' });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes['users-count']).to.equal(1);
      expect(res.body.data.relationships.users.data).to.deep.equal([{ type: 'users', id: a.id }]);
    });

    it('rejects renaming onto a taken name and invalid attributes (422), nothing stored', async () => {
      const org = await createOrg();
      const taken = uniq('taken');
      await createTeam(org, { name: taken });
      const teamId = await createTeam(org);
      const before = await teamRow(teamId);
      const invalid = [
        { name: taken },
        { name: 'owners' },
        { visibility: 'everyone' },
        { 'organization-access': { 'be-god': true } },
        { name: '' },
      ];
      for (const attrs of invalid) {
        expectError(await api('PATCH', `/teams/${teamId}`, { token: org.owner.token, body: doc('teams', attrs) }), 422);
      }
      expect(await teamRow(teamId)).to.deep.equal(before);
    });

    it('deletes a team (204): gone from reads, its memberships dropped, users and organization memberships kept', async () => {
      const org = await createOrg();
      const a = await createUser();
      const membershipId = await joinOrg(org, a);
      const teamId = await createTeam(org);
      await addUsers(org, teamId, a);
      const db = harness().rt.db;
      expect(await db('team_members').where({ team_id: teamId })).to.have.length(1);

      const res = await api('DELETE', `/teams/${teamId}`, { token: org.owner.token });
      expect(res.status, res.text).to.equal(204);
      expect(res.text).to.equal('');

      expectError(await api('GET', `/teams/${teamId}`, { token: org.owner.token }), 404);
      expectError(await api('DELETE', `/teams/${teamId}`, { token: org.owner.token }), 404);
      const list = await api('GET', `/organizations/${org.name}/teams`, { token: org.owner.token });
      expect(list.body.data.map((t: { id: string }) => t.id)).to.not.include(teamId);
      expect(await teamRow(teamId)).to.equal(undefined);
      expect(await db('team_members').where({ team_id: teamId })).to.have.length(0);

      const membership = await api('GET', `/organization-memberships/${membershipId}`, { token: org.owner.token });
      expect(membership.status, membership.text).to.equal(200);
      expect(membership.body.data.attributes.status).to.equal('active');
      const user = await api('GET', `/users/${a.id}`, { token: org.owner.token });
      expect(user.status, user.text).to.equal(200);
    });

    it('answers 404 for unknown teams and teams of other organizations, 401 without a valid token', async () => {
      const org = await createOrg();
      const other = await createOrg();
      const teamId = await createTeam(org, { visibility: 'organization' });
      const before = await teamRow(teamId);
      expectError(await api('GET', '/teams/team-doesnotexist', { token: org.owner.token }), 404);
      expectError(
        await api('PATCH', '/teams/team-doesnotexist', {
          token: org.owner.token,
          body: doc('teams', { name: uniq('x') }),
        }),
        404,
      );
      expectError(await api('DELETE', '/teams/team-doesnotexist', { token: org.owner.token }), 404);

      expectError(await api('GET', `/teams/${teamId}`, { token: other.owner.token }), 404);
      expectError(await patchTeam(teamId, other.owner.token, { name: uniq('x') }), 404);
      expectError(await api('DELETE', `/teams/${teamId}`, { token: other.owner.token }), 404);

      for (const token of [null, 'not-a-token']) {
        expectError(await api('GET', `/teams/${teamId}`, { token }), 401);
        expectError(await api('PATCH', `/teams/${teamId}`, { token, body: doc('teams', { name: uniq('x') }) }), 401);
        expectError(await api('DELETE', `/teams/${teamId}`, { token }), 401);
        expectError(
          await api('POST', `/organizations/${org.name}/teams`, { token, body: doc('teams', { name: uniq('x') }) }),
          401,
        );
      }
      expect(await teamRow(teamId)).to.deep.equal(before);
    });
  });

  describe('visibility and permissions', () => {
    it('hides secret teams (404) from a member who is not in them and cannot manage teams', async () => {
      const org = await createOrg();
      const member = await createUser();
      const insider = await createUser();
      await joinOrg(org, member);
      await joinOrg(org, insider);
      const secret = await createTeam(org, { name: uniq('secret'), visibility: 'secret' });
      const visible = await createTeam(org, { name: uniq('visible'), visibility: 'organization' });
      await addUsers(org, secret, insider);

      const list = await api('GET', `/organizations/${org.name}/teams`, { token: member.token });
      expect(list.status, list.text).to.equal(200);
      const ids = list.body.data.map((t: { id: string }) => t.id);
      expect(ids).to.include(visible);
      expect(ids).to.not.include(secret);
      expect(list.body.meta.pagination['total-count']).to.equal(ids.length);

      const secretName = (await teamRow(secret)).name;
      const named = await api('GET', `/organizations/${org.name}/teams?filter[names]=${secretName}`, {
        token: member.token,
      });
      expect(named.body.data).to.deep.equal([]);

      expectError(await api('GET', `/teams/${secret}`, { token: member.token }), 404);
      expectError(await api('GET', `/teams/${secret}?include=users`, { token: member.token }), 404);

      const seen = await api('GET', `/teams/${visible}`, { token: member.token });
      expect(seen.status, seen.text).to.equal(200);
      expect(seen.body.data.attributes.permissions).to.include({
        'can-destroy': false,
        'can-update-membership': false,
      });

      const own = await api('GET', `/teams/${secret}`, { token: insider.token });
      expect(own.status, own.text).to.equal(200);
      const insiderList = await api('GET', `/organizations/${org.name}/teams`, { token: insider.token });
      expect(insiderList.body.data.map((t: { id: string }) => t.id)).to.include(secret);

      const ownerView = await api('GET', `/teams/${secret}`, { token: org.owner.token });
      expect(ownerView.status).to.equal(200);
    });

    it('shows secret teams to members of a team with access-secret-teams', async () => {
      const org = await createOrg();
      const viewer = await createUser();
      await joinOrg(org, viewer);
      const secret = await createTeam(org, { visibility: 'secret' });
      const viewers = await createTeam(org, { 'organization-access': { 'access-secret-teams': true } });
      expectError(await api('GET', `/teams/${secret}`, { token: viewer.token }), 404);
      await addUsers(org, viewers, viewer);
      const res = await api('GET', `/teams/${secret}`, { token: viewer.token });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.id).to.equal(secret);
    });

    it('lets a member of a team with manage-teams create, update and delete teams', async () => {
      const org = await createOrg();
      const manager = await createUser();
      await joinOrg(org, manager);
      const managers = await createTeam(org, {
        name: uniq('managers'),
        'organization-access': { 'manage-teams': true },
      });
      await addUsers(org, managers, manager);

      const orgView = await api('GET', `/organizations/${org.name}`, { token: manager.token });
      expect(orgView.body.data.attributes.permissions['can-create-team']).to.equal(true);

      const name = uniq('made-by-manager');
      const created = await postTeam(org.name, manager.token, { name });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.data.attributes.name).to.equal(name);
      expect(created.body.data.attributes.permissions['can-destroy']).to.equal(true);
      expect(await teamRow(created.body.data.id)).to.include({ organization_name: org.name, name });

      const secret = await createTeam(org, { visibility: 'secret' });
      const seen = await api('GET', `/teams/${secret}`, { token: manager.token });
      expect(seen.status, seen.text).to.equal(200);
      const patched = await patchTeam(secret, manager.token, { visibility: 'organization' });
      expect(patched.status, patched.text).to.equal(200);
      expect((await teamRow(secret)).visibility).to.equal('organization');
      const deleted = await api('DELETE', `/teams/${created.body.data.id}`, { token: manager.token });
      expect(deleted.status, deleted.text).to.equal(204);
      expect(await teamRow(created.body.data.id)).to.equal(undefined);
    });

    it('refuses (404) team management to members whose teams lack manage-teams, writing nothing', async () => {
      const org = await createOrg();
      const [plain, teamless] = await Promise.all([createUser(), createUser()]);
      await joinOrg(org, plain);
      await joinOrg(org, teamless);
      const workers = await createTeam(org, {
        'organization-access': { 'manage-workspaces': true, 'manage-membership': true },
      });
      await addUsers(org, workers, plain);
      const target = await createTeam(org, { visibility: 'organization' });
      const targetBefore = await teamRow(target);

      const orgView = await api('GET', `/organizations/${org.name}`, { token: plain.token });
      expect(orgView.body.data.attributes.permissions['can-create-team']).to.equal(false);

      const before = await countRows('teams');
      for (const user of [plain, teamless]) {
        expectError(await postTeam(org.name, user.token, { name: uniq('nope') }), 404);
        expectError(await patchTeam(target, user.token, { name: uniq('nope') }), 404);
        expectError(await api('DELETE', `/teams/${target}`, { token: user.token }), 404);
        expectError(await patchTeam(workers, user.token, { 'organization-access': { 'manage-teams': true } }), 404);
      }
      expect(await countRows('teams')).to.equal(before);
      expect(await teamRow(target)).to.deep.equal(targetBefore);
      expect((await teamRow(workers)).organization_access).to.deep.equal(
        accessWith('manage-workspaces', 'manage-membership'),
      );
    });

    it('gives manage-teams only while the member is in the team', async () => {
      const org = await createOrg();
      const user = await createUser();
      await joinOrg(org, user);
      const managers = await createTeam(org, { 'organization-access': { 'manage-teams': true } });
      expectError(await postTeam(org.name, user.token, { name: uniq('a') }), 404);
      await addUsers(org, managers, user);
      const ok = await postTeam(org.name, user.token, { name: uniq('b') });
      expect(ok.status, ok.text).to.equal(201);
      const removed = await api('DELETE', `/teams/${managers}/relationships/users`, {
        token: org.owner.token,
        body: { data: [{ type: 'users', id: user.username }] },
      });
      expect(removed.status, removed.text).to.equal(204);
      expectError(await postTeam(org.name, user.token, { name: uniq('c') }), 404);
    });
  });
});
