import type { RunRow } from '../runs/repo.js';
import type { WorkspaceRow } from '../workspaces/repo.js';
import type { RunInputDocument, RunVariableInfo } from './types.js';

/** What the run document is built from: rows (or row-like objects) the caller has read. */
export interface RunInputSource {
  run: Pick<
    RunRow,
    | 'id'
    | 'created_at'
    | 'message'
    | 'is_destroy'
    | 'refresh'
    | 'refresh_only'
    | 'replace_addrs'
    | 'target_addrs'
    | 'plan_only'
    | 'variables'
  >;
  workspace: Pick<
    WorkspaceRow,
    'id' | 'name' | 'created_at' | 'description' | 'execution_mode' | 'auto_apply' | 'working_directory' | 'vcs_repo'
  > & {
    tags?: readonly string[];
  };
  organizationName: string;
  /** Username of whoever created the run; null for team and organization tokens. */
  createdBy: string | null;
  /** Variables configured for the run's workspace (values are never read). */
  variables?: readonly { key: string; category: string; sensitive: boolean }[];
  commitSha?: string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The workspace's VCS settings as policies see them (snake_case keys, as TFE gives them). */
function vcsRepo(vcs: Record<string, unknown> | null): RunInputDocument['workspace']['vcs_repo'] {
  if (!vcs) return null;
  const identifier = str(vcs.identifier);
  return {
    identifier,
    display_identifier: str(vcs['display-identifier']) ?? identifier,
    branch: str(vcs.branch),
    ingress_submodules: vcs['ingress-submodules'] === true,
  };
}

/**
 * Names, categories and sensitivity of the run's variables, sorted by name. Run-specific
 * variables are Terraform variables; they keep a workspace variable's category and sensitivity.
 */
function variableInfo(src: RunInputSource): Record<string, RunVariableInfo> {
  const found = new Map<string, RunVariableInfo>();
  for (const v of src.variables ?? []) found.set(v.key, { category: v.category, sensitive: v.sensitive });
  for (const v of src.run.variables)
    if (!found.has(v.key)) found.set(v.key, { category: 'terraform', sensitive: false });
  return Object.fromEntries([...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The `run` document OPA policies read as `input.run` and Sentinel policies import as `tfrun`. */
export function buildRunInput(src: RunInputSource): RunInputDocument {
  const { run, workspace } = src;
  return {
    id: run.id,
    created_at: run.created_at.toISOString(),
    created_by: src.createdBy,
    message: run.message,
    commit_sha: src.commitSha ?? null,
    is_destroy: run.is_destroy,
    refresh: run.refresh,
    refresh_only: run.refresh_only,
    replace_addrs: [...run.replace_addrs],
    speculative: run.plan_only,
    target_addrs: [...run.target_addrs],
    variables: variableInfo(src),
    organization: { name: src.organizationName },
    workspace: {
      id: workspace.id,
      name: workspace.name,
      created_at: workspace.created_at.toISOString(),
      // TFE gives null for a workspace without a description.
      description: workspace.description || null,
      execution_mode: workspace.execution_mode,
      auto_apply: workspace.auto_apply,
      tags: [...(workspace.tags ?? [])],
      working_directory: workspace.working_directory,
      vcs_repo: vcsRepo(workspace.vcs_repo),
    },
  };
}
