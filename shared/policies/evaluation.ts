import type { Runtime } from '../runtime.js';
import type { Db } from '../platform/db.js';
import { VERDICT_EVENT } from './checks.machine.js';
import { findRun, planOfRun, type RunRow, afterMove } from '../runs/index.js';
import { findUserById } from '../identity/index.js';
import { findWorkspace, type WorkspaceRow } from '../workspaces/index.js';
import { checksOfRun, movePolicyCheck, type PolicyCheckRow } from './checks.repo.js';
import { policySetsForRun, type RunPolicySet } from './repo.js';
import { readAll } from '../platform/store/postgres-store.js';
import { evaluatePolicies, type PolicyEngines } from './engines.js';
import { erroredOutcomes } from './cli.js';
import { buildRunInput } from './run-input.js';
import { renderOutput, summarizeCheck } from './summary.js';
import type { EvaluationInput, PolicyOutcome, PolicyToEvaluate } from './types.js';
import { settleRun } from './checks.js';
import type { RunMoves } from '../runs/lifecycle.js';
import { evaluationVerdict, resultCount } from './evaluations.machine.js';
import { evaluationsOfRun, insertSetOutcomes, movePolicyEvaluation, type NewSetOutcome } from './evaluations.repo.js';
import { completeStageIfDone } from '../run-tasks/index.js';

/*
 * The evaluation of a run's policy checks, in the run-pipeline worker: the policy engines run in
 * the run sandbox, so the web process never loads this module (the checks' creation and
 * overrides are in checks.ts).
 */

/** What policies see: the run's JSON plan and the run document. */
async function evaluationInput(rt: Runtime, run: RunRow, workspace: WorkspaceRow): Promise<EvaluationInput> {
  const plan = await planOfRun(rt.db, run.id);
  if (plan?.json_omitted_bytes != null)
    throw new Error(
      `the plan's JSON form (${plan.json_omitted_bytes} bytes) exceeded a size limit (MAX_PLAN_JSON_BYTES, or RUN_DISK_LIMIT_MB for the largest file a run may write) and was not stored: there is nothing to evaluate`,
    );
  const json = plan?.json_object_id ? await readAll(rt.store, plan.json_object_id) : null;
  if (!json) throw new Error('the plan has no JSON form to evaluate');
  const creator = run.created_by_id ? await findUserById(rt.db, run.created_by_id) : undefined;
  return {
    plan: JSON.parse(json.toString('utf8')),
    run: buildRunInput({
      run,
      workspace,
      organizationName: workspace.organization_name,
      createdBy: creator?.username ?? null,
    }),
  };
}

/** Outcomes of the policies of `sets`; every one errored with the reason when there is no input to evaluate. */
async function outcomesOf(
  engines: PolicyEngines,
  sets: RunPolicySet[],
  input: EvaluationInput | Error,
): Promise<PolicyOutcome[]> {
  const policies = toEvaluate(sets);
  return input instanceof Error
    ? (['sentinel', 'opa'] as const).flatMap((kind) =>
        erroredOutcomes(
          policies.filter((p) => p.kind === kind),
          kind,
          input.message,
        ),
      )
    : evaluatePolicies(engines, policies, input);
}

const toEvaluate = (sets: RunPolicySet[]): PolicyToEvaluate[] =>
  sets.flatMap((s) =>
    s.policies.map((p) => ({
      id: p.id,
      name: p.name,
      kind: p.kind,
      enforcementLevel: p.enforcement_level,
      code: p.code,
      query: p.query,
      policySetName: s.name,
    })),
  );

/** Evaluates one check; returns how to record its verdict, result and output. */
async function evaluateCheck(
  engines: PolicyEngines,
  check: PolicyCheckRow,
  sets: RunPolicySet[],
  input: EvaluationInput | Error,
): Promise<(db: Db) => Promise<unknown>> {
  const mine = sets.filter((s) => check.policy_set_ids.includes(s.id));
  const outcomes = await outcomesOf(engines, mine, input);
  const summary = summarizeCheck(outcomes, {
    overridableSet: (name) => mine.find((s) => s.name === name)?.overridable ?? true,
  });
  const changes = {
    result: summary.result as unknown as Record<string, unknown>,
    output: renderOutput(outcomes, summary),
    is_overridable: summary.isOverridable,
  };
  return (db) => movePolicyCheck(db, check.id, VERDICT_EVENT[summary.status], changes);
}

