import type { Job } from 'bullmq';
import type { WorkerDeps } from './context.js';
import { idFrom, organizationFrom } from './context.js';
import { inFairSlot } from './organization-slots.js';
import { decryptSecret } from '../shared/crypto.js';
import { nextDispatchAt } from '../shared/domain/run-task.js';
import type { TaskResultRow } from '../shared/repos/run-tasks.js';
import { findRun, organizationOfRun, planOfRun } from '../shared/repos/runs.js';
import { findCv } from '../shared/repos/configuration-versions.js';
import { taskRequestBody, taskUserAgent } from '../shared/run-tasks/payload.js';
import { enqueueAfterCommit, jobs } from '../shared/queues.js';

const SIGNATURE_HEADERS = ['X-Svc-Task-Signature', 'X-TFC-Task-Signature'];

/**
 * Claims a due delivery of a result still waiting for its integration (compare-and-set with a
 * lease), and records the attempt about to be sent as open in the same statement: it is closed
 * when it ends, and one whose sender dies stays open and shows as abandoned.
 */
async function claim(deps: WorkerDeps, id: string): Promise<TaskResultRow | undefined> {
  const { rows } = await deps.db.raw<{ rows: TaskResultRow[] }>(
    `with claimed as (
       update task_results
          set dispatch_status = 'sending', dispatch_attempts = dispatch_attempts + 1, dispatch_lease_until = now() + interval '30 seconds'
        where id = ? and status = 'pending'
          and ((dispatch_status = 'pending' and next_dispatch_at <= now()) or (dispatch_status = 'sending' and dispatch_lease_until < now()))
    returning *
     ), opened as (
       insert into task_result_attempts (task_result_id, attempt)
       select id, dispatch_attempts from claimed
       on conflict (task_result_id, attempt) do nothing
     )
     select * from claimed`,
    [id],
  );
  return rows[0];
}

async function requestBody(deps: WorkerDeps, result: TaskResultRow, token: string): Promise<string> {
  const run = (await findRun(deps.db, result.run_id))!;
  const ws = await deps.db('workspaces').where({ id: run.workspace_id }).first();
  const stage = await deps.db('task_stages').where({ id: result.task_stage_id }).first('stage');
  const cv = run.configuration_version_id ? await findCv(deps.db, run.configuration_version_id) : undefined;
  const creator = run.created_by_id ? await deps.db('users').where({ id: run.created_by_id }).first('username') : undefined;
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
 * One delivery attempt of a run task request, in one of its organization's slots of this process.
 * Only a 200 counts; anything else is retried on the schedule, never starting past the deadline
 * (then the deadline errors the result). A job that waits for its organization's share has claimed
 * nothing, so the wait is not an attempt.
 */
export async function dispatchTaskRequest(job: Job<unknown>, deps: WorkerDeps, token?: string): Promise<void> {
  const id = idFrom(job.data, 'taskResultId');
  const organization = organizationFrom(job.data);
  await inFairSlot(deps.outboundSlots['run-task-dispatch'], organization, job, token, () => dispatch(deps, id, organization));
}

async function dispatch(deps: WorkerDeps, id: string, organization: string | null): Promise<void> {
  const result = await claim(deps, id);
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
  await deps.db('task_result_attempts')
    .insert({
      task_result_id: id,
      attempt: result.dispatch_attempts,
      status_code: response.status,
      duration_ms: response.durationMs,
      error: delivered ? null : (response.error ?? `the integration answered ${response.status}`),
      ended_at: deps.db.fn.now(),
    })
    .onConflict(['task_result_id', 'attempt'])
    .merge(['status_code', 'duration_ms', 'error', 'ended_at']);
  const next = delivered ? null : nextDispatchAt(result.dispatch_attempts, new Date(), result.deadline_at!);
  await deps.db('task_results')
    .where({ id, dispatch_status: 'sending' })
    .update({
      dispatch_status: delivered ? 'delivered' : next ? 'pending' : 'gave_up',
      next_dispatch_at: next,
      dispatch_lease_until: null,
      updated_at: deps.db.fn.now(),
    });
  if (next) {
    // A job queued before jobs named their organization: the workspace's is read for the retry.
    const org = organization ?? (await organizationOfRun(deps.db, result.run_id));
    if (org) await enqueueAfterCommit(deps.queues, jobs.taskDispatch(id, org, result.dispatch_attempts + 1, next.getTime() - Date.now()), deps.logger);
  }
  deps.logger.info('run task request', { taskResultId: id, attempt: result.dispatch_attempts, status: response.status, delivered });
}
