import type { Knex } from 'knex';
import { writeAsOneStatement, type Db, type Writes } from '../platform/db.js';
import { runMachine, type RunEvent } from './machine.js';
import { runGate } from './gates.js';
import { leaseHeldBy, leaseHeldUnasked, releaseRunLease } from './leases.repo.js';
import { phaseUpdate, type MoveOptions, type RunRow } from './repo.js';
import { transitionRun, transitionRunThrough } from './moves.js';
import { findCv, makeCurrent } from '../configuration-versions/index.js';
import type { RunMoves, RunStage } from './lifecycle.js';

/**
 * How a plan or apply ended. `gone`: the run was moved away meanwhile (force-canceled) and the
 * process killed. `save` stores what a successful phase produced (it may wait for it, e.g. for
 * `show -json`) in the transaction that records its end, and returns the changes to its plan or
 * apply row, with writes that the statement moving the run may carry; when it fails, that
 * transaction is rolled back (see ProductFailed).
 */
export type PhaseOutcome =
  | { kind: 'ok'; hasChanges?: boolean; save?: (tx: Db) => Promise<{ row: Record<string, unknown>; writes?: Writes }> }
  | {
      kind: 'error';
      message: string;
      /** A limit (time, size) stopped the phase: the message is also written to its log. */
      limit?: boolean;
      /** The apply may have changed what the workspace's stored state does not say: its workspace is locked until someone checks (see lockForStateCheck). */
      checkState?: boolean;
    }
  | { kind: 'canceled' }
  | { kind: 'gone' };

/** A successful phase's `save` failed: nothing of the phase's end was recorded. */
export class ProductFailed extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
  }
}

/** One move of a route: an event, with what its move records. */
export type RouteStep = MoveOptions & { event: RunEvent };

/** The move that ends a run after its plan, by how its gate ended it. */
export const END_EVENT = {
  finished: 'finish_plan',
  saved: 'plan_saved',
  soft_failed: 'soft_fail_policy_check',
} as const satisfies Record<string, RunEvent>;

/**
 * Where a run goes after a successful plan: the post-plan stage and the policy check are entered
 * (a stage's hooks write what they start in `tx`; straight through when nothing is configured),
 * then the end of the plan phase: finished when there is nothing to apply, saved for save-plan
 * runs, otherwise waiting for confirmation, which auto-apply gives at once. Only the stages are
 * entered here; followRoute makes the moves.
 */
export async function routeAfterPlan(
  m: RunMoves,
  run: RunRow,
  answers?: Record<string, unknown>,
): Promise<RouteStep[]> {
  const { lifecycle } = m;
  if (run.status === 'planning') {
    const post = runGate({ at: 'stage_entered', hooks: await lifecycle.enterStage(m, run, 'post_plan', answers) });
    if (post.gate === 'wait') return [{ event: 'start_post_plan' }];
  }
  if (run.status === 'planning' || run.status === 'post_plan_completed') {
    const policy = runGate({ at: 'stage_entered', hooks: await lifecycle.enterStage(m, run, 'policy_check', answers) });
    if (policy.gate === 'wait') return [{ event: 'start_policy_check' }];
  }
  const end = runGate({ at: 'plan_end', run });
  if (end.gate === 'end') return [{ event: END_EVENT[end.as] }];
  const steps: RouteStep[] = run.status === 'planning' ? [{ event: 'plan_needs_confirmation' }] : [];
  if (end.gate === 'confirm' && end.auto) steps.push({ event: 'confirm', description: 'auto-apply' });
  return steps;
}

/**
 * Makes a route's moves, all in one statement, which carries `writes` (they happen even when there
 * is no move); only the first step's `onlyIf` is asked. Returns the run where the route ends, or
 * undefined when it had been moved away.
 */
export async function followRoute(
  m: RunMoves,
  start: RunRow,
  steps: RouteStep[],
  writes: Writes = [],
): Promise<RunRow | undefined> {
  if (!steps.length) {
    await writeAsOneStatement(m.tx, writes);
    return start;
  }
  const [{ onlyIf, ...first }, ...rest] = steps;
  return transitionRunThrough(m, start, [first, ...rest], { with: writes, onlyIf });
}

