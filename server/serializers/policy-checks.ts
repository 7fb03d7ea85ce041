import { iso, many, one, type Resource } from '../jsonapi.js';
import type { PolicyEvaluationRow, PolicySetOutcomeRow } from '../../shared/policies/evaluations.repo.js';
import type { PolicyCheckRow } from '../../shared/policies/checks.repo.js';
import { overridableNow } from '../../shared/policies/index.js';

/**
 * A policy check; terraform requires `actions` and `permissions`. `is-overridable` is true only
 * while the check can be overridden (its run waits in policy_override); `can-override` is the
 * caller's manage-policy-overrides (`mayOverride`) whatever the check's state, as TFE answers it.
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
      permissions: { 'can-override': mayOverride },
      'created-at': iso(check.created_at),
    },
    relationships: { run: one('runs', check.run_id) },
    links: { self: `/api/v2/policy-checks/${check.id}`, output: `/api/v2/policy-checks/${check.id}/output` },
  };
}

/** A policy evaluation of a task stage; `result-count` is always present (terraform dereferences it). */
export function policyEvaluationResource(e: PolicyEvaluationRow, setOutcomeIds: string[]): Resource {
  return {
    type: 'policy-evaluations',
    id: e.id,
    attributes: {
      status: e.status,
      'policy-kind': e.policy_kind,
      'policy-tool-version': 'latest',
      'status-timestamps': e.status_timestamps,
      'result-count': e.result_count,
      'created-at': iso(e.created_at),
      'updated-at': iso(e.updated_at),
    },
    relationships: {
      'policy-attachable': one('task-stages', e.task_stage_id),
      'policy-set-outcomes': {
        ...many('policy-set-outcomes', setOutcomeIds),
        links: { related: `/api/v2/policy-evaluations/${e.id}/policy-set-outcomes` },
      },
    },
    links: { self: `/api/v2/policy-evaluations/${e.id}` },
  };
}

/** A policy set's outcome in an evaluation: `result_count` as go-tfe reads it, `result-count` as the docs show it. */
export function policySetOutcomeResource(o: PolicySetOutcomeRow): Resource {
  return {
    type: 'policy-set-outcomes',
    id: o.id,
    attributes: {
      outcomes: o.outcomes,
      error: o.error,
      overridable: o.overridable,
      'policy-set-name': o.policy_set_name,
      'policy-set-description': o.policy_set_description,
      result_count: o.result_count,
      'result-count': o.result_count,
    },
    relationships: { 'policy-evaluation': one('policy-evaluations', o.policy_evaluation_id) },
    links: { self: `/api/v2/policy-set-outcomes/${o.id}` },
  };
}
