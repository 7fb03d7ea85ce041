import type { Db } from '../platform/db.js';
import type { CommentRow } from './comments.repo.js';

/** A run's comments, oldest first. */
export const commentsOfRun = (db: Db, runId: string) =>
  db<CommentRow>('comments')
    .where({ run_id: runId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