/** After a successful plan, inside one transaction: see routeAfterPlan. */
export async function continueAfterPlan(m: RunMoves, run: RunRow): Promise<RunRow | undefined> {
  return followRoute(m, run, await routeAfterPlan(m, run));
}

/** applying -> applied, through the post-apply stage (whose results never change an applied run). */
async function routeAfterApply(m: RunMoves, run: RunRow, answers: Record<string, unknown>): Promise<RouteStep[]> {
  const post = runGate({ at: 'stage_entered', hooks: await m.lifecycle.enterStage(m, run, 'post_apply', answers) });
  return [{ event: post.gate === 'wait' ? 'start_post_apply' : 'finish_apply' }];
}

/** A run has just been applied: a provisional configuration version becomes current unless a newer one is. */
async function settleApplied(tx: Db, run: RunRow): Promise<RunRow> {
  const cv = run.configuration_version_id ? await findCv(tx, run.configuration_version_id) : undefined;
  if (cv?.provisional) await makeCurrent(tx, run.workspace_id, cv);
  return run;
}

export type TaskStage = 'pre_plan' | 'post_plan' | 'pre_apply' | 'post_apply';

/** The stages a run may enter when it resumes after `stage` (see resumeAfterStage). */
export const stagesAfterStage = (stage: TaskStage): RunStage[] => (stage === 'post_plan' ? ['policy_check'] : []);

/**
 * A run waiting in `<stage>_running` goes on to the next step of its lifecycle once its stage's
 * gate let it (see runGate); `note` is why a post-apply stage failed, recorded on the applied run.
 * `along`: writes the first move's statement carries along (they happen whether or not the run
 * moves). `answers`: whether the stages it may enter next concern their hooks, when the caller
 * asked (see stagesAfterStage). `onlyIf`: a condition the first move also needs (e.g. on what
 * `along` wrote).
 */
export async function resumeAfterStage(
  m: RunMoves,
  run: RunRow,
  stage: TaskStage,
  note: string | null,
  along: Writes = [],
  answers?: Record<string, unknown>,
  onlyIf?: Knex.Raw,
): Promise<RunRow | undefined> {
  switch (stage) {
    case 'pre_plan':
      return transitionRunThrough(m, run, [{ event: 'complete_pre_plan' }, { event: 'queue_plan' }], {
        with: along,
        onlyIf,
      });
    case 'post_plan': {
      // The route after the plan is worked out from where completing the stage leads (entering the
      // policy stage on the way), so the stage's completion and the route are one statement.
      const completed = { ...run, status: runMachine.transition(run.status, 'complete_post_plan') };
      const route = await routeAfterPlan(m, completed, answers);
      return followRoute(m, run, [{ event: 'complete_post_plan', onlyIf }, ...route], along);
    }
    case 'pre_apply':
      return transitionRunThrough(m, run, [{ event: 'complete_pre_apply' }, { event: 'queue_apply' }], {
        with: along,
        onlyIf,
      });
    case 'post_apply': {
      const applied = await transitionRunThrough(
        m,
        run,
        [{ event: 'complete_post_apply', description: note }, { event: 'finish_apply' }],
        { with: along, onlyIf },
      );
      return applied && settleApplied(m.tx, applied);
    }
  }
}

const PHASE_STATUS = { ok: 'finished', error: 'errored', canceled: 'canceled', gone: 'canceled' } as const;

/** The stages a run may enter next once its phase has ended this way. */
const stagesAfter = (executing: 'planning' | 'applying', outcome: PhaseOutcome): RunStage[] =>
  outcome.kind !== 'ok' ? [] : executing === 'planning' ? ['post_plan', 'policy_check'] : ['post_apply'];

