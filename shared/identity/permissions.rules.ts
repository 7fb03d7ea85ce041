/** The permission vocabulary: organization permissions, workspace access levels and their order (pure). */

export const ORGANIZATION_PERMISSIONS = [
  'manage-policies',
  'manage-policy-overrides',
  'manage-workspaces',
  'manage-vcs-settings',
  'manage-providers',
  'manage-modules',
  'manage-run-tasks',
  'manage-projects',
  'read-workspaces',
  'read-projects',
  'manage-membership',
  'manage-teams',
  'manage-organization-access',
  'access-secret-teams',
  'manage-agent-pools',
  'manage-var-sets',
] as const;
export type OrganizationPermission = (typeof ORGANIZATION_PERMISSIONS)[number];
export type OrganizationAccess = Record<OrganizationPermission, boolean>;

/** Every organization permission granted, made once and frozen: owners' grants on every request share it. */
const FULL_ACCESS: Readonly<OrganizationAccess> = Object.freeze(
  Object.fromEntries(ORGANIZATION_PERMISSIONS.map((p) => [p, true])) as OrganizationAccess,
);

/** Every organization permission granted (owners, organization tokens). */
export function fullAccess(): OrganizationAccess {
  return FULL_ACCESS;
}

/** A team's stored permissions as a full map, absent ones false. */
export function normalizeAccess(partial: Partial<OrganizationAccess> | undefined): OrganizationAccess {
  return Object.fromEntries(ORGANIZATION_PERMISSIONS.map((p) => [p, partial?.[p] === true])) as OrganizationAccess;
}

/** The fixed workspace access levels a team can be given; `custom` spells its permissions out instead. */
export const WORKSPACE_ACCESS_LEVELS = ['read', 'plan', 'write', 'admin'] as const;
export type WorkspaceAccessLevel = (typeof WORKSPACE_ACCESS_LEVELS)[number];
export const TEAM_WORKSPACE_ACCESS = [...WORKSPACE_ACCESS_LEVELS, 'custom'] as const;
export type TeamWorkspaceAccess = (typeof TEAM_WORKSPACE_ACCESS)[number];

/** The values of each graded workspace permission, weakest first. */
export const WORKSPACE_PERMISSION_VALUES = {
  runs: ['read', 'plan', 'apply'],
  variables: ['none', 'read', 'write'],
  'state-versions': ['none', 'read-outputs', 'read', 'write'],
  'sentinel-mocks': ['none', 'read'],
} as const;
export const WORKSPACE_PERMISSION_FLAGS = ['workspace-locking', 'run-tasks'] as const;
type Graded = keyof typeof WORKSPACE_PERMISSION_VALUES;
type Flag = (typeof WORKSPACE_PERMISSION_FLAGS)[number];

/** What a team may do in a workspace, as TFE's team access spells it out. */
export type WorkspacePermissions = { [K in Graded]: (typeof WORKSPACE_PERMISSION_VALUES)[K][number] } & Record<
  Flag,
  boolean
>;

/** What a caller may do in one workspace: its permissions, and whether it administers the workspace (settings, deletion, team access, notifications). */
export interface WorkspaceAccess extends WorkspacePermissions {
  admin: boolean;
}

const permissions = (
  runs: WorkspacePermissions['runs'],
  variables: WorkspacePermissions['variables'],
  state: WorkspacePermissions['state-versions'],
  mocks: WorkspacePermissions['sentinel-mocks'],
  locking: boolean,
  runTasks: boolean,
): WorkspacePermissions => ({
  runs,
  variables,
  'state-versions': state,
  'sentinel-mocks': mocks,
  'workspace-locking': locking,
  'run-tasks': runTasks,
});

/**
 * The permissions each fixed level implies. TFE's read and plan levels read whole states; here
 * they read outputs only (see docs/decisions.md), and a custom access can grant more.
 */
const IMPLIED: Record<WorkspaceAccessLevel, WorkspacePermissions> = {
  read: permissions('read', 'read', 'read-outputs', 'none', false, false),
  plan: permissions('plan', 'read', 'read-outputs', 'none', false, false),
  write: permissions('apply', 'write', 'write', 'read', true, false),
  admin: permissions('apply', 'write', 'write', 'read', true, true),
};

/** What a custom access leaves out of its request defaults to (as TFE's). */
const CUSTOM_DEFAULTS: WorkspacePermissions = permissions('read', 'none', 'none', 'none', false, false);

/** A fixed level's access. */
export const accessOfLevel = (level: WorkspaceAccessLevel): WorkspaceAccess => ({
  ...IMPLIED[level],
  admin: level === 'admin',
});

/** Everything in a workspace (owners, manage-workspaces). */
export const FULL_WORKSPACE_ACCESS: Readonly<WorkspaceAccess> = Object.freeze(accessOfLevel('admin'));

const rankOf = <K extends Graded>(key: K, value: WorkspacePermissions[K]): number =>
  (WORKSPACE_PERMISSION_VALUES[key] as readonly string[]).indexOf(value);
