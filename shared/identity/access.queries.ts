import type { Knex } from 'knex';
import { rowsOf, type Db } from '../platform/db.js';
import type { UserRow } from './users.repo.js';
import type { TeamRow } from './teams.repo.js';
import {
  ORGANIZATION_PERMISSIONS,
  FULL_WORKSPACE_ACCESS,
  accessOfLevel,
  accessOfTeamWorkspace,
  normalizeAccess,
  fullAccess,
  widerAccess,
  type OrganizationAccess,
  type TeamWorkspaceAccess,
  type WorkspaceAccess,
  type WorkspacePermissions,
} from './permissions.rules.js';
import {
  mayChangeProject,
  mayManageProjectTeams,
  workspaceAccessOfProject,
  type ProjectAccessLevel,
  type ProjectPermissions,
  type ProjectWorkspacePermissions,
} from '../projects/rules.js';
// The permission vocabulary lives with the domain rules; callers of this module may keep reading it here.
export {
  ORGANIZATION_PERMISSIONS,
  WORKSPACE_ACCESS_LEVELS,
  FULL_WORKSPACE_ACCESS,
  accessOfLevel,
  allows,
  fullAccess,
  normalizeAccess,
} from './permissions.rules.js';
export type {
  OrganizationAccess,
  OrganizationPermission,
  WorkspaceAccess,
  WorkspaceNeed,
} from './permissions.rules.js';

/**
 * Who is calling: the owner of the bearer token (or, for the web console, the user of the session
 * cookie; its `tokenId` is then `session:<session id>`, which keys its rate limit budget).
 */
export type Principal =
  | { kind: 'user'; tokenId: string; user: UserRow }
  | { kind: 'team'; tokenId: string; team: TeamRow }
  | { kind: 'organization'; tokenId: string; organizationName: string }
  /**
   * A run's own token, for one plan or apply phase: it reads the state of its workspace and of the
   * workspaces that share their state with it, nothing else (see server/auth.ts and
   * shared/runs/tokens.ts); the token of a run whose secrets are withheld reads none of
   * that (`secretsWithheld`). It has no grant in any organization.
   */
  | {
      kind: 'run';
      tokenId: string;
      runId: string;
      workspaceId: string;
      runOrganization: string;
      secretsWithheld: boolean;
    };

/** What a principal may do inside one organization. */
export interface OrganizationGrant {
  organizationName: string;
  isOwner: boolean;
  permissions: OrganizationAccess;
  teamIds: string[];
}

function unionAccess(teams: Pick<TeamRow, 'organization_access'>[]): OrganizationAccess {
  const out = normalizeAccess({});
  for (const t of teams) for (const p of ORGANIZATION_PERMISSIONS) if (t.organization_access?.[p]) out[p] = true;
  return out;
}

export const isSiteAdmin = (p: Principal): boolean => p.kind === 'user' && p.user.is_admin;

/** A user's active membership of an organization: one row per team (one row of nulls for none). */
type MembershipTeam = {
  id: string | null;
  is_owners: boolean | null;
  organization_access: Partial<OrganizationAccess> | null;
};

/** A grant from the principal alone, or, for a user, from its membership's teams in the organization. */
function grantOf(principal: Principal, organizationName: string, teams: MembershipTeam[]): OrganizationGrant | null {
  switch (principal.kind) {
    case 'run':
      return null;
    case 'organization':
      if (principal.organizationName !== organizationName) return null;
      return { organizationName, isOwner: false, permissions: fullAccess(), teamIds: [] };
    case 'team': {
      const team = principal.team;
      if (team.organization_name !== organizationName) return null;
      return {
        organizationName,
        isOwner: team.is_owners,
        permissions: team.is_owners ? fullAccess() : unionAccess([team]),
        teamIds: [team.id],
      };
    }
    case 'user': {
      if (!teams.length) {
        if (!principal.user.is_admin) return null;
        return { organizationName, isOwner: true, permissions: fullAccess(), teamIds: [] };
      }
      const memberOf = teams.filter(
        (t): t is { id: string; is_owners: boolean; organization_access: Partial<OrganizationAccess> } => t.id !== null,
      );
      const isOwner = principal.user.is_admin || memberOf.some((t) => t.is_owners);
      return {
        organizationName,
        isOwner,
        permissions: isOwner ? fullAccess() : unionAccess(memberOf),
        teamIds: memberOf.map((t) => t.id),
      };
    }
  }
}

