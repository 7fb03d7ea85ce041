import type { Runtime } from '../runtime.js';
import type { Db } from '../db.js';
import { VERDICT_EVENT } from '../domain/policy-check.js';
import { planOfRun, type RunRow } from '../repos/runs.js';
import { findWorkspace, type WorkspaceRow } from '../repos/workspaces.js';
import { checksOfRun, movePolicyCheck, type PolicyCheckRow } from '../repos/policy-checks.js';
import { policySetsForRun, type RunPolicySet } from '../repos/policies.js';
import { readAll } from '../store/postgres-store.js';
import { afterMove } from '../usecases/runs.js';
import { evaluatePolicies, type PolicyEngines } from './engines.js';
import { erroredOutcomes } from './cli.js';
import { buildRunInput } from './run-input.js';
import { renderOutput, summarizeCheck } from './summary.js';
import type { EvaluationInput, PolicyToEvaluate } from './types.js';
import { settleRun } from './checks.js';

/*
 * The evaluation of a run's policy checks, in the run-pipeline worker: the policy engines run in
 * the run sandbox, so the web process never loads this module (the checks' creation and
 * overrides are in checks.ts).
 */

/** What policies see: the run's JSON plan and the run document. */
async function evaluationInput(rt: Runtime, run: RunRow, workspace: WorkspaceRow): Promise<EvaluationInput> {
  const plan = await planOfRun(rt.db, run.id);
  if (plan?.json_omitted_bytes != null) throw new Error(`the plan's JSON form (${plan.json_omitted_bytes} bytes) exceeded MAX_PLAN_JSON_BYTES and was not stored: there is nothing to evaluate`);
  const json = plan?.json_object_id ? await readAll(rt.store, plan.json_object_id) : null;
  if (!json) throw new Error('the plan has no JSON form to evaluate');
  const creator = run.created_by_id ? await rt.db('users').where({ id: run.created_by_id }).first('username') : undefined;
  return {
    plan: JSON.parse(json.toString('utf8')),
    run: buildRunInput({ run, workspace, organizationName: workspace.organization_name, createdBy: creator?.username ?? null }),
  };
}

const toEvaluate = (sets: RunPolicySet[]): PolicyToEvaluate[] =>
  sets.flatMap((s) =>
    s.policies.map((p) => ({ id: p.id, name: p.name, kind: p.kind, enforcementLevel: p.enforcement_level, code: p.code, query: p.query, policySetName: s.name })),
  );

/** Evaluates one check; returns how to record its verdict, result and output. */
async function evaluateCheck(engines: PolicyEngines, check: PolicyCheckRow, sets: RunPolicySet[], input: EvaluationInput | Error): Promise<(db: Db) => Promise<unknown>> {
  const mine = sets.filter((s) => check.policy_set_ids.includes(s.id));
  const policies = toEvaluate(mine);
  const outcomes =
    input instanceof Error
      ? (['sentinel', 'opa'] as const).flatMap((kind) => erroredOutcomes(policies.filter((p) => p.kind === kind), kind, input.message))
      : await evaluatePolicies(engines, policies, input);
  const summary = summarizeCheck(outcomes, { overridableSet: (name) => mine.find((s) => s.name === name)?.overridable ?? true });
  const changes = { result: summary.result as unknown as Record<string, unknown>, output: renderOutput(outcomes, summary), is_overridable: summary.isOverridable };
  return (db) => movePolicyCheck(db, check.id, VERDICT_EVENT[summary.status], changes);
}

/** The `policy` step of a run: evaluates its queued checks, then moves the run on. */
export async function evaluateRunPolicies(rt: Runtime & { policyEngines: PolicyEngines }, runId: string): Promise<void> {
  const run = await rt.db<RunRow>('runs').where({ id: runId }).first();
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

