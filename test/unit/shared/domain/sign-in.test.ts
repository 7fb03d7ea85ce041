import { expect } from 'chai';
import {
  isPkceValue,
  isTerraformRedirectUri,
  passwordLinkUrl,
  passwordProblem,
  redirectWithCode,
  s256Challenge,
  signInAllowance,
  UNDER_ATTACK_FAILURES_PER_ADDRESS,
} from '../../../../shared/identity/sign-in.rules.js';

describe('sign-in rules', () => {
  it('wants passwords of 10 to 1024 characters, counted as characters, not bytes', () => {
    expect(passwordProblem('123456789')).to.match(/at least 10/);
    expect(passwordProblem('1234567890')).to.equal(null);
    expect(passwordProblem('ééééééééé')).to.match(/at least 10/);
    expect(passwordProblem('x'.repeat(1025))).to.match(/at most 1024/);
  });

  it("accepts only the CLI's loopback redirect URIs", () => {
    for (const ok of ['http://localhost:10000/login', 'http://127.0.0.1:10010/login', 'http://localhost:10005/login'])
      expect(isTerraformRedirectUri(ok), ok).to.equal(true);
    for (const bad of [
      'https://localhost:10000/login',
      'http://localhost:9999/login',
      'http://localhost:10011/login',
      'http://localhost/login',
      'http://localhost:10000/login?x=1',
      'http://localhost:10000/login#x',
      'http://localhost:10000/other',
      'http://a@localhost:10000/login',
      'http://localhost.example:10000/login',
      'http://[::1]:10000/login',
      'not a url',
    ])
      expect(isTerraformRedirectUri(bad), bad).to.equal(false);
  });

  it('computes S256 challenges as unpadded base64url SHA-256 and checks PKCE value syntax', () => {
    expect(s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWjOEjXk')).to.equal(
      'VYFANLqdx_HDV6BqEhluZJ63rtrIPROSSFdB3P6G83I',
    );
    expect(isPkceValue('VYFANLqdx_HDV6BqEhluZJ63rtrIPROSSFdB3P6G83I')).to.equal(true);
    expect(isPkceValue('short')).to.equal(false);
    expect(isPkceValue(`${'a'.repeat(42)}+`)).to.equal(false);
  });

  it('builds the redirect with the code and the state, and the console links of password tokens', () => {
    expect(redirectWithCode('http://localhost:10000/login', 'c o', 's&1')).to.equal(
      'http://localhost:10000/login?code=c+o&state=s%261',
    );
    expect(passwordLinkUrl('https://tf.example', 'reset', 'a/b')).to.equal(
      'https://tf.example/app/reset-password?token=a%2Fb',
    );
    expect(passwordLinkUrl('https://tf.example', 'invitation', 't')).to.equal(
      'https://tf.example/app/accept-invitation?token=t',
    );
  });

  it("allows an address its own failures on an account, fewer while the account is under attack, never refusing for others' failures alone", () => {
    expect(signInAllowance({ addressLimit: 10, onAccount: 99, accountLimit: 100 })).to.equal(10);
    expect(signInAllowance({ addressLimit: 10, onAccount: 100, accountLimit: 100 })).to.equal(
      UNDER_ATTACK_FAILURES_PER_ADDRESS,
    );
    // However many failures the account has, an address that has not failed may try.
    expect(signInAllowance({ addressLimit: 10, onAccount: 1_000_000, accountLimit: 100 })).to.be.greaterThan(0);
    expect(signInAllowance({ addressLimit: 2, onAccount: 100, accountLimit: 100 })).to.equal(2);
    expect(signInAllowance({ addressLimit: 10, onAccount: 1_000, accountLimit: 0 })).to.equal(10);
    expect(signInAllowance({ addressLimit: 0, onAccount: 1_000, accountLimit: 100 })).to.equal(null);
  });
});
