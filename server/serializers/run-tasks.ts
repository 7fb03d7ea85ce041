import { attemptAttributes } from './notifications.js';
import { iso, many, one, type Resource } from '../jsonapi.js';
import type { TaskResultRow, TaskRow, TaskStageRow, WorkspaceTaskRow } from '../../shared/run-tasks/repo.js';
import { stageOverridableNow } from '../../shared/policies/index.js';

/**
 * A run task definition; the HMAC key is write-only and always shown as null. The global
 * configuration is shown where the edition has global run tasks (`global`), as TFE shows it to
 * organizations entitled to them.
 */
export function taskResource(task: TaskRow, global: boolean, workspaceTaskIds: string[]): Resource {
  return {
    type: 'tasks',
    id: task.id,
    attributes: {
      name: task.name,
      url: task.url,
      description: task.description,
      category: task.category,
      'hmac-key': null,
      enabled: task.enabled,
      ...(global
        ? {
            'global-configuration': {
              enabled: task.global_enabled,
              stages: task.global_stages,
              'enforcement-level': task.global_enforcement_level,
            },
          }
        : {}),
      'created-at': iso(task.created_at),
      'updated-at': iso(task.updated_at),
    },
    relationships: {
      organization: one('organizations', task.organization_name),
      'workspace-tasks': many('workspace-tasks', workspaceTaskIds),
    },
    links: { self: `/api/v2/tasks/${task.id}` },
  };
}

export function workspaceTaskResource(wt: WorkspaceTaskRow): Resource {
  return {
    type: 'workspace-tasks',
    id: wt.id,
    attributes: {
      'enforcement-level': wt.enforcement_level,
      stage: wt.stages[0] ?? 'post_plan',
      stages: wt.stages,
      'created-at': iso(wt.created_at),
    },
    relationships: { task: one('tasks', wt.task_id), workspace: one('workspaces', wt.workspace_id) },
    links: { self: `/api/v2/workspaces/${wt.workspace_id}/tasks/${wt.id}` },
  };
}

/**
 * A task stage. It can be overridden only while it waits for an override and its run for the
 * decision (`is-overridable`); `can-override` and `can-override-policy` also need the caller's
 * manage-policy-overrides (`mayOverride`). Task failures are never overridable.
 */
export function taskStageResource(
  ts: TaskStageRow,
  runStatus: string,
  resultIds: string[],
  evaluationIds: string[],
  mayOverride: boolean,
): Resource {
  const overridable = stageOverridableNow(ts.status, runStatus);
  return {
    type: 'task-stages',
    id: ts.id,
    attributes: {
      stage: ts.stage,
      status: ts.status,
      'status-timestamps': ts.status_timestamps,
      'created-at': iso(ts.created_at),
      'updated-at': iso(ts.updated_at),
      permissions: {
        'can-override-policy': mayOverride,
        'can-override-tasks': false,
        'can-override': mayOverride && overridable,
      },
      actions: { 'is-overridable': overridable },
    },
    relationships: {
      run: one('runs', ts.run_id),
      'task-results': many('task-results', resultIds),
      'policy-evaluations': many('policy-evaluations', evaluationIds),
    },
    links: { self: `/api/v2/task-stages/${ts.id}` },
  };
}

export interface Attempt {
  attempt: number;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  created_at: Date;
  ended_at: Date | null;
}

export function taskResultResource(
  r: TaskResultRow,
  stage: string,
  isSpeculative: boolean,
  outcomeIds: string[],
  attempts: Attempt[],
): Resource {
  return {
    type: 'task-results',
    id: r.id,
    attributes: {
      status: r.status,
      message: r.message,
      url: r.url,
      'status-timestamps': r.status_timestamps,
      'created-at': iso(r.created_at),
      'updated-at': iso(r.updated_at),
      'task-id': r.task_id,
      'task-name': r.task_name,
      'task-url': r.task_url,
      stage,
      'is-speculative': isSpeculative,
      'workspace-task-id': r.workspace_task_id,
      'workspace-task-enforcement-level': r.enforcement_level,
      // Beyond TFE: every delivery attempt of the run task request, as integrators debug them.
      'delivery-attempts': attempts.map((a) =>
        attemptAttributes(a, r.dispatch_attempts, r.dispatch_status === 'sending'),
      ),
    },
    relationships: {
      'task-stage': one('task-stages', r.task_stage_id),
      task_stage: one('task-stages', r.task_stage_id),
      outcomes: many('task-result-outcomes', outcomeIds),
    },
    links: { self: `/api/v2/task-results/${r.id}` },
  };
}

export function outcomeResource(o: {
  id: string;
  task_result_id: string;
  outcome_id: string | null;
  description: string | null;
  body: string | null;
  url: string | null;
  tags: unknown;
  created_at: Date;
}): Resource {
  return {
    type: 'task-result-outcomes',
    id: o.id,
    attributes: {
      'outcome-id': o.outcome_id,
      description: o.description,
      body: o.body,
      url: o.url,
      tags: o.tags,
      'created-at': iso(o.created_at),
    },
    relationships: { 'task-result': one('task-results', o.task_result_id) },
  };
}
