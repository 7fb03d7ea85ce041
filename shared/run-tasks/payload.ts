import type { TaskStageName } from './machine.js';

/** Everything the run task request describes, gathered by the caller. */
export interface TaskRequestContext {
  baseUrl: string;
  stage: TaskStageName;
  accessToken: string;
  taskResultId: string;
  enforcementLevel: string;
  run: { id: string; created_at: Date; message: string; plan_only: boolean; configuration_version_id: string | null };
  runCreatedBy: string | null;
  planId: string | null;
  cvDownloadable: boolean;
  organizationName: string;
  workspace: { id: string; name: string; working_directory: string; vcs_repo: Record<string, unknown> | null };
  /** The commit the run's configuration was fetched from, when it was. */
  commit?: { branch: string | null; commit_url: string | null; pull_request_url: string | null } | null;
}

const STAGES_WITH_PLAN: readonly TaskStageName[] = ['post_plan', 'pre_apply', 'post_apply'];

/**
 * The run task request body, payload_version 1. Both spellings of the
 * capabilities key are sent: TFE's misspelt `capabilitites` and the documented `capabilities`.
 */
export function taskRequestBody(ctx: TaskRequestContext): Record<string, unknown> {
  const api = `${ctx.baseUrl}/api/v2`;
  const app = `${ctx.baseUrl}/app/${encodeURIComponent(ctx.organizationName)}/workspaces/${encodeURIComponent(ctx.workspace.name)}`;
  const vcs = ctx.workspace.vcs_repo;
  return {
    payload_version: 1,
    stage: ctx.stage,
    access_token: ctx.accessToken,
    capabilitites: { outcomes: true },
    capabilities: { outcomes: true },
    configuration_version_download_url:
      ctx.cvDownloadable && ctx.run.configuration_version_id
        ? `${api}/configuration-versions/${ctx.run.configuration_version_id}/download`
        : null,
    configuration_version_id: ctx.run.configuration_version_id,
    is_speculative: ctx.run.plan_only,
    organization_name: ctx.organizationName,
    run_app_url: `${app}/runs/${ctx.run.id}`,
    run_created_at: ctx.run.created_at.toISOString(),
    run_created_by: ctx.runCreatedBy,
    run_id: ctx.run.id,
    run_message: ctx.run.message,
    task_result_callback_url: `${api}/task-results/${ctx.taskResultId}/callback`,
    task_result_enforcement_level: ctx.enforcementLevel,
    task_result_id: ctx.taskResultId,
    vcs_branch: ctx.commit?.branch ?? (vcs ? (vcs.branch as string | undefined) || null : null),
    vcs_commit_url: ctx.commit?.commit_url ?? null,
    vcs_pull_request_url: ctx.commit?.pull_request_url ?? null,
    vcs_repo_url: vcs ? ((vcs['repository-http-url'] as string | undefined) ?? null) : null,
    workspace_app_url: app,
    workspace_id: ctx.workspace.id,
    workspace_name: ctx.workspace.name,
    workspace_working_directory: ctx.workspace.working_directory,
    ...(STAGES_WITH_PLAN.includes(ctx.stage) && ctx.planId
      ? { plan_json_api_url: `${api}/plans/${ctx.planId}/json-output` }
      : {}),
  };
}

/** `<AGENT>/1.0 (+{base_url}; <AGENT>)`, the User-Agent run task integrations see from TFE, with this service's name. */
export const taskUserAgent = (agent: string, baseUrl: string) => `${agent}/1.0 (+${baseUrl}; ${agent})`;
