import { FINAL_RESULT, type TaskResultStatus, type TaskStageName, type TaskStageStatus } from '../run-tasks/machine.js';
import { OPEN_EVALUATION } from '../policies/evaluations.machine.js';
import { runPolicyOutcome, type PolicyCheckStatus } from '../policies/checks.machine.js';
import { nothingToApply } from './machine.js';

/*
 * The run's gates: whether a run may go on at a stage boundary, decided from plain facts in one
 * place, so the engine, the run task callbacks and the policy checks cannot disagree. The callers
 * read the facts and make the moves; nothing here has I/O.
 */

/** A task result as a stage's gate reads it. */
export interface ResultFact {
  status: TaskResultStatus;
  enforcement_level: string;
  task_name?: string | null;
}

/** A policy evaluation of a stage as its gate reads it. */
export interface EvaluationFact {
  status: string;
  is_overridable: boolean;
}

/** What the end of a plan reads of its run. */
export interface PlanFacts {
  plan_only: boolean;
  has_changes: boolean | null;
  allow_empty_apply: boolean;
  save_plan: boolean;
  auto_apply: boolean;
}

export type GateFacts =
  /** A stage was entered: its hooks let the run pass or wait for what they started. */
  | { at: 'stage_entered'; hooks: 'pass' | 'wait' }
  /** A task stage's results and policy evaluations as they stand, for a run waiting in it. */
  | {
      at: 'task_stage';
      stage: TaskStageName;
      planOnly: boolean;
      results: readonly ResultFact[];
      evaluations?: readonly EvaluationFact[];
    }
  /** A run's policy checks, in policy_checking or (`overriding`) in policy_override. */
  | {
      at: 'policy_checks';
      checks: readonly PolicyCheckStatus[];
      overriding: boolean;
      run: Omit<PlanFacts, 'save_plan' | 'auto_apply'>;
    }
  /** The plan phase is over and its stages have passed. */
  | { at: 'plan_end'; run: PlanFacts };

/**
 * What a gate decided. `go`: on to the next step (`note`: why a post-apply stage failed, recorded
 * on an applied run it never fails). `wait`: for results still open or for a user's override.
 * `stop`: the run errors with `reason`. `end`: the run ends after its plan. `confirm`: the plan
 * waits for confirmation, given at once with auto-apply. `closeStage`: the status a task stage ends in.
 */
export type GateDecision =
  | StageGate
  | { gate: 'go' }
  | { gate: 'wait'; for: 'results' | 'override' }
  | { gate: 'stop'; reason: string }
  | { gate: 'end'; as: 'finished' | 'saved' | 'soft_failed' }
  | { gate: 'confirm'; auto: boolean };

/** A task stage's gate: open while its results are, otherwise with the status the stage ends in. */
export type StageGate = { gate: 'wait'; for: 'results'; closeStage?: undefined } | SettledStageGate;
export type SettledStageGate =
  | { gate: 'go'; note?: string; closeStage: TaskStageStatus }
  | { gate: 'wait'; for: 'override'; closeStage: TaskStageStatus }
  | { gate: 'stop'; reason: string; closeStage: TaskStageStatus };

/** Why a stage's policy evaluations stop its run. */
export const POLICY_FAILURE =
  'the run failed because a mandatory policy in stage post_plan failed or could not be evaluated';
export const PLAN_ONLY_OVERRIDE = 'a mandatory policy in stage post_plan failed; a plan-only run cannot be overridden';
/** Why a run's policy checks stop it. */
export const POLICY_CHECK_FAILURE = 'a mandatory policy check failed or could not be evaluated';

/** The results that keep a run from going on: a mandatory task that failed or errored. */
const mandatoryFailures = (results: readonly ResultFact[]) =>
  results.filter((r) => r.enforcement_level === 'mandatory' && (r.status === 'failed' || r.status === 'errored'));

/** Why a stage's failed mandatory tasks stop its run, for the run event and error message. */
function taskFailureReason(stage: TaskStageName, failed: readonly ResultFact[]): string {
  const names = failed.map((r) => `${r.task_name} (${r.status})`).join(', ');
  return `the run failed because the mandatory run task ${names} in stage ${stage} did not pass`;
}

