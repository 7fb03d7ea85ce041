import type { AssessmentFindings } from './assessments.rules.js';

/** A health assessment's result row. */
export interface AssessmentRow extends AssessmentFindings {
  id: string;
  workspace_id: string;
  succeeded: boolean;
  error_message: string | null;
  created_at: Date;
}
