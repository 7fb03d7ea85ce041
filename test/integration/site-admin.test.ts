import { expect } from 'chai';
import { api, expectError } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { createOrg, createUser } from '../helpers/fixtures.js';
import { browser, givePassword, signIn } from '../helpers/console.js';

/*
 * A site admin's suspension of a user, tried as the suspended user would go on: with their API
 * token, with the console session they had, and by signing in again; and the organization list
 * only site admins read.
 */
describe('site admin: suspending users and listing organizations', function () {
  this.timeout(60_000);
  const admin = () => harness().adminToken;

  it("a suspended user's token, session and password are refused until a site admin lifts it", async () => {
    const user = await createUser();
    const password = await givePassword(user);
    const session = await signIn(user.username, password);
    expect((await api('GET', '/account/details', { token: user.token })).status).to.equal(200);

    const suspended = await api('POST', `/admin/users/${user.id}/actions/suspend`, { token: admin() });
    expect(suspended.status, suspended.text).to.equal(200);
    expect(suspended.body.data.attributes['is-suspended']).to.equal(true);

    expectError(await api('GET', '/account/details', { token: user.token }), 401);
    expect((await browser('GET', '/api/console/session', { session })).status).to.equal(401);
    const again = await browser('POST', '/api/console/session', { body: { username: user.username, password } });
    expectError(again, 401, /suspended/);
    // A wrong password says nothing about the suspension.
    const wrong = await browser('POST', '/api/console/session', {
      body: { username: user.username, password: 'nope' },
    });
    expectError(wrong, 401);
    expect(wrong.text).to.not.match(/suspended/);

    const listed = await api('GET', `/admin/users?q=${user.username}`, { token: admin() });
    expect(listed.body.data[0].attributes['is-suspended']).to.equal(true);

    const lifted = await api('POST', `/admin/users/${user.id}/actions/unsuspend`, { token: admin() });
    expect(lifted.status, lifted.text).to.equal(200);
    expect(lifted.body.data.attributes['is-suspended']).to.equal(false);
    expect((await api('GET', '/account/details', { token: user.token })).status).to.equal(200);
    // The old session ended with the suspension; signing in works again.
    expect((await browser('GET', '/api/console/session', { session })).status).to.equal(401);
    await signIn(user.username, password);
  });

  it('only site admins suspend (others get 404), and no admin suspends themselves', async () => {
    const user = await createUser();
    const victim = await createUser();
    expectError(await api('POST', `/admin/users/${victim.id}/actions/suspend`, { token: user.token }), 404);
    expect((await api('GET', '/account/details', { token: victim.token })).status).to.equal(200);
    const me = await api('GET', '/account/details', { token: admin() });
    expectError(await api('POST', `/admin/users/${me.body.data.id}/actions/suspend`, { token: admin() }), 422);
    expectError(await api('POST', '/admin/users/user-nobody/actions/suspend', { token: admin() }), 404);
  });

  it('lists every organization to site admins, searchable; 404 to others', async () => {
    const owner = await createUser();
    const org = await createOrg(owner);
    const found = await api('GET', `/admin/organizations?q=${org.name}`, { token: admin() });
    expect(found.status, found.text).to.equal(200);
    expect(found.body.data.map((o: { id: string }) => o.id)).to.deep.equal([org.name]);
    expect(found.body.meta.pagination['total-count']).to.equal(1);
    expectError(await api('GET', '/admin/organizations', { token: owner.token }), 404);
  });
});
