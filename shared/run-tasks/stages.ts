import type { Knex } from 'knex';
import type { Runtime } from '../runtime.js';
import type { Config } from '../platform/config.js';
import { writeAsOneStatement, type Db, type Writes } from '../platform/db.js';
import { encryptSecret, newApiToken, sha256Hex } from '../platform/crypto.js';
import { isFinal } from '../runs/machine.js';
import {
  TASK_STAGES,
  taskResultMachine,
  type TaskResultEvent,
  type TaskStageName,
  type TaskStageStatus,
} from './machine.js';
import type { FollowUp, RunLifecycle, RunMoves } from '../runs/lifecycle.js';
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
  type ResultWithRun,
  type TaskStageRow,
} from './repo.js';
import type { RunRow } from '../runs/repo.js';
import {
  callbackRun,
  lastResultWrites,
  lockStage,
  runHasOpenStage,
  stageClosed,
  stagePending,
  stagesOfRunIn,
  workspaceHasTasks,
} from './stages.repo.js';
import { resumeAfterStage, stagesAfterStage, transitionRun, afterMove } from '../runs/index.js';
import { runGate, type SettledStageGate } from '../runs/gates.js';
import { enqueueAllAfterCommit, jobs } from '../platform/queues.js';

/**
 * Triggers a stage the run has reached: each result gets its access token (hashed for lookup,
 * sealed for re-delivery), its deadline and a pending delivery, and their dispatch and deadline
 * jobs are left for the commit. 'pass' when the stage has no tasks. Three statements.
 */
