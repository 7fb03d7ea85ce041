import type { Db } from '../platform/db.js';
import { sha256Hex } from '../platform/crypto.js';

export interface SignInRequestRow {
  id: string;
  provider: string;
  verifier_sealed: string;
  nonce: string;
  next: string;
  expires_at: Date;
}

/** A sign-in's key: its `state` and the key its browser holds, digested together. */
const keyOf = (state: string, browserKey: string) => sha256Hex(`${state}\n${browserKey}`);

/** Records a sign-in under way by its `state` and its browser's key (stored as their digest). */
export async function insertSignInRequest(
  db: Db,
  r: {
    state: string;
    browserKey: string;
    provider: string;
    verifierSealed: string;
    nonce: string;
    next: string;
    expiresAt: Date;
  },
): Promise<void> {
  await db('sso_requests').insert({
    id: keyOf(r.state, r.browserKey),
    provider: r.provider,
    verifier_sealed: r.verifierSealed,
    nonce: r.nonce,
    next: r.next,
    expires_at: r.expiresAt,
  });
}

/**
 * Takes the sign-in a `state` names in the browser that started it, once: the row is gone
 * afterwards, whether it was still live or not. Another browser's key finds nothing.
 */
export async function takeSignInRequest(
  db: Db,
  state: string,
  browserKey: string,
): Promise<SignInRequestRow | undefined> {
  const [row] = await db<SignInRequestRow>('sso_requests')
    .where({ id: keyOf(state, browserKey) })
    .del()
    .returning('*');
  return row;
}

export const deleteEndedSignInRequests = (db: Db) => db('sso_requests').where('expires_at', '<', db.fn.now()).del();

export const findIdentity = (db: Db, provider: string, subject: string): Promise<{ user_id: string } | undefined> =>
  db('user_identities').where({ provider, subject }).first('user_id');

export async function insertIdentity(db: Db, provider: string, subject: string, userId: string): Promise<void> {
  await db('user_identities').insert({ provider, subject, user_id: userId });
}

export async function touchIdentity(db: Db, provider: string, subject: string): Promise<void> {
  await db('user_identities').where({ provider, subject }).update({ signed_in_at: db.fn.now() });
}
