import { expect } from 'chai';
import { api, doc, expectError, type ApiResponse } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { openMailBody } from '../../shared/mail/repo.js';
import { pointers, refused } from '../helpers/identity.js';
import { countRows, createOrg, createTeam, createUser, joinOrg, uniq, type TestUser } from '../helpers/fixtures.js';

const ISO_Z = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

type Org = { name: string; owner: TestUser };

const db = () => harness().rt.db;
const bearer = (token: string) => ({ token });
const ids = (res: ApiResponse): string[] => res.body.data.map((r: { id: string }) => r.id);
const teamLinks = (teamIds: string[]) => ({ teams: { data: teamIds.map((id) => ({ type: 'teams', id })) } });
const inviteDoc = (email: string, teamIds?: string[]) =>
  doc('organization-memberships', { email }, teamIds ? teamLinks(teamIds) : undefined);
const invite = (org: Org, email: string, teamIds?: string[], token: string | null = org.owner.token) =>
  api('POST', `/organizations/${org.name}/organization-memberships`, { token, body: inviteDoc(email, teamIds) });
const membershipRow = (id: string) => db()('organization_memberships').where({ id }).first();
const mailTo = (address: string) => db()('mail_messages').where({ to_address: address });
const userByEmail = (email: string) => db()('users').whereRaw('lower(email) = lower(?)', [email]).first();

async function ownersTeamId(org: string): Promise<string> {
  const row = await db()('teams').where({ organization_name: org, is_owners: true }).first('id');
  expect(row, `owners team of ${org}`).to.exist;
  return row.id as string;
}

async function ownerMembershipId(org: Org): Promise<string> {
  const row = await db()('organization_memberships')
    .where({ organization_name: org.name, user_id: org.owner.id })
    .first('id');
  return row.id as string;
}

/** Invites `user` into the owners team and accepts; returns the membership id. */
async function addOwner(org: Org, user: TestUser): Promise<string> {
  const inv = await invite(org, user.email, [await ownersTeamId(org.name)]);
  expect(inv.status, inv.text).to.equal(201);
  const acc = await api('POST', `/organization-memberships/${inv.body.data.id}/actions/accept`, bearer(user.token));
  expect(acc.status, acc.text).to.equal(200);
  return inv.body.data.id;
}

async function orgToken(org: Org): Promise<string> {
  const res = await api('POST', `/organizations/${org.name}/authentication-token`, bearer(org.owner.token));
  expect(res.status, res.text).to.equal(201);
  return res.body.data.attributes.token;
}

