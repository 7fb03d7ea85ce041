import type { Runtime } from '../runtime.js';
import { Unprocessable } from '../platform/errors.js';
import { decryptSecret, encryptSecret, safeEqual, sha256Hex } from '../platform/crypto.js';
import type { Db } from '../platform/db.js';
import type { TaskStageName } from './machine.js';
import {
  attachmentCount,
  deleteTask,
  deleteWorkspaceTask,
  insertTask,
  insertWorkspaceTask,
  isTaskAttached,
  isTaskResultOverdue,
  lockTask,
  lockTaskOrganization,
  organizationHasTask,
  replaceTaskOutcomes,
  taskResultWithRun,
  updateTask,
  updateWorkspaceTask,
  type TaskOutcomeInput,
  type TaskRow,
  type WorkspaceTaskRow,
} from './repo.js';
import { callbackQuestions, settleTaskResult, type CallbackContext } from './stages.js';
import { verifyDestination } from '../notifications/index.js';

/** A run task's attributes as the API takes them. */
export interface TaskInput {
  name?: string;
  url?: string;
  description?: string | null;
  hmacKey?: string | null;
  enabled?: boolean;
  /** The global configuration's attributes given (null: none given). */
  global?: { enabled?: boolean; stages?: TaskStageName[]; enforcementLevel?: 'advisory' | 'mandatory' } | null;
}

/**
 * The global configuration's columns from what was given. Editions without global run tasks
 * (`free`) ignore it, as TFE ignores it for organizations without the entitlement.
 */
function globalColumns(
  rt: Runtime,
  input: TaskInput,
): Partial<Pick<TaskRow, 'global_enabled' | 'global_stages' | 'global_enforcement_level'>> {
  const g = input.global;
  if (!g || rt.config.edition === 'free') return {};
  return {
    ...(g.enabled !== undefined ? { global_enabled: g.enabled } : {}),
    ...(g.stages !== undefined ? { global_stages: g.stages } : {}),
    ...(g.enforcementLevel !== undefined ? { global_enforcement_level: g.enforcementLevel } : {}),
  };
}

/** The test request sent when a task is created or its URL changes (stage `test`, placeholder values). */
function testPayload(baseUrl: string, org: string): string {
  return JSON.stringify({
    payload_version: 1,
    stage: 'test',
    access_token: 'test-token',
    capabilitites: { outcomes: true },
    capabilities: { outcomes: true },
    organization_name: org,
    task_result_id: 'taskrs-test',
    task_result_callback_url: `${baseUrl}/api/v2/task-results/taskrs-test/callback`,
    task_result_enforcement_level: 'test',
    is_speculative: false,
  });
}

/** The integration must answer 200 to the test request; otherwise 422 and nothing is saved. */
async function verifyEndpoint(rt: Runtime, url: string, hmacKey: string | null, org: string): Promise<void> {
  const result = await verifyDestination(rt, {
    kind: 'run-task',
    organization: org,
    url,
    body: testPayload(rt.config.baseUrl, org),
    secret: hmacKey,
  });
  if (result.status !== 'succeeded' || result.response_status !== 200) {
    const why = result.response_status ? `it answered ${result.response_status}` : (result.error ?? 'no response');
    throw new Unprocessable(`the run task endpoint did not answer the test request with 200: ${why}`, {
      attribute: 'url',
    });
  }
}

/** The free edition allows one run task per organization. */
async function checkFreeLimit(rt: Runtime, q: Runtime['db'], org: string): Promise<void> {
  if (rt.config.edition === 'free' && (await organizationHasTask(q, org))) {
    throw new Unprocessable('the free edition allows one run task per organization', { attribute: 'name' });
  }
}

const nameTaken = () => new Unprocessable('name has already been taken', { attribute: 'name' });

/** Creates a run task once its endpoint answered the test request with 200. */
export async function createTask(
  rt: Runtime,
  org: string,
  input: TaskInput & { name: string; url: string },
): Promise<TaskRow> {
  await checkFreeLimit(rt, rt.db, org);
  if (await organizationHasTask(rt.db, org, input.name)) throw nameTaken();
  await verifyEndpoint(rt, input.url, input.hmacKey ?? null, org);
  return rt.db.transaction(async (tx) => {
    // Creates of one organization serialise here, so concurrent ones cannot pass the limit together.
    await lockTaskOrganization(tx, org);
    await checkFreeLimit(rt, tx, org);
    return insertTask(tx, {
      organization_name: org,
      name: input.name,
      url: input.url,
      description: input.description ?? null,
      hmac_key_sealed: input.hmacKey ? encryptSecret(rt.config.encryptionKey, input.hmacKey) : null,
      enabled: input.enabled ?? true,
      ...globalColumns(rt, input),
    });
  });
}

