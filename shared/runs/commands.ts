import type { Knex } from 'knex';
import { insertComment, type CommentRow } from './comments.repo.js';
import type { Runtime } from '../runtime.js';
import { isUniqueViolation, type Db } from '../platform/db.js';
import { Conflict } from '../platform/errors.js';
import { CONFIRMABLE, EXECUTING, isFinal, runMachine } from './machine.js';
import {
  CANDIDATE,
  countUnfinishedSpeculativeRuns,
  findRun,
  sealRunVariables,
  insertQueuedRunIf,
  insertRunEvent,
  organizationOfRun,
  type MoveOptions,
  type NewRun,
  type QueuedRunIds,
  type RunRow,
} from './repo.js';
import { findWorkspace } from '../workspaces/index.js';
import type { RunReferences } from './queries.js';
import { insertPendingRun, transitionRun } from './moves.js';
import { runGate } from './gates.js';
import {
  blockedColumns,
  candidateId,
  isWorkspaceLocked,
  lockPendingRunsBefore,
  lockRunForMove,
  lockWorkspace,
  lockWorkspaceHolder,
  neither,
  oldestPendingRunIds,
  queuedAtCreationCondition,
  requestRunCancel,
  secondsFromNow,
  workspaceBlockedFor,
  workspaceHeld,
  workspaceIdOfRun,
} from './holding.repo.js';
import { newId } from '../platform/ids.js';
import type { FollowUp, RunLifecycle, RunMoves } from './lifecycle.js';
import { enqueueAfterCommit, jobs, requeue, type JobSpec } from '../platform/queues.js';

/** The job a run needs next in its current status, if any (the reconciler uses the same rule); `organization`: the run's, when known. */
export function nextStep(run: Pick<RunRow, 'id' | 'status'>, organization: string | null = null): JobSpec | null {
  switch (run.status) {
    case 'pending':
      return jobs.runStep(run.id, 'queue', organization);
    case 'plan_queued':
    case 'planning':
      return jobs.runStep(run.id, 'plan', organization);
    case 'policy_checking':
      return jobs.runStep(run.id, 'policy', organization);
    case 'confirmed':
      // Its own step: the job that enters the pre-apply stage is not the one that applies after it.
      return jobs.runStep(run.id, 'confirm', organization);
    case 'pre_apply_completed':
    case 'apply_queued':
    case 'applying':
      return jobs.runStep(run.id, 'apply', organization);
    default:
      return null;
  }
}

/**
 * After a committed move: queue the run's next step, do the areas' after-move work with what the
 * move's transaction left for it (`followUps`, see RunMoves), and when the run has finished let
 * the next run of its workspace start.
 */
export async function afterMove(
  rt: Runtime,
  run: RunRow,
  followUps: readonly FollowUp[] = [],
  organization: string | null = null,
): Promise<void> {
  const step = nextStep(run, organization);
  if (step) await enqueueAfterCommit(rt.queues, step, rt.logger);
  await rt.lifecycle.runAfterMoves(rt, followUps);
  if (isFinal(run.status)) await kickWorkspace(rt, run.workspace_id);
}

/**
 * Queues the oldest pending runs of a workspace so the next one can take it, once what kept them
 * waiting has changed (committed before this is called). A run whose step is under way right now
 * gets another after it: that one may have found the workspace held just before the change.
 */
export async function kickWorkspace(rt: Runtime, workspaceId: string): Promise<void> {
  const pending = await oldestPendingRunIds(rt.db, workspaceId, 5);
  for (const id of pending) {
    await requeue(rt.queues, jobs.runStep(id, 'queue'), { afterActive: true }).catch((err) =>
      rt.logger.warn('could not queue run', { runId: id, error: String(err) }),
    );
  }
}

// Every move that takes or releases a workspace serialises on its row; the run commands lock it through here.
export { lockWorkspace };

/**
 * A pending run takes its workspace when no other non-speculative run holds it and no older one
 * waits (speculative plans run alongside), then passes the pre-plan stage. The caller's
 * transaction must hold the workspace lock. Returns the moved run, or undefined when it waits.
 */
