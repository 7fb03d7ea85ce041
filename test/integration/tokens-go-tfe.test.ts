import { expect } from 'chai';
import { api, doc, expectError, type ApiResponse } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { refused } from '../helpers/identity.js';
import { countRows, createOrg, createTeam, createUser, joinOrg, uniq } from '../helpers/fixtures.js';
import { memberWithPermissions } from '../helpers/policy-fixtures.js';

/** A time as go-tfe writes one (`iso8601`: whole seconds, `Z`), a day from now. */
const oneDayLater = () =>
  new Date(Math.floor(Date.now() / 1000) * 1000 + 86_400_000).toISOString().replace('.000Z', 'Z');

/**
 * The bodies go-tfe sends to create a token: its options carry no JSON:API type, so the document
 * has an empty one (with attributes when an option is set); the last sends no body at all.
 */
const goTfeBodies = (attributes: Record<string, unknown>): { name: string; raw?: string }[] => [
  { name: 'an empty type', raw: '{"data":{"type":""}}' },
  { name: 'an empty type with attributes', raw: JSON.stringify({ data: { type: '', attributes } }) },
  { name: 'no type', raw: JSON.stringify({ data: { attributes } }) },
  { name: 'no body at all' },
];

async function created(res: ApiResponse): Promise<{
  id: string;
  token: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { data: unknown }>;
}> {
  expect(res.status, res.text).to.equal(201);
  expect(res.body.data.type).to.equal('authentication-tokens');
  const token = res.body.data.attributes.token as string;
  expect(token).to.be.a('string').that.is.not.empty;
  return {
    id: res.body.data.id,
    token,
    attributes: res.body.data.attributes,
    relationships: res.body.data.relationships,
  };
}

const ownersTeamOf = async (org: string) =>
  (await harness().rt.db('teams').where({ organization_name: org, is_owners: true }).first('id')).id as string;

