import type { Runtime } from '../runtime.js';
import type { Config } from '../config.js';
import { runWrites, type Db, type Writes } from '../db.js';
import { encryptSecret, newApiToken, sha256Hex } from '../crypto.js';
import { isFinal } from '../domain/run.js';
import { stageOutcome, TASK_STAGES, taskResultMachine, type TaskResultEvent, type TaskStageName, type TaskStageStatus } from '../domain/run-task.js';
import type { FollowUp, RunLifecycle, RunMoves } from '../run-lifecycle.js';
import {
  createStagesForRun,
  lockRunWithVerdicts,
  lockStageOfRun,
  moveTaskResult,
  moveTaskResultLockingStage,
  resultsOfStage,
  setStageStatus,
  stageStatusUpdate,
  startStage,
  type StageVerdicts,
  type TaskResultRow,
  type TaskStageRow,
} from '../repos/run-tasks.js';
import type { RunRow } from '../repos/runs.js';
import { resumeAfterStage, stagesAfterStage } from '../usecases/run-progress.js';
import { transitionRun } from '../usecases/run-moves.js';
import { evaluationsOfStages, movePolicyEvaluation } from '../repos/policy-evaluations.js';
import { afterMove } from '../usecases/runs.js';
import { enqueueAllAfterCommit, jobs } from '../queues.js';

/**
 * Triggers a stage the run has reached: each result gets its access token (hashed for lookup,
 * sealed for re-delivery), its deadline and a pending delivery, and their dispatch and deadline
 * jobs are left for the commit. 'pass' when the stage has no tasks. Three statements.
 */
async function enterTaskStage(tx: Db, config: Config, run: RunRow, stage: TaskStageName, leave: (work: FollowUp) => void): Promise<'pass' | 'wait'> {
  const ts = await lockStageOfRun(tx, run.id, stage);
  if (!ts || ts.status !== 'pending') return 'pass';
  if (!ts.result_ids.length) {
    // A stage may also hold policy evaluations (post-plan): the policy area's hook starts them.
    if ((await evaluationsOfStages(tx, [ts.id])).length) {
      await setStageStatus(tx, ts.id, 'running', ['pending']);
      return 'wait';
    }
    await setStageStatus(tx, ts.id, 'passed', ['pending']);
    return 'pass';
  }
  const deadline = new Date(Date.now() + config.runTaskDeadlineSeconds * 1000);
  const tokens = ts.result_ids.map((id) => {
    const token = newApiToken();
    return { id, digest: sha256Hex(token), sealed: encryptSecret(config.encryptionKey, token) };
  });
  const started = await startStage(tx, ts.id, tokens, deadline);
  const organization = ts.organization_name;
  leave({
    key: `task-stage-${ts.id}`,
    run: (ctx) =>
      enqueueAllAfterCommit(
        ctx.queues,
        started.flatMap((r) => [jobs.taskDispatch(r.id, organization, r.dispatch_attempts + 1), jobs.taskDeadline(r.id, deadline.getTime() - Date.now())]),
        ctx.logger,
      ),
  });
  return 'wait';
}

/**
 * When a run ends: stages never reached are unreachable; stages in progress are canceled with
 * their results and evaluations; a stage that waited for an override which never came (the run
 * was discarded) failed.
 */
async function closeStages(tx: Db, runId: string): Promise<void> {
  const stages = await tx<TaskStageRow>('task_stages').where({ run_id: runId }).whereIn('status', OPEN_STAGE);
  for (const ts of stages) {
    if (ts.status === 'awaiting_override') {
      await setStageStatus(tx, ts.id, 'failed', ['awaiting_override']);
      continue;
    }
    const event: TaskResultEvent = ts.status === 'pending' ? 'skip' : 'cancel';
    for (const r of await resultsOfStage(tx, ts.id)) await moveTaskResult(tx, r.id, event);
    await movePolicyEvaluation(tx, { task_stage_id: ts.id }, event);
    await setStageStatus(tx, ts.id, ts.status === 'pending' ? 'unreachable' : 'canceled', [ts.status]);
  }
}

const OPEN_STAGE: TaskStageStatus[] = ['pending', 'running', 'awaiting_override'];

/** Wires run tasks into a run lifecycle: snapshots, stage hooks, clean-up, dispatch. */
export function runTaskParts(lifecycle: RunLifecycle, config: Config): void {
  lifecycle.onRunTransition(
    async (tx, change) => {
      if (change.event === 'create') await createStagesForRun(tx, change.run);
      if (isFinal(change.to)) await closeStages(tx, change.run.id);
    },
    (db, move, row) => {
      if (move.event === 'create') {
        return db.raw(
          `exists (select 1 from workspace_tasks wt where wt.workspace_id = ??.workspace_id)
           or exists (select 1 from tasks t join workspaces w on w.organization_name = t.organization_name where w.id = ??.workspace_id and t.enabled and t.global_enabled)`,
          [row, row],
        );
      }
      if (isFinal(move.to)) return db.raw(`exists (select 1 from task_stages s where s.run_id = ??.id and s.status in ('pending', 'running', 'awaiting_override'))`, [row]);
      return null;
    },
  );
  for (const stage of TASK_STAGES) {
    lifecycle.registerStageHook(
      stage,
      (tx, run, leave) => enterTaskStage(tx, config, run, stage, leave),
      (db, runId) => db.raw(`exists (select 1 from task_stages s where s.run_id = ? and s.stage = ? and s.status = 'pending')`, [runId, stage]),
    );
  }
}

