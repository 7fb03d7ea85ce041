import type { Db } from '../platform/db.js';

/** The advisory lock key of the periodic sweep (any constant no other lock of the service uses). */
const SWEEP_LOCK_KEY = 7_431_005;

/**
 * Runs `work` while this connection holds the sweep's transaction-level advisory lock, or does
 * nothing when another process holds it. Returns whether it ran. The lock ends with the
 * transaction, also when the process dies.
 */
export async function tryWithSweepLock(db: Db, work: () => Promise<void>): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.raw('select pg_try_advisory_xact_lock(?) as got', [SWEEP_LOCK_KEY]);
    if (!rows[0]?.got) return false;
    await work();
    return true;
  });
}
