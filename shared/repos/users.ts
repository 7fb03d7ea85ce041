import type { Db } from '../db.js';
import { newId } from '../ids.js';

export interface UserRow {
  id: string;
  username: string;
  email: string | null;
  is_admin: boolean;
  created_at: Date;
}

const USER_CREATION_LOCK = 7_431_004;

/** Serialises user creation (admin and invitations) so concurrent requests see each other's usernames and emails. */
export const lockUserCreation = (tx: Db) => tx.raw('select pg_advisory_xact_lock(?)', [USER_CREATION_LOCK]);

export const findUserById = (db: Db, id: string) => db<UserRow>('users').where({ id }).first();
export const findUserByUsername = (db: Db, username: string) => db<UserRow>('users').where({ username }).first();
export const findUserByEmail = (db: Db, email: string) =>
  db<UserRow>('users').whereRaw('lower(email) = lower(?)', [email]).first();

export async function insertUser(db: Db, attrs: { username: string; email: string | null; isAdmin?: boolean }): Promise<UserRow> {
  const [row] = await db<UserRow>('users')
    .insert({ id: newId('user'), username: attrs.username, email: attrs.email, is_admin: attrs.isAdmin ?? false })
    .returning('*');
  return row;
}

/** A free username derived from an email's local part (for users created by invitation). */
export async function freeUsernameFor(db: Db, email: string): Promise<string> {
  const base = (email.split('@')[0].replace(/[^A-Za-z0-9_-]/g, '-').replace(/^-+|-+$/g, '') || 'user').slice(0, 40);
  const taken = new Set(
    (await db('users').where('username', base).orWhere('username', 'like', `${base}-%`).pluck('username')) as string[],
  );
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}
