import type { Db } from '../platform/db.js';
import { isUniqueViolation } from '../platform/db.js';
import { type Field, NotFound, Unprocessable } from '../platform/errors.js';
import { MAX_RUN_TRIGGER_SOURCES } from './rules.js';
import {
  countRunTriggerSources,
  deleteRunTrigger,
  findRunTrigger,
  insertRunTrigger,
  ONE_TRIGGER_PER_SOURCE,
  type NamedRunTriggerRow,
} from './repo.js';
import { lockWorkspaceRow, type WorkspaceRow } from '../workspaces/index.js';

const SOURCEABLE: Field = { relationship: 'sourceable' };

/**
 * Makes `source` a source of `target`'s runs. The source must be another workspace of the same
 * organization (404 for one of another), named once, and the target may have at most
 * MAX_RUN_TRIGGER_SOURCES sources (422). The target's row is locked while its sources are counted,
 * so concurrent creations cannot pass the limit together.
 */
export async function createRunTrigger(
  db: Db,
  target: WorkspaceRow,
  source: WorkspaceRow,
): Promise<NamedRunTriggerRow> {
  if (source.organization_name !== target.organization_name)
    throw new NotFound('source workspace not found in this organization');
  if (source.id === target.id)
    throw new Unprocessable('a workspace cannot be a run trigger source of itself', SOURCEABLE);
  return db.transaction(async (tx) => {
    await lockWorkspaceRow(tx, target.id);
    if ((await countRunTriggerSources(tx, target.id)) >= MAX_RUN_TRIGGER_SOURCES) {
      throw new Unprocessable(
        `a workspace can have at most ${MAX_RUN_TRIGGER_SOURCES} run trigger sources`,
        SOURCEABLE,
      );
    }
    try {
      const row = await insertRunTrigger(tx, { workspace_id: target.id, sourceable_id: source.id });
      return (await findRunTrigger(tx, row.id))!;
    } catch (err) {
      if (isUniqueViolation(err, ONE_TRIGGER_PER_SOURCE))
        throw new Unprocessable('the workspace already has a run trigger from this source', SOURCEABLE);
      throw err;
    }
  });
}

/** Removes a run trigger: the source's applies no longer queue runs in its workspace. */
export async function removeRunTrigger(db: Db, id: string): Promise<void> {
  await deleteRunTrigger(db, id);
}
