import { iso, one, type Resource } from '../jsonapi.js';
import type { PolicyCheckRow } from '../../shared/repos/policy-checks.js';

/** A policy check; terraform requires `actions` and `permissions`. */
export function policyCheckResource(check: PolicyCheckRow, canOverride: boolean): Resource {
  return {
    type: 'policy-checks',
    id: check.id,
    attributes: {
      status: check.status,
      scope: check.scope,
      result: check.result,
      'status-timestamps': check.status_timestamps,
      actions: { 'is-overridable': check.status === 'soft_failed' && check.is_overridable },
      permissions: { 'can-override': canOverride },
      'created-at': iso(check.created_at),
    },
    relationships: { run: one('runs', check.run_id) },
    links: { self: `/api/v2/policy-checks/${check.id}`, output: `/api/v2/policy-checks/${check.id}/output` },
  };
}
