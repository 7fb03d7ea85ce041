/** What a health assessment found, from `terraform show -json` of a refresh-only plan. */
export interface AssessmentFindings {
  drifted: boolean;
  resources_drifted: number;
  resources_undrifted: number;
  checks_passed: number;
  checks_failed: number;
  checks_errored: number;
  checks_unknown: number;
}

interface Change {
  address?: string;
  mode?: string;
  change?: { actions?: string[] };
}

interface PlanJson {
  resource_drift?: Change[];
  resource_changes?: Change[];
  prior_state?: { values?: { root_module?: Module } };
  checks?: { status?: string }[];
}
interface Module {
  resources?: { mode?: string }[];
  child_modules?: Module[];
}

const managed = (m: Module | undefined): number =>
  (m?.resources ?? []).filter((r) => r.mode === 'managed').length +
  (m?.child_modules ?? []).reduce((n, c) => n + managed(c), 0);

/**
 * A managed resource is drifted when refresh found it changed outside Terraform (`resource_drift`)
 * or its configuration no longer matches the state (a planned change): TFE defines
 * drifted resources as those whose configuration does not match the state file. Checks come from
 * the `checks` statuses (pass, fail, error, unknown).
 */
export function assessmentFindings(plan: PlanJson): AssessmentFindings {
  const changed = (plan.resource_changes ?? []).filter(
    (c) => c.mode !== 'data' && (c.change?.actions ?? []).some((a) => a !== 'no-op' && a !== 'read'),
  );
  const addresses = new Set(
    [...(plan.resource_drift ?? []), ...changed].filter((c) => c.mode !== 'data').map((c) => c.address ?? ''),
  );
  const drifted = addresses.size;
  const total = managed(plan.prior_state?.values?.root_module);
  const count = (status: string) => (plan.checks ?? []).filter((c) => c.status === status).length;
  return {
    drifted: drifted > 0,
    resources_drifted: drifted,
    resources_undrifted: Math.max(0, total - drifted),
    checks_passed: count('pass'),
    checks_failed: count('fail'),
    checks_errored: count('error'),
    checks_unknown: count('unknown'),
  };
}

/** The assessment triggers a new result fires. */
export function assessmentTriggers(r: { succeeded: boolean } & AssessmentFindings): string[] {
  if (!r.succeeded) return ['assessment:failed'];
  return [
    ...(r.drifted ? ['assessment:drifted'] : []),
    ...(r.checks_failed + r.checks_errored > 0 ? ['assessment:check_failure'] : []),
  ];
}
