import { createHash } from 'node:crypto';
import { iso, many, one, type Resource } from '../jsonapi.js';
import { allows, type OrganizationGrant, type WorkspaceAccess } from '../../shared/identity/access.queries.js';
import { isFinal, runActions } from '../../shared/runs/index.js';
import { triggerReason } from '../../shared/run-triggers/index.js';
import type { ApplyRow, PlanRow, RunRow } from '../../shared/runs/repo.js';
import type { StateOutputRow, StateVersionRow } from '../../shared/state/repo.js';
import type { ManagedResource } from '../../shared/state/machine.js';
import type { CommentRow } from '../../shared/runs/comments.repo.js';
import type { RunEventView } from '../../shared/runs/queries.js';

/** What the caller may do to a run, from its workspace access. */
function runPermissions(access: WorkspaceAccess, grant: OrganizationGrant | null, run: RunRow) {
  const act = allows(access, run.plan_only ? 'queue-plans' : 'apply');
  return {
    'can-apply': allows(access, 'apply'),
    'can-cancel': act,
    'can-discard': allows(access, 'apply'),
    'can-force-cancel': act,
    'can-force-execute': allows(access, 'apply'),
    'can-comment': allows(access, 'read'),
    'can-override-policy-check': grant?.permissions['manage-policy-overrides'] ?? false,
  };
}

export interface RunContext {
  planId: string;
  applyId: string;
  access: WorkspaceAccess;
  grant: OrganizationGrant | null;
  taskStageIds?: string[];
  policyCheckIds?: string[];
  commentIds?: string[];
  eventIds?: string[];
  confirmedById?: string | null;
}

/** A comment on a run. */
export function commentResource(c: CommentRow): Resource {
  return {
    type: 'comments',
    id: c.id,
    attributes: { body: c.body, 'created-at': iso(c.created_at) },
    relationships: { run: one('runs', c.run_id), 'created-by': one('users', c.created_by_id) },
    links: { self: `/api/v2/comments/${c.id}` },
  };
}

export function runResource(run: RunRow, ctx: RunContext): Resource {
  return {
    type: 'runs',
    id: run.id,
    attributes: {
      status: run.status,
      'status-timestamps': run.status_timestamps,
      source: run.source,
      message: run.message,
      'trigger-reason': triggerReason(run.source),
      'is-destroy': run.is_destroy,
      'auto-apply': run.auto_apply,
      'plan-only': run.plan_only,
      refresh: run.refresh,
      'refresh-only': run.refresh_only,
      'save-plan': run.save_plan,
      'allow-empty-apply': run.allow_empty_apply,
      'allow-config-generation': false,
      'has-changes': run.has_changes === true,
      'target-addrs': run.target_addrs,
      'replace-addrs': run.replace_addrs,
      // Keys only, as TFE answers: the values are secrets, sealed at rest and given to the run alone.
      variables: run.variables.map((v) => ({ key: v.key })),
      'terraform-version': run.terraform_version,
      'position-in-queue': 0,
      'created-at': iso(run.created_at),
      'canceled-at': run.status_timestamps['canceled-at'] ?? null,
      'force-cancel-available-at': iso(run.force_cancel_available_at),
      'error-message': run.error_message,
      actions: runActions(run),
      permissions: runPermissions(ctx.access, ctx.grant, run),
    },
    relationships: {
      workspace: one('workspaces', run.workspace_id),
      'configuration-version': one('configuration-versions', run.configuration_version_id),
      'created-by': one('users', run.created_by_id),
      'confirmed-by': one('users', ctx.confirmedById),
      plan: one('plans', ctx.planId),
      apply: one('applies', ctx.applyId),
      'cost-estimate': one('cost-estimates', null),
      'task-stages': many('task-stages', ctx.taskStageIds ?? []),
      'policy-checks': many('policy-checks', ctx.policyCheckIds ?? []),
      comments: many('comments', ctx.commentIds ?? []),
      'run-events': {
        ...many('run-events', ctx.eventIds ?? []),
        links: { related: `/api/v2/runs/${run.id}/run-events` },
      },
    },
    links: { self: `/api/v2/runs/${run.id}` },
  };
}

/** A phase still pending is `queued` while its run waits for it, and `unreachable` once the run ended without it. */
const phaseStatus = (status: string, runStatus: string, queuedWhen: string[]) => {
  if (status !== 'pending') return status;
  if (queuedWhen.includes(runStatus)) return 'queued';
  return isFinal(runStatus) ? 'unreachable' : status;
};

