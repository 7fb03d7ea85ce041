import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import { harness, secondAppForSuite } from '../helpers/harness.js';
import { createOrg, createTeam, createUser, joinOrg, uniq, type TestUser } from '../helpers/fixtures.js';
import { memberWithPermissions } from '../helpers/policy-fixtures.js';
import { refused, tableCounts } from '../helpers/identity.js';

/*
 * An inviter knows the email address they typed, nothing more: inviting an address must not tell
 * them whose account it is (username, site-admin flag), and a pending invitation must not let them
 * read that user. Invitations also create users and send mail, so an organization has a budget of them.
 */

type Org = { name: string; owner: TestUser };

const invite = (org: Org, email: string, token = org.owner.token, base = '') =>
  api('POST', `${base}/organizations/${org.name}/organization-memberships`, {
    token,
    body: doc('organization-memberships', { email }),
  });

/** A site admin with a username nobody would guess, and its token. */
async function siteAdmin(): Promise<TestUser> {
  const username = uniq('secret-admin');
  const email = `${uniq('boss')}@example.test`;
  const created = await api('POST', '/admin/users', { body: doc('users', { username, email, 'is-admin': true }) });
  expect(created.status, created.text).to.equal(201);
  const token = await api('POST', `/users/${created.body.data.id}/authentication-tokens`, {
    body: doc('authentication-tokens', { description: 'admin' }),
  });
  return { id: created.body.data.id, username, email, token: token.body.data.attributes.token };
}

describe('invitations reveal nothing about the invited user', function () {
  this.timeout(60_000);

  it('the invitation answer names the membership and the typed email only: no username, no site-admin flag, nothing included', async () => {
    const org = await createOrg();
    const victim = await siteAdmin();
    const before = await tableCounts();
    const res = await invite(org, victim.email);
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.attributes).to.include({ status: 'invited', email: victim.email });
    expect(res.body.data.relationships.user.data).to.deep.equal({ type: 'users', id: victim.id });
    expect(res.body).to.not.have.property('included');
    expect(res.text).to.not.include(victim.username);
    expect(res.text).to.not.include('is-site-admin');
    // The invitation and its mail were written, no user was created (the address had an account).
    const after = await tableCounts();
    expect(after.users).to.equal(before.users);
    expect(after.organization_memberships).to.equal(before.organization_memberships + 1);
    expect(after.mail_messages).to.equal(before.mail_messages + 1);
  });

  it('include=user shows the invited user without username, email or site-admin flag, to the inviter and other members, until accepted', async () => {
    const org = await createOrg();
    const member = await createUser();
    await joinOrg(org, member);
    const victim = await siteAdmin();
    const inv = await invite(org, victim.email);
    expect(inv.status, inv.text).to.equal(201);
    const membershipId = inv.body.data.id;
    const orgToken = (await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token }))
      .body.data.attributes.token;

    for (const token of [org.owner.token, member.token, orgToken]) {
      for (const path of [
        `/organizations/${org.name}/organization-memberships?include=user`,
        `/organization-memberships/${membershipId}?include=user`,
      ]) {
        const res = await api('GET', path, { token });
        expect(res.status, res.text).to.equal(200);
        const user = res.body.included.find(
          (r: { type: string; id: string }) => r.type === 'users' && r.id === victim.id,
        );
        expect(user, res.text).to.deep.equal({
          type: 'users',
          id: victim.id,
          attributes: { username: null, 'is-service-account': false, 'avatar-url': null },
        });
        expect(res.text).to.not.include(victim.username);
        // Accepted members are still shown in full.
        if (path.includes('?include=user') && path.startsWith('/organizations/')) {
          const owner = res.body.included.find((r: { type: string; id: string }) => r.id === org.owner.id);
          expect(owner.attributes.username).to.equal(org.owner.username);
        }
      }
    }
    // The invitee sees itself.
    const own = await api('GET', `/organization-memberships/${membershipId}?include=user`, { token: victim.token });
    expect(own.body.included[0].attributes.username).to.equal(victim.username);

    const accepted = await api('POST', `/organization-memberships/${membershipId}/actions/accept`, {
      token: victim.token,
    });
    expect(accepted.status, accepted.text).to.equal(200);
    const shown = await api('GET', `/organization-memberships/${membershipId}?include=user`, {
      token: org.owner.token,
    });
    expect(shown.body.included[0].attributes).to.include({ username: victim.username, 'is-site-admin': true });
  });

  it("a pending invitation does not let the inviter, members or the organization's tokens read the user; acceptance does", async () => {
    const org = await createOrg();
    const member = await createUser();
    await joinOrg(org, member);
    const victim = await siteAdmin();
    const team = await createTeam(org);
    const teamToken = (await api('POST', `/teams/${team}/authentication-token`, { token: org.owner.token })).body.data
      .attributes.token;
    const orgToken = (await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token }))
      .body.data.attributes.token;
    const membershipId = (await invite(org, victim.email)).body.data.id;

    for (const token of [org.owner.token, member.token, teamToken, orgToken]) {
      const res = await api('GET', `/users/${victim.id}`, { token });
      expectError(res, 404);
      expect(res.text).to.not.include(victim.username);
    }
    // Accepted: the organization's people may see the user.
    expect(
      (await api('POST', `/organization-memberships/${membershipId}/actions/accept`, { token: victim.token })).status,
    ).to.equal(200);
    for (const token of [org.owner.token, member.token, teamToken, orgToken]) {
      const res = await api('GET', `/users/${victim.id}`, { token });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes.username).to.equal(victim.username);
    }
  });

  describe("an organization's invitation budget (3 an hour)", () => {
    const app = secondAppForSuite({ RATE_LIMIT_INVITATIONS_PER_HOUR: '3', RATE_LIMIT_INVITATIONS_PER_MINUTE: '1000' });

    it('is shared by everyone who invites into the organization; past it, a 429 that creates no user, membership or mail', async () => {
      const org = await createOrg();
      // Setting up the manager invites once (through the test API, into the same shared budget).
      const manager = await memberWithPermissions(org, { 'manage-membership': true });
      for (const token of [org.owner.token, manager.token]) {
        const res = await invite(org, `${uniq('new')}@example.test`, token, app.api);
        expect(res.status, res.text).to.equal(201);
      }
      const address = `${uniq('spam')}@example.test`;
      for (const token of [manager.token, org.owner.token]) {
        const res = await refused(429, () => invite(org, address, token, app.api));
        expect(res.body.errors[0].detail).to.match(/invitations sent by this organization/);
        expect(Number(res.headers.get('retry-after'))).to.be.within(1, 3600);
        expect(res.headers.get('x-ratelimit-limit')).to.equal('3');
      }
      expect(await harness().rt.db('mail_messages').where({ to_address: address }).first()).to.equal(undefined);
      // Another organization, even with the same owner, has its own budget.
      const other = await createOrg(org.owner);
      expect((await invite(other, address, org.owner.token, app.api)).status).to.equal(201);
    });

    it('cannot be spent by someone who may not invite into the organization', async () => {
      const org = await createOrg();
      const stranger = await createUser();
      const member = await createUser();
      await joinOrg(org, member); // one invitation of the budget
      for (const token of [stranger.token, member.token, stranger.token, member.token]) {
        await refused(404, () => invite(org, `${uniq('x')}@example.test`, token, app.api));
      }
      for (let i = 0; i < 2; i++) {
        const res = await invite(org, `${uniq('ok')}@example.test`, org.owner.token, app.api);
        expect(res.status, res.text).to.equal(201);
      }
      await refused(429, () => invite(org, `${uniq('late')}@example.test`, org.owner.token, app.api));
    });
  });
});
