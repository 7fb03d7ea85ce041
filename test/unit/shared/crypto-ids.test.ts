import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import {
  decryptSecret,
  encryptSecret,
  hmacSha512Hex,
  newApiToken,
  safeEqual,
  sha256Hex,
} from '../../../shared/platform/crypto.js';
import { newId } from '../../../shared/platform/ids.js';

describe('ids and crypto', () => {
  it('makes prefixed ids with 16 base58 characters', () => {
    const ids = new Set(Array.from({ length: 500 }, () => newId('ws')));
    expect(ids.size).to.equal(500);
    for (const id of ids) expect(id).to.match(/^ws-[1-9A-HJ-NP-Za-km-z]{16}$/);
  });

  it('round-trips secrets through AES-256-GCM and rejects tampering or a wrong key', () => {
    const key = randomBytes(32);
    const sealed = encryptSecret(key, 'hmac-secret');
    expect(sealed).to.not.include('hmac-secret');
    expect(decryptSecret(key, sealed)).to.equal('hmac-secret');
    expect(encryptSecret(key, 'hmac-secret')).to.not.equal(sealed);
    const [iv, tag, body] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(() => decryptSecret(key, [iv, tag, flipped.toString('base64url')].join('.'))).to.throw();
    expect(() => decryptSecret(randomBytes(32), sealed)).to.throw();
  });

  it('signs with hex HMAC-SHA512 (RFC 4231 test case 2)', () => {
    expect(hmacSha512Hex('Jefe', 'what do ya want for nothing?')).to.equal(
      '164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737',
    );
  });

  it('compares in constant time and hashes tokens', () => {
    expect(safeEqual('abc', 'abc')).to.equal(true);
    expect(safeEqual('abc', 'abd')).to.equal(false);
    expect(safeEqual('abc', 'abcd')).to.equal(false);
    expect(sha256Hex('x')).to.equal('2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881');
    expect(newApiToken()).to.match(/^[1-9A-Za-z]{14}\.atlasv1\.[1-9A-Za-z]{64}$/);
  });
});
