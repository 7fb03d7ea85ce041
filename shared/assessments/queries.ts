import type { Db } from '../platform/db.js';
import type { AssessmentRow } from './repo.js';

/** A workspace's latest health assessment result (its next assessment reads it as the prior one). */
export { latestAssessment } from './repo.js';

/** One health assessment result by id. */
export const findAssessment = (db: Db, id: string): Promise<AssessmentRow | undefined> =>
  db<AssessmentRow>('assessment_results').where({ id }).first();
