import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';

export interface CommentRow {
  id: string;
  run_id: string;
  body: string;
  created_by_id: string | null;
  created_at: Date;
}

/** Records a comment on a run. */
export async function insertComment(
  db: Db,
  c: { run_id: string; body: string; created_by_id: string | null },
): Promise<CommentRow> {
  // The comment and its run event (`commented`, by its author), in one statement.
  const id = newId('wsc');
  const { rows } = (await db.raw(
    `with event as (insert into run_events (id, run_id, action, actor_id, comment_id, created_at) values (?, ?, 'commented', ?, ?, clock_timestamp()))
     insert into comments (id, run_id, body, created_by_id) values (?, ?, ?, ?) returning *`,
    [newId('re'), c.run_id, c.created_by_id, id, id, c.run_id, c.body, c.created_by_id],
  )) as { rows: CommentRow[] };
  return rows[0];
}

export const findComment = (db: Db, id: string) => db<CommentRow>('comments').where({ id }).first();