/**
 * The teams of the user whose id `userId` gives (SQL: a `?` placeholder, or the token's user in a
 * read that goes with the token's lookup; null for other principals: no rows) in the organization
 * that `organization` names (SQL), as one json column of a statement; written out like the
 * statements below, which run on most API requests and would otherwise be compiled again each time.
 */
const membershipTeamsColumn = (organization: string, userId = '?'): string => `(
  select coalesce(json_agg(json_build_object('id', t.id, 'is_owners', t.is_owners, 'organization_access', t.organization_access)), '[]')
    from organization_memberships as m
    left join team_members as tm on tm.organization_membership_id = m.id
    left join teams as t on t.id = tm.team_id
   where m.organization_name = ${organization} and m.user_id = ${userId} and m.status = 'active') as membership_teams`;

/**
 * How a guard reads one row with the caller's grant in the organization the row belongs to: the
 * table, the name of the row's organization (SQL over `x`: its column, or an organization's own
 * name), what finds the row (SQL over `x`) and more columns of the row (SQL over `x`). The read's
 * key gives the values of their `?` placeholders in the order of the statement's text: the extra
 * columns' first, then those of what finds the row. All of the SQL is the service's own, never input.
 */
export interface GrantedRead {
  table: string;
  organization: string;
  where: string;
  extra: readonly string[];
}

/** A granted read of a row of `table` by its id, or by the value of an SQL expression over `?` that `idIn` gives. */
export const grantedRead = (table: string, extra: readonly string[] = [], idIn = '?'): GrantedRead => ({
  table,
  organization: 'x.organization_name',
  where: `x.id = ${idIn}`,
  extra,
});

/** A granted read of a row of `table` that `where` finds (see GrantedRead). */
export const grantedReadWhere = (table: string, where: string, extra: readonly string[] = []): GrantedRead => ({
  table,
  organization: 'x.organization_name',
  where,
  extra,
});

/** The granted read of an organization by its name. */
export const ORGANIZATION_BY_NAME: GrantedRead = {
  table: 'organizations',
  organization: 'x.name',
  where: 'x.name = ?',
  extra: [],
};

/** What finds a granted read's row: its id, a query selecting it (one row, one column), or the values of its `where`. */
export type ReadKey = readonly (string | null | Knex.QueryBuilder)[];

/** A granted read's statement: the user's id as `userId` gives it (see membershipTeamsColumn), then the key's placeholders. */
const grantedReadText = (read: GrantedRead, userId = '?'): string =>
  `select x.*, ${[membershipTeamsColumn(read.organization, userId), ...read.extra].join(', ')} from ${read.table} as x where ${read.where} limit 1`;

/** What a granted read found: the row, and the user's teams in its organization apart from it. */
interface GrantedRow<T> {
  row: T;
  teams: MembershipTeam[];
}

/** Splits a granted read's result row into the row and the user's teams. */
function grantedRow<T>(found: (T & { membership_teams: MembershipTeam[] }) | undefined): GrantedRow<T> | undefined {
  if (!found) return undefined;
  const { membership_teams: teams, ...row } = found;
  return { row: row as T, teams };
}

/** A granted read to make with a request's token's lookup: the read, its key, and the statement that makes both (see tokenLookupWith). */
export interface EarlyGuardReadSpec {
  read: GrantedRead;
  key: (string | null)[];
  statement: string;
}

/**
 * A granted read made ahead of a request's guard by the statement that looked the request's token
 * up, so the guard's read costs no round trip (docs/design-for-speed.md, "Read-ahead of the
 * guard's row"). The first rowWithGrant of the same read and key in the request takes what it
 * found; any later one reads again.
 */
export class EarlyGuardRead {
  private taken = false;
  constructor(
    private readonly read: GrantedRead,
    private readonly key: readonly (string | null)[],
    private readonly found: Record<string, unknown> | undefined,
  ) {}

  /** The read's statement to run with the token's lookup, given the SQL of the token's user id (see tokenLookupWith). */
  static text(read: GrantedRead): (tokenUserId: string) => string {
    return (tokenUserId) => grantedReadText(read, tokenUserId);
  }

  /** What this read found, once, when it is the read `read` of `key`; else null (read it now). */
  take<T>(read: GrantedRead, key: ReadKey): { found: GrantedRow<T> | undefined } | null {
    if (this.taken || read !== this.read || key.length !== this.key.length || key.some((k, i) => k !== this.key[i]))
      return null;
    this.taken = true;
    return { found: grantedRow(this.found as (T & { membership_teams: MembershipTeam[] }) | undefined) };
  }
}

