import { iso, many, one, type Resource } from '../jsonapi.js';
import type { VariableView } from '../../shared/variables/queries.js';
import type { VariableSetRow } from '../../shared/variables/sets.repo.js';

/** A variable of a workspace or of a variable set; a sensitive one's value is null in every response. */
export function variableResource(v: VariableView): Resource {
  const workspace = v.workspace_id;
  return {
    type: 'vars',
    id: v.id,
    attributes: {
      key: v.key,
      value: v.sensitive ? null : v.value,
      description: v.description,
      category: v.category,
      hcl: v.hcl,
      sensitive: v.sensitive,
      'version-id': v.version_id,
      'created-at': iso(v.created_at),
    },
    relationships: workspace
      ? { configurable: { ...one('workspaces', workspace), links: { related: `/api/v2/workspaces/${workspace}` } } }
      : {
          varset: { ...one('varsets', v.variable_set_id), links: { related: `/api/v2/varsets/${v.variable_set_id}` } },
        },
    links: {
      self: workspace
        ? `/api/v2/workspaces/${workspace}/vars/${v.id}`
        : `/api/v2/varsets/${v.variable_set_id}/relationships/vars/${v.id}`,
    },
  };
}

export function varsetResource(
  s: VariableSetRow,
  members: { workspaceIds: string[]; projectIds: string[]; varIds: string[] },
): Resource {
  return {
    type: 'varsets',
    id: s.id,
    attributes: {
      name: s.name,
      description: s.description,
      global: s.global,
      priority: s.priority,
      'updated-at': iso(s.updated_at),
      'var-count': members.varIds.length,
      'workspace-count': members.workspaceIds.length,
      'project-count': members.projectIds.length,
    },
    relationships: {
      organization: one('organizations', s.organization_name),
      vars: many('vars', members.varIds),
      workspaces: many('workspaces', members.workspaceIds),
      projects: many('projects', members.projectIds),
    },
    links: { self: `/api/v2/varsets/${s.id}` },
  };
}
