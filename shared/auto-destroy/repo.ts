import type { Db } from '../platform/db.js';

/** A workspace as the auto-destroy sweep reads it. */
export interface AutoDestroyWorkspace {
  id: string;
  name: string;
  organization_name: string;
  auto_destroy_at: Date;
  current_configuration_version_id: string | null;
}

/** Up to 200 workspaces whose auto-destroy time is at or before `until` (reminders are due a day ahead). */
export const autoDestroyDue = (db: Db, until: Date) =>
  db<AutoDestroyWorkspace>('workspaces')
    .whereNotNull('auto_destroy_at')
    .andWhere('auto_destroy_at', '<=', until)
    .limit(200);

/** A workspace's row, locked until the caller's transaction ends, so that two sweeps never act on one scheduled time together. */
export const lockAutoDestroyWorkspace = (tx: Db, id: string) =>
  tx<AutoDestroyWorkspace>('workspaces').where({ id }).forUpdate().first();

/** Records a step once per scheduled time; false when an earlier sweep already did it. */
export async function recordAutoDestroyStep(
  tx: Db,
  ws: AutoDestroyWorkspace,
  kind: string,
  extra: { run_id?: string; error?: string } = {},
): Promise<boolean> {
  const rows = await tx('auto_destroy_events')
    .insert({ workspace_id: ws.id, auto_destroy_at: ws.auto_destroy_at, kind, ...extra })
    .onConflict(['workspace_id', 'auto_destroy_at', 'kind'])
    .ignore()
    .returning('kind');
  return rows.length === 1;
}

/** Clears a workspace's auto-destroy time once its destroy run was attempted. */
export async function clearAutoDestroy(tx: Db, id: string): Promise<void> {
  await tx('workspaces').where({ id }).update({ auto_destroy_at: null, updated_at: tx.fn.now() });
}