async function enterTaskStage(
  tx: Db,
  config: Config,
  evaluations: StageEvaluations,
  run: RunRow,
  stage: TaskStageName,
  leave: (work: FollowUp) => void,
): Promise<'pass' | 'wait'> {
  const ts = await lockStageOfRun(tx, run.id, stage);
  if (!ts || ts.status !== 'pending') return 'pass';
  if (!ts.result_ids.length) {
    // A stage may also hold policy evaluations (post-plan): the policy area's hook starts them.
    if (await evaluations.held(tx, ts.id)) {
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
        started.flatMap((r) => [
          jobs.taskDispatch(r.id, organization, r.dispatch_attempts + 1),
          jobs.taskDeadline(r.id, deadline.getTime() - Date.now()),
        ]),
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
async function closeStages(tx: Db, evaluations: StageEvaluations, runId: string): Promise<void> {
  const stages = await stagesOfRunIn(tx, runId, OPEN_STAGE);
  for (const ts of stages) {
    if (ts.status === 'awaiting_override') {
      await setStageStatus(tx, ts.id, 'failed', ['awaiting_override']);
      continue;
    }
    const event: TaskResultEvent = ts.status === 'pending' ? 'skip' : 'cancel';
    for (const r of await resultsOfStage(tx, ts.id)) await moveTaskResult(tx, r.id, event);
    await evaluations.close(tx, ts.id, event);
    await setStageStatus(tx, ts.id, ts.status === 'pending' ? 'unreachable' : 'canceled', [ts.status]);
  }
}

const OPEN_STAGE: TaskStageStatus[] = ['pending', 'running', 'awaiting_override'];

/**
 * The policy evaluations a task stage may hold beside its tasks. The policies feature provides
 * them, since it builds on run tasks' stages.
 */
export interface StageEvaluations {
  /** Whether the stage holds any evaluation. */
  held(tx: Db, stageId: string): Promise<boolean>;
  /** Skips (stage never entered) or cancels the stage's evaluations as its run ends. */
  close(tx: Db, stageId: string, event: Extract<TaskResultEvent, 'skip' | 'cancel'>): Promise<void>;
}

/** Wires run tasks into a run lifecycle: snapshots, stage hooks, clean-up, dispatch. */
export function registerRunTasks(lifecycle: RunLifecycle, config: Config, evaluations: StageEvaluations): void {
  lifecycle.onRunTransition(
    async (tx, change) => {
      if (change.event === 'create') await createStagesForRun(tx, change.run);
      if (isFinal(change.to)) await closeStages(tx, evaluations, change.run.id);
    },
    (db, move, row) => {
      if (move.event === 'create') return workspaceHasTasks(db, row);
      if (isFinal(move.to)) return runHasOpenStage(db, row);
      return null;
    },
  );
  for (const stage of TASK_STAGES) {
    lifecycle.registerStageHook(
      stage,
      (tx, run, leave) => enterTaskStage(tx, config, evaluations, run, stage, leave),
      (db, runId) => stagePending(db, runId, stage),
    );
  }
}

/**
 * Completes a stage whose results and evaluations all have a verdict, and moves its run on (same
 * transaction): on when it passed, errored when it failed, waiting for a decision
 * (`post_plan_awaiting_decision`) when policy evaluations failed in a way a user may override. A
 * plan-only run cannot be overridden: its stage fails instead.
 */
export async function completeStageIfDone(m: RunMoves, stageId: string): Promise<RunRow | undefined> {
  return completeLockedStage(m, await lockStage(m.tx, stageId));
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
  const questions = stagesAfterStage(ts.stage).flatMap((stage) =>
    m.lifecycle.stageInterestColumns(tx, stage, ts.run_id),
  );
  const read = await lockRunWithVerdicts(tx, ts.run_id, ts.id, questions);
  if (!read) return undefined;
  const { row: run, answers } = m.lifecycle.splitStageInterest(read.run);
  const gate = runGate({ at: 'task_stage', stage: ts.stage, planOnly: run.plan_only, ...read.verdicts });
  if (!gate.closeStage) return undefined;
  const closing: Writes = [['closed_stage', stageStatusUpdate(tx, ts.id, gate.closeStage, ['running'])]];
  if (run.status !== `${ts.stage}_running`) {
    await writeAsOneStatement(tx, closing);
    return undefined;
  }
  return leaveStage(m, run, ts.stage, gate, answers, { along: closing });
}

/**
 * Moves a run waiting in `<stage>_running` on as its stage's gate decided (see completeStageIfDone),
 * in one statement carrying `along`, which happens whether or not the run moves; the move is made
 * only when `onlyIf` holds. Undefined when the run was not moved.
 */
function leaveStage(
  m: RunMoves,
  run: RunRow,
  stage: TaskStageName,
  gate: SettledStageGate,
  answers: Record<string, unknown>,
  opts: { along: Writes; onlyIf?: Knex.Raw },
): Promise<RunRow | undefined> {
  const { along, onlyIf } = opts;
  switch (gate.gate) {
    case 'wait':
      return transitionRun(m, run, 'await_post_plan_decision', {
        description: 'policies failed: waiting for an override or a discard',
        with: along,
        onlyIf,
      });
    case 'stop':
      return transitionRun(m, run, 'error', {
        description: gate.reason,
        changes: { error_message: gate.reason },
        with: along,
        onlyIf,
      });
    case 'go':
      return resumeAfterStage(m, run, stage, gate.note ?? null, along, answers, onlyIf);
  }
}

/** What a callback's authentication read (see taskResultWithRun), with whether the stages after the result's concern their hooks. */
export interface CallbackContext extends ResultWithRun {
  answers: Record<string, unknown>;
}

/** The columns a callback's authentication reads beside the run (named `r`): whether each stage a task stage may lead to concerns its hooks. */
export function callbackQuestions(lifecycle: RunLifecycle, db: Db): Knex.Raw[] {
  const next = new Set(TASK_STAGES.flatMap((stage) => stagesAfterStage(stage)));
  return [...next].flatMap((stage) => lifecycle.stageInterestColumns(db, stage, callbackRun(db)));
}

/** What a final result's settling read no longer holds: its transaction is rolled back and the locking way is taken. */
class Stale extends Error {}

/**
 * Settles a final result that leaves nothing else open in its stage, by what the callback's
 * authentication read (`known`): the result's move, the stage's end and the run's move are one
 * statement, whose run move happens only when the result and the stage moved (compare-and-set on
 * each). The results and evaluations read final stay final, so the stage's outcome decided from
 * them holds. Null, and the caller takes the locking way, when `known` does not allow it or when
 * anything moved meanwhile (the transaction is then rolled back).
 */
async function settleLastResult(
  rt: Runtime,
  known: CallbackContext,
  event: TaskResultEvent,
  changes: { message?: string | null; url?: string | null },
  extra?: (tx: Db, resultId: string) => Promise<void>,
): Promise<{ run: RunRow; followUps: FollowUp[] } | null> {
  const { result, stage, run } = known;
  const to = taskResultMachine.moves[event].to;
  if (!isFinalResult(to) || !taskResultMachine.sources(event).includes(result.status)) return null;
  if (stage.status !== 'running' || run.status !== `${stage.stage}_running`) return null;
  const results = known.verdicts.results.map((r) => (r.id === result.id ? { ...r, status: to } : r));
  const gate = runGate({
    at: 'task_stage',
    stage: stage.stage,
    planOnly: run.plan_only,
    results,
    evaluations: known.verdicts.evaluations,
  });
  if (!gate.closeStage) return null;
  try {
    const [moved, followUps] = await rt.lifecycle.transaction(rt.db, async (m) => {
      const along = lastResultWrites(m.tx, result.id, event, changes, stage.id, gate.closeStage);
      const next = await leaveStage(m, run, stage.stage, gate, known.answers, { along, onlyIf: stageClosed(m.tx) });
      if (!next) throw new Stale();
      if (extra) await extra(m.tx, result.id);
      return next;
    });
    return { run: moved, followUps };
  } catch (err) {
    if (err instanceof Stale) return null;
    throw err;
  }
}

/**
 * Moves a task result (callback, deadline) with compare-and-set, lets `extra` write alongside
 * (outcomes), completes the stage when this was its last open result, then follows the run up.
 * False when the result was already final: exactly one final status wins. `known`: what a
 * callback's authentication read, from which a last result settles in one statement (see
 * settleLastResult); without it, or when it no longer holds, the result's move locks the stage
 * and the stage's verdicts are read under that lock.
 */
export async function settleTaskResult(
  rt: Runtime,
  resultId: string,
  event: TaskResultEvent,
  changes: { message?: string | null; url?: string | null } = {},
  extra?: (tx: Db, resultId: string) => Promise<void>,
  known?: CallbackContext,
): Promise<boolean> {
  const last = known && (await settleLastResult(rt, known, event, changes, extra));
  if (last) {
    await afterMove(rt, last.run, last.followUps);
    return true;
  }
  const [{ result, run }, followUps] = await rt.lifecycle.transaction(rt.db, async (m) => {
    // A final result may complete its stage: its move locks the stage's row too.
    if (!isFinalResult(taskResultMachine.moves[event].to)) {
      const moved = await moveTaskResult(m.tx, resultId, event, changes);
      if (moved && extra) await extra(m.tx, moved.id);
      return { result: moved, run: undefined };
    }
    const moved = await moveTaskResultLockingStage(m.tx, resultId, event, changes);
    if (!moved) return { result: undefined, run: undefined };
    if (extra) await extra(m.tx, moved.result.id);
    return { result: moved.result, run: await completeLockedStage(m, moved.stage) };
  });
  if (run) await afterMove(rt, run, followUps);
  return result !== undefined;
}

const isFinalResult = (status: string) => status !== 'pending' && status !== 'running';
