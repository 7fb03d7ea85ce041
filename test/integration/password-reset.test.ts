import { expect } from 'chai';
import { api } from '../helpers/api.js';
import { freePort, harness, startSecondApp } from '../helpers/harness.js';
import { createUser } from '../helpers/fixtures.js';
import { browser, givePassword, signIn } from '../helpers/console.js';
import { openMailBody, type MailRow } from '../../shared/mail/repo.js';

/*
 * Passwords next to single sign-on: the self-service reset by email (one mail, a link used once,
 * the same answer for an account that does not exist), and password sign-in kept for site admins
 * only (PASSWORD_SIGN_IN=site-admins), tried as a person and an attacker would.
 */
const db = () => harness().rt.db;

const resetMails = (userId: string) =>
  db()('mail_messages').where({ kind: 'password-reset', ref_id: userId }).orderBy('created_at');

const linkIn = (mail: MailRow) =>
  /(http\S+\/app\/reset-password\?token=\S+)/.exec(openMailBody(mail, harness().config.encryptionKey))![1];

describe('password reset by email, and password sign-in for site admins only', function () {
  this.timeout(60_000);

  it('sends one mail with a link that sets a new password once; asking again at once sends nothing more', async () => {
    const user = await createUser();
    const old = await givePassword(user);
    const ask = () => browser('POST', '/api/console/password-reset', { body: { email: user.email.toUpperCase() } });
    const first = await ask();
    expect(first.status, first.text).to.equal(202);
    expect((await ask()).status).to.equal(202);
    const mails = await resetMails(user.id);
    expect(mails, 'one mail for two askings').to.have.length(1);
    expect(mails[0].to_address).to.equal(user.email);
    expect(mails[0].body, 'the link is sealed at rest').to.not.include('reset-password');
    const token = new URL(linkIn(mails[0])).searchParams.get('token')!;
    const fresh = 'a-new-password-long-enough';
    const set = await browser('POST', '/api/console/password', { body: { token, password: fresh } });
    expect(set.status, set.text).to.equal(204);
    await signIn(user.username, fresh);
    const again = await browser('POST', '/api/console/password', {
      body: { token, password: 'another-one-long-enough' },
    });
    expect(again.status, 'the link works once').to.equal(404);
    const before = await browser('POST', '/api/console/session', { body: { username: user.username, password: old } });
    expect(before.status, 'the old password is gone').to.equal(401);
  });

  it('answers an unknown email exactly as a known one, and mails nothing', async () => {
    const count = async () =>
      Number((await db()('mail_messages').where({ kind: 'password-reset' }).count('* as n'))[0].n);
    const n = await count();
    const res = await browser('POST', '/api/console/password-reset', { body: { email: 'nobody-at-all@example.test' } });
    expect(res.status).to.equal(202);
    expect(res.body.message).to.match(/If an account has this email/);
    expect(await count()).to.equal(n);
  });

  it("with PASSWORD_SIGN_IN=site-admins, refuses a member's password and reset, and lets the site admin in", async () => {
    const port = await freePort();
    const app = await startSecondApp({ PASSWORD_SIGN_IN: 'site-admins', BASE_URL: `http://127.0.0.1:${port}` }, port);
    try {
      const user = await createUser();
      const password = await givePassword(user);
      const refused = await browser('POST', '/api/console/session', {
        base: app.baseUrl,
        body: { username: user.username, password },
      });
      expect(refused.status).to.equal(401);
      expect(refused.text).to.match(/identity provider/);
      expect(refused.headers.getSetCookie(), 'no session').to.deep.equal([]);
      const reset = await browser('POST', '/api/console/password-reset', {
        base: app.baseUrl,
        body: { email: user.email },
      });
      expect(reset.status).to.equal(202);
      expect(await resetMails(user.id), 'no reset for a member').to.have.length(0);

      const admin = await api('GET', '/account/details');
      const adminPassword = await givePassword({ id: admin.body.data.id });
      await signIn(admin.body.data.attributes.username, adminPassword, app.baseUrl);
      const listed = await fetch(`${app.baseUrl}/api/console/sso`);
      expect((await listed.json())['password-sign-in']).to.equal('site-admins');
    } finally {
      await app.close();
    }
  });
});