/** Changes a task's given attributes; a new URL is verified first; `hmacKey: null` removes the key. */
export async function changeTask(rt: Runtime, task: TaskRow, input: TaskInput): Promise<TaskRow> {
  const key = rt.config.encryptionKey;
  if (input.name && input.name !== task.name && (await organizationHasTask(rt.db, task.organization_name, input.name)))
    throw nameTaken();
  if (input.url && input.url !== task.url) {
    const hmacKey =
      'hmacKey' in input
        ? (input.hmacKey ?? null)
        : task.hmac_key_sealed
          ? decryptSecret(key, task.hmac_key_sealed)
          : null;
    await verifyEndpoint(rt, input.url, hmacKey, task.organization_name);
  }
  return updateTask(rt.db, task.id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.url !== undefined ? { url: input.url } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    ...globalColumns(rt, input),
    ...('hmacKey' in input ? { hmac_key_sealed: input.hmacKey ? encryptSecret(key, input.hmacKey) : null } : {}),
  });
}

/** Deletes a run task. */
export async function removeTask(rt: Runtime, task: TaskRow): Promise<void> {
  await deleteTask(rt.db, task.id);
}

const FREE_WORKSPACES_PER_TASK = 10;

/** Attaches a task to a workspace once (the free edition: to at most ten workspaces). */
export async function attachTask(
  rt: Runtime,
  workspaceId: string,
  task: TaskRow,
  attrs: Pick<WorkspaceTaskRow, 'enforcement_level' | 'stages'>,
): Promise<WorkspaceTaskRow> {
  return rt.db.transaction(async (tx) => {
    await lockTask(tx, task.id);
    if (await isTaskAttached(tx, workspaceId, task.id)) {
      throw new Unprocessable('the run task is already attached to this workspace', { relationship: 'task' });
    }
    if (rt.config.edition === 'free' && (await attachmentCount(tx, task.id)) >= FREE_WORKSPACES_PER_TASK) {
      throw new Unprocessable(`the free edition allows a run task on at most ${FREE_WORKSPACES_PER_TASK} workspaces`, {
        relationship: 'task',
      });
    }
    return insertWorkspaceTask(tx, { workspace_id: workspaceId, task_id: task.id, ...attrs });
  });
}

/** Changes an attachment's enforcement level and stages (those given). */
export async function changeAttachment(
  rt: Runtime,
  wt: WorkspaceTaskRow,
  changes: { enforcement_level?: WorkspaceTaskRow['enforcement_level']; stages?: TaskStageName[] },
): Promise<WorkspaceTaskRow> {
  const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  return Object.keys(given).length ? updateWorkspaceTask(rt.db, wt.id, given) : wt;
}

/** Detaches a task from its workspace. */
export async function detachTask(rt: Runtime, wt: WorkspaceTaskRow): Promise<void> {
  await deleteWorkspaceTask(rt.db, wt.id);
}

/**
 * The task result a callback names, when `secret` is its access token (compared in constant
 * time), with its stage and run as reportTaskResult may use them; undefined otherwise (the caller
 * answers 401 whichever it was). One statement.
 */
export async function authenticateCallback(
  rt: Runtime,
  resultId: string,
  secret: string | null,
): Promise<CallbackContext | undefined> {
  if (!secret) return undefined;
  const read = await taskResultWithRun(rt.db, resultId, callbackQuestions(rt.lifecycle, rt.db));
  if (!read?.result.access_token_digest || !safeEqual(sha256Hex(secret), read.result.access_token_digest))
    return undefined;
  const { row: run, answers } = rt.lifecycle.splitStageInterest(read.run);
  return { ...read, run, answers };
}

/**
 * An integration's callback, for the result authenticateCallback found: `running` may come any
 * number of times; `passed`/`failed` are final. Outcomes sent with it replace the ones stored
 * before; a callback without outcomes keeps them. False when the result was already final (nothing
 * changes).
 */
export async function reportTaskResult(
  rt: Runtime,
  known: CallbackContext,
  event: 'report_running' | 'pass' | 'fail',
  changes: { message?: string; url?: string },
  outcomes: TaskOutcomeInput[] | undefined,
): Promise<boolean> {
  const extra = outcomes && ((tx: Db, resultId: string) => replaceTaskOutcomes(tx, resultId, outcomes));
  return settleTaskResult(rt, known.result.id, event, changes, extra, known);
}

/** A task result's deadline: errored unless a final callback came first (compare-and-set). */
export async function expireTaskResult(rt: Runtime, id: string): Promise<void> {
  if (!(await isTaskResultOverdue(rt.db, id))) return;
  await settleTaskResult(rt, id, 'expire', {
    message: `no final result within ${rt.config.runTaskDeadlineSeconds} seconds`,
  });
}