/** Where a run goes from its executing status once its phase has ended (see routeAfterPlan); hooks `answers` says are not concerned are skipped. */
async function routeAfterPhase(
  m: RunMoves,
  run: RunRow,
  outcome: PhaseOutcome,
  answers: Record<string, unknown>,
): Promise<RouteStep[]> {
  if (outcome.kind === 'error')
    return [{ event: 'error', description: outcome.message, changes: { error_message: outcome.message } }];
  if (outcome.kind !== 'ok') return [{ event: 'cancel' }];
  return run.status === 'planning' ? routeAfterPlan(m, run, answers) : routeAfterApply(m, run, answers);
}

/**
 * Records how a plan or apply of `run` (as claimed by `owner`) ended, in the caller's transaction.
 * First, without locking anything, it asks whether the stages that may come next concern their
 * hooks, and lets a successful phase save what it produced (both while a plan's `show -json` still
 * runs; the save then waits for it). Then, when no hook is concerned (the usual case), one
 * statement moves the run on with a compare-and-set from its executing status and lease owner,
 * releases the lease, and carries the save's writes, the plan or apply's end and `closing`, the
 * phase log's last write. When a hook is concerned, the lease is released by a compare-and-set
 * first, so the hooks only write for a run that is still this phase's. Returns the moved run for
 * afterMove, or undefined when the run had been moved away meanwhile (the writes happen anyway).
 * Throws ProductFailed when the save failed.
 */
export async function finishPhase(
  m: RunMoves,
  run: RunRow,
  owner: string,
  phase: { table: 'plans' | 'applies'; id: string },
  outcome: PhaseOutcome,
  closing: (tx: Db) => Promise<Writes>,
): Promise<RunRow | undefined> {
  const { tx, lifecycle } = m;
  const executing = run.status as 'planning' | 'applying';
  const stages = stagesAfter(executing, outcome);
  const answers = await lifecycle.askStages(tx, stages, run.id);
  const produced =
    outcome.kind === 'ok' && outcome.save
      ? await outcome.save(tx).catch((err: unknown) => Promise.reject(new ProductFailed(err)))
      : { row: {} };
  const writes: Writes = [
    ...(produced.writes ?? []),
    ['phase', phaseUpdate(tx, phase.table, { id: phase.id }, { ...produced.row, status: PHASE_STATUS[outcome.kind] })],
    ...(await closing(tx)),
  ];
  // The lease is released and a cancel request answered: none may reach a later phase.
  const released: Partial<RunRow> = {
    lease_owner: null,
    lease_until: null,
    cancel_requested_at: null,
    force_cancel_available_at: null,
    ...(executing === 'planning' && outcome.kind === 'ok' ? { has_changes: outcome.hasChanges ?? false } : {}),
  };
  const ours = leaseHeldBy(tx, owner);
  // A plan that succeeded moves on only when no cancel was requested as it ended; otherwise the run
  // is canceled below. (An apply that succeeded has changed the infrastructure: it stays applied.)
  const cancelable = outcome.kind === 'ok' && executing === 'planning';
  const unasked = cancelable ? leaseHeldUnasked(tx, owner) : ours;
  const canceledLate = () =>
    cancelable ? transitionRun(m, run, 'cancel', { changes: released, onlyIf: ours }) : undefined;
  let moved: RunRow | undefined;
  if (stages.some((stage) => lifecycle.stageConcerned(stage, answers))) {
    const current = await releaseRunLease(tx, run.id, executing, unasked, released);
    if (!current) {
      await writeAsOneStatement(tx, writes);
      return canceledLate();
    }
    moved = await followRoute(m, current, await routeAfterPhase(m, current, outcome, answers), writes);
  } else {
    const [first, ...rest] = await routeAfterPhase(m, { ...run, ...released }, outcome, answers);
    moved = await followRoute(
      m,
      run,
      [{ ...first, changes: { ...first.changes, ...released }, onlyIf: unasked }, ...rest],
      writes,
    );
    moved ??= await canceledLate();
  }
  return moved?.status === 'applied' ? settleApplied(tx, moved) : moved;
}