async function takeWorkspace(m: RunMoves, run: RunRow): Promise<RunRow | undefined> {
  const { tx, lifecycle } = m;
  // The usual case in one statement: the workspace is free and the pre-plan stage has nothing to do.
  const concerns = lifecycle.stageInterestCondition(tx, 'pre_plan', run.id);
  if (concerns) {
    const queued = await transitionRun(m, run, 'queue_plan', {
      onlyIf: neither(tx, workspaceBlockedFor(tx, run), concerns),
    });
    if (queued) return queued;
  }
  // Otherwise: whether another run holds the workspace or waits longer, asked with what the pre-plan stage may have to do.
  const answers = await lifecycle.askStages(tx, ['pre_plan'], run.id, blockedColumns(tx, run));
  if (answers.blocked) return undefined;
  const gate = runGate({ at: 'stage_entered', hooks: await lifecycle.enterStage(m, run, 'pre_plan', answers) });
  return transitionRun(m, run, gate.gate === 'wait' ? 'start_pre_plan' : 'queue_plan');
}

/**
 * Inserts a run (with plan, apply and event) in the caller's transaction and, when its workspace
 * is free, queues it at once, so it needs no `queue` step; call afterMove once committed.
 */
export async function insertRun(m: RunMoves, attrs: NewRun): Promise<RunRow> {
  // The insert locks the workspace (see insertPendingRun).
  const run = await insertPendingRun(m, attrs);
  return (await takeWorkspace(m, run)) ?? run;
}

/**
 * A created run, and what it refers to when that is known without reading it: a run made by the
 * single statement (see queuedAtCreation) has only its plan, its apply and its two events, since
 * nothing listened to its creation.
 */
export interface CreatedRun {
  run: RunRow;
  references: RunReferences | null;
}

/**
 * Creates a run, queued at once when its workspace is free, and follows it up. The usual case,
 * a free workspace whose runs nothing listens to, takes one autocommit statement (see
 * queuedAtCreation); any other goes through insertRun's transaction.
 */
export async function createRun(
  rt: Runtime,
  given: Omit<NewRun, 'variables' | 'variables_sealed'> & { variables?: { key: string; value: string }[] },
  organization: string | null = null,
): Promise<CreatedRun> {
  if (given.plan_only) await refuseSpeculativeBeyondCap(rt, given.workspace_id);
  const attrs: NewRun = { ...given, ...sealRunVariables(rt.config.encryptionKey, given.variables ?? []) };
  const queued = await queuedAtCreation(rt.lifecycle, rt.db, attrs);
  if (queued) {
    await afterMove(rt, queued.run, [], organization);
    const { planId, applyId, eventIds } = queued.made;
    return {
      run: queued.run,
      references: {
        plan_id: planId,
        apply_id: applyId,
        stage_ids: [],
        check_ids: [],
        comment_ids: [],
        event_ids: eventIds,
        confirmed_by_id: null,
      },
    };
  }
  const [run, followUps] = await rt.lifecycle.transaction(rt.db, (m) => insertRun(m, attrs));
  await afterMove(rt, run, followUps, organization);
  return { run, references: null };
}

/**
 * Refuses (409) another speculative run in a workspace that already has MAX_QUEUED_SPECULATIVE_RUNS
 * of them unfinished: one tenant's flood of plans waits in its own workspace, not in everyone's
 * queue. Counted before the insert, so concurrent creations may pass it by a few.
 */
export async function refuseSpeculativeBeyondCap(rt: Runtime, workspaceId: string): Promise<void> {
  const max = rt.config.maxQueuedSpeculativeRuns;
  if ((await countUnfinishedSpeculativeRuns(rt.db, workspaceId)) >= max) {
    throw new Conflict(
      `the workspace already has ${max} speculative runs waiting or running (MAX_QUEUED_SPECULATIVE_RUNS); wait for one to finish or cancel one`,
    );
  }
}

/** The constraint that lets one non-speculative run at a time hold a workspace (see its migration). */
const ONE_HOLDER = 'runs_one_holder_per_workspace';

/**
 * A new run inserted straight into `plan_queued`, when under the workspace lock no other
 * non-speculative run of the workspace is active or waiting and the workspace is not locked by a
 * person or an interrupted apply (a plan-only run never waits), and
 * neither its creation, nor its queueing, nor the pre-plan stage concerns any listener or hook;
 * otherwise undefined, nothing written. When a run took the workspace meanwhile, the unique index
 * refuses a second holder and the caller falls back to insertRun (docs/design-for-speed.md, "The
 * run's queued insert").
 */
async function queuedAtCreation(
  lifecycle: RunLifecycle,
  db: Db,
  attrs: NewRun,
): Promise<{ run: RunRow; made: QueuedRunIds } | undefined> {
  const onlyIf = lifecycle.compiledOnce(attrs.plan_only ? 'queued at creation, plan only' : 'queued at creation', () =>
    creationCondition(lifecycle, db, attrs.plan_only),
  );
  if (!onlyIf) return undefined;
  try {
    return await insertQueuedRunIf(db, newId('run'), attrs, onlyIf);
  } catch (err) {
    if (isUniqueViolation(err, ONE_HOLDER)) return undefined;
    throw err;
  }
}