describe('organization memberships', () => {
  describe('POST /organizations/:name/organization-memberships', () => {
    it('invites an existing user by email and writes the invitation mail in the same transaction', async () => {
      const org = await createOrg();
      const user = await createUser();
      const usersBefore = await countRows('users');
      const res = await invite(org, user.email);
      expect(res.status, res.text).to.equal(201);
      const data = res.body.data;
      expect(data.type).to.equal('organization-memberships');
      expect(data.id).to.match(/^ou-/);
      expect(data.attributes).to.include({ status: 'invited', email: user.email });
      expect(data.attributes['created-at']).to.match(ISO_Z);
      expect(data.relationships.organization.data).to.deep.equal({ type: 'organizations', id: org.name });
      expect(data.relationships.user.data).to.deep.equal({ type: 'users', id: user.id });
      expect(data.relationships.teams.data).to.deep.equal([]);
      // Nothing about the invited user beyond the email typed and the id (see invitations-privacy.test.ts).
      expect(res.body).to.not.have.property('included');
      expect(res.text).to.not.include('"username"');
      expect(await countRows('users')).to.equal(usersBefore);

      const row = await membershipRow(data.id);
      expect(row).to.include({ organization_name: org.name, user_id: user.id, status: 'invited' });
      const mails = await db()('mail_messages').where({ ref_id: data.id });
      expect(mails).to.have.length(1);
      expect(mails[0]).to.include({ kind: 'invitation', to_address: user.email, status: 'pending' });
      expect(mails[0].subject).to.contain(org.name);
      // The invitation's link is a credential: the body is stored encrypted.
      expect(mails[0].body_sealed).to.equal(true);
      expect(mails[0].body).to.not.contain('accept-invitation');
      expect(openMailBody(mails[0], harness().config.encryptionKey)).to.contain(data.id);
      expect(mails[0].created_at.getTime(), 'mail and membership share one transaction').to.equal(
        row.created_at.getTime(),
      );
    });

    it('creates a user for an unknown email, in the same transaction as the membership and the mail', async () => {
      const org = await createOrg();
      const local = uniq('newcomer');
      const email = `${local}@elsewhere.test`;
      const res = await invite(org, email);
      expect(res.status, res.text).to.equal(201);
      const user = await userByEmail(email);
      expect(user).to.include({ email, username: local, is_admin: false });
      expect(res.body.data.relationships.user.data.id).to.equal(user.id);
      expect(res.body.data.attributes.email).to.equal(email);
      const mails = await mailTo(email);
      expect(mails).to.have.length(1);
      expect(mails[0].kind).to.equal('invitation');
      const row = await membershipRow(res.body.data.id);
      expect(user.created_at.getTime()).to.equal(row.created_at.getTime());
      expect(mails[0].created_at.getTime()).to.equal(row.created_at.getTime());
    });

    it("derives a free username when the email's local part is taken", async () => {
      const org = await createOrg();
      const existing = await createUser();
      const email = `${existing.username}@another-domain.test`;
      const res = await invite(org, email);
      expect(res.status, res.text).to.equal(201);
      const created = await userByEmail(email);
      expect(created.username).to.equal(`${existing.username}-2`);
      expect(created.id).to.not.equal(existing.id);
    });

    it('matches an existing user whatever the case of the email', async () => {
      const org = await createOrg();
      const user = await createUser();
      const before = await countRows('users');
      const res = await invite(org, user.email.toUpperCase());
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.relationships.user.data.id).to.equal(user.id);
      expect(await countRows('users')).to.equal(before);
    });

    it('puts the invitation in the teams named by relationships.teams; the user counts once accepted', async () => {
      const org = await createOrg();
      const user = await createUser();
      const t1 = await createTeam(org, { visibility: 'organization' });
      const t2 = await createTeam(org);
      const res = await invite(org, user.email, [t1, t2, t1]);
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.relationships.teams.data.map((t: { id: string }) => t.id)).to.have.members([t1, t2]);
      const links = await db()('team_members').where({ organization_membership_id: res.body.data.id }).pluck('team_id');
      expect(links).to.have.members([t1, t2]);

      const pending = await api('GET', `/teams/${t1}`, bearer(org.owner.token));
      expect(pending.body.data.relationships.users.data).to.deep.equal([]);
      const seats = pending.body.data.relationships['organization-memberships'].data;
      expect(seats.map((m: { id: string }) => m.id)).to.deep.equal([res.body.data.id]);
      const acc = await api('POST', `/organization-memberships/${res.body.data.id}/actions/accept`, bearer(user.token));
      expect(acc.status, acc.text).to.equal(200);
      const active = await api('GET', `/teams/${t1}`, bearer(org.owner.token));
      expect(active.body.data.relationships.users.data).to.deep.equal([{ type: 'users', id: user.id }]);
      expect(acc.body.data.relationships.teams.data.map((t: { id: string }) => t.id)).to.have.members([t1, t2]);
    });

    it('serves concurrent invitations that create users without spurious conflicts', async () => {
      const org = await createOrg();
      const other = await createOrg();
      const local = uniq('twin');
      const emails = ['a.test', 'b.test', 'c.test'].map((domain) => `${local}@${domain}`);
      const results = await Promise.all(emails.map((email) => invite(org, email)));
      expect(
        results.map((r) => r.status),
        results.map((r) => r.text).join(' | '),
      ).to.deep.equal([201, 201, 201]);
      const usernames = await db()('users').whereIn('email', emails).pluck('username');
      expect(usernames).to.have.members([local, `${local}-2`, `${local}-3`]);

      const shared = `${uniq('shared')}@example.test`;
      const both = await Promise.all([invite(org, shared), invite(other, shared)]);
      expect(
        both.map((r) => r.status),
        both.map((r) => r.text).join(' | '),
      ).to.deep.equal([201, 201]);
      expect(both[0].body.data.relationships.user.data.id).to.equal(both[1].body.data.relationships.user.data.id);
      expect(await db()('users').where({ email: shared })).to.have.length(1);

      const dup = `${uniq('dup')}@example.test`;
      const twice = await Promise.all([invite(org, dup), invite(org, dup)]);
      expect(twice.map((r) => r.status).sort(), twice.map((r) => r.text).join(' | ')).to.deep.equal([201, 422]);
      const loser = twice.find((r) => r.status === 422)!;
      expectError(loser, 422, /already a member/);
      expect(pointers(loser)).to.include('/data/attributes/email');
      expect(await mailTo(dup)).to.have.length(1);
      expect(await db()('users').where({ email: dup })).to.have.length(1);
    });

    it("refuses unknown teams and other organizations' teams with 422, creating no user, membership or mail", async () => {
      const org = await createOrg();
      const other = await createOrg();
      const foreignTeam = await createTeam(other);
      const ownTeam = await createTeam(org);
      for (const teamIds of [[`team-${uniq('nope')}`], [ownTeam, foreignTeam]]) {
        const email = `${uniq('ghost')}@example.test`;
        await refused(422, () => invite(org, email, teamIds), '/data/relationships/teams');
        expect(await userByEmail(email)).to.equal(undefined);
        expect(await mailTo(email)).to.deep.equal([]);
      }
    });

    it('refuses re-inviting an active member or a pending invitee with 422 on the email, sending no mail', async () => {
      const org = await createOrg();
      const member = await createUser();
      const pending = await createUser();
      await joinOrg(org, member);
      await joinOrg(org, pending, false);
      for (const email of [member.email, pending.email, member.email.toUpperCase(), org.owner.email]) {
        const mailsBefore = (await db()('mail_messages').whereRaw('lower(to_address) = lower(?)', [email])).length;
        const res = await refused(422, () => invite(org, email), '/data/attributes/email');
        expect(res.body.errors[0].detail).to.match(/already a member/);
        expect((await db()('mail_messages').whereRaw('lower(to_address) = lower(?)', [email])).length).to.equal(
          mailsBefore,
        );
      }
    });

    it('refuses malformed JSON, a wrong type, missing and invalid attributes, writing nothing', async () => {
      const org = await createOrg();
      const email = `${uniq('bad')}@example.test`;
      const post = (opts: { body?: unknown; raw?: string }) => () =>
        api('POST', `/organizations/${org.name}/organization-memberships`, { token: org.owner.token, ...opts });
      await refused(400, post({ raw: '{"data": {"type": "organization-memberships", "attributes": {' }));
      await refused(422, post({ body: doc('organization-membership', { email }) }), '/data/type');
      await refused(422, post({ body: doc('users', { email }) }), '/data/type');
      await refused(422, post({ body: doc('organization-memberships', {}) }), '/data/attributes/email');
      await refused(422, post({ body: { data: { type: 'organization-memberships' } } }), '/data/attributes');
      await refused(
        422,
        post({ body: doc('organization-memberships', { email: 'not-an-email' }) }),
        '/data/attributes/email',
      );
      await refused(422, post({ body: doc('organization-memberships', { email: 12 }) }), '/data/attributes/email');
      await refused(
        422,
        post({
          body: doc('organization-memberships', { email }, { teams: { data: [{ type: 'workspaces', id: 'ws-1' }] } }),
        }),
        '/data/relationships/teams/data/0/type',
      );
      await refused(
        422,
        post({ body: doc('organization-memberships', { email }, { teams: { data: { type: 'teams', id: 'x' } } }) }),
      );
      expect(await userByEmail(email)).to.equal(undefined);
      expect(await mailTo(email)).to.deep.equal([]);
    });

    it('answers 404 to members without manage-membership, to other organizations and for unknown organizations', async () => {
      const org = await createOrg();
      const member = await createUser();
      await joinOrg(org, member);
      const other = await createOrg();
      const email = `${uniq('target')}@example.test`;
      await refused(404, () => invite(org, email, undefined, member.token));
      await refused(404, () => invite(org, email, undefined, other.owner.token));
      await refused(404, () => invite({ name: uniq('nope'), owner: org.owner }, email));
      expect(await userByEmail(email)).to.equal(undefined);
    });

    it('lets members of a team with manage-membership and the organization token invite', async () => {
      const org = await createOrg();
      const manager = await createUser();
      const managers = await createTeam(org, { 'organization-access': { 'manage-membership': true } });
      const inv = await invite(org, manager.email, [managers]);
      expect(
        (await api('POST', `/organization-memberships/${inv.body.data.id}/actions/accept`, bearer(manager.token)))
          .status,
      ).to.equal(200);
      const byManager = await invite(org, `${uniq('a')}@example.test`, undefined, manager.token);
      expect(byManager.status, byManager.text).to.equal(201);
      const byToken = await invite(org, `${uniq('b')}@example.test`, undefined, await orgToken(org));
      expect(byToken.status, byToken.text).to.equal(201);
    });

    it('answers 401 without a token or with a wrong one, writing nothing', async () => {
      const org = await createOrg();
      const email = `${uniq('anon')}@example.test`;
      await refused(401, () => invite(org, email, undefined, null));
      await refused(401, () => invite(org, email, undefined, 'wrong'));
      expect(await userByEmail(email)).to.equal(undefined);
    });
  });

  describe('GET /organizations/:name/organization-memberships', () => {
    let org: Org;
    let active: TestUser;
    let pending: TestUser;
    let activeId: string;
    let pendingId: string;
    const list = (query: string, token = org.owner.token) =>
      api('GET', `/organizations/${org.name}/organization-memberships${query}`, bearer(token));

    before(async () => {
      org = await createOrg();
      active = await createUser();
      pending = await createUser();
      activeId = await joinOrg(org, active);
      pendingId = await joinOrg(org, pending, false);
    });

    it('lists every membership with status, email and teams', async () => {
      const res = await list('');
      expect(res.status, res.text).to.equal(200);
      expect(ids(res)).to.have.members([await ownerMembershipId(org), activeId, pendingId]);
      const byId = new Map(res.body.data.map((m: { id: string }) => [m.id, m]));
      expect((byId.get(pendingId) as { attributes: unknown }).attributes).to.include({
        status: 'invited',
        email: pending.email,
      });
      expect((byId.get(activeId) as { attributes: unknown }).attributes).to.include({
        status: 'active',
        email: active.email,
      });
      const owner = byId.get(await ownerMembershipId(org)) as { relationships: { teams: { data: { id: string }[] } } };
      expect(owner.relationships.teams.data.map((t) => t.id)).to.deep.equal([await ownersTeamId(org.name)]);
      expect(res.body).to.not.have.property('included');
      expect(res.body.meta.pagination).to.include({ 'current-page': 1, 'total-count': 3, 'total-pages': 1 });
    });

    it('filters by status', async () => {
      const invited = await list('?filter[status]=invited');
      expect(invited.status, invited.text).to.equal(200);
      expect(ids(invited)).to.deep.equal([pendingId]);
      const activeOnly = await list('?filter[status]=active');
      expect(ids(activeOnly)).to.have.members([await ownerMembershipId(org), activeId]);
      expect(activeOnly.body.meta.pagination['total-count']).to.equal(2);
      const both = await list('?filter%5Bstatus%5D=active%2Cinvited');
      expect(ids(both)).to.have.length(3);
    });

    it('filters by email, case-insensitively and by comma-separated lists', async () => {
      const one = await list(`?filter[email]=${encodeURIComponent(active.email.toUpperCase())}`);
      expect(one.status, one.text).to.equal(200);
      expect(ids(one)).to.deep.equal([activeId]);
      const two = await list(`?filter[email]=${encodeURIComponent(`${active.email},${pending.email}`)}`);
      expect(ids(two)).to.have.members([activeId, pendingId]);
      const none = await list('?filter[email]=nobody%40example.test');
      expect(none.status, none.text).to.equal(200);
      expect(none.body.data).to.deep.equal([]);
      expect(none.body.meta.pagination['total-count']).to.equal(0);
    });

    it('includes the users when asked', async () => {
      const res = await list('?include=user');
      expect(res.status, res.text).to.equal(200);
      const included = res.body.included.map((r: { type: string; id: string }) => `${r.type}/${r.id}`);
      expect(included).to.have.members([`users/${org.owner.id}`, `users/${active.id}`, `users/${pending.id}`]);
      for (const m of res.body.data) expect(included).to.include(`users/${m.relationships.user.data.id}`);
    });

    it('includes the teams when asked', async () => {
      const other = await createOrg();
      const user = await createUser();
      const teamId = await createTeam(other, { visibility: 'organization' });
      const inv = await invite(other, user.email, [teamId]);
      expect(inv.status, inv.text).to.equal(201);
      const res = await api(
        'GET',
        `/organizations/${other.name}/organization-memberships?include=teams,user`,
        bearer(other.owner.token),
      );
      expect(res.status, res.text).to.equal(200);
      const owners = await ownersTeamId(other.name);
      const included = res.body.included.map((r: { type: string; id: string }) => `${r.type}/${r.id}`);
      expect(included).to.have.members([
        `teams/${owners}`,
        `teams/${teamId}`,
        `users/${other.owner.id}`,
        `users/${user.id}`,
      ]);
      const team = res.body.included.find((r: { type: string; id: string }) => r.type === 'teams' && r.id === owners);
      expect(team.attributes.name).to.equal('owners');
      const shown = await api('GET', `/organization-memberships/${inv.body.data.id}?include=teams`, bearer(user.token));
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.included.map((r: { type: string; id: string }) => `${r.type}/${r.id}`)).to.deep.equal([
        `teams/${teamId}`,
      ]);
    });

    it('hides secret teams from members who may not see them', async () => {
      const other = await createOrg();
      const member = await createUser();
      const invitee = await createUser();
      await joinOrg(other, member);
      const secret = await createTeam(other, { visibility: 'secret' });
      const inv = await invite(other, invitee.email, [secret]);
      expect(inv.status, inv.text).to.equal(201);
      const path = `/organizations/${other.name}/organization-memberships?include=teams&filter[email]=${encodeURIComponent(invitee.email)}`;
      const asOwner = await api('GET', path, bearer(other.owner.token));
      expect(asOwner.body.data[0].relationships.teams.data).to.deep.equal([{ type: 'teams', id: secret }]);
      expect(asOwner.body.included.map((r: { id: string }) => r.id)).to.deep.equal([secret]);
      const asMember = await api('GET', path, bearer(member.token));
      expect(asMember.status, asMember.text).to.equal(200);
      expect(asMember.body.data[0].relationships.teams.data).to.deep.equal([]);
      expect(asMember.body).to.not.have.property('included');
      const shown = await api(
        'GET',
        `/organization-memberships/${inv.body.data.id}?include=teams`,
        bearer(member.token),
      );
      expect(shown.body.data.relationships.teams.data).to.deep.equal([]);
      const own = await api(
        'GET',
        `/organization-memberships/${inv.body.data.id}?include=teams`,
        bearer(invitee.token),
      );
      expect(own.body.data.relationships.teams.data).to.deep.equal([{ type: 'teams', id: secret }]);
      expect(own.body.included.map((r: { id: string }) => r.id)).to.deep.equal([secret]);
    });

    it('paginates', async () => {
      const res = await list('?page[size]=2&page[number]=2');
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.have.length(1);
      expect(res.body.meta.pagination).to.include({
        'current-page': 2,
        'total-pages': 2,
        'total-count': 3,
        'prev-page': 1,
        'next-page': null,
      });
    });

    it('refuses an unknown include and bad page parameters with 400', async () => {
      expectError(await list('?include=workspaces'), 400, /include/);
      expectError(await list('?page[size]=0'), 400);
    });

    it('lets any active member and the organization token list', async () => {
      const asMember = await list('', active.token);
      expect(asMember.status, asMember.text).to.equal(200);
      expect(ids(asMember)).to.have.length(3);
      const asToken = await list('', await orgToken(org));
      expect(asToken.status, asToken.text).to.equal(200);
      expect(ids(asToken)).to.have.length(3);
    });

    it('answers 404 to invitees who have not accepted, to strangers and for unknown organizations', async () => {
      const stranger = await createOrg();
      expectError(await api('GET', `/organizations/${org.name}/organization-memberships`, bearer(pending.token)), 404);
      expectError(
        await api('GET', `/organizations/${org.name}/organization-memberships`, bearer(stranger.owner.token)),
        404,
      );
      expectError(
        await api('GET', `/organizations/${uniq('nope')}/organization-memberships`, bearer(org.owner.token)),
        404,
      );
    });

    it('answers 401 without a token or with a wrong one', async () => {
      expectError(await api('GET', `/organizations/${org.name}/organization-memberships`, { token: null }), 401);
      expectError(await api('GET', `/organizations/${org.name}/organization-memberships`, { token: 'wrong' }), 401);
    });
  });

  describe('GET /organization-memberships/:id', () => {
    it('shows a membership to organization members and to its own invitee, with the user when asked', async () => {
      const org = await createOrg();
      const member = await createUser();
      const invitee = await createUser();
      await joinOrg(org, member);
      const id = await joinOrg(org, invitee, false);
      for (const token of [org.owner.token, member.token, invitee.token]) {
        const res = await api('GET', `/organization-memberships/${id}`, bearer(token));
        expect(res.status, res.text).to.equal(200);
        expect(res.body.data).to.include({ type: 'organization-memberships', id });
        expect(res.body.data.attributes).to.include({ status: 'invited', email: invitee.email });
        expect(res.body).to.not.have.property('included');
      }
      const withUser = await api('GET', `/organization-memberships/${id}?include=user`, bearer(invitee.token));
      expect(withUser.status, withUser.text).to.equal(200);
      expect(withUser.body.included).to.have.length(1);
      expect(withUser.body.included[0]).to.include({ type: 'users', id: invitee.id });
      expectError(await api('GET', `/organization-memberships/${id}?include=nope`, bearer(invitee.token)), 400);
    });

    it('answers 404 to other organizations, to other invitees and for unknown ids', async () => {
      const org = await createOrg();
      const other = await createOrg();
      const invitee = await createUser();
      const otherInvitee = await createUser();
      const id = await joinOrg(org, invitee, false);
      await joinOrg(org, otherInvitee, false);
      expectError(await api('GET', `/organization-memberships/${id}`, bearer(other.owner.token)), 404);
      expectError(await api('GET', `/organization-memberships/${id}`, bearer(otherInvitee.token)), 404);
      expectError(await api('GET', `/organization-memberships/${id}`, bearer(await orgToken(other))), 404);
      expectError(await api('GET', `/organization-memberships/ou-${uniq('nope')}`, bearer(org.owner.token)), 404);
    });

    it('answers 401 without a token or with a wrong one', async () => {
      const org = await createOrg();
      const id = await ownerMembershipId(org);
      expectError(await api('GET', `/organization-memberships/${id}`, { token: null }), 401);
      expectError(await api('GET', `/organization-memberships/${id}`, { token: 'wrong' }), 401);
    });
  });

  describe('DELETE /organization-memberships/:id', () => {
    it('removes a membership and its team seats, keeping the user', async () => {
      const org = await createOrg();
      const user = await createUser();
      const teamId = await createTeam(org);
      const inv = await invite(org, user.email, [teamId]);
      expect(inv.status, inv.text).to.equal(201);
      await api('POST', `/organization-memberships/${inv.body.data.id}/actions/accept`, bearer(user.token));
      expect((await api('GET', `/organizations/${org.name}`, bearer(user.token))).status).to.equal(200);

      const res = await api('DELETE', `/organization-memberships/${inv.body.data.id}`, bearer(org.owner.token));
      expect(res.status, res.text).to.equal(204);
      expect(await membershipRow(inv.body.data.id)).to.equal(undefined);
      expect(await db()('team_members').where({ organization_membership_id: inv.body.data.id })).to.deep.equal([]);
      expect(await db()('users').where({ id: user.id }).first()).to.exist;
      expectError(await api('GET', `/organizations/${org.name}`, bearer(user.token)), 404);
      expectError(await api('DELETE', `/organization-memberships/${inv.body.data.id}`, bearer(org.owner.token)), 404);
    });

    it('withdraws a pending invitation, which can then no longer be accepted', async () => {
      const org = await createOrg();
      const user = await createUser();
      const id = await joinOrg(org, user, false);
      expect((await api('DELETE', `/organization-memberships/${id}`, bearer(org.owner.token))).status).to.equal(204);
      expectError(await api('POST', `/organization-memberships/${id}/actions/accept`, bearer(user.token)), 404);
    });

    it('refuses to remove the last active owner with 422 and deletes nothing', async () => {
      const org = await createOrg();
      const invitedOwner = await createUser();
      const inv = await invite(org, invitedOwner.email, [await ownersTeamId(org.name)]);
      expect(inv.status, inv.text).to.equal(201);
      const id = await ownerMembershipId(org);
      const seats = await db()('team_members').where({ organization_membership_id: id });
      const res = await refused(422, () => api('DELETE', `/organization-memberships/${id}`, bearer(org.owner.token)));
      expect(res.body.errors[0].detail).to.match(/owners/);
      await refused(422, () => api('DELETE', `/organization-memberships/${id}`, bearer(harness().adminToken)));
      expect(await membershipRow(id)).to.include({ status: 'active' });
      expect(await db()('team_members').where({ organization_membership_id: id })).to.deep.equal(seats);
      expect((await api('GET', `/organizations/${org.name}`, bearer(org.owner.token))).status).to.equal(200);
    });

    it('lets an owner leave while another active owner remains', async () => {
      const org = await createOrg();
      const second = await createUser();
      const secondId = await addOwner(org, second);
      const res = await api(
        'DELETE',
        `/organization-memberships/${await ownerMembershipId(org)}`,
        bearer(org.owner.token),
      );
      expect(res.status, res.text).to.equal(204);
      expectError(await api('GET', `/organizations/${org.name}`, bearer(org.owner.token)), 404);
      const shown = await api('GET', `/organizations/${org.name}`, bearer(second.token));
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.data.attributes.permissions['can-destroy']).to.equal(true);
      await refused(422, () => api('DELETE', `/organization-memberships/${secondId}`, bearer(second.token)));
    });

    it('never leaves the owners team empty when two owners remove each other at once', async () => {
      for (let round = 0; round < 4; round++) {
        const org = await createOrg();
        const second = await createUser();
        const secondId = await addOwner(org, second);
        const firstId = await ownerMembershipId(org);
        const results = await Promise.all([
          api('DELETE', `/organization-memberships/${secondId}`, bearer(org.owner.token)),
          api('DELETE', `/organization-memberships/${firstId}`, bearer(second.token)),
        ]);
        const statuses = results.map((r) => r.status).sort();
        // The loser is refused: 422 when it is checked while both are owners, or 404 when the
        // winner's removal of its membership commits first and it can no longer see the organization.
        expect(statuses[0], results.map((r) => r.text).join(' | ')).to.equal(204);
        expect([404, 422]).to.include(statuses[1]);
        const remaining = await db()('team_members as tm')
          .join('organization_memberships as m', 'm.id', 'tm.organization_membership_id')
          .where({ 'tm.team_id': await ownersTeamId(org.name), 'm.status': 'active' })
          .pluck('m.id');
        expect(remaining).to.have.length(1);
      }
    });

    it('answers 404 to members without manage-membership, to other organizations and for unknown ids, deleting nothing', async () => {
      const org = await createOrg();
      const member = await createUser();
      const target = await createUser();
      await joinOrg(org, member);
      const id = await joinOrg(org, target);
      const other = await createOrg();
      const otherToken = await orgToken(other);
      await refused(404, () => api('DELETE', `/organization-memberships/${id}`, bearer(member.token)));
      await refused(404, () => api('DELETE', `/organization-memberships/${id}`, bearer(target.token)));
      await refused(404, () => api('DELETE', `/organization-memberships/${id}`, bearer(other.owner.token)));
      await refused(404, () => api('DELETE', `/organization-memberships/${id}`, bearer(otherToken)));
      await refused(404, () => api('DELETE', `/organization-memberships/ou-${uniq('nope')}`, bearer(org.owner.token)));
      expect(await membershipRow(id)).to.include({ status: 'active' });
    });

    it('answers 401 without a token or with a wrong one, deleting nothing', async () => {
      const org = await createOrg();
      const id = await joinOrg(org, await createUser(), false);
      await refused(401, () => api('DELETE', `/organization-memberships/${id}`, { token: null }));
      await refused(401, () => api('DELETE', `/organization-memberships/${id}`, { token: 'wrong' }));
      expect(await membershipRow(id)).to.exist;
    });
  });

  describe('POST /organization-memberships/:id/actions/accept', () => {
    it('activates the invitation for the invited user, who then sees the organization', async () => {
      const org = await createOrg();
      const user = await createUser();
      const id = await joinOrg(org, user, false);
      expectError(await api('GET', `/organizations/${org.name}`, bearer(user.token)), 404);
      const res = await api('POST', `/organization-memberships/${id}/actions/accept`, bearer(user.token));
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.include({ type: 'organization-memberships', id });
      expect(res.body.data.attributes).to.include({ status: 'active', email: user.email });
      expect(await membershipRow(id)).to.include({ status: 'active' });
      expect((await api('GET', `/organizations/${org.name}`, bearer(user.token))).status).to.equal(200);
      const list = await api('GET', '/organizations', bearer(user.token));
      expect(ids(list)).to.deep.equal([org.name]);
    });

    it('lets a user created by the invitation accept once given a token', async () => {
      const org = await createOrg();
      const email = `${uniq('fresh')}@example.test`;
      const inv = await invite(org, email);
      expect(inv.status, inv.text).to.equal(201);
      const userId = inv.body.data.relationships.user.data.id;
      const token = await api('POST', `/users/${userId}/authentication-tokens`, {});
      expect(token.status, token.text).to.equal(201);
      const res = await api(
        'POST',
        `/organization-memberships/${inv.body.data.id}/actions/accept`,
        bearer(token.body.data.attributes.token),
      );
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes.status).to.equal('active');
    });

    it('answers 409 when accepting twice and leaves the membership active', async () => {
      const org = await createOrg();
      const user = await createUser();
      const id = await joinOrg(org, user);
      const res = await refused(409, () =>
        api('POST', `/organization-memberships/${id}/actions/accept`, bearer(user.token)),
      );
      expect(res.body.errors[0].title).to.equal('conflict');
      expect(await membershipRow(id)).to.include({ status: 'active' });
    });

    it('answers 404 to anyone but the invited user, and for unknown ids, leaving the invitation pending', async () => {
      const org = await createOrg();
      const user = await createUser();
      const other = await createOrg();
      const id = await joinOrg(org, user, false);
      const teamId = await createTeam(org, { 'organization-access': { 'manage-membership': true } });
      const teamToken = await api('POST', `/teams/${teamId}/authentication-token`, bearer(org.owner.token));
      const outsiders = [
        org.owner.token,
        other.owner.token,
        harness().adminToken,
        await orgToken(org),
        teamToken.body.data.attributes.token,
      ];
      for (const token of outsiders) {
        await refused(404, () => api('POST', `/organization-memberships/${id}/actions/accept`, bearer(token)));
      }
      await refused(404, () =>
        api('POST', `/organization-memberships/ou-${uniq('nope')}/actions/accept`, bearer(user.token)),
      );
      expect(await membershipRow(id)).to.include({ status: 'invited' });
    });

    it('refuses a malformed JSON body with 400, leaving the invitation pending', async () => {
      const org = await createOrg();
      const user = await createUser();
      const id = await joinOrg(org, user, false);
      await refused(400, () =>
        api('POST', `/organization-memberships/${id}/actions/accept`, { token: user.token, raw: '{' }),
      );
      expect(await membershipRow(id)).to.include({ status: 'invited' });
    });

    it('answers 401 without a token or with a wrong one, leaving the invitation pending', async () => {
      const org = await createOrg();
      const user = await createUser();
      const id = await joinOrg(org, user, false);
      await refused(401, () => api('POST', `/organization-memberships/${id}/actions/accept`, { token: null }));
      await refused(401, () => api('POST', `/organization-memberships/${id}/actions/accept`, { token: 'wrong' }));
      expect(await membershipRow(id)).to.include({ status: 'invited' });
    });
  });
});

