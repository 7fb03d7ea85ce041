import type { Db } from '../platform/db.js';
import type { Config } from '../platform/config.js';
import { findUserByUsername, insertUser, lockSiteAdminSetup, makeAdmin } from './users.repo.js';
import { deleteConfiguredTokensBut, hasTokenWithDigest, issueToken } from './tokens.repo.js';
import { sha256Hex } from '../platform/crypto.js';

const ADMIN_USERNAME = 'admin';

/**
 * Makes sure the site admin exists. With SITE_ADMIN_TOKEN the configured token authenticates
 * user `admin` (idempotent on every start). Without it, the first start creates the admin with a
 * generated token and returns it so the caller can print it once.
 */
export async function ensureSiteAdmin(db: Db, config: Config): Promise<{ generatedToken: string | null }> {
  return db.transaction(async (tx) => {
    await lockSiteAdminSetup(tx);
    let admin = await findUserByUsername(tx, ADMIN_USERNAME);
    const created = !admin;
    if (!admin) admin = await insertUser(tx, { username: ADMIN_USERNAME, email: null, isAdmin: true });
    else if (!admin.is_admin) await makeAdmin(tx, admin.id);

    if (config.siteAdminToken) {
      const digest = sha256Hex(config.siteAdminToken);
      await deleteConfiguredTokensBut(tx, admin.id, digest);
      if (!(await hasTokenWithDigest(tx, digest))) {
        await issueToken(
          tx,
          { kind: 'user', userId: admin.id },
          { secret: config.siteAdminToken, description: 'site admin (from SITE_ADMIN_TOKEN)', fromConfiguration: true },
        );
      }
      return { generatedToken: null };
    }
    if (!created) return { generatedToken: null };
    const { secret } = await issueToken(
      tx,
      { kind: 'user', userId: admin.id },
      { description: 'site admin (generated at first start)' },
    );
    return { generatedToken: secret };
  });
}
