import type { Runtime } from '../runtime.js';
import type { OutboundClient } from '../platform/outbound.js';
import { decryptSecret } from '../platform/crypto.js';
import { nextDispatchAt } from './machine.js';
import { claimTaskDispatch, endTaskDispatch, settleAnsweredDispatches, type TaskRequestFacts } from './repo.js';
import { taskRequestBody, taskUserAgent } from './payload.js';
import { enqueueAfterCommit, jobs } from '../platform/queues.js';

const SIGNATURE_HEADERS = ['X-Svc-Task-Signature', 'X-TFC-Task-Signature'];

/** What sending run task requests needs. */
export type DispatchDeps = Pick<Runtime, 'db' | 'config' | 'logger' | 'queues' | 'metrics'> & {
  outbound: OutboundClient;
};

function requestBody(
  deps: DispatchDeps,
  result: { id: string; run_id: string; enforcement_level: string },
  facts: TaskRequestFacts,
  token: string,
): string {
  return JSON.stringify(
    taskRequestBody({
      baseUrl: deps.config.baseUrl,
      stage: facts.stage,
      accessToken: token,
      taskResultId: result.id,
      enforcementLevel: result.enforcement_level,
      run: {
        id: result.run_id,
        created_at: facts.run_created_at,
        message: facts.run_message,
        plan_only: facts.run_plan_only,
        configuration_version_id: facts.configuration_version_id,
      },
      runCreatedBy: facts.run_created_by,
      planId: facts.plan_id,
      cvDownloadable: facts.cv_downloadable,
      organizationName: facts.organization_name,
      workspace: {
        id: facts.workspace_id,
        name: facts.workspace_name,
        working_directory: facts.workspace_working_directory,
        vcs_repo: facts.workspace_vcs_repo,
      },
      commit: facts.commit,
    }),
  );
}

/**
 * One delivery attempt of a run task request: two statements, the claim (which reads what the
 * request describes) and its end. Only a 200 counts; anything else is retried on the schedule,
 * never starting past the deadline (then the deadline errors the result).
 */
export async function dispatchTaskResult(deps: DispatchDeps, id: string): Promise<void> {
  const result = await claimTaskDispatch(deps.db, id, deps.config.outboundLeaseSeconds);
  if (!result) return;
  const accessToken = decryptSecret(deps.config.encryptionKey, result.access_token_sealed!);
  const key = result.hmac_key_sealed ? decryptSecret(deps.config.encryptionKey, result.hmac_key_sealed) : null;
  const response = await deps.outbound.send({
    url: result.task_url,
    method: 'POST',
    body: requestBody(deps, result, result.request, accessToken),
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': taskUserAgent(deps.config.runTaskAgentName, deps.config.baseUrl),
    },
    sign: { key, headers: SIGNATURE_HEADERS },
  });
  const delivered = response.status === 200;
  const next = delivered ? null : nextDispatchAt(result.dispatch_attempts, new Date(), result.deadline_at!);
  const end = {
    status: response.status,
    durationMs: response.durationMs,
    error: delivered ? null : (response.error ?? `the integration answered ${response.status}`),
  };
  await endTaskDispatch(deps.db, id, result.dispatch_attempts, end, { delivered, next });
  deps.metrics.outbound.inc({ kind: 'run_task', outcome: delivered ? 'delivered' : next ? 'retry' : 'failed' });
  if (next)
    await enqueueAfterCommit(
      deps.queues,
      jobs.taskDispatch(
        id,
        result.request.organization_name,
        result.dispatch_attempts + 1,
        next.getTime() - Date.now(),
      ),
      deps.logger,
    );
  deps.logger.info('run task request', {
    taskResultId: id,
    attempt: result.dispatch_attempts,
    status: response.status,
    delivered,
  });
}

/**
 * Settles up to `limit` task results whose sender died after their integration had called back
 * (from the sweep); how many.
 */
export async function settleAnsweredTaskDispatches(db: Runtime['db'], limit: number): Promise<number> {
  return settleAnsweredDispatches(db, limit);
}