export function planResource(plan: PlanRow, run: Pick<RunRow, 'status'>, logReadUrl: string): Resource {
  return {
    type: 'plans',
    id: plan.id,
    attributes: {
      status: phaseStatus(plan.status, run.status, ['plan_queued']),
      'has-changes': plan.has_changes === true,
      'resource-additions': plan.resource_additions,
      'resource-changes': plan.resource_changes,
      'resource-destructions': plan.resource_destructions,
      'resource-imports': plan.resource_imports,
      'generated-configuration': false,
      'execution-details': { mode: 'remote' },
      'status-timestamps': plan.status_timestamps,
      'log-read-url': logReadUrl,
    },
    relationships: { run: one('runs', plan.run_id), exports: many('plan-exports', []) },
    links: { self: `/api/v2/plans/${plan.id}`, 'json-output': `/api/v2/plans/${plan.id}/json-output` },
  };
}

export function applyResource(apply: ApplyRow, run: Pick<RunRow, 'status'>, logReadUrl: string): Resource {
  return {
    type: 'applies',
    id: apply.id,
    attributes: {
      status: phaseStatus(apply.status, run.status, ['apply_queued']),
      'resource-additions': apply.resource_additions,
      'resource-changes': apply.resource_changes,
      'resource-destructions': apply.resource_destructions,
      'resource-imports': apply.resource_imports,
      'execution-details': { mode: 'remote' },
      'status-timestamps': apply.status_timestamps,
      'log-read-url': logReadUrl,
    },
    relationships: { run: one('runs', apply.run_id) },
    links: { self: `/api/v2/applies/${apply.id}` },
  };
}

export function runEventResource(e: RunEventView): Resource {
  return {
    type: 'run-events',
    id: e.id,
    attributes: { action: e.action, description: e.description, 'created-at': iso(e.created_at) },
    relationships: {
      actor: one('users', e.actor_id),
      target: one('runs', e.run_id),
      comment: one('comments', e.comment_id),
    },
  };
}

/** The URLs a state version is presented with: downloads for whole-state readers, uploads while it is pending. */
export interface StateVersionUrls {
  download?: string | null;
  jsonDownload?: string | null;
  upload?: string | null;
  jsonUpload?: string | null;
}

export function stateVersionResource(sv: StateVersionRow, outputIds: string[], urls: StateVersionUrls = {}): Resource {
  return {
    type: 'state-versions',
    id: sv.id,
    attributes: {
      serial: sv.serial,
      lineage: sv.lineage,
      size: Number(sv.size),
      md5: sv.md5,
      status: sv.status,
      'state-version': 4,
      'terraform-version': sv.terraform_version,
      'resources-processed': sv.status === 'finalized',
      'billable-rum-count': sv.resource_count,
      'hosted-state-download-url': urls.download ?? null,
      'hosted-json-state-download-url': urls.jsonDownload ?? null,
      ...(sv.status === 'pending'
        ? { 'hosted-state-upload-url': urls.upload ?? null, 'hosted-json-state-upload-url': urls.jsonUpload ?? null }
        : {}),
      'vcs-commit-sha': null,
      'created-at': iso(sv.created_at),
    },
    relationships: {
      run: one('runs', sv.run_id),
      workspace: one('workspaces', sv.workspace_id),
      outputs: many('state-version-outputs', outputIds),
    },
    links: { self: `/api/v2/state-versions/${sv.id}` },
  };
}

/**
 * A resource instance of a workspace's current state. Its id is derived from the workspace and the
 * address, so it stays the same while the resource is under management; both dates are the
 * current state version's, which is also the version named as having modified it.
 */
export function workspaceResourceResource(workspaceId: string, sv: StateVersionRow, r: ManagedResource): Resource {
  const at = iso(sv.created_at);
  return {
    type: 'resources',
    id: `wsr-${createHash('sha256').update(`${workspaceId}\0${r.address}`).digest('hex').slice(0, 16)}`,
    attributes: {
      address: r.address,
      name: r.name,
      'created-at': at,
      'updated-at': at,
      module: r.module,
      provider: r.provider,
      'provider-type': r.type,
      'modified-by-state-version-id': sv.id,
      'name-index': r.nameIndex,
    },
  };
}

/** A state output; `value` is the decoded value, or null when withheld (sensitive in lists). */
export function stateOutputResource(o: StateOutputRow, value: unknown): Resource {
  return {
    type: 'state-version-outputs',
    id: o.id,
    attributes: {
      name: o.name,
      sensitive: o.sensitive,
      type: typeof o.type === 'string' ? o.type : 'unknown',
      value,
      'detailed-type': o.type,
    },
    links: { self: `/api/v2/state-version-outputs/${o.id}` },
  };
}
