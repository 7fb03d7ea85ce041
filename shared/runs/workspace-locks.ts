import type { Runtime } from '../runtime.js';
import type { Principal } from '../identity/access.queries.js';
import { Conflict } from '../platform/errors.js';
import { clearLock, findWorkspace, holdingRun, setLock, type WorkspaceRow } from '../workspaces/index.js';
import { kickWorkspace } from './commands.js';
import { holderOf } from '../workspaces/rules.js';

/**
 * Who holds a lock, worded as Terraform Cloud words it ("is locked by Run …", "… by User", "… by
 * Team"; clients such as go-tfe tell the cases apart by these words), naming no other user or team.
 */
const HOLDER_WORDS: Record<string, string> = {
  users: 'User (another user)',
  teams: 'Team (another team)',
  organizations: 'an organization token',
};
const holderName = (ws: WorkspaceRow) =>
  ws.locked_by_type === 'runs' ? `Run ${ws.locked_by_id}` : (HOLDER_WORDS[ws.locked_by_type ?? ''] ?? 'another holder');

/**
 * Locks a workspace for the caller: non-speculative runs wait (pending) until it is unlocked.
 * 409 when it is locked already, or while a run holds it (planning or applying), as TFE answers.
 */
export async function lockWorkspace(
  rt: Runtime,
  workspaceId: string,
  principal: Principal,
  reason: string | null,
): Promise<WorkspaceRow> {
  const locked = await setLock(rt.db, workspaceId, holderOf(principal), reason, { unlessARunHolds: true });
  if (locked) return locked;
  const run = await holdingRun(rt.db, workspaceId);
  throw new Conflict(
    run
      ? `Unable to lock workspace. The workspace is locked by Run ${run}.`
      : 'Unable to lock workspace. The workspace is already locked.',
  );
}

/**
 * Unlocks a workspace the caller holds (any holder with `force`), and lets its waiting runs go.
 * 409 when it is not locked, or locked by someone else without `force`.
 */
export async function unlockWorkspace(
  rt: Runtime,
  workspaceId: string,
  principal: Principal,
  force: boolean,
): Promise<WorkspaceRow> {
  const unlocked = await clearLock(rt.db, workspaceId, force ? null : holderOf(principal));
  if (!unlocked) {
    const ws = await findWorkspace(rt.db, workspaceId);
    if (!ws?.locked) {
      // A run holding the workspace shows it locked; only the run's end releases it.
      const run = await holdingRun(rt.db, workspaceId);
      if (run)
        throw new Conflict(
          `Unable to unlock workspace. The workspace is locked by Run ${run}; it is released when the run finishes.`,
        );
      throw new Conflict('Unable to unlock workspace. The workspace is not locked.');
    }
    throw new Conflict(
      `Unable to unlock workspace. The workspace is locked by ${holderName(ws)}; force-unlock it (admin access) if it must be released.`,
    );
  }
  await kickWorkspace(rt, workspaceId);
  return unlocked;
}
