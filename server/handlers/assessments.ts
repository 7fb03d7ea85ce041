import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/platform/errors.js';
import type { AssessmentRow } from '../../shared/assessments/repo.js';
import { findAssessment, latestAssessment } from '../../shared/assessments/queries.js';
import { workspaceScopeById } from '../guards.js';
import { iso, one, sendResource, type Resource } from '../jsonapi.js';
import type { Req } from './body.js';

function assessmentResource(r: AssessmentRow): Resource {
  return {
    type: 'assessment-results',
    id: r.id,
    attributes: {
      succeeded: r.succeeded,
      'error-msg': r.error_message,
      drifted: r.drifted,
      'resources-drifted': r.resources_drifted,
      'resources-undrifted': r.resources_undrifted,
      'all-checks-succeeded': r.checks_failed + r.checks_errored + r.checks_unknown === 0,
      'checks-passed': r.checks_passed,
      'checks-failed': r.checks_failed,
      'checks-errored': r.checks_errored,
      'checks-unknown': r.checks_unknown,
      'created-at': iso(r.created_at),
    },
    relationships: { workspace: one('workspaces', r.workspace_id) },
    links: { self: `/api/v2/assessment-results/${r.id}` },
  };
}

/** Health assessment results of a workspace (readable with read access). */
export function assessmentHandlers({ db }: AppDeps) {
  return {
    async current(req: Req, res: Response) {
      await workspaceScopeById(db, res.locals.principal, req.params.id);
      const r = await latestAssessment(db, req.params.id);
      if (!r) throw new NotFound('the workspace has no assessment result yet');
      sendResource(res, 200, assessmentResource(r));
    },

    async show(req: Req, res: Response) {
      const r = await findAssessment(db, req.params.id);
      if (!r) throw new NotFound();
      await workspaceScopeById(db, res.locals.principal, r.workspace_id);
      sendResource(res, 200, assessmentResource(r));
    },
  };
}