/** The `policy` step of a run: evaluates its queued checks, then moves the run on. */
export async function evaluateRunPolicies(
  rt: Runtime & { policyEngines: PolicyEngines },
  runId: string,
): Promise<void> {
  const run = await findRun(rt.db, runId);
  if (!run || run.status !== 'policy_checking') return;
  const queued = (await checksOfRun(rt.db, run.id)).filter((c) => c.status === 'queued');
  const verdicts: ((db: Db) => Promise<unknown>)[] = [];
  if (queued.length) {
    const workspace = (await findWorkspace(rt.db, run.workspace_id))!;
    const sets = await policySetsForRun(rt.db, workspace.organization_name, run.workspace_id);
    const input = await evaluationInput(rt, run, workspace).catch((err: Error) => err);
    for (const check of queued) verdicts.push(await evaluateCheck(rt.policyEngines, check, sets, input));
  }
  // The verdicts and the run's move commit together: a soft-failed check is never seen before its
  // run waits in policy_override (clients read is-overridable as soon as the check has a verdict).
  const [moved, followUps] = await rt.lifecycle.transaction(rt.db, async (m) => {
    for (const record of verdicts) await record(m.tx);
    return settleRun(m, run.id);
  });
  if (moved) await afterMove(rt, moved, followUps);
}

/**
 * An outcome's description: the policy's own, and for a policy that could not be evaluated the
 * reason, which is what the terraform CLI prints under the policy's name.
 */
function outcomeDescription(description: string | null, o: PolicyOutcome): string | null {
  if (o.status !== 'errored') return description;
  const reason = `Not evaluated: ${o.error ?? 'the policy could not be evaluated'}`;
  return description ? `${description}. ${reason}` : reason;
}

/** A set's outcome in an evaluation: its policies' results, as TFE lists them. */
function setOutcome(set: RunPolicySet, outcomes: PolicyOutcome[]): NewSetOutcome {
  const mine = outcomes.filter((o) => o.policySetName === set.name);
  const errors = mine.filter((o) => o.error).map((o) => `${o.name}: ${o.error}`);
  const policy = (id: string) => set.policies.find((p) => p.id === id);
  return {
    policy_set_id: set.id,
    policy_set_name: set.name,
    policy_set_description: set.description,
    // OPA: the set says whether a mandatory failure may be overridden; Sentinel: soft-mandatory failures may.
    overridable: set.kind === 'opa' ? set.overridable : true,
    error: errors.length ? errors.join('\n') : null,
    outcomes: mine.map((o) => ({
      enforcement_level: o.enforcementLevel,
      query: policy(o.policyId)?.query ?? null,
      status: o.status,
      policy_name: o.name,
      description: outcomeDescription(policy(o.policyId)?.description ?? null, o),
      output: o.messages.map((print) => ({ print })),
    })),
    result_count: resultCount(mine),
  };
}

/**
 * The `evaluate` step of a run in its post-plan stage: evaluates its queued policy evaluations,
 * records their verdicts and set outcomes, and completes the stage when nothing else in it is
 * open (moving the run on, or holding it for an override).
 */
export async function evaluateStagePolicies(
  rt: Runtime & { policyEngines: PolicyEngines },
  runId: string,
): Promise<void> {
  const run = await findRun(rt.db, runId);
  if (!run || run.status !== 'post_plan_running') return;
  const queued = (await evaluationsOfRun(rt.db, run.id)).filter((e) => e.status === 'queued');
  if (!queued.length) return;
  const workspace = (await findWorkspace(rt.db, run.workspace_id))!;
  const sets = await policySetsForRun(rt.db, workspace.organization_name, run.workspace_id);
  const input = await evaluationInput(rt, run, workspace).catch((err: Error) => err);
  const verdicts: ((m: RunMoves) => Promise<RunRow | undefined>)[] = [];
  for (const evaluation of queued) {
    const mine = sets.filter((s) => evaluation.policy_set_ids.includes(s.id));
    const outcomes = await outcomesOf(rt.policyEngines, mine, input);
    const summary = summarizeCheck(outcomes, {
      overridableSet: (name) => mine.find((s) => s.name === name)?.overridable ?? true,
    });
    const { event, overridable } = evaluationVerdict(summary.status);
    verdicts.push(async (m) => {
      const [moved] = await movePolicyEvaluation(m.tx, { id: evaluation.id }, event, {
        is_overridable: overridable,
        result_count: resultCount(outcomes),
      });
      if (!moved) return undefined;
      await insertSetOutcomes(
        m.tx,
        moved.id,
        mine.map((s) => setOutcome(s, outcomes)),
      );
      return completeStageIfDone(m, moved.task_stage_id);
    });
  }
  // The verdicts, the stage's end and the run's move commit together: a client never sees a stage
  // with evaluations done and its run not yet moved.
  const [moved, followUps] = await rt.lifecycle.transaction(rt.db, async (m) => {
    let last: RunRow | undefined;
    for (const record of verdicts) last = (await record(m)) ?? last;
    return last;
  });
  if (moved) await afterMove(rt, moved, followUps);
}
