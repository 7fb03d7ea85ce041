import type { Knex } from 'knex';
import type { Db } from '../platform/db.js';
import type { PolicyKind } from './rules.js';
import type { TaskStageRow } from '../run-tasks/repo.js';
import { applicableSets } from './repo.js';
import { hasReadyVersion, readyVersionHasPolicies } from './set-versions.repo.js';
import { newId } from '../platform/ids.js';

/*
 * The SQL of the policies' part in a run's stages: the sets that apply to a run, reporting through
 * policy evaluations or policy checks, the post-plan stage holding the evaluations, and the
 * interests their hooks and listener ask.
 */

/** The policy sets with policies that apply to a run of the workspace, reporting through `evaluations` (or through checks). */
export function setsWithPolicies(db: Db, workspaceId: string | Knex.QueryBuilder | Knex.Raw, evaluations: boolean) {
  const organization = db('workspaces').where('id', workspaceId).select('organization_name');
  const through = db.raw(`(s.kind = 'opa' or s.agent_enabled)`);
  // Policies of its own, or (with a ready version) those of its newest ready version's bundle.
  const ownPolicies = db('policy_set_policies as l').whereRaw('l.policy_set_id = s.id');
  return applicableSets(db, organization, workspaceId)
    .where((q) =>
      q
        .where((own) => own.whereExists(ownPolicies).whereNotExists(hasReadyVersion(db)))
        .orWhereExists(readyVersionHasPolicies(db)),
    )
    .where((q) => (evaluations ? q.whereRaw(through) : q.whereNot(through)));
}

/** The sets with policies that report through policy evaluations on a run of the workspace, with their kinds. */
export const evaluationSetsOf = async (db: Db, workspaceId: string) =>
  (await setsWithPolicies(db, workspaceId, true).select('s.id', 's.kind', 's.agent_enabled')) as {
    id: string;
    kind: PolicyKind;
    agent_enabled: boolean;
  }[];

/** The ids of the sets with policies that report through policy checks on a run of the workspace. */
export const checkSetIdsOf = async (db: Db, workspaceId: string): Promise<string[]> =>
  ((await setsWithPolicies(db, workspaceId, false).select('s.id')) as { id: string }[]).map((s) => s.id);

/** Whether a set with policies that reports through policy checks applies to the run `runId`. */
export const runHasCheckSets = (db: Db, runId: string | Knex.Raw): Knex.Raw =>
  db.raw('exists (?)', [
    setsWithPolicies(db, db('runs').where({ id: runId }).select('workspace_id'), false).select(db.raw('1')),
  ]);

/** Whether a set with policies that reports through policy evaluations applies to the run row named `row`. */
export const rowHasEvaluationSets = (db: Db, row: string): Knex.Raw =>
  db.raw('exists (?)', [setsWithPolicies(db, db.raw('??.workspace_id', [row]), true).select(db.raw('1'))]);

/** Whether the run `runId` has a pending policy evaluation. */
export const runHasPendingEvaluations = (db: Db, runId: string | Knex.Raw): Knex.Raw =>
  db.raw(`exists (select 1 from policy_evaluations e where e.run_id = ? and e.status = 'pending')`, [runId]);

/** The run's post-plan stage, made when it has none; its id. */
export async function ensurePostPlanStage(tx: Db, runId: string): Promise<string> {
  await tx('task_stages')
    .insert({ id: newId('ts'), run_id: runId, stage: 'post_plan' })
    .onConflict(['run_id', 'stage'])
    .ignore();
  return (await tx<TaskStageRow>('task_stages').where({ run_id: runId, stage: 'post_plan' }).first('id'))!.id;
}

/** The run's post-plan stage (its id), if it has one. */
export const postPlanStageOf = (db: Db, runId: string) =>
  db<TaskStageRow>('task_stages').where({ run_id: runId, stage: 'post_plan' }).first('id');

/** The run a stage belongs to, if the stage exists. */
export const runOfStage = (db: Db, stageId: string) =>
  db<TaskStageRow>('task_stages').where({ id: stageId }).first('run_id');
