/** Projects and teams' access to them: names, levels, the permissions each level implies (pure). */
import { accessOfLevel, FULL_WORKSPACE_ACCESS, type WorkspaceAccess } from '../identity/permissions.rules.js';

export const DEFAULT_PROJECT_NAME = 'Default Project';

/** TFE's rule for project names: letters, numbers, spaces, - and _, 3 to 40 characters. */
export function projectNameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || !/^[A-Za-z0-9 _-]+$/.test(name))
    return 'Name may only contain letters, numbers, spaces, -, and _.';
  if (name.length < 3 || name.length > 40) return 'Name must be between 3 and 40 characters long.';
  return null;
}

export const PROJECT_ACCESS_LEVELS = ['read', 'write', 'maintain', 'admin', 'custom'] as const;
export type ProjectAccessLevel = (typeof PROJECT_ACCESS_LEVELS)[number];

/** What a team may do with the project itself. */
export interface ProjectPermissions {
  settings: 'read' | 'update' | 'delete';
  teams: 'none' | 'read' | 'manage';
  'variable-sets': 'none' | 'read' | 'write';
}

/** What a team may do in every workspace of the project. */
export interface ProjectWorkspacePermissions {
  runs: 'read' | 'plan' | 'apply';
  'sentinel-mocks': 'none' | 'read';
  'state-versions': 'none' | 'read-outputs' | 'read' | 'write';
  variables: 'none' | 'read' | 'write';
  create: boolean;
  locking: boolean;
  move: boolean;
  delete: boolean;
  'run-tasks': boolean;
}

export const PROJECT_PERMISSION_VALUES = {
  settings: ['read', 'update', 'delete'],
  teams: ['none', 'read', 'manage'],
  'variable-sets': ['none', 'read', 'write'],
} as const;

export const PROJECT_WORKSPACE_PERMISSION_VALUES = {
  runs: ['read', 'plan', 'apply'],
  'sentinel-mocks': ['none', 'read'],
  'state-versions': ['none', 'read-outputs', 'read', 'write'],
  variables: ['none', 'read', 'write'],
} as const;
export const PROJECT_WORKSPACE_FLAGS = ['create', 'locking', 'move', 'delete', 'run-tasks'] as const;

const workspaceLevel = (
  runs: ProjectWorkspacePermissions['runs'],
  mocks: ProjectWorkspacePermissions['sentinel-mocks'],
  state: ProjectWorkspacePermissions['state-versions'],
  variables: ProjectWorkspacePermissions['variables'],
  flags: Partial<Record<(typeof PROJECT_WORKSPACE_FLAGS)[number], boolean>>,
): ProjectWorkspacePermissions => ({
  runs,
  'sentinel-mocks': mocks,
  'state-versions': state,
  variables,
  create: false,
  locking: false,
  move: false,
  delete: false,
  'run-tasks': false,
  ...flags,
});

/** The permissions each fixed level implies; `custom` starts from the read level's. */
const IMPLIED: Record<
  Exclude<ProjectAccessLevel, 'custom'>,
  { project: ProjectPermissions; workspace: ProjectWorkspacePermissions }
> = {
  read: {
    project: { settings: 'read', teams: 'none', 'variable-sets': 'none' },
    workspace: workspaceLevel('read', 'none', 'read', 'read', {}),
  },
  write: {
    project: { settings: 'read', teams: 'none', 'variable-sets': 'none' },
    workspace: workspaceLevel('apply', 'read', 'write', 'write', { locking: true }),
  },
  maintain: {
    project: { settings: 'read', teams: 'none', 'variable-sets': 'read' },
    workspace: workspaceLevel('apply', 'read', 'write', 'write', {
      create: true,
      locking: true,
      delete: true,
      'run-tasks': true,
    }),
  },
  admin: {
    project: { settings: 'delete', teams: 'manage', 'variable-sets': 'write' },
    workspace: workspaceLevel('apply', 'read', 'write', 'write', {
      create: true,
      locking: true,
      move: true,
      delete: true,
      'run-tasks': true,
    }),
  },
};

/**
 * The permissions a level stores: those it implies, or for `custom` the ones given over the ones
 * it had (`before`, when it was custom already) or the read level's.
 */
export function projectPermissionsFor(
  level: ProjectAccessLevel,
  given: { project?: Partial<ProjectPermissions>; workspace?: Partial<ProjectWorkspacePermissions> },
  before?: { project: ProjectPermissions; workspace: ProjectWorkspacePermissions },
): { project: ProjectPermissions; workspace: ProjectWorkspacePermissions } {
  if (level !== 'custom') return IMPLIED[level];
  const base = before ?? IMPLIED.read;
  return { project: { ...base.project, ...given.project }, workspace: { ...base.workspace, ...given.workspace } };
}

/**
 * The access a team's project access gives in each workspace of the project: `maintain` and
 * `admin` administer them, `write` and `read` give those workspace levels, and a custom access
 * gives exactly its workspace permissions.
 */
export function workspaceAccessOfProject(level: ProjectAccessLevel, ws: ProjectWorkspacePermissions): WorkspaceAccess {
  if (level === 'admin' || level === 'maintain') return FULL_WORKSPACE_ACCESS;
  if (level === 'write' || level === 'read') return accessOfLevel(level);
  return {
    runs: ws.runs,
    variables: ws.variables,
    'state-versions': ws['state-versions'],
    'sentinel-mocks': ws['sentinel-mocks'],
    'workspace-locking': ws.locking,
    'run-tasks': ws['run-tasks'],
    admin: false,
  };
}

/** Whether a team's project access lets it change or delete the project. */
export const mayChangeProject = (p: ProjectPermissions): boolean => p.settings !== 'read';
/** Whether a team's project access lets it manage the project's team access. */
export const mayManageProjectTeams = (p: ProjectPermissions): boolean => p.teams === 'manage';
