import { expect } from 'chai';
import { api, expectError } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { countRows, createOrg, createTeam, createUser, joinOrg, uniq, type TestUser } from '../helpers/fixtures.js';

type Org = { name: string; owner: TestUser };

const USERS = 'users';
const MEMBERSHIPS = 'organization-memberships';

const linkage = (type: string, ids: string[]) => ({ data: ids.map((id) => ({ type, id })) });

const change = (method: 'POST' | 'DELETE', teamId: string, kind: string, ids: string[], token: string | null) =>
  api(method, `/teams/${teamId}/relationships/${kind}`, { token, body: linkage(kind, ids) });

async function ok(
  method: 'POST' | 'DELETE',
  teamId: string,
  kind: string,
  ids: string[],
  token: string,
): Promise<void> {
  const res = await change(method, teamId, kind, ids, token);
  expect(res.status, res.text).to.equal(204);
  expect(res.text).to.equal('');
}

/** Usernames of every team member (invited or active), straight from the database. */
async function memberNames(teamId: string): Promise<string[]> {
  const rows = await harness()
    .rt.db('team_members as tm')
    .join('organization_memberships as m', 'm.id', 'tm.organization_membership_id')
    .join('users as u', 'u.id', 'm.user_id')
    .where('tm.team_id', teamId)
    .pluck('u.username');
  return (rows as string[]).sort();
}

/** Usernames the API lists under include=users (accepted members only). */
async function listedUsers(teamId: string, token: string): Promise<string[]> {
  const res = await api('GET', `/teams/${teamId}?include=users`, { token });
  expect(res.status, res.text).to.equal(200);
  const included = (res.body.included ?? []) as { type: string; id: string; attributes: { username: string } }[];
  expect(included.every((r) => r.type === 'users')).to.equal(true);
  expect(included.map((r) => r.id).sort()).to.deep.equal(
    res.body.data.relationships.users.data.map((u: { id: string }) => u.id).sort(),
  );
  expect(res.body.data.attributes['users-count']).to.equal(included.length);
  return included.map((r) => r.attributes.username).sort();
}

async function ownersTeamId(org: Org): Promise<string> {
  const res = await api('GET', `/organizations/${org.name}/teams?filter[names]=owners`, { token: org.owner.token });
  expect(res.status, res.text).to.equal(200);
  return res.body.data[0].id;
}

/** An organization with `n` accepted members (not in any team) and their membership ids. */
async function orgWithMembers(n: number): Promise<{ org: Org; users: TestUser[]; memberships: string[] }> {
  const org = await createOrg();
  const users = await Promise.all(Array.from({ length: n }, () => createUser()));
  const memberships: string[] = [];
  for (const u of users) memberships.push(await joinOrg(org, u));
  return { org, users, memberships };
}

const sorted = (users: TestUser[]) => users.map((u) => u.username).sort();

