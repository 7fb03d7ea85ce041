import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { randomBase58 } from './ids.js';

/** SHA-256 hex digest; API tokens are stored only in this form. */
export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time string comparison (compares digests so lengths never leak). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/** A new API token in the familiar `<id>.atlasv1.<secret>` shape; clients treat it as opaque. */
export function newApiToken(): string {
  return `${randomBase58(14)}.atlasv1.${randomBase58(64)}`;
}

/** Hex HMAC-SHA512 of exact bytes (run task and notification signatures, signed URLs). */
export function hmacSha512Hex(key: string | Buffer, body: string | Buffer): string {
  return createHmac('sha512', key).update(body).digest('hex');
}

/** AES-256-GCM encryption for secrets at rest; output is iv.tag.ciphertext, base64url. */
export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

/** Reverses encryptSecret; throws if the value was tampered with or the key is wrong. */
export function decryptSecret(key: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM encryption of bytes at rest, bound to `context` (authenticated, not stored): the
 * result is IV, ciphertext and tag, and opens only with the same key and context.
 */
export function sealBytes(key: Buffer, context: string, plain: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(context));
  return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

/** Reverses sealBytes; throws when the bytes were altered, or the key or context differ. */
export function openBytes(key: Buffer, context: string, sealed: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES)).setAAD(Buffer.from(context));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
}
