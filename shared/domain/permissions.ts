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

export const WORKSPACE_ACCESS_LEVELS = ['read', 'plan', 'write', 'admin'] as const;
export type WorkspaceAccess = (typeof WORKSPACE_ACCESS_LEVELS)[number];

/** Every organization permission granted, made once and frozen: owners' grants on every request share it. */
const FULL_ACCESS: Readonly<OrganizationAccess> = Object.freeze(Object.fromEntries(ORGANIZATION_PERMISSIONS.map((p) => [p, true])) as OrganizationAccess);

/** Every organization permission granted (owners, organization tokens). */
export function fullAccess(): OrganizationAccess {
  return FULL_ACCESS;
}

/** A team's stored permissions as a full map, absent ones false. */
export function normalizeAccess(partial: Partial<OrganizationAccess> | undefined): OrganizationAccess {
  return Object.fromEntries(ORGANIZATION_PERMISSIONS.map((p) => [p, partial?.[p] === true])) as OrganizationAccess;
}

/** The order of workspace access levels. */
export const RANK: Record<WorkspaceAccess, number> = { read: 1, plan: 2, write: 3, admin: 4 };

/** True when `have` is at least `need`. */
export const accessAtLeast = (have: WorkspaceAccess | null, need: WorkspaceAccess): boolean => have !== null && RANK[have] >= RANK[need];
