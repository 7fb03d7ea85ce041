import type { Db } from '../platform/db.js';
import type { AssessmentRow } from './assessments.repo.js';

/** A workspace's latest health assessment result. */
export const latestAssessment = (db: Db, workspaceId: string): Promise<AssessmentRow | undefined> =>
  db<AssessmentRow>('assessment_results').where({ workspace_id: workspaceId }).orderBy('created_at', 'desc').first();

/** One health assessment result by id. */
export const findAssessment = (db: Db, id: string): Promise<AssessmentRow | undefined> => db<AssessmentRow>('assessment_results').where({ id }).first();