describe('team membership', () => {
  describe('POST /teams/:id/relationships/users', () => {
    it('adds several users by username (204) who then appear under include=users', async () => {
      const { org, users } = await orgWithMembers(3);
      const teamId = await createTeam(org);
      expect(await listedUsers(teamId, org.owner.token)).to.deep.equal([]);
      await ok(
        'POST',
        teamId,
        USERS,
        users.map((u) => u.username),
        org.owner.token,
      );
      expect(await listedUsers(teamId, org.owner.token)).to.deep.equal(sorted(users));
      expect(await memberNames(teamId)).to.deep.equal(sorted(users));
    });

    it('treats adding someone already in the team, or listing them twice, as a harmless no-op', async () => {
      const { org, users } = await orgWithMembers(2);
      const [a, b] = users;
      const teamId = await createTeam(org);
      await ok('POST', teamId, USERS, [a.username], org.owner.token);
      const rows = await countRows('team_members');
      await ok('POST', teamId, USERS, [a.username], org.owner.token);
      expect(await countRows('team_members')).to.equal(rows);
      await ok('POST', teamId, USERS, [a.username, b.username, b.username], org.owner.token);
      expect(await countRows('team_members')).to.equal(rows + 1);
      expect(await listedUsers(teamId, org.owner.token)).to.deep.equal(sorted([a, b]));
    });

    it('answers 404 naming an unknown username and applies nothing', async () => {
      const { org, users } = await orgWithMembers(2);
      const teamId = await createTeam(org);
      await ok('POST', teamId, USERS, [users[0].username], org.owner.token);
      const before = await memberNames(teamId);
      const ghost = uniq('ghost');
      const res = await change('POST', teamId, USERS, [users[1].username, ghost], org.owner.token);
      expectError(res, 404, new RegExp(ghost));
      expect(await memberNames(teamId)).to.deep.equal(before);
      expect(before).to.deep.equal([users[0].username]);
    });

    it('answers 404 naming a user who exists but is not in the organization, applying nothing', async () => {
      const { org, users } = await orgWithMembers(1);
      const outsider = await createUser();
      await createOrg(outsider);
      const teamId = await createTeam(org);
      const res = await change('POST', teamId, USERS, [users[0].username, outsider.username], org.owner.token);
      expectError(res, 404, new RegExp(outsider.username));
      expect(await memberNames(teamId)).to.deep.equal([]);
    });

    it('answers 422 naming a user (by id) whose invitation is not accepted yet, and 404 by username, as for a stranger; applying nothing', async () => {
      const { org, users } = await orgWithMembers(1);
      const invitee = await createUser();
      await joinOrg(org, invitee, false);
      const teamId = await createTeam(org);
      const byId = await change('POST', teamId, USERS, [users[0].username, invitee.id], org.owner.token);
      expectError(byId, 422, new RegExp(invitee.id));
      // A username guess must not be confirmed: the same 404 as a username outside the organization.
      const byName = await change('POST', teamId, USERS, [users[0].username, invitee.username], org.owner.token);
      expectError(byName, 404, new RegExp(`user "${invitee.username}" not found`));
      expect(await memberNames(teamId)).to.deep.equal([]);
    });
  });

  describe('POST /teams/:id/relationships/organization-memberships', () => {
    it('adds by membership id; an invitation is enough and the user counts once the invitation is accepted', async () => {
      const { org, users, memberships } = await orgWithMembers(1);
      const invitee = await createUser();
      const inviteId = await joinOrg(org, invitee, false);
      const teamId = await createTeam(org);

      await ok('POST', teamId, MEMBERSHIPS, [memberships[0], inviteId], org.owner.token);
      expect(await memberNames(teamId)).to.deep.equal(sorted([users[0], invitee]));
      expect(await listedUsers(teamId, org.owner.token)).to.deep.equal([users[0].username]);

      const show = await api('GET', `/teams/${teamId}`, { token: org.owner.token });
      expect(
        show.body.data.relationships['organization-memberships'].data.map((m: { id: string }) => m.id).sort(),
      ).to.deep.equal([memberships[0], inviteId].sort());
      expect(show.body.data.relationships.users.data).to.deep.equal([{ type: 'users', id: users[0].id }]);

      const withMemberships = await api('GET', `/teams/${teamId}?include=organization-memberships`, {
        token: org.owner.token,
      });
      const invite = withMemberships.body.included.find((r: { id: string }) => r.id === inviteId);
      expect(invite.attributes.status).to.equal('invited');

      const accepted = await api('POST', `/organization-memberships/${inviteId}/actions/accept`, {
        token: invitee.token,
      });
      expect(accepted.status, accepted.text).to.equal(200);
      expect(await listedUsers(teamId, org.owner.token)).to.deep.equal(sorted([users[0], invitee]));
    });

    it('treats adding a membership already in the team as a no-op (204)', async () => {
      const { org, memberships } = await orgWithMembers(1);
      const teamId = await createTeam(org);
      await ok('POST', teamId, MEMBERSHIPS, [memberships[0]], org.owner.token);
      const rows = await countRows('team_members');
      await ok('POST', teamId, MEMBERSHIPS, [memberships[0], memberships[0]], org.owner.token);
      expect(await countRows('team_members')).to.equal(rows);
    });

    it('answers 404 for an unknown membership or one of another organization, applying nothing', async () => {
      const { org, memberships } = await orgWithMembers(1);
      const other = await orgWithMembers(1);
      const teamId = await createTeam(org);
      const unknown = await change('POST', teamId, MEMBERSHIPS, [memberships[0], 'ou-doesnotexist'], org.owner.token);
      expectError(unknown, 404, /ou-doesnotexist/);
      const foreign = await change(
        'POST',
        teamId,
        MEMBERSHIPS,
        [memberships[0], other.memberships[0]],
        org.owner.token,
      );
      expectError(foreign, 404, new RegExp(other.memberships[0]));
      expect(await memberNames(teamId)).to.deep.equal([]);
    });
  });

  describe('DELETE', () => {
    it('removes users by username from this team only; the users and their memberships stay', async () => {
      const { org, users, memberships } = await orgWithMembers(3);
      const [a, b, c] = users;
      const first = await createTeam(org);
      const second = await createTeam(org);
      await ok('POST', first, USERS, [a.username, b.username, c.username], org.owner.token);
      await ok('POST', second, USERS, [a.username, b.username], org.owner.token);

      await ok('DELETE', first, USERS, [a.username, b.username], org.owner.token);
      expect(await listedUsers(first, org.owner.token)).to.deep.equal([c.username]);
      expect(await listedUsers(second, org.owner.token)).to.deep.equal(sorted([a, b]));

      for (const [i, user] of [a, b].entries()) {
        const u = await api('GET', `/users/${user.id}`, { token: org.owner.token });
        expect(u.status, u.text).to.equal(200);
        expect(u.body.data.attributes.username).to.equal(user.username);
        const m = await api('GET', `/organization-memberships/${memberships[i]}`, { token: org.owner.token });
        expect(m.status, m.text).to.equal(200);
        expect(m.body.data.attributes.status).to.equal('active');
        expect(m.body.data.relationships.teams.data).to.deep.equal([{ type: 'teams', id: second }]);
      }
    });

    it('removes by membership id from this team only', async () => {
      const { org, users, memberships } = await orgWithMembers(2);
      const invitee = await createUser();
      const inviteId = await joinOrg(org, invitee, false);
      const first = await createTeam(org);
      const second = await createTeam(org);
      await ok('POST', first, MEMBERSHIPS, [...memberships, inviteId], org.owner.token);
      await ok('POST', second, MEMBERSHIPS, [memberships[0], inviteId], org.owner.token);

      await ok('DELETE', first, MEMBERSHIPS, [memberships[0], inviteId], org.owner.token);
      expect(await memberNames(first)).to.deep.equal([users[1].username]);
      expect(await memberNames(second)).to.deep.equal(sorted([users[0], invitee]));
      const db = harness().rt.db;
      const statuses = await db('organization_memberships').whereIn('id', [memberships[0], inviteId]).pluck('status');
      expect(statuses).to.have.members(['active', 'invited']);
    });

    it('answers 422 for removing a non-member and removes nothing', async () => {
      const { org, users, memberships } = await orgWithMembers(2);
      const [a, b] = users;
      const teamId = await createTeam(org);
      await ok('POST', teamId, USERS, [a.username], org.owner.token);

      const byName = await change('DELETE', teamId, USERS, [a.username, b.username], org.owner.token);
      expectError(byName, 422, new RegExp(b.username));
      const byId = await change('DELETE', teamId, MEMBERSHIPS, [memberships[0], memberships[1]], org.owner.token);
      expectError(byId, 422, new RegExp(memberships[1]));
      expectError(await change('DELETE', teamId, USERS, [b.username], org.owner.token), 422);
      expect(await memberNames(teamId)).to.deep.equal([a.username]);
    });

    it('answers 404 naming an unknown username on removal, removing nothing', async () => {
      const { org, users } = await orgWithMembers(1);
      const teamId = await createTeam(org);
      await ok('POST', teamId, USERS, [users[0].username], org.owner.token);
      const ghost = uniq('ghost');
      expectError(
        await change('DELETE', teamId, USERS, [users[0].username, ghost], org.owner.token),
        404,
        new RegExp(ghost),
      );
      expectError(await change('DELETE', teamId, MEMBERSHIPS, ['ou-doesnotexist'], org.owner.token), 404);
      expect(await memberNames(teamId)).to.deep.equal([users[0].username]);
    });

    it('never lets the owners team become empty (422, nothing removed)', async () => {
      const { org, users, memberships } = await orgWithMembers(1);
      const owners = await ownersTeamId(org);
      const ownerRow = await harness()
        .rt.db('organization_memberships')
        .where({ organization_name: org.name, user_id: org.owner.id })
        .first('id');
      const ownerMembership: string = ownerRow.id;

      expectError(await change('DELETE', owners, USERS, [org.owner.username], org.owner.token), 422, /owners/);
      expectError(await change('DELETE', owners, MEMBERSHIPS, [ownerMembership], org.owner.token), 422, /owners/);
      expect(await memberNames(owners)).to.deep.equal([org.owner.username]);

      await ok('POST', owners, USERS, [users[0].username], org.owner.token);
      expectError(
        await change('DELETE', owners, USERS, [org.owner.username, users[0].username], org.owner.token),
        422,
        /owners/,
      );
      expectError(
        await change('DELETE', owners, MEMBERSHIPS, [ownerMembership, memberships[0]], org.owner.token),
        422,
        /owners/,
      );
      expect(await memberNames(owners)).to.deep.equal(sorted([org.owner, users[0]]));

      await ok('DELETE', owners, USERS, [users[0].username], org.owner.token);
      expect(await memberNames(owners)).to.deep.equal([org.owner.username]);
    });

    it('does not count a pending invitation as keeping the owners team populated', async () => {
      const org = await createOrg();
      const invitee = await createUser();
      const inviteId = await joinOrg(org, invitee, false);
      const owners = await ownersTeamId(org);
      await ok('POST', owners, MEMBERSHIPS, [inviteId], org.owner.token);
      expectError(await change('DELETE', owners, USERS, [org.owner.username], org.owner.token), 422, /owners/);
      expect(await memberNames(owners)).to.deep.equal(sorted([org.owner, invitee]));
    });
  });

  describe('request validation', () => {
    it('rejects a wrong element type (422) with nothing applied', async () => {
      const { org, users, memberships } = await orgWithMembers(2);
      const teamId = await createTeam(org);
      await ok('POST', teamId, USERS, [users[0].username], org.owner.token);
      const bodies: [string, unknown][] = [
        [
          USERS,
          {
            data: [
              { type: 'users', id: users[1].username },
              { type: 'user', id: users[1].username },
            ],
          },
        ],
        [USERS, { data: [{ type: 'teams', id: users[1].username }] }],
        [USERS, { data: [{ type: 'organization-memberships', id: memberships[1] }] }],
        [
          MEMBERSHIPS,
          {
            data: [
              { type: 'organization-memberships', id: memberships[1] },
              { type: 'teams', id: memberships[1] },
            ],
          },
        ],
        [MEMBERSHIPS, { data: [{ type: 'users', id: users[1].username }] }],
        [MEMBERSHIPS, { data: [{ type: 'organization-membership', id: memberships[1] }] }],
      ];
      for (const method of ['POST', 'DELETE']) {
        for (const [kind, body] of bodies) {
          const res = await api(method, `/teams/${teamId}/relationships/${kind}`, { token: org.owner.token, body });
          expectError(res, 422);
        }
      }
      expect(await memberNames(teamId)).to.deep.equal([users[0].username]);
    });

    it('rejects other malformed documents (422): empty data, missing id, data not an array, no data', async () => {
      const { org, users } = await orgWithMembers(1);
      const teamId = await createTeam(org);
      await ok('POST', teamId, USERS, [users[0].username], org.owner.token);
      const bodies: unknown[] = [
        { data: [] },
        { data: [{ type: 'users' }] },
        { data: [{ type: 'users', id: '' }] },
        { data: [{ type: 'users', id: 42 }] },
        { data: { type: 'users', id: users[0].username } },
        {},
        [],
      ];
      for (const method of ['POST', 'DELETE']) {
        for (const kind of [USERS, MEMBERSHIPS]) {
          const empty = await api(method, `/teams/${teamId}/relationships/${kind}`, {
            token: org.owner.token,
            body: { data: [] },
          });
          expectError(empty, 422);
          for (const body of bodies) {
            const res = await api(method, `/teams/${teamId}/relationships/${kind}`, { token: org.owner.token, body });
            expectError(res, 422);
          }
        }
      }
      expect(await memberNames(teamId)).to.deep.equal([users[0].username]);
    });

    it('answers malformed JSON with 400', async () => {
      const { org, users } = await orgWithMembers(1);
      const teamId = await createTeam(org);
      await ok('POST', teamId, USERS, [users[0].username], org.owner.token);
      for (const method of ['POST', 'DELETE']) {
        for (const kind of [USERS, MEMBERSHIPS]) {
          expectError(
            await api(method, `/teams/${teamId}/relationships/${kind}`, { token: org.owner.token, raw: '{"data": [' }),
            400,
          );
        }
      }
      expect(await memberNames(teamId)).to.deep.equal([users[0].username]);
    });

    it('needs a body on DELETE: without one it is 422 and nothing is removed', async () => {
      const { org, users } = await orgWithMembers(1);
      const teamId = await createTeam(org);
      await ok('POST', teamId, USERS, [users[0].username], org.owner.token);
      for (const kind of [USERS, MEMBERSHIPS]) {
        expectError(await api('DELETE', `/teams/${teamId}/relationships/${kind}`, { token: org.owner.token }), 422);
      }
      expect(await memberNames(teamId)).to.deep.equal([users[0].username]);
    });
  });

  describe('access', () => {
    it('answers 401 for a missing or wrong token, changing nothing', async () => {
      const { org, users, memberships } = await orgWithMembers(2);
      const teamId = await createTeam(org);
      await ok('POST', teamId, USERS, [users[0].username], org.owner.token);
      for (const token of [null, 'not-a-token']) {
        expectError(await change('POST', teamId, USERS, [users[1].username], token), 401);
        expectError(await change('DELETE', teamId, USERS, [users[0].username], token), 401);
        expectError(await change('POST', teamId, MEMBERSHIPS, [memberships[1]], token), 401);
        expectError(await change('DELETE', teamId, MEMBERSHIPS, [memberships[0]], token), 401);
      }
      expect(await memberNames(teamId)).to.deep.equal([users[0].username]);
    });

    it("answers 404 for another organization's team and for unknown teams, changing nothing", async () => {
      const { org, users, memberships } = await orgWithMembers(2);
      const other = await createOrg();
      const teamId = await createTeam(org, { visibility: 'organization' });
      await ok('POST', teamId, USERS, [users[0].username], org.owner.token);
      const token = other.owner.token;
      expectError(await change('POST', teamId, USERS, [users[1].username], token), 404);
      expectError(await change('POST', teamId, USERS, [other.owner.username], token), 404);
      expectError(await change('DELETE', teamId, USERS, [users[0].username], token), 404);
      expectError(await change('POST', teamId, MEMBERSHIPS, [memberships[1]], token), 404);
      expectError(await change('DELETE', teamId, MEMBERSHIPS, [memberships[0]], token), 404);
      expectError(await change('POST', 'team-doesnotexist', USERS, [users[1].username], org.owner.token), 404);
      expectError(await change('DELETE', 'team-doesnotexist', MEMBERSHIPS, [memberships[0]], org.owner.token), 404);
      expect(await memberNames(teamId)).to.deep.equal([users[0].username]);
    });

    it('answers 404 to a caller without manage-membership, changing nothing', async () => {
      const { org, users, memberships } = await orgWithMembers(4);
      const [plain, teamManager, target1, target2] = users;
      const teamManagers = await createTeam(org, {
        visibility: 'organization',
        'organization-access': { 'manage-teams': true },
      });
      await ok('POST', teamManagers, USERS, [teamManager.username], org.owner.token);
      const teamId = await createTeam(org, { visibility: 'organization' });
      await ok('POST', teamId, USERS, [target1.username], org.owner.token);

      for (const caller of [plain, teamManager]) {
        expectError(await change('POST', teamId, USERS, [target2.username], caller.token), 404);
        expectError(await change('DELETE', teamId, USERS, [target1.username], caller.token), 404);
        expectError(await change('POST', teamId, MEMBERSHIPS, [memberships[3]], caller.token), 404);
        expectError(await change('DELETE', teamId, MEMBERSHIPS, [memberships[2]], caller.token), 404);
        expectError(await change('POST', teamManagers, USERS, [caller.username], caller.token), 404);
      }
      expect(await memberNames(teamId)).to.deep.equal([target1.username]);
      expect(await memberNames(teamManagers)).to.deep.equal([teamManager.username]);
    });

    it('keeps the owners team to owners: manage-membership alone cannot change it (404)', async () => {
      const { org, users, memberships } = await orgWithMembers(2);
      const [admin, other] = users;
      const membershipAdmins = await createTeam(org, {
        visibility: 'organization',
        'organization-access': { 'manage-membership': true },
      });
      await ok('POST', membershipAdmins, USERS, [admin.username], org.owner.token);
      const owners = await ownersTeamId(org);
      await ok('POST', owners, USERS, [other.username], org.owner.token);

      expectError(await change('POST', owners, USERS, [admin.username], admin.token), 404);
      expectError(await change('POST', owners, MEMBERSHIPS, [memberships[0]], admin.token), 404);
      expectError(await change('DELETE', owners, USERS, [other.username], admin.token), 404);
      expectError(await change('DELETE', owners, MEMBERSHIPS, [memberships[1]], admin.token), 404);
      expect(await memberNames(owners)).to.deep.equal(sorted([org.owner, other]));
      const view = await api('GET', `/teams/${owners}`, { token: admin.token });
      expect(view.status, view.text).to.equal(200);
      expect(view.body.data.attributes.permissions['can-update-membership']).to.equal(false);
      const ownerView = await api('GET', `/teams/${owners}`, { token: org.owner.token });
      expect(ownerView.body.data.attributes.permissions['can-update-membership']).to.equal(true);
      const teamDoc = { data: { type: 'teams', attributes: { name: uniq('t') } } };
      const create = await api('POST', `/organizations/${org.name}/teams`, { token: admin.token, body: teamDoc });
      expectError(create, 404);
    });

    it('lets a member of a team with manage-membership change memberships', async () => {
      const { org, users, memberships } = await orgWithMembers(3);
      const [admin, target1, target2] = users;
      const membershipAdmins = await createTeam(org, {
        visibility: 'organization',
        'organization-access': { 'manage-membership': true },
      });
      await ok('POST', membershipAdmins, USERS, [admin.username], org.owner.token);
      const teamId = await createTeam(org, { visibility: 'organization' });

      const seen = await api('GET', `/teams/${teamId}`, { token: admin.token });
      expect(seen.body.data.attributes.permissions['can-update-membership']).to.equal(true);
      await ok('POST', teamId, USERS, [target1.username], admin.token);
      await ok('POST', teamId, MEMBERSHIPS, [memberships[2]], admin.token);
      expect(await memberNames(teamId)).to.deep.equal(sorted([target1, target2]));
      await ok('DELETE', teamId, USERS, [target1.username], admin.token);
      await ok('DELETE', teamId, MEMBERSHIPS, [memberships[2]], admin.token);
      expect(await memberNames(teamId)).to.deep.equal([]);
    });
  });
});
