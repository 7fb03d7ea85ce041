import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import { sha256Hex } from '../platform/crypto.js';
import type { UserRow } from './users.repo.js';

/** A user as sign-in sees it: the account and its password hash (null: no password set yet). */
export type UserWithPassword = UserRow & { password_hash: string | null; suspended_at: Date | null };

const USER_COLUMNS = ['id', 'username', 'email', 'is_admin', 'created_at'] as const;

/** The user a sign-in names, by username or (case-insensitively) by email. */
export function findUserForSignIn(db: Db, login: string): Promise<UserWithPassword | undefined> {
  return db<UserWithPassword>('users')
    .where({ username: login })
    .orWhereRaw('lower(email) = lower(?)', [login])
    .orderByRaw('(username = ?) desc', [login])
    .first(...USER_COLUMNS, 'password_hash', 'suspended_at');
}

export const userHasPassword = async (db: Db, userId: string): Promise<boolean> =>
  Boolean(await db('users').where({ id: userId }).whereNotNull('password_hash').first('id'));

export async function setPasswordHash(db: Db, userId: string, hash: string): Promise<void> {
  await db('users').where({ id: userId }).update({ password_hash: hash, password_changed_at: db.fn.now() });
}

// ---- One-time password links (invitations and resets) ----

export type PasswordLinkPurpose = 'invitation' | 'reset';

export interface PasswordLinkRow {
  id: string;
  user_id: string;
  purpose: PasswordLinkPurpose;
  membership_id: string | null;
  digest: string;
  created_by_id: string | null;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
}

export async function insertPasswordLink(
  db: Db,
  attrs: {
    userId: string;
    purpose: PasswordLinkPurpose;
    membershipId?: string | null;
    secret: string;
    createdById?: string | null;
    expiresAt: Date;
  },
): Promise<PasswordLinkRow> {
  const [row] = await db<PasswordLinkRow>('password_links')
    .insert({
      id: newId('pwl'),
      user_id: attrs.userId,
      purpose: attrs.purpose,
      membership_id: attrs.membershipId ?? null,
      digest: sha256Hex(attrs.secret),
      created_by_id: attrs.createdById ?? null,
      expires_at: attrs.expiresAt,
    })
    .returning('*');
  return row;
}

/** A link that is neither used nor expired, by its secret, locked for the caller's transaction. */
export const findUsablePasswordLink = (db: Db, secret: string) =>
  db<PasswordLinkRow>('password_links')
    .where({ digest: sha256Hex(secret) })
    .whereNull('used_at')
    .where('expires_at', '>', db.fn.now())
    .forUpdate()
    .first();

/** Compare-and-set: marks the link used; false when it was used meanwhile. */
export const markPasswordLinkUsed = async (db: Db, id: string): Promise<boolean> =>
  (await db('password_links').where({ id }).whereNull('used_at').update({ used_at: db.fn.now() })) === 1;

/** Whether the user was sent a reset link of their own asking within the last `seconds`. */
export const askedForResetWithin = async (db: Db, userId: string, seconds: number): Promise<boolean> =>
  Boolean(
    await db('password_links')
      .where({ user_id: userId, purpose: 'reset' })
      .whereNull('created_by_id')
      .where('created_at', '>', db.raw(`now() - make_interval(secs => ?)`, [seconds]))
      .first('id'),
  );

/** Locks the user's row, so two resets asked for at once send one mail. */
export async function lockPasswordLinksOf(db: Db, userId: string): Promise<void> {
  await db('users').where({ id: userId }).forUpdate().first('id');
}

/** A user with a password, by email, as a password reset asks for one. */
export const findPasswordUserByEmail = (db: Db, email: string) =>
  db<UserWithPassword>('users')
    .whereRaw('lower(email) = lower(?)', [email])
    .whereNotNull('password_hash')
    .first(...USER_COLUMNS, 'password_hash', 'suspended_at');

/** Ends a user's other unused reset links (a new one replaces them; a used one ends them all). */
export async function expireResetLinksOf(db: Db, userId: string): Promise<void> {
  await db('password_links')
    .where({ user_id: userId, purpose: 'reset' })
    .whereNull('used_at')
    .update({ used_at: db.fn.now() });
}

// ---- Console sessions ----

export interface SessionRow {
  id: string;
  user_id: string;
  digest: string;
  csrf_digest: string;
  expires_at: Date;
  revoked_at: Date | null;
  last_seen_at: Date | null;
  created_at: Date;
}

