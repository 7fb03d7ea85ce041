// The workspaces' face for worker processes: health assessments run terraform in the sandbox.
export { executeAssessment, sweepAssessments } from './assessments.js';
