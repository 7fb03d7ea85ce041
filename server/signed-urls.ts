import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a signed URL lets its holder do, until when. */
export interface Grant {
  /** e.g. 'cv-upload' or 'object' (download). */
  kind: string;
  id: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

export class SignedUrlError extends Error {
  constructor(readonly reason: 'malformed' | 'tampered' | 'expired') {
    super(`signed URL ${reason}`);
  }
}

// A key of its own, derived from the encryption key, so URL signatures never share a key with secrets.
const urlKey = (encryptionKey: Buffer) => createHmac('sha256', encryptionKey).update('signed-url-v1').digest();

/** An opaque, URL-safe token: base64url(JSON grant) + '.' + base64url(HMAC-SHA256). */
export function signGrant(encryptionKey: Buffer, grant: Grant): string {
  const body = Buffer.from(JSON.stringify(grant)).toString('base64url');
  const mac = createHmac('sha256', urlKey(encryptionKey)).update(body).digest('base64url');
  return `${body}.${mac}`;
}

/** Checks the signature (constant time) and the expiry; returns the grant. */
export function verifyGrant(encryptionKey: Buffer, token: string, nowMs = Date.now()): Grant {
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined) throw new SignedUrlError('malformed');
  const expected = createHmac('sha256', urlKey(encryptionKey)).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new SignedUrlError('tampered');
  let grant: Grant;
  try {
    grant = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Grant;
  } catch {
    throw new SignedUrlError('malformed');
  }
  if (typeof grant.exp !== 'number' || grant.exp * 1000 < nowMs) throw new SignedUrlError('expired');
  return grant;
}

/** `{base}/v1/object/<token>` for a grant valid for `ttlSeconds`. */
export function signedObjectUrl(
  base: string,
  encryptionKey: Buffer,
  kind: string,
  id: string,
  ttlSeconds: number,
): string {
  const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
  return `${base}/v1/object/${signGrant(encryptionKey, { kind, id, exp })}`;
}
