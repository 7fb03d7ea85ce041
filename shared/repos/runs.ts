import type { Db } from '../db.js';
import { newId } from '../ids.js';

export interface RunRow {
  id: string;
  workspace_id: string;
  configuration_version_id: string | null;
  status: string;
  source: string;
  message: string;
  is_destroy: boolean;
  auto_apply: boolean;
  plan_only: boolean;
  refresh: boolean;
  refresh_only: boolean;
  save_plan: boolean;
  target_addrs: string[];
  replace_addrs: string[];
  variables: { key: string; value: string }[];
  status_timestamps: Record<string, string>;
  created_by_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export const findRun = (db: Db, id: string) => db<RunRow>('runs').where({ id }).first();

/** Inserts a run in `pending` with its `created` event (same transaction as the caller's change). */
export async function insertPendingRun(
  db: Db,
  attrs: Pick<RunRow, 'workspace_id' | 'configuration_version_id' | 'source'> & Partial<Pick<RunRow, 'message' | 'plan_only' | 'auto_apply' | 'is_destroy'>> & { created_by_id?: string | null },
): Promise<RunRow> {
  const now = new Date().toISOString();
  const [row] = await db<RunRow>('runs')
    .insert({ id: newId('run'), ...attrs, status: 'pending', status_timestamps: JSON.stringify({ 'plan-queueable-at': now }) as never })
    .returning('*');
  await db('run_events').insert({ id: newId('re'), run_id: row.id, action: 'created', from_status: null, to_status: 'pending', actor_id: attrs.created_by_id ?? null });
  return row;
}
