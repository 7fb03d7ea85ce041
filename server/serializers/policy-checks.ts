import { iso, one, type Resource } from '../jsonapi.js';
import type { PolicyCheckRow } from '../../shared/repos/policy-checks.js';
import { overridableNow } from '../../shared/domain/policy-check.js';

/**
 * A policy check; terraform requires `actions` and `permissions`. `is-overridable` is true only
 * while the check can be overridden (its run waits in policy_override); `can-override` also needs
 * the caller's manage-policy-overrides (`mayOverride`).
 */
export function policyCheckResource(check: PolicyCheckRow, runStatus: string, mayOverride: boolean): Resource {
  const overridable = overridableNow(check, runStatus);
  return {
    type: 'policy-checks',
    id: check.id,
    attributes: {
      status: check.status,
      scope: check.scope,
      result: check.result,
      'status-timestamps': check.status_timestamps,
      actions: { 'is-overridable': overridable },
      permissions: { 'can-override': mayOverride && overridable },
      'created-at': iso(check.created_at),
    },
    relationships: { run: one('runs', check.run_id) },
    links: { self: `/api/v2/policy-checks/${check.id}`, output: `/api/v2/policy-checks/${check.id}/output` },
  };
}
