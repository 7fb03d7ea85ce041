import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { sshKeyFileContent, sshKeyProblem } from '../../../../shared/ssh-keys/rules.js';

/** An OpenSSH private key block whose header names `cipher` (the rest of the key is not read by the rule). */
function opensshBlock(cipher: string): string {
  const name = Buffer.from(cipher, 'latin1');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(name.length);
  const body = Buffer.concat([Buffer.from('openssh-key-v1\0', 'latin1'), length, name, Buffer.alloc(32, 1)]).toString(
    'base64',
  );
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${body.match(/.{1,70}/g)!.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`;
}

const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const ed = generateKeyPairSync('ed25519');

describe('ssh key values', () => {
  it('takes the private key formats OpenSSH reads, and text with no key block at all', () => {
    const taken = [
      opensshBlock('none'),
      rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string,
      ec.privateKey.export({ type: 'sec1', format: 'pem' }) as string,
      ed.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      (ed.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string).replace(/\n/g, '\r\n'),
      'random text, as go-tfe tests send',
    ];
    for (const value of taken) expect(sshKeyProblem(value), value).to.equal(null);
  });

  it('refuses public keys, other PEM blocks, incomplete or doubled blocks and keys behind a passphrase, saying which', () => {
    const pkcs8 = ed.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const refused: [string, RegExp][] = [
      ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE6n user@host', /public key/],
      ['ecdsa-sha2-nistp256 AAAAE2VjZHNh user@host', /public key/],
      [ed.publicKey.export({ type: 'spki', format: 'pem' }) as string, /a public key, not a private key/],
      ['-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----', /a certificate, not a private key/],
      [
        ed.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'p' }) as string,
        /passphrase/,
      ],
      [
        rsa.privateKey.export({ type: 'pkcs1', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'p' }) as string,
        /passphrase/,
      ],
      [opensshBlock('aes256-ctr'), /passphrase/],
      [pkcs8.split('\n').slice(0, 2).join('\n'), /"-----END PRIVATE KEY-----" line is missing/],
      [pkcs8 + pkcs8, /more than one key/],
      ['-----BEGIN PRIVATE KEY-----\nnot base64!\n-----END PRIVATE KEY-----', /not base64/],
      ['-----BEGIN OPENSSH PRIVATE KEY-----\nbm90IGEga2V5\n-----END OPENSSH PRIVATE KEY-----', /not an OpenSSH key/],
      [' \n\t', /blank/],
    ];
    for (const [value, problem] of refused) expect(sshKeyProblem(value), value).to.match(problem);
  });

  it('writes the key file with Unix line ends and one final newline', () => {
    expect(sshKeyFileContent('-----BEGIN X-----\r\nAAA\r\n-----END X-----')).to.equal(
      '-----BEGIN X-----\nAAA\n-----END X-----\n',
    );
    expect(sshKeyFileContent('key\n\n\n')).to.equal('key\n');
  });
});
