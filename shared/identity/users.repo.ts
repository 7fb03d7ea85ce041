import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';

export interface UserRow {
  id: string;
  username: string;
  email: string | null;
  is_admin: boolean;
  created_at: Date;
  /** An email change not confirmed yet; read only where the user sees their own account (not on authentication). */
  unconfirmed_email?: string | null;
  /** When a site admin suspended the user; read where a site admin lists users. */
  suspended_at?: Date | null;
}

const SITE_ADMIN_LOCK = 7_431_003;
const USER_CREATION_LOCK = 7_431_004;

/** Serialises the site admin's setup, so processes starting together make one admin and one configured token. */
export const lockSiteAdminSetup = (tx: Db) => tx.raw('select pg_advisory_xact_lock(?)', [SITE_ADMIN_LOCK]);

/** Serialises user creation (admin and invitations) so concurrent requests see each other's usernames and emails. */
export const lockUserCreation = (tx: Db) => tx.raw('select pg_advisory_xact_lock(?)', [USER_CREATION_LOCK]);

export const findUserById = (db: Db, id: string) => db<UserRow>('users').where({ id }).first();

/** Suspends a user (now) or lifts it; the user as it then is, or undefined when there is none. */
export async function setSuspended(db: Db, id: string, suspended: boolean): Promise<UserRow | undefined> {
  const [row] = await db<UserRow>('users')
    .where({ id })
    .update({ suspended_at: suspended ? db.fn.now() : null } as Partial<UserRow>)
    .returning(['id', 'username', 'email', 'is_admin', 'created_at', 'suspended_at']);
  return row;
}
export const findUserByUsername = (db: Db, username: string) => db<UserRow>('users').where({ username }).first();
export const findUserByEmail = (db: Db, email: string) =>
  db<UserRow>('users').whereRaw('lower(email) = lower(?)', [email]).first();

export async function insertUser(
  db: Db,
  attrs: { username: string; email: string | null; isAdmin?: boolean },
): Promise<UserRow> {
  const [row] = await db<UserRow>('users')
    .insert({ id: newId('user'), username: attrs.username, email: attrs.email, is_admin: attrs.isAdmin ?? false })
    .returning('*');
  return row;
}

/** Makes a user a site admin. */
export async function makeAdmin(db: Db, id: string): Promise<void> {
  await db('users').where({ id }).update({ is_admin: true });
}

/** A free username derived from an email's local part (for users created by invitation). */
export const freeUsernameFor = (db: Db, email: string): Promise<string> => freeUsername(db, email.split('@')[0]);

/** `wanted` made a valid username, or with the first free `-2`, `-3`... suffix when it is taken. */
export async function freeUsername(db: Db, wanted: string): Promise<string> {
  const base = (wanted.replace(/^-+|-+$/g, '') || 'user').slice(0, 40);
  const taken = new Set(
    (await db('users').where('username', base).orWhere('username', 'like', `${base}-%`).pluck('username')) as string[],
  );
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

/** Sets a user's username and the email change waiting for confirmation (null clears it); returns the row. */
export async function updateAccount(
  db: Db,
  id: string,
  attrs: { username?: string; unconfirmedEmail?: string | null },
): Promise<UserRow> {
  const values: Record<string, unknown> = {};
  if (attrs.username !== undefined) values.username = attrs.username;
  if (attrs.unconfirmedEmail !== undefined) values.unconfirmed_email = attrs.unconfirmedEmail;
  if (Object.keys(values).length === 0) return (await findUserById(db, id))!;
  const [row] = await db<UserRow>('users').where({ id }).update(values).returning('*');
  return row;
}