/**
 * The condition of queuedAtCreation, about the row named CANDIDATE: its workspace is free (unless
 * the run is plan-only) and nothing listens to its creation, its queueing or its pre-plan stage;
 * null when a listener or hook must be told whatever the run. It depends on nothing of the request,
 * so the lifecycle keeps it compiled (see RunLifecycle.compiledOnce).
 */
function creationCondition(lifecycle: RunLifecycle, db: Db, planOnly: boolean | undefined): Knex.Raw | null {
  const concerns = [
    lifecycle.concernsAny(db, { event: 'create', to: 'pending' }, CANDIDATE),
    lifecycle.concernsAny(db, { event: 'queue_plan', to: 'plan_queued' }, CANDIDATE),
    lifecycle.stageInterestCondition(db, 'pre_plan', candidateId(db)),
  ];
  if (concerns.some((c) => c === null)) return null;
  return queuedAtCreationCondition(db, planOnly, concerns as Knex.Raw[]);
}

/** The `queue` step: a run left pending takes its workspace once it is free (see takeWorkspace). */
export async function startPendingRun(rt: Runtime, runId: string): Promise<RunRow | undefined> {
  const [moved, followUps] = await rt.lifecycle.transaction(rt.db, async (m) => {
    const { tx } = m;
    const initial = await findRun(tx, runId);
    if (!initial || initial.status !== 'pending') return undefined;
    await lockWorkspace(tx, initial.workspace_id);
    const run = await findRun(tx, runId);
    if (!run || run.status !== 'pending') return undefined;
    return takeWorkspace(m, run);
  });
  if (moved) await afterMove(rt, moved, followUps);
  return moved;
}

/**
 * Moves a run on behalf of a user action and follows up after commit; 409 when not allowed now.
 * The run's workspace is locked before the run, in the order startPendingRun takes them.
 * Confirming a saved plan takes the workspace again, so it is refused while another run holds it.
 */
async function act(
  rt: Runtime,
  runId: string,
  event: 'confirm' | 'discard' | 'cancel' | 'force_cancel',
  actorId: string | null,
  comment?: string,
  changes?: MoveOptions['changes'],
): Promise<RunRow> {
  const [moved, followUps] = await rt.lifecycle.transaction(rt.db, async (m) => {
    const { tx } = m;
    await lockWorkspace(tx, workspaceIdOfRun(tx, runId));
    // No key update: a transaction that inserts rows referring to the run (a state version) does not wait for it.
    const run = await lockRunForMove(tx, runId);
    if (!run || !runMachine.can(run.status, event))
      throw new Conflict(`the run cannot be ${pastTense[event]} while it is ${run?.status}`);
    if (event === 'confirm' && isFinal(run.status) && (await workspaceHeld(tx, run))) {
      throw new Conflict('another run holds the workspace; apply the saved plan once it has finished');
    }
    const moved = await transitionRun(m, run, event, {
      actorId,
      description: comment ?? null,
      ...(changes ? { changes } : {}),
    });
    // The comment given with the action is kept as a comment on the run, as Terraform Cloud does.
    if (moved && comment) await insertComment(tx, { run_id: run.id, body: comment, created_by_id: actorId });
    return moved;
  });
  if (!moved) throw new Conflict('the run changed concurrently; try again');
  await afterMove(rt, moved, followUps);
  return moved;
}

const pastTense = {
  confirm: 'applied',
  discard: 'discarded',
  cancel: 'canceled',
  force_cancel: 'force-canceled',
} as const;

/**
 * `actions/force-execute` (TFE's "run this plan now"): a pending run waiting behind the run that
 * holds its workspace starts now. The holder is discarded and the runs pending before the target
 * are canceled, in one transaction under the workspace lock. 409, nothing changed, unless the run
 * is pending, the workspace is not locked by hand, and the holder waits for a user (a plan to
 * confirm, a policy to override): a run planning or applying is never interrupted this way.
 */
