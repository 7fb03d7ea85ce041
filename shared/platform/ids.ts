import { randomBytes } from 'node:crypto';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Random base58 string; rejection sampling keeps every character equally likely. */
export function randomBase58(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 232 && out.length < length) out += ALPHABET[byte % 58];
    }
  }
  return out;
}

/** TFE-style prefixed id, e.g. newId('ws') -> ws-3kQ9... (16 random characters). */
export function newId(prefix: string): string {
  return `${prefix}-${randomBase58(16)}`;
}