export async function insertSession(
  db: Db,
  attrs: { userId: string; secret: string; csrf: string; expiresAt: Date },
): Promise<SessionRow> {
  const [row] = await db<SessionRow>('console_sessions')
    .insert({
      id: newId('sess'),
      user_id: attrs.userId,
      digest: sha256Hex(attrs.secret),
      csrf_digest: sha256Hex(attrs.csrf),
      expires_at: attrs.expiresAt,
    })
    .returning('*');
  return row;
}

/** A live session (not expired, not revoked) by its cookie value, with its user. */
export async function findLiveSession(db: Db, secret: string): Promise<{ session: SessionRow; user: UserRow } | null> {
  const row = await db('console_sessions as s')
    .join('users as u', 'u.id', 's.user_id')
    .where('s.digest', sha256Hex(secret))
    .whereNull('s.revoked_at')
    .whereNull('u.suspended_at')
    .where('s.expires_at', '>', db.fn.now())
    .first<
      (SessionRow & { u_username: string; u_email: string | null; u_is_admin: boolean; u_created_at: Date }) | undefined
    >(
      's.*',
      'u.username as u_username',
      'u.email as u_email',
      'u.is_admin as u_is_admin',
      'u.created_at as u_created_at',
    );
  if (!row) return null;
  const { u_username, u_email, u_is_admin, u_created_at, ...session } = row;
  return {
    session,
    user: { id: session.user_id, username: u_username, email: u_email, is_admin: u_is_admin, created_at: u_created_at },
  };
}

/** Records use at most once a minute, so authentication stays a read on the hot path. */
export async function touchSession(db: Db, id: string): Promise<void> {
  await db('console_sessions')
    .where({ id })
    .andWhere((q) => q.whereNull('last_seen_at').orWhere('last_seen_at', '<', db.raw(`now() - interval '1 minute'`)))
    .update({ last_seen_at: db.fn.now() });
}

export async function revokeSession(db: Db, id: string): Promise<void> {
  await db('console_sessions').where({ id }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
}

/** Revokes every live session of a user (a password change signs everyone out). */
export async function revokeSessionsOf(db: Db, userId: string): Promise<void> {
  await db('console_sessions').where({ user_id: userId }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
}

// ---- terraform login authorization codes ----

export interface OAuthCodeRow {
  id: string;
  user_id: string;
  digest: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
}

export async function insertOAuthCode(
  db: Db,
  attrs: {
    userId: string;
    secret: string;
    clientId: string;
    redirectUri: string;
    codeChallenge: string;
    expiresAt: Date;
  },
): Promise<OAuthCodeRow> {
  const [row] = await db<OAuthCodeRow>('oauth_codes')
    .insert({
      id: newId('authz'),
      user_id: attrs.userId,
      digest: sha256Hex(attrs.secret),
      client_id: attrs.clientId,
      redirect_uri: attrs.redirectUri,
      code_challenge: attrs.codeChallenge,
      expires_at: attrs.expiresAt,
    })
    .returning('*');
  return row;
}

/**
 * Compare-and-set: uses a code once. Returns the row when it was unused and unexpired; a code
 * presented twice is spent by the first presentation whatever its outcome.
 */
export async function claimOAuthCode(db: Db, secret: string): Promise<OAuthCodeRow | undefined> {
  const [row] = await db<OAuthCodeRow>('oauth_codes')
    .where({ digest: sha256Hex(secret) })
    .whereNull('used_at')
    .where('expires_at', '>', db.fn.now())
    .update({ used_at: db.fn.now() })
    .returning('*');
  return row;
}

/**
 * Deletes what sign-in no longer needs: sessions, password links and authorization codes that
 * ended (expired, revoked or used) more than `keepSeconds` ago. Returns how many rows went.
 */
export async function deleteEndedSignInRows(db: Db, keepSeconds: number): Promise<number> {
  const before = db.raw(`now() - (? || ' seconds')::interval`, [String(keepSeconds)]);
  const sessions = await db('console_sessions')
    .where((q) => q.where('expires_at', '<', before).orWhere('revoked_at', '<', before))
    .del();
  const links = await db('password_links')
    .where((q) => q.where('expires_at', '<', before).orWhere('used_at', '<', before))
    .del();
  const codes = await db('oauth_codes').where('expires_at', '<', before).del();
  return sessions + links + codes;
}
