import { expect } from 'chai';
import { api, doc } from './api.js';
import { createOrg, createWorkspace, uniq, type TestUser } from './fixtures.js';
import { waitFor } from './processes.js';

// Documents read back from the API, inspected by key.
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A configuration Terraform plans and applies without any provider download. */
export const SIMPLE_CONFIG = { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' };

/** Creates a run task definition (the integration at `url` must answer the endpoint check); returns its id. */
export async function createTask(
  orgName: string,
  token: string,
  url: string,
  attrs: Record<string, unknown> = {},
): Promise<string> {
  const res = await api('POST', `/organizations/${orgName}/tasks`, {
    token,
    body: doc('tasks', { name: uniq('task'), url, category: 'task', ...attrs }),
  });
  expect(res.status, res.text).to.equal(201);
  return res.body.data.id;
}

/** Attaches a task to a workspace; returns the workspace task id. */
export async function attachTask(
  workspaceId: string,
  token: string,
  taskId: string,
  attrs: Record<string, unknown>,
): Promise<string> {
  const res = await api('POST', `/workspaces/${workspaceId}/tasks`, {
    token,
    body: doc('workspace-tasks', attrs, { task: { data: { type: 'tasks', id: taskId } } }),
  });
  expect(res.status, res.text).to.equal(201);
  return res.body.data.id;
}

export interface TaskSetup {
  org: { name: string; owner: TestUser };
  token: string;
  ws: { id: string; name: string };
  taskId: string;
  workspaceTaskId: string;
  taskName: string;
}

/** A fresh organization and workspace with one task (integration at `url`) attached at `stages`. */
export async function taskSetup(
  url: string,
  opts: { level: 'advisory' | 'mandatory'; stages: string[]; hmacKey?: string | null; name?: string },
): Promise<TaskSetup> {
  const org = await createOrg();
  const token = org.owner.token;
  const taskName = opts.name ?? uniq('task');
  const taskId = await createTask(org.name, token, url, { name: taskName, 'hmac-key': opts.hmacKey ?? null });
  const ws = await createWorkspace(org);
  const workspaceTaskId = await attachTask(ws.id, token, taskId, {
    'enforcement-level': opts.level,
    stages: opts.stages,
  });
  return { org, token, ws, taskId, workspaceTaskId, taskName };
}

export interface StageView {
  id: string;
  stage: string;
  status: string;
  timestamps: Record<string, string>;
  results: { id: string; attributes: Json }[];
}

/** The run's task stages with their results, through the API. */
export async function stagesOfRun(runId: string, token: string): Promise<StageView[]> {
  const res = await api('GET', `/runs/${runId}/task-stages?include=task_results`, { token });
  expect(res.status, res.text).to.equal(200);
  const included = (res.body.included ?? []) as { id: string; type: string; attributes: Record<string, unknown> }[];
  const resultOf = (id: string) => included.find((i) => i.type === 'task-results' && i.id === id)!;
  return (res.body.data as { id: string; attributes: Json; relationships: Json }[]).map((s) => ({
    id: s.id,
    stage: s.attributes.stage,
    status: s.attributes.status,
    timestamps: s.attributes['status-timestamps'],
    results: (s.relationships['task-results'].data as { id: string }[]).map((r) => resultOf(r.id)),
  }));
}

/** One stage of a run (asserting it exists). */
export async function stageOf(runId: string, token: string, stage: string): Promise<StageView> {
  const found = (await stagesOfRun(runId, token)).find((s) => s.stage === stage);
  expect(found, `stage ${stage} of ${runId}`).to.not.equal(undefined);
  return found!;
}

/** A task result document, with its outcomes included. */
export async function taskResult(id: string, token: string) {
  const res = await api('GET', `/task-results/${id}?include=outcomes`, { token });
  expect(res.status, res.text).to.equal(200);
  return res.body as {
    data: { id: string; attributes: Json; relationships: Json };
    included?: { id: string; attributes: Json }[];
  };
}

/** Polls a task result until its status is one of `statuses`. */
export async function waitForResult(id: string, token: string, statuses: string[], timeoutMs = 30_000) {
  let last = '';
  const found = await waitFor(
    async () => {
      const doc = await taskResult(id, token);
      last = doc.data.attributes.status;
      return statuses.includes(last) ? doc : null;
    },
    `task result ${id} to reach ${statuses.join('/')} (last: ${last})`,
    timeoutMs,
  );
  return found!;
}

/** The run's events (action and description), oldest first. */
export async function runEvents(
  runId: string,
  token: string,
): Promise<{ action: string; description: string | null }[]> {
  const res = await api('GET', `/runs/${runId}/run-events`, { token });
  expect(res.status, res.text).to.equal(200);
  return res.body.data.map((e: { attributes: { action: string; description: string | null } }) => e.attributes);
}
