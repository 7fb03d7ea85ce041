import { UnrecoverableError } from 'bullmq';
import type { QueueJob, WorkerDeps } from './context.js';
import { idFrom, organizationFrom } from './context.js';
import { organizationOfRunId, organizationOfWorkspace, startPendingRun } from '../shared/runs/index.js';
import { executeApply, executePlan } from '../shared/runs/engine.js';
import { executeAssessment } from '../shared/assessments/engine.js';
import { evaluateRunPolicies, evaluateStagePolicies } from '../shared/policies/engine.js';
import { inFairSlot } from './organization-slots.js';

/**
 * One step of a run: `queue` (take the workspace), `plan`, `policy` (evaluate its checks),
 * `evaluate` (the policy evaluations of its post-plan stage),
 * `confirm` (enter the pre-apply stage, and apply when it has nothing to wait for) or `apply`.
 * The row decides whether anything is due.
 */
export async function runStep(
  job: QueueJob<'run-pipeline', 'run-step'>,
  deps: WorkerDeps,
  token?: string,
): Promise<void> {
  const runId = idFrom(job.data, 'runId');
  // Jobs queued where the organization was at hand carry it; the others read it first.
  const organization = async () => organizationFrom(job.data) ?? (await organizationOfRunId(deps.db, runId));
  const step = job.data.step;
  switch (step) {
    case 'queue':
      await startPendingRun(deps, runId);
      return;
    case 'plan':
      await inFairSlot(deps.slots, await organization(), job, token, () => executePlan(deps, runId));
      return;
    case 'confirm':
    case 'apply':
      await inFairSlot(deps.slots, await organization(), job, token, () => executeApply(deps, runId));
      return;
    case 'policy':
      await evaluateRunPolicies(deps, runId);
      return;
    case 'evaluate':
      await evaluateStagePolicies(deps, runId);
      return;
    default:
      throw new UnrecoverableError(`unknown run step ${String(step)}`);
  }
}

/** A health assessment of one workspace (a refresh-only plan; see shared/assessments/engine.ts). */
export async function runAssessment(
  job: QueueJob<'run-pipeline', 'assess'>,
  deps: WorkerDeps,
  token?: string,
): Promise<void> {
  const workspaceId = idFrom(job.data, 'workspaceId');
  const organization = await organizationOfWorkspace(deps.db, workspaceId);
  await inFairSlot(
    deps.slots,
    organization,
    job,
    token,
    async () => void (await executeAssessment(deps, deps.terraform, workspaceId, deps.spareShell)),
  );
}
