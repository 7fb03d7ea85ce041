import { expect } from 'chai';
import {
  PLAN_ONLY_OVERRIDE,
  POLICY_CHECK_FAILURE,
  POLICY_FAILURE,
  runGate,
  type GateDecision,
  type GateFacts,
  type PlanFacts,
  type ResultFact,
} from '../../../../shared/runs/gates.js';

const task = (status: ResultFact['status'], enforcement_level = 'mandatory', task_name = 'scan'): ResultFact => ({
  status,
  enforcement_level,
  task_name,
});
const evaluation = (status: string, is_overridable = false) => ({ status, is_overridable });
const plan = (over: Partial<PlanFacts> = {}): PlanFacts => ({
  plan_only: false,
  has_changes: true,
  allow_empty_apply: false,
  save_plan: false,
  auto_apply: false,
  ...over,
});
const taskFailure = (stage: string, names: string) =>
  `the run failed because the mandatory run task ${names} in stage ${stage} did not pass`;

/** Each gate's facts with the decision they must give. */
const cases: [string, GateFacts, GateDecision][] = [
  // Entering a stage.
  ['a stage whose hooks pass lets the run go on', { at: 'stage_entered', hooks: 'pass' }, { gate: 'go' }],
  [
    'a stage whose hooks started work waits for its results',
    { at: 'stage_entered', hooks: 'wait' },
    { gate: 'wait', for: 'results' },
  ],

  // A task stage's verdicts.
  [
    'a task still running keeps its stage waiting',
    { at: 'task_stage', stage: 'pre_plan', planOnly: false, results: [task('passed'), task('running')] },
    { gate: 'wait', for: 'results' },
  ],
  [
    'a pending task keeps its stage waiting',
    { at: 'task_stage', stage: 'pre_apply', planOnly: false, results: [task('pending')] },
    { gate: 'wait', for: 'results' },
  ],
  [
    'an open evaluation keeps its stage waiting',
    {
      at: 'task_stage',
      stage: 'post_plan',
      planOnly: false,
      results: [task('passed')],
      evaluations: [evaluation('queued')],
    },
    { gate: 'wait', for: 'results' },
  ],
  [
    'tasks that all passed let the run go on',
    { at: 'task_stage', stage: 'pre_plan', planOnly: false, results: [task('passed'), task('passed')] },
    { gate: 'go', closeStage: 'passed' },
  ],
  [
    'a stage with nothing in it lets the run go on',
    { at: 'task_stage', stage: 'post_plan', planOnly: false, results: [] },
    { gate: 'go', closeStage: 'passed' },
  ],
  [
    'a failed advisory task is a warning',
    { at: 'task_stage', stage: 'pre_plan', planOnly: false, results: [task('failed', 'advisory')] },
    { gate: 'go', closeStage: 'passed' },
  ],
  [
    'a canceled mandatory task does not fail its stage',
    { at: 'task_stage', stage: 'pre_apply', planOnly: false, results: [task('canceled')] },
    { gate: 'go', closeStage: 'passed' },
  ],
  [
    'a failed mandatory task stops the run, named in the reason',
    {
      at: 'task_stage',
      stage: 'pre_plan',
      planOnly: false,
      results: [task('passed', 'mandatory', 'lint'), task('failed')],
    },
    { gate: 'stop', reason: taskFailure('pre_plan', 'scan (failed)'), closeStage: 'failed' },
  ],
  [
    'an errored mandatory task stops the run, each failure named in order',
    {
      at: 'task_stage',
      stage: 'pre_apply',
      planOnly: false,
      results: [task('errored', 'mandatory', 'cost'), task('failed', 'advisory', 'docs'), task('failed')],
    },
    { gate: 'stop', reason: taskFailure('pre_apply', 'cost (errored), scan (failed)'), closeStage: 'failed' },
  ],
  [
    'a failed mandatory task stops the run even when its evaluations could be overridden',
    {
      at: 'task_stage',
      stage: 'post_plan',
      planOnly: false,
      results: [task('failed')],
      evaluations: [evaluation('failed', true)],
    },
    { gate: 'stop', reason: taskFailure('post_plan', 'scan (failed)'), closeStage: 'failed' },
  ],
  [
    'a failed mandatory post-apply task never fails the applied run: it goes on with the reason',
    { at: 'task_stage', stage: 'post_apply', planOnly: false, results: [task('failed')] },
    { gate: 'go', note: taskFailure('post_apply', 'scan (failed)'), closeStage: 'failed' },
  ],
  [
    'an evaluation that failed beyond an override stops the run',
    { at: 'task_stage', stage: 'post_plan', planOnly: false, results: [], evaluations: [evaluation('failed', false)] },
    { gate: 'stop', reason: POLICY_FAILURE, closeStage: 'failed' },
  ],
  [
    'an evaluation that errored stops the run',
    {
      at: 'task_stage',
      stage: 'post_plan',
      planOnly: false,
      results: [task('passed')],
      evaluations: [evaluation('errored')],
    },
    { gate: 'stop', reason: POLICY_FAILURE, closeStage: 'failed' },
  ],
  [
    'an overridable failed evaluation holds the run for an override',
    {
      at: 'task_stage',
      stage: 'post_plan',
      planOnly: false,
      results: [task('passed')],
      evaluations: [evaluation('failed', true)],
    },
    { gate: 'wait', for: 'override', closeStage: 'awaiting_override' },
  ],
  [
    'a plan-only run cannot be overridden: the failed evaluation stops it',
    { at: 'task_stage', stage: 'post_plan', planOnly: true, results: [], evaluations: [evaluation('failed', true)] },
    { gate: 'stop', reason: PLAN_ONLY_OVERRIDE, closeStage: 'failed' },
  ],
  [
    'overridden evaluations count as passed',
    {
      at: 'task_stage',
      stage: 'post_plan',
      planOnly: false,
      results: [],
      evaluations: [evaluation('overridden'), evaluation('passed')],
    },
    { gate: 'go', closeStage: 'passed' },
  ],

  // The policy checks.
  [
    'a check not yet evaluated keeps the run waiting',
    { at: 'policy_checks', checks: ['passed', 'queued'], overriding: false, run: plan() },
    { gate: 'wait', for: 'results' },
  ],
  [
    'checks that all passed let the run go on',
    { at: 'policy_checks', checks: ['passed', 'overridden'], overriding: false, run: plan() },
    { gate: 'go' },
  ],
  [
    'a hard-failed check stops the run',
    { at: 'policy_checks', checks: ['passed', 'hard_failed'], overriding: false, run: plan() },
    { gate: 'stop', reason: POLICY_CHECK_FAILURE },
  ],
  [
    'an errored check stops the run',
    { at: 'policy_checks', checks: ['errored', 'soft_failed'], overriding: false, run: plan() },
    { gate: 'stop', reason: POLICY_CHECK_FAILURE },
  ],
  [
    'a soft-failed check waits for an override',
    { at: 'policy_checks', checks: ['soft_failed'], overriding: false, run: plan() },
    { gate: 'wait', for: 'override' },
  ],
  [
    'a soft-failed check ends a plan-only run, which has nothing to apply',
    { at: 'policy_checks', checks: ['soft_failed'], overriding: false, run: plan({ plan_only: true }) },
    { gate: 'end', as: 'soft_failed' },
  ],
  [
    'a soft-failed check ends a run without changes',
    { at: 'policy_checks', checks: ['soft_failed'], overriding: false, run: plan({ has_changes: false }) },
    { gate: 'end', as: 'soft_failed' },
  ],
  [
    'after an override, checks that no longer fail let the run go on',
    { at: 'policy_checks', checks: ['overridden', 'passed'], overriding: true, run: plan() },
    { gate: 'go' },
  ],
  [
    'after an override, a check still failing keeps the run waiting for one',
    { at: 'policy_checks', checks: ['overridden', 'soft_failed'], overriding: true, run: plan() },
    { gate: 'wait', for: 'override' },
  ],

  // The plan's end.
  [
    'a plan-only run ends after its plan',
    { at: 'plan_end', run: plan({ plan_only: true, save_plan: true, auto_apply: true }) },
    { gate: 'end', as: 'finished' },
  ],
  [
    'a plan without changes ends the run',
    { at: 'plan_end', run: plan({ has_changes: false, auto_apply: true }) },
    { gate: 'end', as: 'finished' },
  ],
  [
    'an empty apply asked for waits for confirmation',
    { at: 'plan_end', run: plan({ has_changes: false, allow_empty_apply: true }) },
    { gate: 'confirm', auto: false },
  ],
  [
    'a save-plan run keeps its plan',
    { at: 'plan_end', run: plan({ save_plan: true, auto_apply: true }) },
    { gate: 'end', as: 'saved' },
  ],
  ['a plan with changes waits for confirmation', { at: 'plan_end', run: plan() }, { gate: 'confirm', auto: false }],
  ['auto-apply confirms at once', { at: 'plan_end', run: plan({ auto_apply: true }) }, { gate: 'confirm', auto: true }],
];

describe("the run's gates", () => {
  for (const [title, facts, decision] of cases) {
    it(title, () => {
      expect(runGate(facts)).to.deep.equal(decision);
    });
  }
});
