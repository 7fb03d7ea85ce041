import type { Db } from '../db.js';
import { newId } from '../ids.js';

export interface CommentRow {
  id: string;
  run_id: string;
  body: string;
  created_by_id: string | null;
  created_at: Date;
}

/** Records a comment on a run. */
export async function insertComment(db: Db, c: { run_id: string; body: string; created_by_id: string | null }): Promise<CommentRow> {
  const [row] = await db<CommentRow>('comments').insert({ id: newId('wsc'), ...c }).returning('*');
  return row;
}

export const findComment = (db: Db, id: string) => db<CommentRow>('comments').where({ id }).first();
