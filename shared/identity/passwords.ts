import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';

/**
 * Password hashing: argon2id (the `argon2` library, a binding of the reference implementation)
 * with its defaults of 64 MiB memory, 3 passes and parallelism 4. The stored value is the PHC
 * string, which names the algorithm, its parameters and the salt, so parameters can change
 * later without invalidating existing hashes.
 */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

/**
 * Checks passwords. When a sign-in names no user with a password, it checks against the hash of a
 * password nobody knows (made on first need), so the answer takes as long as for a wrong password
 * and its time tells nothing of who exists.
 */
export class PasswordVerifier {
  private dummy: Promise<string> | undefined;

  /** Whether `password` matches `hash`; with a null hash, spends the same work and answers false. */
  async verify(hash: string | null, password: string): Promise<boolean> {
    if (!hash) {
      this.dummy ??= hashPassword(randomBytes(32).toString('base64url'));
      await argon2.verify(await this.dummy, password).catch(() => false);
      return false;
    }
    return argon2.verify(hash, password).catch(() => false);
  }
}
