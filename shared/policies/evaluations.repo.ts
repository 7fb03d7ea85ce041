import type { Knex } from 'knex';
import { asJson, type Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import {
  policyEvaluationMachine,
  type PolicyEvaluationEvent,
  type PolicyEvaluationStatus,
  type PolicyResultCount,
} from './evaluations.machine.js';
import type { PolicyKind } from './rules.js';

export interface PolicyEvaluationRow {
  id: string;
  run_id: string;
  task_stage_id: string;
  policy_kind: PolicyKind;
  status: PolicyEvaluationStatus;
  policy_set_ids: string[];
  is_overridable: boolean;
  result_count: PolicyResultCount;
  status_timestamps: Record<string, string>;
  overridden_by_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** One policy's result as a set outcome lists it (the keys are snake_case, as TFE's). */
export interface PolicyOutcomeEntry {
  enforcement_level: string;
  query: string | null;
  status: 'passed' | 'failed' | 'errored';
  policy_name: string;
  description: string | null;
  /** What the policy said: OPA's messages, Sentinel's print output (as TFE's `output`). */
  output: { print: string }[];
}

export interface PolicySetOutcomeRow {
  id: string;
  policy_evaluation_id: string;
  position: number;
  policy_set_id: string | null;
  policy_set_name: string;
  policy_set_description: string | null;
  overridable: boolean;
  error: string | null;
  outcomes: PolicyOutcomeEntry[];
  result_count: PolicyResultCount;
  created_at: Date;
}

export type NewSetOutcome = Omit<PolicySetOutcomeRow, 'id' | 'policy_evaluation_id' | 'position' | 'created_at'>;

export const findPolicyEvaluation = (db: Db, id: string) =>
  db<PolicyEvaluationRow>('policy_evaluations').where({ id }).first();

/** The evaluations of a run. */
export const evaluationsOfRun = (db: Db, runId: string): Promise<PolicyEvaluationRow[]> =>
  db<PolicyEvaluationRow>('policy_evaluations').where({ run_id: runId }).orderBy('policy_kind');

/** The evaluations of the given stages, by kind. */
export async function evaluationsOfStages(db: Db, stageIds: string[]): Promise<PolicyEvaluationRow[]> {
  return stageIds.length
    ? db<PolicyEvaluationRow>('policy_evaluations').whereIn('task_stage_id', stageIds).orderBy('policy_kind')
    : [];
}

/** Creates an evaluation of `kind` in the stage for the sets named (pending until the stage is entered). */
export async function insertPolicyEvaluation(
  db: Db,
  attrs: { run_id: string; task_stage_id: string; policy_kind: PolicyKind; policy_set_ids: string[] },
): Promise<PolicyEvaluationRow> {
  const [row] = await db<PolicyEvaluationRow>('policy_evaluations')
    .insert({ id: newId('poleval'), ...attrs, policy_set_ids: asJson(db, attrs.policy_set_ids) })
    .returning('*');
  return row;
}

/** Moves an evaluation with compare-and-set; undefined when it was not in a status the event leaves. */
export async function movePolicyEvaluation(
  db: Db,
  where: { id: string } | { task_stage_id: string },
  event: PolicyEvaluationEvent,
  changes: Partial<Pick<PolicyEvaluationRow, 'is_overridable' | 'overridden_by_id'>> & {
    result_count?: PolicyResultCount;
  } = {},
): Promise<PolicyEvaluationRow[]> {
  const to = policyEvaluationMachine.moves[event].to;
  const stamp = db.raw(`status_timestamps || jsonb_build_object(?::text, ?::text)`, [
    `${to}-at`,
    new Date().toISOString(),
  ]);
  return db<PolicyEvaluationRow>('policy_evaluations')
    .where(where)
    .whereIn('status', policyEvaluationMachine.sources(event) as PolicyEvaluationStatus[])
    .update({
      ...changes,
      ...(changes.result_count ? { result_count: asJson(db, changes.result_count) } : {}),
      status: to,
      updated_at: db.fn.now(),
      status_timestamps: stamp,
    })
    .returning('*');
}

/** Records an evaluation's set outcomes, in order. */
export async function insertSetOutcomes(db: Db, evaluationId: string, outcomes: NewSetOutcome[]): Promise<void> {
  if (!outcomes.length) return;
  await db('policy_set_outcomes').insert(
    outcomes.map((o, position) => ({
      id: newId('psout'),
      policy_evaluation_id: evaluationId,
      position,
      ...o,
      outcomes: asJson(db, o.outcomes),
      result_count: asJson(db, o.result_count),
    })),
  );
}

/** Runs whose post-plan stage has evaluations waiting for a worker, keyed by run id (for pageAfter). */
export const runsWithQueuedEvaluations = (db: Db): Knex.QueryBuilder =>
  db('policy_evaluations as e')
    .join('runs as r', 'r.id', 'e.run_id')
    .where({ 'e.status': 'queued', 'r.status': 'post_plan_running' })
    .distinct('e.run_id as key');