/** Why a failed stage stops its run, for the run event and error message. */
function failureReason(stage: TaskStageName, results: StageVerdicts['results']): string {
  const failed = results.filter((r) => r.enforcement_level === 'mandatory' && (r.status === 'failed' || r.status === 'errored'));
  const names = failed.map((r) => `${r.task_name} (${r.status})`).join(', ');
  return `the run failed because the mandatory run task ${names} in stage ${stage} did not pass`;
}

/** Why a stage's policy evaluations stop its run. */
const POLICY_FAILURE = 'the run failed because a mandatory policy in stage post_plan failed or could not be evaluated';
const PLAN_ONLY_OVERRIDE = 'a mandatory policy in stage post_plan failed; a plan-only run cannot be overridden';

/**
 * Completes a stage whose results and evaluations all have a verdict, and moves its run on (same
 * transaction): on when it passed, errored when it failed, waiting for a decision
 * (`post_plan_awaiting_decision`) when policy evaluations failed in a way a user may override. A
 * plan-only run cannot be overridden: its stage fails instead.
 */
export async function completeStageIfDone(m: RunMoves, stageId: string): Promise<RunRow | undefined> {
  return completeLockedStage(m, await m.tx<TaskStageRow>('task_stages').where({ id: stageId }).forUpdate().first());
}

/**
 * completeStageIfDone for a stage whose row the caller has locked (`ts`, as read under the lock).
 * Its run's row is locked and its results and evaluations read in one statement; the stage's new
 * status is written by the statement that moves the run on.
 */
async function completeLockedStage(m: RunMoves, ts: TaskStageRow | undefined): Promise<RunRow | undefined> {
  const { tx } = m;
  if (!ts || ts.status !== 'running') return undefined;
  // Whether the stages the run may enter next concern their hooks is asked by the same statement.
  const questions = stagesAfterStage(ts.stage).flatMap((stage) => m.lifecycle.stageInterestColumns(tx, stage, ts.run_id));
  const read = await lockRunWithVerdicts(tx, ts.run_id, ts.id, questions);
  if (!read) return undefined;
  const { verdicts } = read;
  const { row: run, answers } = m.lifecycle.takeStageAnswers(read.run);
  const outcome = stageOutcome(verdicts.results, verdicts.evaluations);
  if (outcome === 'running') return undefined;
  const decision = outcome === 'awaiting_override' && !run.plan_only;
  const closing: Writes = [['closed_stage', stageStatusUpdate(tx, ts.id, outcome === 'awaiting_override' && !decision ? 'failed' : outcome, ['running'])]];
  if (run.status !== `${ts.stage}_running`) {
    await runWrites(tx, closing);
    return undefined;
  }
  if (decision) return transitionRun(m, run, 'await_post_plan_decision', { description: 'policies failed: waiting for an override or a discard', with: closing });
  const taskFailed = stageOutcome(verdicts.results) === 'failed';
  const reason = taskFailed ? failureReason(ts.stage, verdicts.results) : outcome === 'awaiting_override' ? PLAN_ONLY_OVERRIDE : POLICY_FAILURE;
  return resumeAfterStage(m, run, ts.stage, outcome === 'passed', reason, closing, answers);
}

/**
 * Moves a task result (callback, deadline) with compare-and-set, lets `extra` write alongside
 * (outcomes), completes the stage when this was its last open result, then follows the run up.
 * Returns undefined when the result was already final: exactly one final status wins.
 */
export async function settleTaskResult(
  rt: Runtime,
  resultId: string,
  event: TaskResultEvent,
  changes: { message?: string | null; url?: string | null } = {},
  extra?: (tx: Db, result: TaskResultRow) => Promise<void>,
): Promise<TaskResultRow | undefined> {
  const [{ result, run }, followUps] = await rt.lifecycle.transaction(rt.db, async (m) => {
    // A final result may complete its stage: its move locks the stage's row too.
    if (!isFinalResult(taskResultMachine.moves[event].to)) {
      const moved = await moveTaskResult(m.tx, resultId, event, changes);
      if (moved && extra) await extra(m.tx, moved);
      return { result: moved, run: undefined };
    }
    const moved = await moveTaskResultLockingStage(m.tx, resultId, event, changes);
    if (!moved) return { result: undefined, run: undefined };
    if (extra) await extra(m.tx, moved.result);
    return { result: moved.result, run: await completeLockedStage(m, moved.stage) };
  });
  if (run) await afterMove(rt, run, followUps);
  return result;
}

const isFinalResult = (status: string) => status !== 'pending' && status !== 'running';