describe("organization memberships: the owners team stays in owners' hands", () => {
  async function membershipManager() {
    const org = await createOrg();
    const manager = await createUser();
    await joinOrg(org, manager);
    const team = await createTeam(org, { 'organization-access': { 'manage-membership': true } });
    const add = await api('POST', `/teams/${team}/relationships/users`, {
      token: org.owner.token,
      body: { data: [{ type: 'users', id: manager.username }] },
    });
    expect(add.status, add.text).to.equal(204);
    const teams = await api('GET', `/organizations/${org.name}/teams?filter%5Bnames%5D=owners`, {
      token: org.owner.token,
    });
    return { org, manager, ownersId: teams.body.data[0].id as string };
  }

  it('refuses an invitation into the owners team from a non-owner, writing nothing', async () => {
    const { org, manager, ownersId } = await membershipManager();
    const before = await countRows('organization_memberships');
    const res = await api('POST', `/organizations/${org.name}/organization-memberships`, {
      token: manager.token,
      body: doc(
        'organization-memberships',
        { email: `${uniq('esc')}@example.test` },
        { teams: { data: [{ type: 'teams', id: ownersId }] } },
      ),
    });
    expectError(res, 422, /not found/);
    expect(await countRows('organization_memberships')).to.equal(before);
  });

  it("refuses a non-owner removing an owner's membership", async () => {
    const { org, manager } = await membershipManager();
    const second = await createUser();
    const ou = await joinOrg(org, second);
    const teams = await api('GET', `/organizations/${org.name}/teams?filter%5Bnames%5D=owners`, {
      token: org.owner.token,
    });
    await api('POST', `/teams/${teams.body.data[0].id}/relationships/users`, {
      token: org.owner.token,
      body: { data: [{ type: 'users', id: second.username }] },
    });
    expectError(await api('DELETE', `/organization-memberships/${ou}`, { token: manager.token }), 404);
    expect((await api('GET', `/organization-memberships/${ou}`, { token: org.owner.token })).status).to.equal(200);
  });
});
