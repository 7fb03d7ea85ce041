import { expect } from 'chai';
import { api, doc } from '../helpers/api.js';
import { createCv, createOrg, createTeam, createUser, createWorkspace, joinOrg, uniq } from '../helpers/fixtures.js';
import { secondAppForSuite } from '../helpers/harness.js';

/*
 * Two API instances (each with its own connections, as two processes have): a token is used on
 * both, changed or ended through one, and used at once on the other. The change must hold on the
 * very next request everywhere; whatever an instance keeps between requests (a cache of
 * principals, say) must never outlive it.
 */
describe('token revocation: a revoked or changed token stops working at once in every API instance', function () {
  this.timeout(60_000);
  const second = secondAppForSuite({});
  const on = (instance: 'first' | 'second', path: string) => (instance === 'first' ? path : `${second.api}${path}`);

  /** Uses the token a few times on both instances (what a cache would keep). */
  async function warm(token: string, path: string): Promise<void> {
    for (let i = 0; i < 3; i++) {
      for (const instance of ['first', 'second'] as const) {
        const res = await api('GET', on(instance, path), { token });
        expect(res.status, `${instance}: ${res.text}`).to.equal(200);
      }
    }
  }

  it("a user's token deleted through one instance is refused by both on the next request", async () => {
    const user = await createUser();
    const created = await api('POST', `/users/${user.id}/authentication-tokens`, {
      token: user.token,
      body: doc('authentication-tokens', { description: 'to revoke' }),
    });
    expect(created.status, created.text).to.equal(201);
    const token = created.body.data.attributes.token as string;
    await warm(token, '/account/details');

    const deleted = await api('DELETE', `/authentication-tokens/${created.body.data.id}`, { token: user.token });
    expect(deleted.status, deleted.text).to.equal(204);
    for (const instance of ['second', 'first'] as const) {
      expect((await api('GET', on(instance, '/account/details'), { token })).status, instance).to.equal(401);
    }
    // The user's other token was never affected.
    expect((await api('GET', on('second', '/account/details'), { token: user.token })).status).to.equal(200);
  });

  it('a team token loses what its team lost: organization access taken away through one instance is gone on the other', async () => {
    const org = await createOrg();
    const teamId = await createTeam(org, { 'organization-access': { 'manage-workspaces': true } });
    const minted = await api('POST', `/teams/${teamId}/authentication-token`, { token: org.owner.token });
    expect(minted.status, minted.text).to.equal(201);
    const token = minted.body.data.attributes.token as string;
    await warm(token, `/organizations/${org.name}/workspaces`);
    const made = await api('POST', on('second', `/organizations/${org.name}/workspaces`), {
      token,
      body: doc('workspaces', { name: uniq('ws') }),
    });
    expect(made.status, made.text).to.equal(201);

    const changed = await api('PATCH', `/teams/${teamId}`, {
      token: org.owner.token,
      body: doc('teams', { 'organization-access': { 'manage-workspaces': false } }),
    });
    expect(changed.status, changed.text).to.equal(200);
    const refused = await api('POST', on('second', `/organizations/${org.name}/workspaces`), {
      token,
      body: doc('workspaces', { name: uniq('ws') }),
    });
    expect(refused.status, refused.text).to.be.oneOf([403, 404]);
  });

  it('an organization token replaced through one instance is refused by the other; the new one works there', async () => {
    const org = await createOrg();
    const first = await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token });
    expect(first.status, first.text).to.equal(201);
    const old = first.body.data.attributes.token as string;
    await warm(old, `/organizations/${org.name}/workspaces`);

    const replaced = await api('POST', on('second', `/organizations/${org.name}/authentication-token`), {
      token: org.owner.token,
    });
    expect(replaced.status, replaced.text).to.equal(201);
    for (const instance of ['first', 'second'] as const) {
      expect(
        (await api('GET', on(instance, `/organizations/${org.name}/workspaces`), { token: old })).status,
        instance,
      ).to.equal(401);
    }
    const fresh = replaced.body.data.attributes.token as string;
    expect((await api('GET', on('first', `/organizations/${org.name}/workspaces`), { token: fresh })).status).to.equal(
      200,
    );
  });

  it('a member removed from the organization through one instance can no longer read its workspace on the other, by id or by name, nor its configuration versions; then the token ended is a 401', async () => {
    const org = await createOrg();
    const ws = await createWorkspace(org);
    const cv = await createCv(ws.id, org.owner.token);
    const user = await createUser();
    const membership = await joinOrg(org, user);
    const teamId = await createTeam(org, { 'organization-access': { 'read-workspaces': true } });
    const add = await api('POST', `/teams/${teamId}/relationships/users`, {
      token: org.owner.token,
      body: { data: [{ type: 'users', id: user.username }] },
    });
    expect(add.status, add.text).to.equal(204);
    // The reads whose workspace and grant come with the token's own statement.
    const reads = [
      `/workspaces/${ws.id}`,
      `/organizations/${org.name}/workspaces/${ws.name}`,
      `/organizations/${org.name}/workspaces`,
      `/configuration-versions/${cv.id}`,
    ];
    for (const path of reads) await warm(user.token, path);

    const removed = await api('DELETE', on('second', `/organization-memberships/${membership}`), {
      token: org.owner.token,
    });
    expect(removed.status, removed.text).to.equal(204);
    for (const path of reads) {
      for (const instance of ['first', 'second'] as const)
        expect((await api('GET', on(instance, path), { token: user.token })).status, `${instance} ${path}`).to.equal(
          404,
        );
    }
    const tokens = await api('GET', `/users/${user.id}/authentication-tokens`, { token: user.token });
    expect(tokens.status, tokens.text).to.equal(200);
    for (const t of tokens.body.data as { id: string }[])
      expect(
        (await api('DELETE', on('first', `/authentication-tokens/${t.id}`), { token: user.token })).status,
      ).to.equal(204);
    for (const path of reads) {
      for (const instance of ['second', 'first'] as const)
        expect((await api('GET', on(instance, path), { token: user.token })).status, `${instance} ${path}`).to.equal(
          401,
        );
    }
  });

  it("a deleted team's token is refused everywhere at once", async () => {
    const org = await createOrg();
    const teamId = await createTeam(org, { 'organization-access': { 'read-workspaces': true } });
    const minted = await api('POST', `/teams/${teamId}/authentication-token`, { token: org.owner.token });
    const token = minted.body.data.attributes.token as string;
    await warm(token, `/organizations/${org.name}/workspaces`);
    expect((await api('DELETE', on('second', `/teams/${teamId}`), { token: org.owner.token })).status).to.equal(204);
    for (const instance of ['first', 'second'] as const) {
      expect(
        (await api('GET', on(instance, `/organizations/${org.name}/workspaces`), { token })).status,
        instance,
      ).to.equal(401);
    }
  });
});
