import { iso, many, one, type Resource } from '../jsonapi.js';
import { defaultBuild, policyPath } from '../../shared/policies/index.js';
import type { PolicyRow, PolicySetRow } from '../../shared/policies/repo.js';
import type { PolicySetVersionSummary } from '../../shared/policies/set-versions.repo.js';
import type { Config } from '../../shared/platform/config.js';
import { signedObjectUrl } from '../signed-urls.js';
import type { ToolVersionView } from '../../shared/policies/tool-versions.queries.js';
import type { PolicySetParameterRow } from '../../shared/policies/set-parameters.repo.js';

/**
 * A policy. `enforce` (deprecated) describes the policy's code file, as TFE does: empty until code
 * was uploaded, then one element with the file's path and the `enforcement-level`.
 */
export function policyResource(p: PolicyRow, setIds: string[]): Resource {
  const self = `/api/v2/policies/${p.id}`;
  return {
    type: 'policies',
    id: p.id,
    attributes: {
      name: p.name,
      description: p.description,
      kind: p.kind,
      query: p.query,
      'enforcement-level': p.enforcement_level,
      enforce: p.code_updated_at ? [{ path: policyPath(p.name, p.kind), mode: p.enforcement_level }] : [],
      'policy-set-count': setIds.length,
      'created-at': iso(p.created_at),
      'updated-at': iso(p.updated_at),
    },
    relationships: {
      organization: one('organizations', p.organization_name),
      'policy-sets': many('policy-sets', setIds),
    },
    links: { self, upload: `${self}/upload`, download: `${self}/download` },
  };
}

/** A policy set; `workspace-exclusions` names the workspaces it never applies to. */
export function policySetResource(
  s: PolicySetRow,
  policyIds: string[],
  workspaceIds: string[],
  excludedIds: string[],
  versions: { newest: string | null; current: string | null } = { newest: null, current: null },
  projectIds: string[] = [],
): Resource {
  const legacy = s.kind === 'sentinel' && !s.agent_enabled;
  return {
    type: 'policy-sets',
    id: s.id,
    attributes: {
      name: s.name,
      description: s.description,
      kind: s.kind,
      global: s.global,
      // A legacy Sentinel set (not agent-enabled) runs the installed runtime and is overridden per
      // policy level: neither a pinned version nor `overridable` applies to it, so both are null.
      overridable: legacy ? null : s.overridable,
      // OPA policies are only ever evaluated in agent mode (TFE answers true for every OPA set).
      'agent-enabled': s.kind === 'opa' || s.agent_enabled,
      'policy-tool-version': legacy ? null : s.policy_tool_version,
      'policy-count': policyIds.length,
      'workspace-count': workspaceIds.length,
      'project-count': projectIds.length,
      'created-at': iso(s.created_at),
      'updated-at': iso(s.updated_at),
    },
    relationships: {
      organization: one('organizations', s.organization_name),
      policies: many('policies', policyIds),
      workspaces: many('workspaces', workspaceIds),
      'workspace-exclusions': many('workspaces', excludedIds),
      projects: many('projects', projectIds),
      // The newest version whatever its status, and the current one: the newest ready version, whose bundle the set evaluates.
      'newest-version': one('policy-set-versions', versions.newest),
      'current-version': one('policy-set-versions', versions.current),
    },
    links: { self: `/api/v2/policy-sets/${s.id}` },
  };
}

/** The signed URL kind of a policy set version's upload. */
export const POLICY_SET_VERSION_UPLOAD = 'policy-set-version-upload';

/**
 * A policy set version, with its signed upload URL while it still takes its bundle and only for a
 * caller who may upload it (`canUpload`: manage-policies on the set's organization); a bundle that
 * becomes ready replaces the set's policies, so a mere reader never sees the link.
 */
export function policySetVersionDocument(config: Config, v: PolicySetVersionSummary, canUpload: boolean): Resource {
  const upload =
    canUpload && v.status === 'pending'
      ? signedObjectUrl(
          config.uploadUrl,
          config.encryptionKey,
          POLICY_SET_VERSION_UPLOAD,
          v.id,
          config.uploadUrlTtlSeconds,
        )
      : null;
  return policySetVersionResource(v, upload);
}

/** A policy set version; `links.upload` while it still takes its bundle. */
export function policySetVersionResource(v: PolicySetVersionSummary, uploadUrl: string | null): Resource {
  return {
    type: 'policy-set-versions',
    id: v.id,
    attributes: {
      source: v.source,
      status: v.status,
      'status-timestamps': v.status_timestamps,
      error: v.error,
      'error-message': v.error_message,
      'created-at': iso(v.created_at),
      'updated-at': iso(v.updated_at),
    },
    relationships: { 'policy-set': one('policy-sets', v.policy_set_id) },
    links: { self: `/api/v2/policy-set-versions/${v.id}`, ...(uploadUrl ? { upload: uploadUrl } : {}) },
  };
}

/** A policy runtime version (`opa-versions` or `sentinel-versions`); `url` and `sha` are its linux/amd64 build's ("" when it has none). */
export function toolVersionResource(type: 'opa-versions' | 'sentinel-versions', v: ToolVersionView): Resource {
  const build = defaultBuild(v.archs);
  return {
    type,
    id: v.id,
    attributes: {
      version: v.version,
      url: build?.url ?? '',
      sha: build?.sha ?? '',
      archs: v.archs,
      official: v.official,
      enabled: v.enabled,
      beta: v.beta,
      deprecated: v.deprecated,
      'deprecated-reason': v.deprecated_reason,
      usage: v.usage,
      'created-at': iso(v.created_at),
    },
    links: { self: `/api/v2/admin/${type}/${v.id}` },
  };
}

/** A policy set parameter: a `vars` resource of category `policy-set`; a sensitive value is null in every response. */
export function policySetParameterResource(p: PolicySetParameterRow): Resource {
  return {
    type: 'vars',
    id: p.id,
    attributes: { key: p.key, value: p.sensitive ? null : p.value, category: 'policy-set', sensitive: p.sensitive },
    relationships: {
      configurable: {
        ...one('policy-sets', p.policy_set_id),
        links: { related: `/api/v2/policy-sets/${p.policy_set_id}` },
      },
    },
    links: { self: `/api/v2/policy-sets/${p.policy_set_id}/parameters/${p.id}` },
  };
}
