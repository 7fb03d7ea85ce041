import type { Runtime } from '../runtime.js';
import type { OutboundClient } from '../http/outbound.js';
import { decryptSecret } from '../crypto.js';
import { nextDispatchAt } from '../domain/run-task.js';
import { claimTaskDispatch, closeTaskAttempt, findTaskStage, settleTaskDispatch, type TaskResultRow } from '../repos/run-tasks.js';
import { findRun, organizationOfRun, planOfRun } from '../repos/runs.js';
import { findCv } from '../repos/configuration-versions.js';
import { findWorkspace } from '../repos/workspaces.js';
import { findUserById } from '../repos/users.js';
import { taskRequestBody, taskUserAgent } from '../run-tasks/payload.js';
import { enqueueAfterCommit, jobs } from '../queues.js';

const SIGNATURE_HEADERS = ['X-Svc-Task-Signature', 'X-TFC-Task-Signature'];

/** What sending run task requests needs. */
export type DispatchDeps = Pick<Runtime, 'db' | 'config' | 'logger' | 'queues' | 'metrics'> & { outbound: OutboundClient };

async function requestBody(deps: DispatchDeps, result: TaskResultRow, token: string): Promise<string> {
  const run = (await findRun(deps.db, result.run_id))!;
  const ws = (await findWorkspace(deps.db, run.workspace_id))!;
  const stage = (await findTaskStage(deps.db, result.task_stage_id))!;
  const cv = run.configuration_version_id ? await findCv(deps.db, run.configuration_version_id) : undefined;
  const creator = run.created_by_id ? await findUserById(deps.db, run.created_by_id) : undefined;
  return JSON.stringify(
    taskRequestBody({
      baseUrl: deps.config.baseUrl,
      stage: stage.stage,
      accessToken: token,
      taskResultId: result.id,
      enforcementLevel: result.enforcement_level,
      run,
      runCreatedBy: creator?.username ?? null,
      planId: (await planOfRun(deps.db, run.id))?.id ?? null,
      cvDownloadable: cv?.status === 'uploaded' && cv.archive_object_id !== null,
      organizationName: ws.organization_name,
      workspace: ws,
    }),
  );
}

/**
 * One delivery attempt of a run task request. Only a 200 counts; anything else is retried on the
 * schedule, never starting past the deadline (then the deadline errors the result). `organization`
 * is the job's (null for a job queued before jobs named theirs: the run's is read for the retry).
 */
export async function dispatchTaskResult(deps: DispatchDeps, id: string, organization: string | null): Promise<void> {
  const result = await claimTaskDispatch(deps.db, id, deps.config.outboundLeaseSeconds);
  if (!result) return;
  const accessToken = decryptSecret(deps.config.encryptionKey, result.access_token_sealed!);
  const key = result.hmac_key_sealed ? decryptSecret(deps.config.encryptionKey, result.hmac_key_sealed) : null;
  const response = await deps.outbound.send({
    url: result.task_url,
    method: 'POST',
    body: await requestBody(deps, result, accessToken),
    headers: { 'Content-Type': 'application/json', 'User-Agent': taskUserAgent(deps.config.runTaskAgentName, deps.config.baseUrl) },
    sign: { key, headers: SIGNATURE_HEADERS },
  });
  const delivered = response.status === 200;
  await closeTaskAttempt(deps.db, id, result.dispatch_attempts, {
    status: response.status,
    durationMs: response.durationMs,
    error: delivered ? null : (response.error ?? `the integration answered ${response.status}`),
  });
  const next = delivered ? null : nextDispatchAt(result.dispatch_attempts, new Date(), result.deadline_at!);
  await settleTaskDispatch(deps.db, id, delivered, next);
  deps.metrics.outbound.inc({ kind: 'run_task', outcome: delivered ? 'delivered' : next ? 'retry' : 'failed' });
  if (next) {
    const org = organization ?? (await organizationOfRun(deps.db, result.run_id));
    if (org) await enqueueAfterCommit(deps.queues, jobs.taskDispatch(id, org, result.dispatch_attempts + 1, next.getTime() - Date.now()), deps.logger);
  }
  deps.logger.info('run task request', { taskResultId: id, attempt: result.dispatch_attempts, status: response.status, delivered });
}
