import { ApiError, NotFound } from '../platform/errors.js';
import { redactedObjectOf, setPlanRedacted, type PlanRow } from '../runs/index.js';
import type { Runtime } from '../runtime.js';
import { readAll } from '../platform/store/postgres-store.js';

/** A plan's JSON form was not stored: it exceeded MAX_PLAN_JSON_BYTES, or reached the largest file a run may write, when the plan ran. */
class PlanJsonOmitted extends ApiError {
  constructor(size: number) {
    super(
      'invalid',
      'unprocessable entity',
      `The JSON plan of this run was not stored: at ${size} bytes it exceeded a limit of the service when the plan ran (MAX_PLAN_JSON_BYTES, or RUN_DISK_LIMIT_MB for the largest file a run may write). ` +
        'The plan itself was saved; its log says the same.',
    );
  }
}

/** The stored JSON plan of `plan` (`terraform show -json`, sensitive values included): its object id. */
export function planJsonObject(plan: PlanRow): string {
  if (plan.json_omitted_bytes !== null) throw new PlanJsonOmitted(Number(plan.json_omitted_bytes));
  if (!plan.json_object_id) throw new NotFound('the plan has no JSON output yet');
  return plan.json_object_id;
}

/**
 * The object holding `plan`'s redacted JSON plan (see structuredPlan). Plans store it when they
 * finish; one stored before that (with its JSON but no redacted form) gets it made on the first
 * request, on a thread (see PlanDigester), never in the event loop that serves requests, and stored,
 * so later requests are served as any other. Two processes doing so at once store one of them.
 */
export async function redactedPlanObject(rt: Runtime, plan: PlanRow): Promise<string> {
  const jsonId = planJsonObject(plan);
  if (plan.redacted_object_id) return plan.redacted_object_id;
  // Concurrent requests for one plan in this process share one redaction.
  return rt.redactingPlans.run(plan.id, () => redactStored(rt, plan, jsonId));
}

async function redactStored(rt: Runtime, plan: PlanRow, jsonId: string): Promise<string> {
  const [json, schemas] = await Promise.all([
    readAll(rt.store, jsonId),
    plan.schemas_object_id ? readAll(rt.store, plan.schemas_object_id) : null,
  ]);
  if (!json) throw new NotFound('the plan has no JSON output yet');
  const { redacted } = await rt.planDigests.digest({ plan: json, schemas });
  const lost = new Error('another process stored the redacted plan first');
  const stored = await rt.db
    .transaction(async (tx) => {
      const object = await rt.store.put(tx, redacted, { contentType: 'application/json', prefix: 'planredacted' });
      // Another process stored one first: this one is rolled back and theirs served.
      if (!(await setPlanRedacted(tx, plan.id, object.id))) throw lost;
      return object.id;
    })
    .catch((err: unknown) => (err === lost ? redactedObjectOf(rt.db, plan.id) : Promise.reject(err)));
  if (!stored) throw new NotFound('the plan has no JSON output');
  return stored;
}
