import type { Knex } from 'knex';
import type { Db } from '../db.js';
import { transitionRun, updatePhase, type RunRow } from '../repos/runs.js';
import { findCv, makeCurrent } from '../repos/configuration-versions.js';
import { enterStage } from '../run-stages.js';

/**
 * How a plan or apply ended. `gone`: the run was moved away meanwhile (force-canceled) and the
 * process killed. `save` writes what a successful phase produced (stored plan, counts) in the
 * transaction that records its end, and returns the changes to its plan or apply row; `tx` is
 * that transaction when the phase began it early (the recording commits it).
 */
export type PhaseOutcome =
  | { kind: 'ok'; hasChanges?: boolean; save?: (tx: Db) => Promise<Record<string, unknown>>; tx?: Knex.Transaction }
  | { kind: 'error'; message: string }
  | { kind: 'canceled' }
  | { kind: 'gone' };

/**
 * After a successful plan, inside one transaction: the post-plan stage and the policy check
 * (straight through when nothing is configured), then the end of the plan phase: finished when
 * there is nothing to apply, saved for save-plan runs, otherwise waiting for confirmation, which
 * auto-apply gives at once.
 */
export async function continueAfterPlan(tx: Db, start: RunRow): Promise<RunRow | undefined> {
  let run: RunRow | undefined = start;
  if (run.status === 'planning') {
    const post = await enterStage(tx, run, 'post_plan');
    if (post === 'fail') return transitionRun(tx, run, 'error', { description: 'a mandatory post-plan task failed' });
    if (post === 'wait') return transitionRun(tx, run, 'start_post_plan');
  }
  if (run.status === 'planning' || run.status === 'post_plan_completed') {
    const policy = await enterStage(tx, run, 'policy_check');
    if (policy === 'fail') return transitionRun(tx, run, 'error', { description: 'a mandatory policy failed' });
    if (policy === 'wait') return transitionRun(tx, run, 'start_policy_check');
  }
  const nothingToApply = run.plan_only || (run.has_changes === false && !run.allow_empty_apply);
  if (nothingToApply) return transitionRun(tx, run, 'finish_plan');
  if (run.save_plan) return transitionRun(tx, run, 'plan_saved');
  if (run.status === 'planning') run = await transitionRun(tx, run, 'plan_needs_confirmation');
  if (run && run.auto_apply) run = await transitionRun(tx, run, 'confirm', { description: 'auto-apply' });
  return run;
}

/** applying -> applied, through the post-apply stage (whose results never change an applied run). */
async function finishApplying(tx: Db, run: RunRow): Promise<RunRow | undefined> {
  const post = await enterStage(tx, run, 'post_apply');
  if (post === 'wait') return transitionRun(tx, run, 'start_post_apply');
  return finishApplied(tx, run);
}

/** The run is applied; a provisional version becomes current unless a newer one is. */
async function finishApplied(tx: Db, run: RunRow): Promise<RunRow | undefined> {
  const applied = await transitionRun(tx, run, 'finish_apply');
  const cv = run.configuration_version_id ? await findCv(tx, run.configuration_version_id) : undefined;
  if (applied && cv?.provisional) await makeCurrent(tx, run.workspace_id, cv);
  return applied;
}

export type TaskStage = 'pre_plan' | 'post_plan' | 'pre_apply' | 'post_apply';

/**
 * A run waiting in `<stage>_running` goes on once the stage is over: when it passed, to the next
 * step of its lifecycle; when it failed, the run errors with `reason`. A post-apply stage never
 * fails an applied run.
 */
export async function resumeAfterStage(tx: Db, run: RunRow, stage: TaskStage, passed: boolean, reason: string): Promise<RunRow | undefined> {
  if (!passed && stage !== 'post_apply') return transitionRun(tx, run, 'error', { description: reason, changes: { error_message: reason } });
  switch (stage) {
    case 'pre_plan': {
      const done = await transitionRun(tx, run, 'complete_pre_plan');
      return done && transitionRun(tx, done, 'queue_plan');
    }
    case 'post_plan': {
      const done = await transitionRun(tx, run, 'complete_post_plan');
      return done && continueAfterPlan(tx, done);
    }
    case 'pre_apply': {
      const done = await transitionRun(tx, run, 'complete_pre_apply');
      return done && transitionRun(tx, done, 'queue_apply');
    }
    case 'post_apply': {
      const done = await transitionRun(tx, run, 'complete_post_apply', { description: passed ? null : reason });
      return done && finishApplied(tx, done);
    }
  }
}

const PHASE_STATUS = { ok: 'finished', error: 'errored', canceled: 'canceled', gone: 'canceled' } as const;

/**
 * Records how a plan or apply ended (with what it produced), releases the run's lease and moves
 * the run on, with a compare-and-set from its executing status (caller's transaction). Returns
 * the moved run for afterMove, or undefined when the run had been moved away meanwhile.
 */
export async function finishPhase(tx: Db, runId: string, phase: { table: 'plans' | 'applies'; id: string }, executing: 'planning' | 'applying', outcome: PhaseOutcome): Promise<RunRow | undefined> {
  const produced = outcome.kind === 'ok' && outcome.save ? await outcome.save(tx) : {};
  await updatePhase(tx, phase.table, { id: phase.id }, { ...produced, status: PHASE_STATUS[outcome.kind] });
  const planned = executing === 'planning' && outcome.kind === 'ok' ? { has_changes: outcome.hasChanges ?? false } : {};
  const [run] = await tx<RunRow>('runs').where({ id: runId, status: executing }).update({ lease_owner: null, lease_until: null, ...planned }).returning('*');
  if (!run) return undefined;
  if (outcome.kind === 'error') return transitionRun(tx, run, 'error', { description: outcome.message, changes: { error_message: outcome.message } });
  if (outcome.kind !== 'ok') return transitionRun(tx, run, 'cancel');
  return executing === 'planning' ? continueAfterPlan(tx, run) : finishApplying(tx, run);
}
