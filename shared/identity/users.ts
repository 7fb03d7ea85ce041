import type { Runtime } from '../runtime.js';
import { NotFound, Unprocessable } from '../platform/errors.js';
import { isUniqueViolation } from '../platform/db.js';
import {
  findUserByEmail,
  findUserById,
  findUserByUsername,
  freeUsername,
  insertUser,
  lockUserCreation,
  setSuspended,
  updateAccount,
  type UserRow,
} from './users.repo.js';
import { revokeSessionsOf } from './sign-in.repo.js';

const usernameTaken = () => new Unprocessable('username has already been taken', { attribute: 'username' });
const emailTaken = () => new Unprocessable('email has already been taken', { attribute: 'email' });

/** Creates a user account (site admins only, checked by the caller); username and email must be free. */
export async function createUser(
  rt: Runtime,
  attrs: { username: string; email: string; isAdmin: boolean },
): Promise<UserRow> {
  return rt.db.transaction(async (tx) => {
    await lockUserCreation(tx);
    if (await findUserByUsername(tx, attrs.username)) throw usernameTaken();
    if (await findUserByEmail(tx, attrs.email)) throw emailTaken();
    return insertUser(tx, attrs);
  });
}

/**
 * A user's change of their own account (PATCH /account/update): the username at once; a new
 * email is held as unconfirmed and does not replace the account's email, which invitations and
 * sign-in rely on, until it is confirmed. Asking for the current email again withdraws the change.
 */
export async function updateOwnAccount(
  rt: Runtime,
  userId: string,
  attrs: { username?: string; email?: string },
): Promise<UserRow> {
  return rt.db.transaction(async (tx) => {
    await lockUserCreation(tx);
    const user = await findUserById(tx, userId);
    if (!user) throw new Unprocessable('the account no longer exists');
    const username = attrs.username !== undefined && attrs.username !== user.username ? attrs.username : undefined;
    if (username !== undefined && (await findUserByUsername(tx, username))) throw usernameTaken();
    let unconfirmedEmail: string | null | undefined;
    if (attrs.email !== undefined) {
      const same = attrs.email.toLowerCase() === (user.email ?? '').toLowerCase();
      const holder = same ? undefined : await findUserByEmail(tx, attrs.email);
      if (holder && holder.id !== user.id) throw emailTaken();
      unconfirmedEmail = same ? null : attrs.email;
    }
    try {
      return await updateAccount(tx, user.id, { username, unconfirmedEmail });
    } catch (err) {
      if (isUniqueViolation(err)) throw usernameTaken();
      throw err;
    }
  });
}

/**
 * A site admin suspends a user or lifts it (checked by the caller). A suspended user's tokens,
 * sessions and password are refused until then; their sessions end at once. An admin cannot
 * suspend themselves, which could leave no one to lift it.
 */
export async function setUserSuspended(
  rt: Runtime,
  adminId: string,
  userId: string,
  suspended: boolean,
): Promise<UserRow> {
  if (suspended && adminId === userId) throw new Unprocessable('a site admin cannot suspend themselves');
  return rt.db.transaction(async (tx) => {
    const user = await setSuspended(tx, userId, suspended);
    if (!user) throw new NotFound('user not found');
    if (suspended) await revokeSessionsOf(tx, userId);
    return user;
  });
}

/**
 * The account a first sign-in through an identity provider creates: the username it asked for,
 * or the first free one after it (`alice-2`); its email, which must not be another account's
 * (linking to that account is the caller's choice to make, see shared/sso).
 */
export async function createUserFromProvider(
  rt: Pick<Runtime, 'db'>,
  attrs: { wantedUsername: string; email: string | null },
): Promise<UserRow> {
  return rt.db.transaction(async (tx) => {
    await lockUserCreation(tx);
    if (attrs.email && (await findUserByEmail(tx, attrs.email))) throw emailTaken();
    return insertUser(tx, { username: await freeUsername(tx, attrs.wantedUsername), email: attrs.email });
  });
}
