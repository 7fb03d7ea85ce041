import type { Runtime } from '../runtime.js';
import { ApiError, Conflict, NotFound } from '../errors.js';
import { backingDataRefusal, type BackingDataEvent } from '../domain/state-version.js';
import { lockStateVersion, moveBackingData, type StateVersionRow } from '../repos/state-versions.js';

/**
 * A backing-data action of the self-hosted edition on a state version: soft delete (its state is
 * kept for a restore, but no longer served), restore, or permanent delete (the stored state, JSON
 * state and outputs go). Refusals are worded as TFE words them ("transition not allowed"), 400.
 */
export async function stateVersionBackingData(rt: Runtime, svId: string, event: BackingDataEvent): Promise<StateVersionRow> {
  return rt.db.transaction(async (tx) => {
    const sv = await lockStateVersion(tx, svId);
    if (!sv) throw new NotFound('state version not found');
    const why = backingDataRefusal(event, { status: sv.status, isCurrent: sv.is_current });
    if (why) throw new ApiError('bad-request', 'transition not allowed', `transition not allowed: ${why}`);
    const moved = await moveBackingData(tx, sv.id, event, sv.status);
    if (!moved) throw new Conflict('the state version changed concurrently; try again');
    if (event === 'permanent_delete') {
      for (const id of [sv.object_id, sv.json_object_id]) if (id) await rt.store.delete(tx, id);
    }
    return moved;
  });
}
