/** SSH private keys given to an organization: what a value must not be, and the file a run gets (pure). */

/** An SSH public key line (`ssh-ed25519 AAAA...`), a common mistake for the private key. */
const PUBLIC_KEY_LINE =
  /^(ssh-(rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)\s+AAAA/;

/** The labels of the private key blocks OpenSSH reads: its own format, PKCS#1 (RSA, DSA), SEC1 (EC) and PKCS#8. */
const PRIVATE_LABEL = /^(OPENSSH |RSA |EC |DSA )?PRIVATE KEY$/;

const BEGIN = /-----BEGIN ([A-Z0-9 ]+)-----/g;

/** Where a block's encryption shows: a legacy PEM header, or PKCS#8's encrypted form. */
const ENCRYPTED_PEM = /^Proc-Type:\s*4,ENCRYPTED/m;

const PASSPHRASE =
  'Value is protected by a passphrase, which a run cannot enter; remove it first (ssh-keygen -p -N "" -f <file>)';

/** The cipher an OpenSSH private key is sealed with (`none` when it has no passphrase), or null when the body is not one. */
function opensshCipher(body: string): string | null {
  const bytes = Buffer.from(body.replace(/\s+/g, ''), 'base64');
  const magic = Buffer.from('openssh-key-v1\0', 'latin1');
  if (bytes.length < magic.length + 4 || !bytes.subarray(0, magic.length).equals(magic)) return null;
  const length = bytes.readUInt32BE(magic.length);
  const start = magic.length + 4;
  if (length === 0 || length > 64 || start + length > bytes.length) return null;
  return bytes.subarray(start, start + length).toString('latin1');
}

/**
 * Why `value` cannot be used as an SSH private key, or null when it is taken: a public key, a PEM
 * block of another kind (a certificate, a public key), an incomplete or doubled block, and a key
 * protected by a passphrase are refused. A value with no key block at all is taken as given, as TFE
 * takes it (its own clients' tests send such text); a run using it fails in ssh, which says why.
 */
export function sshKeyProblem(value: string): string | null {
  const text = value.replace(/\r\n?/g, '\n').trim();
  if (!text) return "Value can't be blank";
  if (PUBLIC_KEY_LINE.test(text)) return 'Value is an SSH public key; give the private key (the key file without .pub)';
  const labels = [...text.matchAll(BEGIN)].map((m) => m[1]);
  if (!labels.length) return null;
  const label = labels[0];
  if (!PRIVATE_LABEL.test(label) && label !== 'ENCRYPTED PRIVATE KEY')
    return `Value is a ${label.toLowerCase()}, not a private key`;
  if (labels.length > 1) return 'Value holds more than one key; give one private key';
  const block = new RegExp(`-----BEGIN ${label}-----\\n([\\s\\S]*?)\\n?-----END ${label}-----`).exec(text);
  if (!block) return `Value is not a complete private key: its "-----END ${label}-----" line is missing`;
  if (label === 'ENCRYPTED PRIVATE KEY' || ENCRYPTED_PEM.test(block[1])) return PASSPHRASE;
  const body = block[1]
    .split('\n')
    .filter((line) => !/^[A-Za-z-]+:/.test(line))
    .join('');
  if (!/^[A-Za-z0-9+/=]+$/.test(body)) return 'Value is not a complete private key: its body is not base64';
  if (label === 'OPENSSH PRIVATE KEY') {
    const cipher = opensshCipher(body);
    if (cipher === null) return 'Value is not a complete private key: its body is not an OpenSSH key';
    if (cipher !== 'none') return PASSPHRASE;
  }
  return null;
}

/** The bytes of a key file ssh reads: Unix line ends and one final newline (OpenSSH refuses a key without it). */
export const sshKeyFileContent = (value: string): string => `${value.replace(/\r\n?/g, '\n').trim()}\n`;
