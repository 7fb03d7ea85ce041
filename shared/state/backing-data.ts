import type { Runtime } from '../runtime.js';
import type { Db } from '../platform/db.js';
import { ApiError, Conflict, NotFound } from '../platform/errors.js';
import { backingDataRefusal, retentionMoves, type BackingDataEvent } from './machine.js';
import { lockStateVersion, moveBackingData, type StateVersionRow } from './repo.js';

/** Moves a version by one backing-data event (compare-and-set); a permanent delete also removes its stored state and JSON state. */
async function move(
  rt: Pick<Runtime, 'store'>,
  tx: Db,
  sv: StateVersionRow,
  event: BackingDataEvent,
): Promise<StateVersionRow | undefined> {
  const moved = await moveBackingData(tx, sv.id, event, sv.status);
  if (moved && event === 'permanent_delete') {
    for (const id of [sv.object_id, sv.json_object_id]) if (id) await rt.store.delete(tx, id);
  }
  return moved;
}

/**
 * A backing-data action of the self-hosted edition on a state version: soft delete (its state is
 * kept for a restore, but no longer served), restore, or permanent delete (the stored state, JSON
 * state and outputs go). Refusals are worded as TFE words them ("transition not allowed"), 400.
 */
export async function stateVersionBackingData(
  rt: Runtime,
  svId: string,
  event: BackingDataEvent,
): Promise<StateVersionRow> {
  return rt.db.transaction(async (tx) => {
    const sv = await lockStateVersion(tx, svId);
    if (!sv) throw new NotFound('state version not found');
    const why = backingDataRefusal(event, { status: sv.status, isCurrent: sv.is_current });
    if (why) throw new ApiError('bad-request', 'transition not allowed', `transition not allowed: ${why}`);
    const moved = await move(rt, tx, sv, event);
    if (!moved) throw new Conflict('the state version changed concurrently; try again');
    return moved;
  });
}

/**
 * Deletes a version's backing data for a data retention policy, in the caller's transaction: the
 * soft delete and permanent delete the actions would make, so the version then reads as one
 * permanently deleted by hand. False, with nothing changed, when the version may not lose its data
 * (it is current, or its status changed since it was chosen).
 */
export async function purgeStateVersionData(rt: Pick<Runtime, 'store'>, tx: Db, svId: string): Promise<boolean> {
  let sv = await lockStateVersion(tx, svId);
  const moves = sv && retentionMoves({ status: sv.status, isCurrent: sv.is_current });
  if (!sv || !moves) return false;
  for (const event of moves) {
    // The row is locked: each move starts from the status the last one left.
    const moved = await move(rt, tx, sv, event);
    if (!moved) throw new Conflict('the state version changed concurrently');
    sv = { ...moved, is_current: false };
  }
  return true;
}