/** The teams of user `?` in the organization named `?` (the organization first). */
const MEMBERSHIP_TEAMS = `select ${membershipTeamsColumn('?')}`;

/** The principal's grant in an organization, or null when it may not see the organization at all. */
export async function organizationGrant(
  db: Db,
  principal: Principal,
  organizationName: string,
): Promise<OrganizationGrant | null> {
  const teams =
    principal.kind === 'user'
      ? (
          await rowsOf<{ membership_teams: MembershipTeam[] }>(db, MEMBERSHIP_TEAMS, [
            organizationName,
            principal.user.id,
          ])
        )[0].membership_teams
      : [];
  return grantOf(principal, organizationName, teams);
}

/** The membership column's user: a user principal's id, or null, which no membership has. */
const memberId = (principal: Principal): string | null => (principal.kind === 'user' ? principal.user.id : null);

/** The row `read` finds by `key` with the user's teams in its organization: taken from `ahead` when it made this read, else read now. */
async function grantedRowOf<T>(
  db: Db,
  principal: Principal,
  read: GrantedRead,
  key: ReadKey,
  ahead: EarlyGuardRead | undefined,
): Promise<GrantedRow<T> | undefined> {
  const taken = ahead?.take<T>(read, key);
  if (taken) return taken.found;
  return grantedRow(
    (
      await rowsOf<T & { membership_teams: MembershipTeam[] }>(db, grantedReadText(read), [memberId(principal), ...key])
    )[0],
  );
}

/**
 * The row `read` finds by `key` with the principal's grant in the organization it names, read in
 * one statement (or taken from `ahead`, which read it with the request's token); the grant is null
 * when the principal may not see it.
 */
export async function rowWithGrant<T extends { organization_name: string }>(
  db: Db,
  principal: Principal,
  read: GrantedRead,
  key: ReadKey,
  ahead?: EarlyGuardRead,
): Promise<{ row: T; grant: OrganizationGrant | null } | undefined> {
  const found = await grantedRowOf<T>(db, principal, read, key, ahead);
  return found && { row: found.row, grant: grantOf(principal, found.row.organization_name, found.teams) };
}

/** An organization with the principal's grant in it, read in one statement or taken from `ahead` (the grant is null when the principal may not see it). */
export async function organizationWithGrant<T extends { name: string }>(
  db: Db,
  principal: Principal,
  name: string,
  ahead?: EarlyGuardRead,
): Promise<{ row: T; grant: OrganizationGrant | null } | undefined> {
  const found = await grantedRowOf<T>(db, principal, ORGANIZATION_BY_NAME, [name], ahead);
  return found && { row: found.row, grant: grantOf(principal, found.row.name, found.teams) };
}

/** A team's access to a project, as the grant's teams hold it (see team_projects). */
type ProjectGrantRow = {
  project_id: string;
  access: ProjectAccessLevel;
  project_access: ProjectPermissions;
  workspace_access: ProjectWorkspacePermissions;
};

/**
 * The accesses the grant's teams hold on workspaces, directly (team_workspaces) or through the
 * workspace's project (team_projects): one place, so every guard sees both.
 */
async function teamAccesses(
  db: Db,
  grant: OrganizationGrant,
  workspaceIds: string[],
): Promise<{ workspace_id: string; access: WorkspaceAccess }[]> {
  if (!grant.teamIds.length || !workspaceIds.length) return [];
  const [direct, viaProject] = await Promise.all([
    db('team_workspaces')
      .whereIn('workspace_id', workspaceIds)
      .whereIn('team_id', grant.teamIds)
      .select('workspace_id', 'access', 'permissions') as Promise<
      { workspace_id: string; access: TeamWorkspaceAccess; permissions: WorkspacePermissions | null }[]
    >,
    db('team_projects as tp')
      .join('workspaces as w', 'w.project_id', 'tp.project_id')
      .whereIn('w.id', workspaceIds)
      .whereIn('tp.team_id', grant.teamIds)
      .select('w.id as workspace_id', 'tp.access', 'tp.workspace_access') as Promise<
      { workspace_id: string; access: ProjectAccessLevel; workspace_access: ProjectWorkspacePermissions }[]
    >,
  ]);
  return [
    ...direct.map((r) => ({ workspace_id: r.workspace_id, access: accessOfTeamWorkspace(r.access, r.permissions) })),
    ...viaProject.map((r) => ({
      workspace_id: r.workspace_id,
      access: workspaceAccessOfProject(r.access, r.workspace_access),
    })),
  ];
}

