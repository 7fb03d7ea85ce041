import type { Db } from '../platform/db.js';
import type { PolicyEvaluationRow, PolicySetOutcomeRow } from './evaluations.repo.js';
import { fetchPage, type Page } from '../platform/page.js';

export { evaluationsOfStages, findPolicyEvaluation } from './evaluations.repo.js';

/** One page of a stage's policy evaluations, by kind. */
export const evaluationPage = (db: Db, stageId: string, page: Page) =>
  fetchPage<PolicyEvaluationRow>(
    db<PolicyEvaluationRow>('policy_evaluations')
      .where({ task_stage_id: stageId })
      .orderBy('policy_kind')
      .orderBy('id'),
    page,
  );

export const findSetOutcome = (db: Db, id: string) =>
  db<PolicySetOutcomeRow>('policy_set_outcomes').where({ id }).first();

/** An evaluation's set outcomes, in the order they were recorded. */
export const setOutcomesOf = (db: Db, evaluationId: string): Promise<PolicySetOutcomeRow[]> =>
  db<PolicySetOutcomeRow>('policy_set_outcomes').where({ policy_evaluation_id: evaluationId }).orderBy('position');

/** The statuses of the given runs, by id. */
export async function runStatuses(db: Db, runIds: string[]): Promise<Map<string, string>> {
  if (!runIds.length) return new Map();
  const rows = (await db('runs')
    .whereIn('id', [...new Set(runIds)])
    .select('id', 'status')) as { id: string; status: string }[];
  return new Map(rows.map((r) => [r.id, r.status]));
}

/** The set outcome ids of the given evaluations, in order, by evaluation id. */
export async function setOutcomeIdsOf(db: Db, evaluationIds: string[]): Promise<Map<string, string[]>> {
  const ids = new Map(evaluationIds.map((id) => [id, [] as string[]]));
  if (!evaluationIds.length) return ids;
  const rows = (await db('policy_set_outcomes')
    .whereIn('policy_evaluation_id', evaluationIds)
    .orderBy('position')
    .select('id', 'policy_evaluation_id')) as { id: string; policy_evaluation_id: string }[];
  for (const r of rows) ids.get(r.policy_evaluation_id)!.push(r.id);
  return ids;
}
