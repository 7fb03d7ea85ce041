import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { api, expectError } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { createUser } from '../helpers/fixtures.js';
import { browser, signedIn, type Session } from '../helpers/console.js';

/*
 * The authorization code flow of `terraform login` over HTTP (the real CLI is driven in
 * terraform-login.test.ts): what the consent endpoint accepts, and what the token endpoint
 * refuses — a code is single-use, short-lived, bound to its redirect URI and PKCE challenge.
 */

const db = () => harness().rt.db;
const verifier = () => randomBytes(32).toString('base64url');
const challenge = (v: string) => createHash('sha256').update(v).digest('base64url');

const consentFor = (v: string, over: Record<string, string> = {}) => ({
  client_id: 'terraform-cli',
  redirect_uri: 'http://localhost:10003/login',
  state: 'state-123',
  code_challenge: challenge(v),
  code_challenge_method: 'S256',
  response_type: 'code',
  ...over,
});

async function consent(session: Session, body: Record<string, string>) {
  return browser('POST', '/api/console/oauth/authorize', { session, body });
}

async function exchange(fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(`${harness().baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string>, headers: res.headers };
}

/** A code for `v` through the consent endpoint, and the fields of its exchange. */
async function codeFor(session: Session, v: string, redirect = 'http://localhost:10003/login') {
  const res = await consent(session, consentFor(v, { redirect_uri: redirect }));
  expect(res.status, res.text).to.equal(200);
  const url = new URL(res.body.redirect);
  expect(`${url.origin}${url.pathname}`).to.equal(redirect);
  expect(url.searchParams.get('state')).to.equal('state-123');
  const code = url.searchParams.get('code')!;
  return {
    code,
    fields: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      client_id: 'terraform-cli',
      code_verifier: v,
    },
  };
}

describe('terraform login: consent and token endpoints', function () {
  this.timeout(60_000);
  let user: Awaited<ReturnType<typeof createUser>>;
  let session: Session;

  before(async () => {
    user = await createUser();
    session = await signedIn(user);
  });

  it('exchanges a code once for a new user token (bearer), stored only as a digest; the token works and is listed', async () => {
    const v = verifier();
    const { code, fields } = await codeFor(session, v);
    expect(JSON.stringify(await db()('oauth_codes').where({ user_id: user.id }))).to.not.include(code);
    const res = await exchange(fields);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.token_type).to.equal('bearer');
    expect(res.headers.get('cache-control')).to.equal('no-store');
    const me = await api('GET', '/account/details', { token: res.body.access_token });
    expect(me.body.data.id).to.equal(user.id);
    // Single use: the second exchange is refused and issues nothing.
    const tokens = (await db()('authentication_tokens').where({ user_id: user.id })).length;
    const again = await exchange(fields);
    expect(again.status).to.equal(400);
    expect(again.body.error).to.equal('invalid_grant');
    expect((await db()('authentication_tokens').where({ user_id: user.id })).length).to.equal(tokens);
  });

  it('accepts 127.0.0.1 and every port from 10000 to 10010, and the client id as HTTP Basic credentials', async () => {
    for (const redirect of ['http://127.0.0.1:10000/login', 'http://localhost:10010/login']) {
      const v = verifier();
      const { fields } = await codeFor(session, v, redirect);
      const { client_id: _c, ...rest } = fields;
      const res = await exchange(rest, { Authorization: `Basic ${Buffer.from('terraform-cli:').toString('base64')}` });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
  });

  it('refuses a wrong verifier, another redirect URI, an expired code; a refused attempt spends the code', async () => {
    const v = verifier();
    const wrong = await codeFor(session, v);
    const bad = await exchange({ ...wrong.fields, code_verifier: verifier() });
    expect(bad).to.deep.include({ status: 400 });
    expect(bad.body.error).to.equal('invalid_grant');
    // The right verifier after a wrong one: the code is spent.
    expect((await exchange(wrong.fields)).body.error).to.equal('invalid_grant');

    const other = await codeFor(session, v);
    expect((await exchange({ ...other.fields, redirect_uri: 'http://localhost:10004/login' })).body.error).to.equal(
      'invalid_grant',
    );

    const late = await codeFor(session, v);
    await db()('oauth_codes')
      .where({ user_id: user.id })
      .whereNull('used_at')
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await exchange(late.fields)).body.error).to.equal('invalid_grant');
    expect((await exchange({ ...late.fields, grant_type: 'password' })).body.error).to.equal('unsupported_grant_type');
    const unknownClient = await exchange({ ...late.fields, client_id: 'someone-else' });
    expect(unknownClient.status).to.equal(401);
    expect(unknownClient.body.error).to.equal('invalid_client');
    expect(
      (
        await exchange({
          grant_type: 'authorization_code',
          code: 'made-up',
          redirect_uri: 'http://localhost:10003/login',
          client_id: 'terraform-cli',
          code_verifier: v,
        })
      ).body.error,
    ).to.equal('invalid_grant');
  });

  it("consent refuses other clients, redirect URIs outside the CLI's loopback ports, plain challenges, and no session", async () => {
    const v = verifier();
    const cases: Record<string, string>[] = [
      { client_id: 'other-client' },
      { redirect_uri: 'https://evil.example/login' },
      { redirect_uri: 'http://localhost:9999/login' },
      { redirect_uri: 'http://localhost:10011/login' },
      { redirect_uri: 'http://localhost:10000/elsewhere' },
      { redirect_uri: 'http://localhost.evil.example:10000/login' },
      { redirect_uri: 'http://user@localhost:10000/login' },
      { code_challenge_method: 'plain' },
      { code_challenge: 'short' },
      { response_type: 'token' },
    ];
    const before = (await db()('oauth_codes').where({ user_id: user.id })).length;
    for (const over of cases) expectError(await consent(session, consentFor(v, over)), 422);
    expectError(await browser('POST', '/api/console/oauth/authorize', { body: consentFor(v) }), 401);
    // A bearer token is no session: consent is a person's, in the console.
    expectError(
      await browser('POST', '/api/console/oauth/authorize', {
        body: consentFor(v),
        headers: { Authorization: `Bearer ${user.token}` },
      }),
      401,
    );
    expect((await db()('oauth_codes').where({ user_id: user.id })).length).to.equal(before);
  });
});