/** The grant's access to a workspace, or null when the workspace is invisible to it. */
export async function workspaceAccess(
  db: Db,
  grant: OrganizationGrant,
  workspaceId: string,
): Promise<WorkspaceAccess | null> {
  return (await workspaceAccessMap(db, grant, [workspaceId])).get(workspaceId) ?? null;
}

/** Accesses of a grant to many workspaces at once (for lists), each the union of its grants; absent ids are invisible. */
export async function workspaceAccessMap(
  db: Db,
  grant: OrganizationGrant,
  workspaceIds: string[],
): Promise<Map<string, WorkspaceAccess>> {
  const out = new Map<string, WorkspaceAccess>();
  if (grant.isOwner || grant.permissions['manage-workspaces']) {
    for (const id of workspaceIds) out.set(id, FULL_WORKSPACE_ACCESS);
    return out;
  }
  if (grant.permissions['read-workspaces']) for (const id of workspaceIds) out.set(id, accessOfLevel('read'));
  for (const r of await teamAccesses(db, grant, workspaceIds)) {
    const cur = out.get(r.workspace_id);
    out.set(r.workspace_id, cur ? widerAccess(cur, r.access) : r.access);
  }
  return out;
}

/**
 * Whether a grant administers at least one workspace of its organization, directly or through a
 * project (TFE lets such callers see the organization's SSH keys, to pick one for a workspace).
 */
export async function administersSomeWorkspace(db: Db, grant: OrganizationGrant): Promise<boolean> {
  if (grant.isOwner || grant.permissions['manage-workspaces']) return true;
  if (!grant.teamIds.length) return false;
  const [direct, viaProject] = await Promise.all([
    db('team_workspaces').whereIn('team_id', grant.teamIds).where('access', 'admin').first('workspace_id'),
    db('team_projects as tp')
      .whereIn('tp.team_id', grant.teamIds)
      .whereExists(db('workspaces as w').whereRaw('w.project_id = tp.project_id').select(db.raw('1')))
      .distinct('tp.access', 'tp.workspace_access') as Promise<
      { access: ProjectAccessLevel; workspace_access: ProjectWorkspacePermissions }[]
    >,
  ]);
  return direct !== undefined || viaProject.some((r) => workspaceAccessOfProject(r.access, r.workspace_access).admin);
}

/** What a grant may do with a project. */
export interface ProjectAccess {
  change: boolean;
  manageTeams: boolean;
  createWorkspaces: boolean;
}

/** Whether the grant sees every project of its organization (owners, and the project and workspace permissions). */
export const seesAllProjects = (grant: OrganizationGrant): boolean =>
  grant.isOwner ||
  grant.permissions['manage-projects'] ||
  grant.permissions['read-projects'] ||
  grant.permissions['read-workspaces'] ||
  grant.permissions['manage-workspaces'];

/** The grant's access to each of the projects (absent ids are invisible to it). */
export async function projectAccessMap(
  db: Db,
  grant: OrganizationGrant,
  projectIds: string[],
): Promise<Map<string, ProjectAccess>> {
  const out = new Map<string, ProjectAccess>();
  if (grant.isOwner || grant.permissions['manage-projects']) {
    for (const id of projectIds) out.set(id, { change: true, manageTeams: true, createWorkspaces: true });
    return out;
  }
  if (seesAllProjects(grant))
    for (const id of projectIds)
      out.set(id, { change: false, manageTeams: false, createWorkspaces: grant.permissions['manage-workspaces'] });
  if (grant.teamIds.length && projectIds.length) {
    const rows = (await db('team_projects')
      .whereIn('project_id', projectIds)
      .whereIn('team_id', grant.teamIds)
      .select('project_id', 'access', 'project_access', 'workspace_access')) as ProjectGrantRow[];
    for (const r of rows) {
      const cur = out.get(r.project_id) ?? { change: false, manageTeams: false, createWorkspaces: false };
      out.set(r.project_id, {
        change: cur.change || mayChangeProject(r.project_access),
        manageTeams: cur.manageTeams || mayManageProjectTeams(r.project_access),
        createWorkspaces: cur.createWorkspaces || r.workspace_access.create,
      });
    }
  }
  return out;
}

/** The grant's access to a project, or null when the project is invisible to it. */
export async function projectAccess(
  db: Db,
  grant: OrganizationGrant,
  projectId: string,
): Promise<ProjectAccess | null> {
  return (await projectAccessMap(db, grant, [projectId])).get(projectId) ?? null;
}
