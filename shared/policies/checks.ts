import type { Runtime } from '../runtime.js';
import type { Db } from '../platform/db.js';
import { Conflict, NotFound } from '../platform/errors.js';
import { isFinal } from '../runs/machine.js';
import { runGate } from '../runs/gates.js';
import { overridableNow, type PolicyCheckScope } from './checks.machine.js';
import type { RunLifecycle, RunMoves, StageInterest } from '../runs/lifecycle.js';
import {
  findRun,
  type RunRow,
  transitionRun,
  lockRun,
  continueAfterPlan,
  END_EVENT,
  afterMove,
} from '../runs/index.js';
import {
  checksOfRun,
  insertPolicyCheck,
  lockPolicyCheck,
  movePolicyCheck,
  runHasOpenChecks,
  type PolicyCheckRow,
} from './checks.repo.js';
import { registerPolicyEvaluations } from './stage-evaluations.js';
import { checkSetIdsOf, runHasCheckSets } from './stage-evaluations.repo.js';

const ORGANIZATION_SCOPE: PolicyCheckScope = 'organization';

/** The sets with policies that apply to the run's workspace (global or attached). */
const applyingSets = (tx: Db, run: RunRow) => checkSetIdsOf(tx, run.workspace_id);

/**
 * At the plan's end (the post-plan stage): a pending check for the sets with policies that apply.
 * The terraform CLI reads a run's policy checks once, right after the plan and before it waits for
 * the post-plan tasks, so the check must exist from then on. It never holds the run up.
 */
async function announcePolicyCheck(tx: Db, run: RunRow): Promise<'pass'> {
  const sets = await applyingSets(tx, run);
  if (sets.length && !(await checksOfRun(tx, run.id)).length)
    await insertPolicyCheck(tx, run.id, ORGANIZATION_SCOPE, sets, 'pending');
  return 'pass';
}

/**
 * The policy check stage, inside the transaction that reaches it: the pending checks made at the
 * plan's end are queued, or, for a run that has none, one queued check for every set with
 * policies that applies. Policy sets belong to the organization whichever workspaces they apply to,
 * so the check's scope is `organization` (as TFE's; `workspace` was the scope of the
 * workspace-level policies TFE no longer has). 'pass' when no set with policies applies.
 */
async function enterPolicyStage(tx: Db, run: RunRow): Promise<'pass' | 'wait'> {
  const pending = (await checksOfRun(tx, run.id)).filter((c) => c.status === 'pending');
  for (const check of pending) await movePolicyCheck(tx, check.id, 'queue');
  if (pending.length) return 'wait';
  const sets = await applyingSets(tx, run);
  if (!sets.length) return 'pass';
  await insertPolicyCheck(tx, run.id, ORGANIZATION_SCOPE, sets);
  return 'wait';
}

/** When a run ends: queued checks are canceled; pending ones, whose stage the run never reached, are unreachable. */
async function closeChecks(tx: Db, runId: string): Promise<void> {
  for (const check of await checksOfRun(tx, runId)) {
    if (check.status === 'queued') await movePolicyCheck(tx, check.id, 'cancel');
    if (check.status === 'pending') await movePolicyCheck(tx, check.id, 'skip');
  }
}

/**
 * Moves a run in policy_checking on once every check has a verdict: on when all passed; a soft
 * failure waits for an override (a run with nothing to apply ends `policy_soft_failed`); a hard failure or an
 * error stops the run. From policy_override (after an override) the run goes on once nothing
 * fails any more.
 */
export async function settleRun(m: RunMoves, runId: string): Promise<RunRow | undefined> {
  const { tx } = m;
  const run = await lockRun(tx, runId);
  if (!run || (run.status !== 'policy_checking' && run.status !== 'policy_override')) return undefined;
  const overriding = run.status === 'policy_override';
  const gate = runGate({
    at: 'policy_checks',
    checks: (await checksOfRun(tx, run.id)).map((c) => c.status),
    overriding,
    run,
  });
  switch (gate.gate) {
    case 'go': {
      const on = overriding
        ? await transitionRun(m, run, 'override_policy', { description: 'policy check overridden' })
        : await transitionRun(m, run, 'pass_policy_check');
      return on && continueAfterPlan(m, on);
    }
    case 'wait':
      // A run in policy_override already waits for its override.
      return gate.for === 'override' && !overriding ? transitionRun(m, run, 'await_policy_override') : undefined;
    case 'end':
      return transitionRun(m, run, END_EVENT[gate.as]);
    case 'stop':
      return transitionRun(m, run, 'error', { description: gate.reason, changes: { error_message: gate.reason } });
    default:
      return undefined;
  }
}

/**
 * Overrides a soft-failed check (409 when it is not overridable or not soft-failed); once no
 * check of the run is left failing, the run goes on to confirmation or, with auto-apply, apply.
 */
export async function overridePolicyCheck(
  rt: Runtime,
  checkId: string,
  actorId: string | null,
): Promise<PolicyCheckRow> {
  const [{ check, run }, followUps] = await rt.lifecycle.transaction(rt.db, async (m) => {
    const { tx } = m;
    const current = await lockPolicyCheck(tx, checkId);
    if (!current) throw new NotFound('policy check not found');
    if (current.status !== 'soft_failed' || !current.is_overridable)
      throw new Conflict(`the policy check is ${current.status} and cannot be overridden`);
    const owner = await findRun(tx, current.run_id);
    if (!owner || !overridableNow(current, owner.status))
      throw new Conflict(`the run is ${owner?.status ?? 'gone'}, not waiting for a policy override`);
    const moved = (await movePolicyCheck(tx, checkId, 'override', { overridden_by_id: actorId }))!;
    return { check: moved, run: await settleRun(m, current.run_id) };
  });
  if (run) await afterMove(rt, run, followUps);
  return check;
}

/** Wires policy checks and policy evaluations into a run lifecycle. */
export function registerPolicyChecks(lifecycle: RunLifecycle): void {
  registerPolicyEvaluations(lifecycle);
  const hasPolicies: StageInterest = runHasCheckSets;
  lifecycle.registerStageHook('post_plan', announcePolicyCheck, hasPolicies);
  lifecycle.registerStageHook('policy_check', enterPolicyStage, hasPolicies);
  lifecycle.onRunTransition(
    async (tx, change) => {
      if (isFinal(change.to)) await closeChecks(tx, change.run.id);
    },
    (db, move, row) => (isFinal(move.to) ? runHasOpenChecks(db, row) : null),
  );
}
