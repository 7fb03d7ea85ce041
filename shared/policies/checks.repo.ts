import { asJson, type Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import {
  policyCheckMachine,
  type PolicyCheckEvent,
  type PolicyCheckScope,
  type PolicyCheckStatus,
} from './checks.machine.js';

export interface PolicyCheckRow {
  id: string;
  run_id: string;
  scope: PolicyCheckScope;
  status: PolicyCheckStatus;
  policy_set_ids: string[];
  result: Record<string, unknown> | null;
  output: string | null;
  is_overridable: boolean;
  overridden_by_id: string | null;
  status_timestamps: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

export const checksOfRun = (db: Db, runId: string) =>
  db<PolicyCheckRow>('policy_checks').where({ run_id: runId }).orderBy('created_at').orderBy('scope');

/** Inserts a check of `scope` for the sets named, `queued` to be evaluated or `pending` until its run reaches it. */
export async function insertPolicyCheck(
  db: Db,
  runId: string,
  scope: PolicyCheckScope,
  policySetIds: string[],
  status: 'queued' | 'pending' = 'queued',
): Promise<PolicyCheckRow> {
  const [row] = await db<PolicyCheckRow>('policy_checks')
    .insert({
      id: newId('polchk'),
      run_id: runId,
      scope,
      status,
      policy_set_ids: asJson(db, policySetIds),
      status_timestamps: asJson(db, { [`${status}-at`]: new Date().toISOString() }),
    })
    .returning('*');
  return row;
}

/** Compare-and-set move of a check; undefined when it was no longer in a state the event allows. */
export async function movePolicyCheck(
  db: Db,
  id: string,
  event: PolicyCheckEvent,
  changes: Partial<PolicyCheckRow> = {},
): Promise<PolicyCheckRow | undefined> {
  const to = policyCheckMachine.moves[event].to;
  const values: Record<string, unknown> = { ...changes, status: to, updated_at: db.fn.now() };
  if (changes.result !== undefined) values.result = JSON.stringify(changes.result);
  values.status_timestamps = db.raw('status_timestamps || jsonb_build_object(?::text, ?::text)', [
    `${to.replace(/_/g, '-')}-at`,
    new Date().toISOString(),
  ]);
  const [row] = await db<PolicyCheckRow>('policy_checks')
    .where({ id })
    .whereIn('status', policyCheckMachine.sources(event) as PolicyCheckStatus[])
    .update(values)
    .returning('*');
  return row;
}

/** A check's row, locked for update. */
export const lockPolicyCheck = (db: Db, id: string): Promise<PolicyCheckRow | undefined> =>
  db<PolicyCheckRow>('policy_checks').where({ id }).forUpdate().first();

/** Whether the run row named `row` has a check queued or pending (which its end closes). */
export const runHasOpenChecks = (db: Db, row: string) =>
  db.raw(`exists (select 1 from policy_checks c where c.run_id = ??.id and c.status in ('queued', 'pending'))`, [row]);