const stronger = <K extends Graded>(
  key: K,
  a: WorkspacePermissions[K],
  b: WorkspacePermissions[K],
): WorkspacePermissions[K] => (rankOf(key, a) >= rankOf(key, b) ? a : b);

/** The union of two accesses (a caller with several grants on a workspace): the stronger of each permission. */
export function widerAccess(a: WorkspaceAccess, b: WorkspaceAccess): WorkspaceAccess {
  return {
    runs: stronger('runs', a.runs, b.runs),
    variables: stronger('variables', a.variables, b.variables),
    'state-versions': stronger('state-versions', a['state-versions'], b['state-versions']),
    'sentinel-mocks': stronger('sentinel-mocks', a['sentinel-mocks'], b['sentinel-mocks']),
    'workspace-locking': a['workspace-locking'] || b['workspace-locking'],
    'run-tasks': a['run-tasks'] || b['run-tasks'],
    admin: a.admin || b.admin,
  };
}

/** The permissions a team's access to a workspace gives: those its level implies, or a custom access's stored ones. */
export const permissionsOfTeamWorkspace = (
  level: TeamWorkspaceAccess,
  custom: WorkspacePermissions | null,
): WorkspacePermissions => (level === 'custom' ? { ...CUSTOM_DEFAULTS, ...custom } : IMPLIED[level]);

/** What a team's access to a workspace gives: its permissions, and administration with the admin level only. */
export const accessOfTeamWorkspace = (
  level: TeamWorkspaceAccess,
  custom: WorkspacePermissions | null,
): WorkspaceAccess => ({
  ...permissionsOfTeamWorkspace(level, custom),
  admin: level === 'admin',
});

/** How TFE names each permission in its refusals. */
const PERMISSION_TITLES: Record<keyof WorkspacePermissions, string> = {
  runs: 'Runs',
  variables: 'Variables',
  'state-versions': 'State versions',
  'sentinel-mocks': 'Sentinel mocks',
  'workspace-locking': 'Workspace locking',
  'run-tasks': 'Run tasks',
};

/**
 * The permissions a team's access to a workspace stores (null for a fixed level), or the first
 * permission given that a fixed level does not imply, with TFE's wording of the refusal. A custom
 * access takes the given permissions over those it had (`before`) or TFE's defaults.
 */
export function teamWorkspacePermissions(
  level: TeamWorkspaceAccess,
  given: Partial<WorkspacePermissions>,
  before: WorkspacePermissions | null,
):
  | { permissions: WorkspacePermissions | null }
  | { problem: { attribute: keyof WorkspacePermissions; detail: string } } {
  if (level === 'custom') return { permissions: { ...(before ?? CUSTOM_DEFAULTS), ...given } };
  const implied = IMPLIED[level];
  for (const key of Object.keys(PERMISSION_TITLES) as (keyof WorkspacePermissions)[]) {
    if (given[key] !== undefined && given[key] !== implied[key]) {
      return {
        problem: {
          attribute: key,
          detail: `${PERMISSION_TITLES[key]} is read-only when access level is '${level}'; use the 'custom' access level to set this attribute.`,
        },
      };
    }
  }
  return { permissions: null };
}

/** What a request does in a workspace, each needing its own permission. */
export type WorkspaceNeed =
  | 'read'
  | 'queue-plans'
  | 'apply'
  | 'read-variables'
  | 'write-variables'
  | 'read-state-outputs'
  | 'read-state'
  | 'write-state'
  | 'lock'
  | 'manage-run-tasks'
  | 'admin';

/** The one place that says which permission each need takes. */
const NEEDS: Record<WorkspaceNeed, (a: WorkspaceAccess) => boolean> = {
  read: () => true,
  'queue-plans': (a) => a.runs !== 'read',
  apply: (a) => a.runs === 'apply',
  'read-variables': (a) => a.variables !== 'none',
  'write-variables': (a) => a.variables === 'write',
  'read-state-outputs': (a) => a['state-versions'] !== 'none',
  'read-state': (a) => a['state-versions'] === 'read' || a['state-versions'] === 'write',
  'write-state': (a) => a['state-versions'] === 'write',
  lock: (a) => a['workspace-locking'],
  'manage-run-tasks': (a) => a['run-tasks'],
  admin: (a) => a.admin,
};

/** True when `access` (null: the workspace is invisible) allows `need`. */
export const allows = (access: WorkspaceAccess | null, need: WorkspaceNeed): boolean =>
  access !== null && NEEDS[need](access);

/** Who may create organizations (ORGANIZATION_CREATION): any user, or site admins only. */
export type OrganizationCreation = 'anyone' | 'site-admins';

/** Whether a user may create an organization under the site's rule. */
export const mayCreateOrganizations = (rule: OrganizationCreation, user: { is_admin: boolean }): boolean =>
  rule === 'anyone' || user.is_admin;