describe('tokens as go-tfe creates them', function () {
  this.timeout(60_000);

  describe('a missing or empty data.type', () => {
    it('issues an organization token for each body go-tfe sends, and the token authenticates', async () => {
      const org = await createOrg();
      const expiredAt = oneDayLater();
      for (const body of goTfeBodies({ 'expired-at': expiredAt })) {
        const tok = await created(
          await api('POST', `/organizations/${org.name}/authentication-token`, {
            token: org.owner.token,
            raw: body.raw,
          }),
        );
        expect((await api('GET', `/organizations/${org.name}`, { token: tok.token })).status, body.name).to.equal(200);
        expect(tok.relationships['created-by'].data, body.name).to.deep.equal({ type: 'users', id: org.owner.id });
        if (body.raw?.includes('expired-at'))
          expect(new Date(tok.attributes['expired-at'] as string).getTime(), body.name).to.equal(
            new Date(expiredAt).getTime(),
          );
      }
    });

    it("issues a team's legacy token for each body go-tfe sends", async () => {
      const org = await createOrg();
      const team = await createTeam(org);
      for (const body of goTfeBodies({ 'expired-at': oneDayLater() })) {
        const tok = await created(
          await api('POST', `/teams/${team}/authentication-token`, { token: org.owner.token, raw: body.raw }),
        );
        expect(tok.attributes.description, body.name).to.equal(null);
        expect(tok.relationships.team.data, body.name).to.deep.equal({ type: 'teams', id: team });
        expect((await api('GET', `/teams/${team}`, { token: tok.token })).status, body.name).to.equal(200);
      }
      // Each creation replaced the previous legacy token: one is left.
      const [{ n }] = await harness().rt.db('authentication_tokens').where({ team_id: team }).count({ n: '*' });
      expect(Number(n)).to.equal(1);
    });

    it('issues a user token for each body go-tfe sends, and reads it back as it was created', async () => {
      const user = await createUser();
      for (const body of goTfeBodies({ description: uniq('go-tfe-user-token'), 'expired-at': oneDayLater() })) {
        const res = await api('POST', `/users/${user.id}/authentication-tokens`, { token: user.token, raw: body.raw });
        const tok = await created(res);
        const read = await api('GET', `/authentication-tokens/${tok.id}`, { token: user.token });
        expect(read.status, read.text).to.equal(200);
        expect(read.body.data, body.name).to.deep.equal({
          ...res.body.data,
          attributes: { ...res.body.data.attributes, token: null },
        });
        expect((await api('GET', '/account/details', { token: tok.token })).body.data.id, body.name).to.equal(user.id);
      }
    });

    it('still refuses a wrong non-empty type, writing nothing', async () => {
      const org = await createOrg();
      const team = await createTeam(org);
      const paths = [
        `/organizations/${org.name}/authentication-token`,
        `/teams/${team}/authentication-token`,
        `/teams/${team}/authentication-tokens`,
        `/users/${org.owner.id}/authentication-tokens`,
      ];
      for (const path of paths) {
        const res = await refused(
          422,
          () =>
            api('POST', path, {
              token: org.owner.token,
              body: { data: { type: 'workspaces', attributes: { description: 'x' } } },
            }),
          '/data/type',
        );
        expect(res.body.errors[0].detail).to.equal(
          'data.type must be one of: authentication-tokens, authentication-token',
        );
      }
    });
  });

  describe('several tokens of a team', () => {
    it('keeps described tokens beside the legacy one, which alone a legacy creation replaces', async () => {
      const org = await createOrg();
      const team = await createTeam(org);
      const legacy = await created(
        await api('POST', `/teams/${team}/authentication-token`, {
          token: org.owner.token,
          raw: '{"data":{"type":""}}',
        }),
      );
      const expiredAt = oneDayLater();
      const first = await created(
        await api('POST', `/teams/${team}/authentication-tokens`, {
          token: org.owner.token,
          raw: JSON.stringify({ data: { type: '', attributes: { description: 'ci' } } }),
        }),
      );
      const second = await created(
        await api('POST', `/teams/${team}/authentication-tokens`, {
          token: org.owner.token,
          raw: JSON.stringify({ data: { type: '', attributes: { description: 'deploy', 'expired-at': expiredAt } } }),
        }),
      );
      expect(first.attributes.description).to.equal('ci');
      expect(second.attributes.description).to.equal('deploy');
      expect(new Date(second.attributes['expired-at'] as string).getTime()).to.equal(new Date(expiredAt).getTime());

      const renewed = await created(
        await api('POST', `/teams/${team}/authentication-token`, { token: org.owner.token }),
      );
      expect((await api('GET', `/teams/${team}`, { token: legacy.token })).status).to.equal(401);
      for (const tok of [renewed, first, second])
        expect((await api('GET', `/teams/${team}`, { token: tok.token })).status).to.equal(200);

      const listed = await api('GET', `/teams/${team}/authentication-tokens`, { token: org.owner.token });
      expect(listed.status, listed.text).to.equal(200);
      expect(listed.body.data.map((t: { id: string }) => t.id)).to.have.members([renewed.id, first.id, second.id]);
      expect(listed.body.data.every((t: { attributes: { token: unknown } }) => t.attributes.token === null)).to.equal(
        true,
      );
      expect(listed.body.meta.pagination['total-count']).to.equal(3);

      const shown = await api('GET', `/teams/${team}/authentication-token`, { token: org.owner.token });
      expect(shown.body.data.id).to.equal(renewed.id);

      const byId = await api('GET', `/authentication-tokens/${second.id}`, { token: org.owner.token });
      expect(byId.status, byId.text).to.equal(200);
      expect(byId.body.data.attributes).to.include({ description: 'deploy', token: null });
      expect(byId.body.data.relationships.team.data).to.deep.equal({ type: 'teams', id: team });

      expect((await api('DELETE', `/authentication-tokens/${first.id}`, { token: org.owner.token })).status).to.equal(
        204,
      );
      expect((await api('GET', `/teams/${team}`, { token: first.token })).status).to.equal(401);
      expectError(await api('GET', `/authentication-tokens/${first.id}`, { token: org.owner.token }), 404);
      // Deleting the legacy token by id leaves the described one.
      expect((await api('DELETE', `/authentication-tokens/${renewed.id}`, { token: org.owner.token })).status).to.equal(
        204,
      );
      expectError(await api('GET', `/teams/${team}/authentication-token`, { token: org.owner.token }), 404);
      expect((await api('GET', `/teams/${team}`, { token: second.token })).status).to.equal(200);
    });

    it('refuses a description the team already uses, a described token without one and a legacy token with one, writing nothing', async () => {
      const org = await createOrg();
      const team = await createTeam(org);
      await created(
        await api('POST', `/teams/${team}/authentication-tokens`, {
          token: org.owner.token,
          body: doc('authentication-tokens', { description: 'ci' }),
        }),
      );
      const taken = await refused(
        422,
        () =>
          api('POST', `/teams/${team}/authentication-tokens`, {
            token: org.owner.token,
            raw: '{"data":{"type":"","attributes":{"description":"ci"}}}',
          }),
        '/data/attributes/description',
      );
      expect(taken.body.errors[0]).to.include({
        title: 'invalid attributes',
        detail: 'Validation failed: Description has already been taken',
      });
      await refused(
        422,
        () =>
          api('POST', `/teams/${team}/authentication-tokens`, { token: org.owner.token, raw: '{"data":{"type":""}}' }),
        '/data/attributes/description',
      );
      await refused(
        422,
        () =>
          api('POST', `/teams/${team}/authentication-token`, {
            token: org.owner.token,
            body: doc('authentication-tokens', { description: 'named' }),
          }),
        '/data/attributes/description',
      );
      // Another team may use the same description.
      const other = await createTeam(org);
      await created(
        await api('POST', `/teams/${other}/authentication-tokens`, {
          token: org.owner.token,
          body: doc('authentication-tokens', { description: 'ci' }),
        }),
      );
    });

    it("lists an organization's team tokens as go-tfe asks: filtered by team name and sorted by expiry", async () => {
      const org = await createOrg();
      const names = [uniq('alpha'), uniq('beta')];
      const teams = [await createTeam(org, { name: names[0] }), await createTeam(org, { name: names[1] })];
      const soon = new Date(Date.now() + 86_400_000).toISOString();
      const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
      const t1 = await created(
        await api('POST', `/teams/${teams[0]}/authentication-token`, {
          token: org.owner.token,
          raw: JSON.stringify({ data: { type: '', attributes: { 'expired-at': soon } } }),
        }),
      );
      const t2 = await created(
        await api('POST', `/teams/${teams[1]}/authentication-token`, {
          token: org.owner.token,
          raw: JSON.stringify({ data: { type: '', attributes: { 'expired-at': later } } }),
        }),
      );
      const ids = (res: ApiResponse) => {
        expect(res.status, res.text).to.equal(200);
        return res.body.data.map((t: { id: string }) => t.id);
      };
      expect(
        ids(await api('GET', `/organizations/${org.name}/team-tokens`, { token: org.owner.token })),
      ).to.have.members([t1.id, t2.id]);
      expect(
        ids(await api('GET', `/organizations/${org.name}/team-tokens?q=${names[0]}`, { token: org.owner.token })),
      ).to.deep.equal([t1.id]);
      expect(
        ids(await api('GET', `/organizations/${org.name}/team-tokens?sort=expired-at`, { token: org.owner.token })),
      ).to.deep.equal([t1.id, t2.id]);
      expect(
        ids(await api('GET', `/organizations/${org.name}/team-tokens?sort=-expired-at`, { token: org.owner.token })),
      ).to.deep.equal([t2.id, t1.id]);
      expectError(
        await api('GET', `/organizations/${org.name}/team-tokens?sort=secret`, { token: org.owner.token }),
        400,
      );
    });

    it("hides team tokens from those who may not manage them: the owners team's from a team manager, all of them from a member and an outsider", async () => {
      const org = await createOrg();
      const team = await createTeam(org);
      const owners = await ownersTeamOf(org.name);
      const teamTok = await created(
        await api('POST', `/teams/${team}/authentication-tokens`, {
          token: org.owner.token,
          body: doc('authentication-tokens', { description: 'ci' }),
        }),
      );
      const ownersTok = await created(
        await api('POST', `/teams/${owners}/authentication-tokens`, {
          token: org.owner.token,
          body: doc('authentication-tokens', { description: 'root' }),
        }),
      );
      const manager = await memberWithPermissions(org, { 'manage-teams': true });
      const member = await createUser();
      await joinOrg(org, member);
      const outsider = (await createOrg()).owner;

      // A team manager sees and may revoke an ordinary team's token, never the owners team's.
      expect((await api('GET', `/authentication-tokens/${teamTok.id}`, { token: manager.token })).status).to.equal(200);
      const listed = await api('GET', `/organizations/${org.name}/team-tokens`, { token: manager.token });
      expect(listed.body.data.map((t: { id: string }) => t.id))
        .to.include(teamTok.id)
        .and.not.include(ownersTok.id);
      for (const [method, path] of [
        ['GET', `/authentication-tokens/${ownersTok.id}`],
        ['DELETE', `/authentication-tokens/${ownersTok.id}`],
        ['GET', `/teams/${owners}/authentication-tokens`],
        ['POST', `/teams/${owners}/authentication-tokens`],
      ] as const) {
        await refused(404, () =>
          api(method, path, {
            token: manager.token,
            body: method === 'POST' ? doc('authentication-tokens', { description: 'mine' }) : undefined,
          }),
        );
      }
      for (const token of [member.token, outsider.token]) {
        await refused(404, () => api('GET', `/authentication-tokens/${teamTok.id}`, { token }));
        await refused(404, () => api('DELETE', `/authentication-tokens/${teamTok.id}`, { token }));
        await refused(404, () => api('GET', `/teams/${team}/authentication-tokens`, { token }));
        await refused(404, () => api('GET', `/organizations/${org.name}/team-tokens`, { token }));
      }
      // The team's own token does not manage team tokens either.
      await refused(404, () => api('GET', `/authentication-tokens/${teamTok.id}`, { token: teamTok.token }));
      for (const tok of [teamTok, ownersTok])
        expect((await api('GET', `/teams/${team}`, { token: tok.token })).status).to.equal(200);
    });
  });

  describe('audit trail tokens (?token=audit-trails)', () => {
    it("are an organization's second token, read and revoked apart from its organization token", async () => {
      const org = await createOrg();
      const base = `/organizations/${org.name}/authentication-token`;
      const plain = await created(await api('POST', base, { token: org.owner.token, raw: '{"data":{"type":""}}' }));
      const audit = await created(
        await api('POST', `${base}?token=audit-trails`, { token: org.owner.token, raw: '{"data":{"type":""}}' }),
      );
      expect(audit.id).to.not.equal(plain.id);
      expect((await api('GET', base, { token: org.owner.token })).body.data.id).to.equal(plain.id);
      expect((await api('GET', `${base}?token=audit-trails`, { token: org.owner.token })).body.data.id).to.equal(
        audit.id,
      );

      const renewed = await created(await api('POST', `${base}?token=audit-trails`, { token: org.owner.token }));
      expect((await api('GET', `${base}?token=audit-trails`, { token: org.owner.token })).body.data.id).to.equal(
        renewed.id,
      );
      expect((await api('GET', base, { token: org.owner.token })).body.data.id).to.equal(plain.id);

      expect((await api('DELETE', `${base}?token=audit-trails`, { token: org.owner.token })).status).to.equal(204);
      expectError(await api('GET', `${base}?token=audit-trails`, { token: org.owner.token }), 404);
      expectError(await api('DELETE', `${base}?token=audit-trails`, { token: org.owner.token }), 404);
      expect((await api('GET', `/organizations/${org.name}`, { token: plain.token })).status).to.equal(200);
    });

    it('authenticate no API route: the audit trail token cannot read or change the organization', async () => {
      const org = await createOrg();
      const audit = await created(
        await api('POST', `/organizations/${org.name}/authentication-token?token=audit-trails`, {
          token: org.owner.token,
        }),
      );
      expectError(await api('GET', `/organizations/${org.name}`, { token: audit.token }), 401);
      expectError(await api('GET', `/organizations/${org.name}/workspaces`, { token: audit.token }), 401);
      await refused(401, () =>
        api('POST', `/organizations/${org.name}/teams`, {
          token: audit.token,
          body: doc('teams', { name: uniq('t') }),
        }),
      );
      await refused(401, () => api('POST', `/organizations/${org.name}/authentication-token`, { token: audit.token }));
    });

    it('refuses an unknown token type and anyone but an owner', async () => {
      const org = await createOrg();
      const base = `/organizations/${org.name}/authentication-token`;
      await refused(400, () => api('POST', `${base}?token=superuser`, { token: org.owner.token }));
      expectError(await api('GET', `${base}?token=superuser`, { token: org.owner.token }), 400);
      const manager = await memberWithPermissions(org, { 'manage-teams': true });
      await refused(404, () => api('POST', `${base}?token=audit-trails`, { token: manager.token }));
    });
  });

  describe('PATCH /account/update', () => {
    const update = (token: string, attributes?: Record<string, unknown>) =>
      api('PATCH', '/account/update', {
        token,
        raw: JSON.stringify({ data: { type: 'users', ...(attributes ? { attributes } : {}) } }),
      });
    const details = async (token: string) => (await api('GET', '/account/details', { token })).body.data;

    it('changes nothing without attributes, and changes the username at once', async () => {
      const user = await createUser();
      const before = await details(user.token);
      const same = await update(user.token);
      expect(same.status, same.text).to.equal(200);
      expect(await details(user.token)).to.deep.equal(before);

      const username = uniq('renamed');
      const renamed = await update(user.token, { username });
      expect(renamed.status, renamed.text).to.equal(200);
      expect(renamed.body.data.attributes.username).to.equal(username);
      expect((await details(user.token)).attributes.username).to.equal(username);
    });

    it('holds a new email as unconfirmed, leaving the email the account is known by; asking for the old one withdraws it', async () => {
      const user = await createUser();
      const wanted = `${uniq('new')}@example.test`;
      const res = await update(user.token, { email: wanted });
      expect(res.status, res.text).to.equal(200);
      expect((await details(user.token)).attributes).to.include({ email: user.email, 'unconfirmed-email': wanted });
      const back = await update(user.token, { email: user.email, username: user.username });
      expect(back.status, back.text).to.equal(200);
      expect((await details(user.token)).attributes).to.include({ email: user.email, 'unconfirmed-email': null });
    });

    it('does not let an unconfirmed email take the invitations sent to that address', async () => {
      const org = await createOrg();
      const claimer = await createUser();
      const victim = `${uniq('victim')}@example.test`;
      expect((await update(claimer.token, { email: victim })).status).to.equal(200);
      const invited = await api('POST', `/organizations/${org.name}/organization-memberships`, {
        token: org.owner.token,
        body: doc('organization-memberships', { email: victim }),
      });
      expect(invited.status, invited.text).to.equal(201);
      expect(invited.body.data.relationships.user.data.id).to.not.equal(claimer.id);
      const own = await api('GET', '/organization-memberships', { token: claimer.token });
      expect(own.body.data.map((m: { id: string }) => m.id)).to.not.include(invited.body.data.id);
      await refused(404, () =>
        api('POST', `/organization-memberships/${invited.body.data.id}/actions/accept`, { token: claimer.token }),
      );
    });

    it('refuses an invalid email, a username or email someone else has, and a token that is not a user, changing nothing', async () => {
      const user = await createUser();
      const other = await createUser();
      await refused(422, () => update(user.token, { email: 'notamailaddress' }), '/data/attributes/email');
      await refused(422, () => update(user.token, { username: other.username }), '/data/attributes/username');
      await refused(422, () => update(user.token, { email: other.email.toUpperCase() }), '/data/attributes/email');
      await refused(422, () => update(user.token, { username: 'has spaces' }), '/data/attributes/username');
      const org = await createOrg(user);
      const team = await createTeam(org);
      const teamTok = await created(await api('POST', `/teams/${team}/authentication-token`, { token: user.token }));
      await refused(404, () => update(teamTok.token, { username: uniq('team') }));
      expect((await details(user.token)).attributes).to.include({
        username: user.username,
        email: user.email,
        'unconfirmed-email': null,
      });
      expect(await countRows('users')).to.be.greaterThan(1);
    });
  });
});
