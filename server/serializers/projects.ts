import { iso, many, one, type Resource } from '../jsonapi.js';
import type { ProjectAccess } from '../../shared/identity/access.queries.js';
import type { ProjectRow, TeamProjectRow } from '../../shared/projects/repo.js';
import type { ProjectCounts } from '../../shared/projects/queries.js';

/** The id of one of a project's tag bindings (they have no row of their own): the project's id and the key. */
const bindingId = (project: ProjectRow, key: string) =>
  `tb-${project.id.slice(4)}-${Buffer.from(key).toString('base64url')}`;

/** A project; `withBindings` adds its effective tag bindings (`include=effective_tag_bindings`). */
export function projectResource(
  p: ProjectRow,
  access: ProjectAccess,
  counts: ProjectCounts,
  withBindings = false,
): Resource {
  return {
    type: 'projects',
    id: p.id,
    attributes: {
      name: p.name,
      description: p.description,
      'created-at': iso(p.created_at),
      'workspace-count': counts.workspaces,
      'team-count': counts.teams,
      'stack-count': 0,
      // Beyond TFE's attributes: whether this is the organization's default project.
      'is-default': p.is_default,
      'auto-destroy-activity-duration': null,
      permissions: {
        'can-read': true,
        'can-update': access.change,
        'can-destroy': access.change && !p.is_default,
        'can-create-workspace': access.createWorkspaces,
        'can-move-workspace': access.createWorkspaces,
        'can-move-stack': false,
        'can-deploy-no-code-modules': access.createWorkspaces,
        'can-read-teams': access.manageTeams,
        'can-manage-tags': access.change,
        'can-manage-teams': access.manageTeams,
        'can-manage-in-hcp': false,
        'can-manage-ephemeral-workspace-for-projects': access.change,
        'can-manage-varsets': access.change,
      },
    },
    relationships: {
      organization: one('organizations', p.organization_name),
      ...(withBindings
        ? {
            'effective-tag-bindings': many(
              'effective-tag-bindings',
              p.tag_bindings.map((b) => bindingId(p, b.key)),
            ),
          }
        : {}),
    },
    links: { self: `/api/v2/projects/${p.id}` },
  };
}

/** A project's tag bindings as `include=effective_tag_bindings` shows them (a project inherits none). */
export const effectiveTagBindingResources = (p: ProjectRow): Resource[] =>
  p.tag_bindings.map((b) => ({
    type: 'effective-tag-bindings',
    id: bindingId(p, b.key),
    attributes: { key: b.key, value: b.value },
  }));

/** A team's access to a project, with the permissions its level implies or its custom ones. */
export function teamProjectResource(row: TeamProjectRow): Resource {
  return {
    type: 'team-projects',
    id: row.id,
    attributes: { access: row.access, 'project-access': row.project_access, 'workspace-access': row.workspace_access },
    relationships: { team: one('teams', row.team_id), project: one('projects', row.project_id) },
    links: { self: `/api/v2/team-projects/${row.id}` },
  };
}