export async function forceExecuteRun(rt: Runtime, runId: string, actorId: string | null): Promise<RunRow> {
  const [moves, followUps] = await rt.lifecycle.transaction(rt.db, async (m) => {
    const { tx } = m;
    const ws = (await lockWorkspace(tx, workspaceIdOfRun(tx, runId))) as { id: string } | undefined;
    const run = await lockRunForMove(tx, runId);
    if (!ws || !run) throw new Conflict('the run changed concurrently; try again');
    if (run.status !== 'pending' || run.plan_only)
      throw new Conflict(
        `only a pending run waiting for its workspace can be force-executed; this one is ${run.plan_only ? 'a speculative plan' : run.status}`,
      );
    if (await isWorkspaceLocked(tx, ws.id))
      throw new Conflict('the workspace is locked; unlock it to let its runs start');
    const holder = await lockWorkspaceHolder(tx, ws.id);
    if (!holder) throw new Conflict('no other run holds the workspace; the run starts in its turn');
    if (!runMachine.can(holder.status, 'discard'))
      throw new Conflict(`the run ${holder.id} holding the workspace cannot be discarded while it is ${holder.status}`);
    const why = `to force-execute ${run.id}`;
    const moved: (RunRow | undefined)[] = [
      await transitionRun(m, holder, 'discard', { actorId, description: `discarded ${why}` }),
    ];
    const ahead = await lockPendingRunsBefore(tx, ws.id, run.created_at);
    for (const other of ahead)
      moved.push(await transitionRun(m, other, 'cancel', { actorId, description: `canceled ${why}` }));
    moved.push(await takeWorkspace(m, run));
    // Any move refused (a concurrent change) undoes them all.
    if (moved.some((r) => !r)) throw new Conflict('the run changed concurrently; try again');
    return moved as RunRow[];
  });
  for (const [i, moved] of moves.entries()) await afterMove(rt, moved, i === moves.length - 1 ? followUps : []);
  return moves[moves.length - 1];
}

/** `actions/apply`: a plan with changes waiting for confirmation. */
export async function confirmRun(rt: Runtime, run: RunRow, actorId: string | null, comment?: string): Promise<RunRow> {
  if (!CONFIRMABLE.includes(run.status) || run.has_changes === false)
    throw new Conflict(`the run is not confirmable while it is ${run.status}`);
  return act(rt, run.id, 'confirm', actorId, comment);
}

/** `POST /runs/:id/comments`: a comment on the run. */
export const commentOnRun = (rt: Runtime, run: RunRow, body: string, actorId: string | null): Promise<CommentRow> =>
  insertComment(rt.db, { run_id: run.id, body, created_by_id: actorId });

export const discardRun = (rt: Runtime, run: RunRow, actorId: string | null, comment?: string) =>
  act(rt, run.id, 'discard', actorId, comment);

/**
 * `actions/cancel`. A run that is executing Terraform gets an interrupt (its worker sees the
 * request, stops Terraform safely and moves the run to canceled); any other cancelable run is
 * canceled at once. Force-cancel becomes available `coolOffSeconds` after the request.
 */
export async function cancelRun(
  rt: Runtime,
  run: RunRow,
  actorId: string | null,
  coolOffSeconds: number,
  comment?: string,
): Promise<void> {
  if (EXECUTING.includes(run.status)) {
    const n = await requestRunCancel(rt.db, run.id, EXECUTING, coolOffSeconds);
    if (n) {
      await insertRunEvent(rt.db, {
        run_id: run.id,
        action: 'cancel_requested',
        actor_id: actorId,
        description: comment ?? null,
      });
      if (comment) await insertComment(rt.db, { run_id: run.id, body: comment, created_by_id: actorId });
      return;
    }
  }
  // Canceled at once, the run still shows when force-cancel would have become available (clients
  // wait for force-cancel-available-at after a cancel, as Terraform Cloud always sets it).
  await act(rt, run.id, 'cancel', actorId, comment, {
    force_cancel_available_at: secondsFromNow(rt.db, coolOffSeconds),
  });
}

/** `actions/force-cancel`: only after a cancel was requested and its cool-off has passed. */
export async function forceCancelRun(
  rt: Runtime,
  run: RunRow,
  actorId: string | null,
  comment?: string,
): Promise<RunRow> {
  const now = new Date();
  if (!run.cancel_requested_at || !run.force_cancel_available_at || run.force_cancel_available_at > now) {
    throw new Conflict('force-cancel is available only after a cancel was requested and its cool-off has passed');
  }
  return act(rt, run.id, 'force_cancel', actorId, comment);
}

/** The organization of a run's workspace (the worker's fair share is that organization's). */
export const organizationOfRunId = (db: Db, id: string) => organizationOfRun(db, id);

/** The organization of a workspace, or null when there is none. */
export const organizationOfWorkspace = async (db: Db, id: string) =>
  (await findWorkspace(db, id))?.organization_name ?? null;