/**
 * A stage's status from its task results and policy evaluations: running until every one has a
 * verdict; failed when a mandatory task failed or errored, or an evaluation errored (or was
 * canceled) or failed in a way that cannot be overridden; awaiting an override when an
 * evaluation failed in a way that can; passed otherwise (advisory failures are warnings, an
 * overridden evaluation counts as passed).
 */
export function stageOutcome(
  results: readonly ResultFact[],
  evaluations: readonly EvaluationFact[] = [],
): 'running' | 'passed' | 'failed' | 'awaiting_override' {
  if (results.some((r) => !FINAL_RESULT.includes(r.status))) return 'running';
  if (evaluations.some((e) => (OPEN_EVALUATION as readonly string[]).includes(e.status))) return 'running';
  const evaluationStops = evaluations.some(
    (e) => ['errored', 'canceled', 'unreachable'].includes(e.status) || (e.status === 'failed' && !e.is_overridable),
  );
  if (mandatoryFailures(results).length || evaluationStops) return 'failed';
  return evaluations.some((e) => e.status === 'failed') ? 'awaiting_override' : 'passed';
}

/**
 * A task stage's gate: open results or evaluations keep the run waiting; a failed mandatory task
 * stops it (named in the reason), as do evaluations that failed beyond an override; evaluations a
 * user may override hold it for one, except a plan-only run, which cannot be overridden and
 * stops. A post-apply stage never fails an applied run: it goes on with the reason as a note.
 */
function taskStageGate(facts: Extract<GateFacts, { at: 'task_stage' }>): StageGate {
  const outcome = stageOutcome(facts.results, facts.evaluations);
  if (outcome === 'running') return { gate: 'wait', for: 'results' };
  if (outcome === 'passed') return { gate: 'go', closeStage: 'passed' };
  if (outcome === 'awaiting_override' && !facts.planOnly)
    return { gate: 'wait', for: 'override', closeStage: 'awaiting_override' };
  const failed = mandatoryFailures(facts.results);
  const reason = failed.length
    ? taskFailureReason(facts.stage, failed)
    : outcome === 'awaiting_override'
      ? PLAN_ONLY_OVERRIDE
      : POLICY_FAILURE;
  if (facts.stage === 'post_apply') return { gate: 'go', note: reason, closeStage: 'failed' };
  return { gate: 'stop', reason, closeStage: 'failed' };
}

/**
 * The policy checks' gate: a check not yet evaluated keeps the run waiting; a hard failure or an
 * error stops it; a soft failure waits for an override, or ends a run with nothing to apply
 * (nothing an override would let through); all passed (overridden counts) lets it go on. After
 * an override the run goes on only once nothing fails any more.
 */
function policyChecksGate(facts: Extract<GateFacts, { at: 'policy_checks' }>): GateDecision {
  const outcome = runPolicyOutcome(facts.checks);
  if (facts.overriding) return outcome === 'pass' ? { gate: 'go' } : { gate: 'wait', for: 'override' };
  switch (outcome) {
    case 'waiting':
      return { gate: 'wait', for: 'results' };
    case 'pass':
      return { gate: 'go' };
    case 'override':
      return nothingToApply(facts.run) ? { gate: 'end', as: 'soft_failed' } : { gate: 'wait', for: 'override' };
    case 'fail':
      return { gate: 'stop', reason: POLICY_CHECK_FAILURE };
  }
}

/**
 * The plan's end: a plan-only (speculative) run, or one with nothing to apply, is finished; a
 * save-plan run keeps its plan; any other waits for confirmation, which auto-apply gives at once.
 */
function planEndGate({ run }: Extract<GateFacts, { at: 'plan_end' }>): GateDecision {
  if (nothingToApply(run)) return { gate: 'end', as: 'finished' };
  if (run.save_plan) return { gate: 'end', as: 'saved' };
  return { gate: 'confirm', auto: run.auto_apply };
}

/** Whether a run may go on at a stage boundary, from the facts of that boundary (see GateFacts). */
export function runGate(facts: Extract<GateFacts, { at: 'task_stage' }>): StageGate;
export function runGate(facts: GateFacts): GateDecision;
export function runGate(facts: GateFacts): GateDecision {
  switch (facts.at) {
    case 'stage_entered':
      return facts.hooks === 'wait' ? { gate: 'wait', for: 'results' } : { gate: 'go' };
    case 'task_stage':
      return taskStageGate(facts);
    case 'policy_checks':
      return policyChecksGate(facts);
    case 'plan_end':
      return planEndGate(facts);
  }
}
