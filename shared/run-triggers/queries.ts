import type { Db } from '../platform/db.js';
import { workspaceAccessMap, type OrganizationGrant, type WorkspaceAccess } from '../identity/index.js';
import type { RunTriggerType } from './rules.js';
import { namedRunTriggers, type NamedRunTriggerRow } from './repo.js';
import { visibleWorkspacesByIds } from '../workspaces/index.js';
import type { WorkspaceRow } from '../workspaces/repo.js';

/**
 * A workspace's run triggers, oldest first: `inbound`, those whose runs it gets (all of them: they
 * are its own settings); `outbound`, those its applies fire, only where the grant may see the
 * workspace that gets the run.
 */
export async function runTriggersOf(
  db: Db,
  grant: OrganizationGrant,
  workspaceId: string,
  type: RunTriggerType,
): Promise<NamedRunTriggerRow[]> {
  const rows = (await namedRunTriggers(db)
    .where(type === 'inbound' ? 't.workspace_id' : 't.sourceable_id', workspaceId)
    .orderBy([{ column: 't.created_at' }, { column: 't.id' }])) as NamedRunTriggerRow[];
  if (type === 'inbound') return rows;
  const access = await workspaceAccessMap(
    db,
    grant,
    rows.map((r) => r.workspace_id),
  );
  return rows.filter((r) => access.has(r.workspace_id));
}

/** The workspaces run triggers name (targets and sources) that the grant may see, with the access to each, for `include`. */
export async function workspacesOfTriggers(
  db: Db,
  grant: OrganizationGrant,
  triggers: NamedRunTriggerRow[],
  sides: { workspace: boolean; sourceable: boolean },
): Promise<{ rows: WorkspaceRow[]; access: Map<string, WorkspaceAccess> }> {
  const ids = new Set<string>();
  for (const t of triggers) {
    if (sides.workspace) ids.add(t.workspace_id);
    if (sides.sourceable) ids.add(t.sourceable_id);
  }
  return visibleWorkspacesByIds(db, grant, [...ids]);
}
