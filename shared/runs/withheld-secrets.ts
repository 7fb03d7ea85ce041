import type { Db } from '../platform/db.js';
import { withholdsSecretsFromPlanAccess } from '../organizations/index.js';

/**
 * Whether a run being queued gets none of its workspace's secrets (its sensitive variables, its
 * state, its SSH key, a run token that reads anything of the API): a speculative run queued by a
 * caller who may queue plans but not apply, in an organization that withholds them from such runs
 * (`speculative-runs-withhold-secrets`). Decided once, as the run is queued, and kept on the run;
 * the organization is read only for such a run.
 */
export async function secretsWithheldFrom(
  db: Db,
  organizationName: string,
  run: { planOnly: boolean; planAccessOnly: boolean },
): Promise<boolean> {
  if (!run.planOnly || !run.planAccessOnly) return false;
  return withholdsSecretsFromPlanAccess(db, organizationName);
}

/** The line a phase's log starts with when its run's secrets are withheld, naming the sensitive variables not given (names only). */
export function secretsWithheldLine(variables: readonly string[]): string {
  const named = variables.length ? ` Sensitive variables not given: ${variables.join(', ')}.` : '';
  return (
    "Secrets withheld by the organization's setting (speculative-runs-withhold-secrets): this speculative plan was queued with plan access only, " +
    `so it gets no sensitive variables, no state, no SSH key and a run token that reads nothing of the API.${named}\n`
  );
}
