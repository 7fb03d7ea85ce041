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
 * A hash of a password nobody knows, checked when a sign-in names no user with a password, so the
 * answer takes as long as for a wrong password (no timing hint of who exists). Computed once per
 * call site's runtime, lazily.
 */
export class PasswordVerifier {
  private readonly dummy: Promise<string>;

  constructor() {
    this.dummy = hashPassword(randomBytes(32).toString('base64url'));
  }

  /** Whether `password` matches `hash`; with a null hash, spends the same work and answers false. */
  async verify(hash: string | null, password: string): Promise<boolean> {
    if (!hash) {
      await argon2.verify(await this.dummy, password).catch(() => false);
      return false;
    }
    return argon2.verify(hash, password).catch(() => false);
  }
}
