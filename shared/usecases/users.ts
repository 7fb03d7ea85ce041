import type { Runtime } from '../runtime.js';
import { Unprocessable } from '../errors.js';
import { findUserByEmail, findUserByUsername, insertUser, lockUserCreation, type UserRow } from '../repos/users.js';

/** Creates a user account (site admins only, checked by the caller); username and email must be free. */
export async function createUser(rt: Runtime, attrs: { username: string; email: string; isAdmin: boolean }): Promise<UserRow> {
  return rt.db.transaction(async (tx) => {
    await lockUserCreation(tx);
    if (await findUserByUsername(tx, attrs.username)) throw new Unprocessable('username has already been taken', '/data/attributes/username');
    if (await findUserByEmail(tx, attrs.email)) throw new Unprocessable('email has already been taken', '/data/attributes/email');
    return insertUser(tx, attrs);
  });
}
