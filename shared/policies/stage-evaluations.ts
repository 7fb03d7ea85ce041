import type { Runtime } from '../runtime.js';
import type { Db } from '../platform/db.js';
import { ApiError, NotFound } from '../platform/errors.js';
import { reportsThroughEvaluation, stageOverridableNow } from './evaluations.machine.js';
import type { FollowUp, RunLifecycle } from '../runs/lifecycle.js';
import type { RunRow } from '../runs/repo.js';
import type { TaskStageRow } from '../run-tasks/repo.js';
import type { StageEvaluations } from '../run-tasks/stages.js';
import { setStageStatus, lockStage } from '../run-tasks/index.js';
import { evaluationsOfStages, insertPolicyEvaluation, movePolicyEvaluation } from './evaluations.repo.js';
import {
  ensurePostPlanStage,
  evaluationSetsOf,
  postPlanStageOf,
  rowHasEvaluationSets,
  runHasPendingEvaluations,
  runOfStage,
} from './stage-evaluations.repo.js';
import { lockRun, transitionRun, continueAfterPlan, afterMove } from '../runs/index.js';
import { enqueueAfterCommit, jobs } from '../platform/queues.js';

/*
 * Policy evaluations in the post-plan task stage: how OPA policy sets and agent-enabled Sentinel
 * sets report on a run (legacy Sentinel sets report through policy checks, see checks.ts). The
 * evaluations are created with the run (clients read them from the stage right away), started
 * when the run enters the post-plan stage and evaluated by the run pipeline (evaluation.ts);
 * a failure a user may override holds the run in `post_plan_awaiting_decision` until the stage
 * is overridden or the run discarded.
 */

/**
 * At a run's creation: one pending evaluation per policy kind in its post-plan stage (created
 * when the run tasks made none), naming the sets that apply now.
 */
async function createEvaluations(tx: Db, run: RunRow): Promise<void> {
  const sets = await evaluationSetsOf(tx, run.workspace_id);
  const mine = sets.filter(reportsThroughEvaluation);
  if (!mine.length) return;
  const stage = { id: await ensurePostPlanStage(tx, run.id) };
  for (const kind of ['opa', 'sentinel'] as const) {
    const ofKind = mine.filter((s) => s.kind === kind).map((s) => s.id);
    if (ofKind.length)
      await insertPolicyEvaluation(tx, {
        run_id: run.id,
        task_stage_id: stage.id,
        policy_kind: kind,
        policy_set_ids: ofKind,
      });
  }
}

/** Entering the post-plan stage starts its evaluations: the run waits for them. */
async function startEvaluations(tx: Db, run: RunRow, leave: (work: FollowUp) => void): Promise<'pass' | 'wait'> {
  const stage = await postPlanStageOf(tx, run.id);
  if (!stage) return 'pass';
  if (!(await movePolicyEvaluation(tx, { task_stage_id: stage.id }, 'queue')).length) return 'pass';
  // The run pipeline's `evaluate` step, once the move into the stage has committed.
  leave({
    key: `evaluate-${run.id}`,
    run: (ctx) => enqueueAfterCommit(ctx.queues, jobs.runStep(run.id, 'evaluate'), ctx.logger),
  });
  return 'wait';
}

/**
 * Overrides a stage waiting for an override: its failed evaluations become overridden, the stage
 * passes and the run goes on from `post_plan_completed` (legacy policy checks, then confirmation
 * or, with auto-apply, the apply). A stage that is not waiting, or whose run is not waiting for
 * the decision, is a 409 (`transition not allowed`, as clients match).
 */
export async function overrideTaskStage(
  rt: Runtime,
  stageId: string,
  actorId: string | null,
  comment?: string,
): Promise<TaskStageRow> {
  const [{ stage, run }, followUps] = await rt.lifecycle.transaction(rt.db, async (m) => {
    const { tx } = m;
    // Locks the run before the stage, in the order discard and cancel take them (run, then its stages
    // on closing), so the two cannot deadlock; a stage's run never changes, so reading it unlocked is safe.
    const runOf = await runOfStage(tx, stageId);
    if (!runOf) throw new NotFound('task stage not found');
    const owner = await lockRun(tx, runOf.run_id);
    const ts = await lockStage(tx, stageId);
    if (!ts) throw new NotFound('task stage not found');
    if (!owner || !stageOverridableNow(ts.status, owner.status)) {
      const why = `the task stage is ${ts.status} and its run ${owner?.status ?? 'gone'}; only a stage awaiting an override can be overridden`;
      throw new ApiError('conflict', 'transition not allowed', `transition not allowed: ${why}`);
    }
    await movePolicyEvaluation(tx, { task_stage_id: ts.id }, 'override', {
      overridden_by_id: actorId,
      is_overridable: false,
    });
    const passed = (await setStageStatus(tx, ts.id, 'passed', ['awaiting_override']))!;
    const overridden = await transitionRun(m, owner, 'override_post_plan', {
      actorId,
      description: comment ?? 'policy evaluation overridden',
    });
    return { stage: passed, run: overridden && (await continueAfterPlan(m, overridden)) };
  });
  if (run) await afterMove(rt, run, followUps);
  return stage;
}

/** Wires policy evaluations into a run lifecycle. */
export function registerPolicyEvaluations(lifecycle: RunLifecycle): void {
  lifecycle.onRunTransition(
    async (tx, change) => {
      if (change.event === 'create') await createEvaluations(tx, change.run);
    },
    (db, move, row) => (move.event === 'create' ? rowHasEvaluationSets(db, row) : null),
  );
  lifecycle.registerStageHook('post_plan', startEvaluations, runHasPendingEvaluations);
}

/** The evaluations run tasks' stages hold beside their tasks (see registerRunTasks). */
export const stageEvaluations: StageEvaluations = {
  held: async (tx, stageId) => (await evaluationsOfStages(tx, [stageId])).length > 0,
  close: async (tx, stageId, event) => void (await movePolicyEvaluation(tx, { task_stage_id: stageId }, event)),
};
