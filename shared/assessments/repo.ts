import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import type { AssessmentFindings } from './rules.js';

/** A health assessment's result row. */
export interface AssessmentRow extends AssessmentFindings {
  id: string;
  workspace_id: string;
  succeeded: boolean;
  error_message: string | null;
  created_at: Date;
}

/**
 * Up to 100 ids of workspaces due for an assessment: assessments enabled, state and an uploaded
 * current configuration version, no run in progress but plans only (none outside `finalStatuses`),
 * and no result since `since`.
 */
export async function workspacesDueForAssessment(
  db: Db,
  since: Date,
  finalStatuses: readonly string[],
): Promise<string[]> {
  return (
    (await db('workspaces as w')
      .where('w.assessments_enabled', true)
      .whereNotNull('w.current_state_version_id')
      // A current version still waiting for its upload has nothing to assess yet.
      .whereExists(
        db('configuration_versions as cv')
          .whereRaw('cv.id = w.current_configuration_version_id')
          .where('cv.status', 'uploaded'),
      )
      .whereNotExists(
        db('runs').whereRaw('runs.workspace_id = w.id').whereNotIn('status', finalStatuses).where('plan_only', false),
      )
      .whereNotExists(db('assessment_results as a').whereRaw('a.workspace_id = w.id').where('a.created_at', '>', since))
      .limit(100)
      .pluck('w.id')) as string[]
  );
}

/** A workspace with assessments enabled, or undefined (none such, or they were turned off). */
export const findAssessedWorkspace = (db: Db, id: string) =>
  db('workspaces').where({ id, assessments_enabled: true }).first();

/** The archive object of a configuration version an assessment plans. */
export const archiveOfCv = (db: Db, id: string): Promise<{ archive_object_id: string | null } | undefined> =>
  db('configuration_versions').where({ id }).first('archive_object_id');

/** The object holding a state version an assessment plans against. */
export const objectOfStateVersion = (db: Db, id: string): Promise<{ object_id: string | null } | undefined> =>
  db('state_versions').where({ id }).first('object_id');

/** A workspace's latest health assessment result. */
export const latestAssessment = (db: Db, workspaceId: string): Promise<AssessmentRow | undefined> =>
  db<AssessmentRow>('assessment_results').where({ workspace_id: workspaceId }).orderBy('created_at', 'desc').first();

/** Stores an assessment's result; returns the row. */
export async function insertAssessment(
  db: Db,
  attrs: Pick<AssessmentRow, 'workspace_id' | 'succeeded' | 'error_message'> & AssessmentFindings,
): Promise<AssessmentRow> {
  const [row] = await db<AssessmentRow>('assessment_results')
    .insert({ id: newId('asmtrs'), ...attrs })
    .returning('*');
  return row;
}
