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

/** A new random secret (256 bits, base64url): session cookies, CSRF tokens, password links, authorization codes. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** A new API token in the familiar `<id>.atlasv1.<secret>` shape; clients treat it as opaque. */
export function newApiToken(): string {
  return `${randomBase58(14)}.atlasv1.${randomBase58(64)}`;
}

/** Hex HMAC-SHA512 of exact bytes (run task and notification signatures, signed URLs). */
export function hmacSha512Hex(key: string | Buffer, body: string | Buffer): string {
  return createHmac('sha512', key).update(body).digest('hex');
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

type Sealed = { iv: Buffer; tag: Buffer; body: Buffer };

/** AES-256-GCM under `key`, `context` (if any) authenticated but not stored. */
function gcmSeal(key: Buffer, plain: Buffer, context?: string): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (context !== undefined) cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), body };
}

/** Reverses gcmSeal; throws when anything was altered, or the key or context differ. */
function gcmOpen(key: Buffer, { iv, tag, body }: Sealed, context?: string): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  if (context !== undefined) decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]);
}

/** AES-256-GCM encryption for secrets at rest; output is iv.tag.ciphertext, base64url. */
export function encryptSecret(key: Buffer, plaintext: string): string {
  const { iv, tag, body } = gcmSeal(key, Buffer.from(plaintext, 'utf8'));
  return [iv, tag, body].map((b) => b.toString('base64url')).join('.');
}

/** Reverses encryptSecret; throws if the value was tampered with or the key is wrong. */
export function decryptSecret(key: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  return gcmOpen(key, { iv, tag, body }).toString('utf8');
}

/**
 * AES-256-GCM encryption of bytes at rest, bound to `context` (authenticated, not stored): the
 * result is IV, ciphertext and tag, and opens only with the same key and context.
 */
export function sealBytes(key: Buffer, context: string, plain: Buffer): Buffer {
  const { iv, tag, body } = gcmSeal(key, plain, context);
  return Buffer.concat([iv, body, tag]);
}

/** Reverses sealBytes; throws when the bytes were altered, or the key or context differ. */
export function openBytes(key: Buffer, context: string, sealed: Buffer): Buffer {
  const parts = {
    iv: sealed.subarray(0, IV_BYTES),
    body: sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES),
    tag: sealed.subarray(sealed.length - TAG_BYTES),
  };
  return gcmOpen(key, parts, context);
}
