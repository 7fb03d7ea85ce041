import type { Knex } from 'knex';
import type { Db } from '../shared/platform/db.js';
import { Forbidden, NotFound } from '../shared/platform/errors.js';
import {
  administersSomeWorkspace,
  allows,
  grantedRead,
  ORGANIZATION_BY_NAME,
  organizationGrant,
  organizationWithGrant,
  rowWithGrant,
  workspaceAccess,
  projectAccess,
  type ProjectAccess,
  type GrantedRead,
  EarlyGuardRead,
  type EarlyGuardReadSpec,
  type OrganizationGrant,
  type OrganizationPermission,
  type Principal,
  type WorkspaceAccess,
  type WorkspaceNeed,
} from '../shared/identity/access.queries.js';
import type { OrganizationRow } from '../shared/organizations/repo.js';
import type { WorkspaceRow } from '../shared/workspaces/repo.js';
import {
  splitFacts,
  WORKSPACE_BY_NAME_WITH_FACTS,
  WORKSPACE_WITH_FACTS,
  type FactsColumns,
  type WorkspaceFacts,
} from '../shared/workspaces/queries.js';
import {
  APPLY_WITH_RUN,
  PLAN_WITH_RUN,
  RUN_WITH_REFERENCES,
  POLICY_CHECK_WITH_RUN,
  splitRunColumns,
  TASK_STAGE_WITH_RUN,
  splitRunReferences,
  WORKSPACE_ID_OF_RUN,
  type RunColumns,
  type RunReferences,
  type RunWithReferencesRow,
} from '../shared/runs/queries.js';
import type { ApplyRow, PlanRow, RunRow } from '../shared/runs/repo.js';
import type { PolicyCheckRow } from '../shared/policies/checks.repo.js';
import type { TaskStageRow } from '../shared/run-tasks/repo.js';
import {
  CV_WITH_INGRESS_ID,
  splitIngressId,
  splitRunCv,
  WORKSPACE_WITH_RUN_CV,
  type CvWithIngressIdRow,
  type RunSourceCv,
} from '../shared/configuration-versions/queries.js';
import type { CvRow } from '../shared/configuration-versions/repo.js';
import { findTeam, type TeamRow, tokenLookupWith } from '../shared/identity/index.js';
import type { VariableSetRow } from '../shared/variables/sets.repo.js';
import type { ProjectRow } from '../shared/projects/repo.js';
import type { AgentPoolRow } from '../shared/agent-pools/repo.js';
import type { SshKeyRow } from '../shared/ssh-keys/repo.js';
import type { NoCodeModuleRow } from '../shared/registry/no-code.repo.js';
import type { OAuthClientRow, OAuthTokenRow } from '../shared/vcs/repo.js';
import { managesVarsets, varsetVisible } from '../shared/variables/sets.queries.js';
import { relationshipIdIn } from './handlers/body.js';

/*
 * Loaders that answer 404 for anything the caller may not see, as TFE does, so the existence
 * of another organization's resources never leaks.
 */

/** The granted reads of the guards below. */
const WORKSPACE = grantedRead('workspaces');
const WORKSPACE_OF_RUN = grantedRead('workspaces', [], WORKSPACE_ID_OF_RUN);
const MODULE = grantedRead('registry_modules');
const VARIABLE_SET = grantedRead('variable_sets');
const PROJECT = grantedRead('projects');
const AGENT_POOL = grantedRead('agent_pools');
const SSH_KEY = grantedRead('ssh_keys');
const NO_CODE_MODULE = grantedRead('no_code_modules');
const OAUTH_CLIENT = grantedRead('oauth_clients');
// A token's organization is its connection's.
const OAUTH_TOKEN = grantedRead(
  '(select t.*, c.organization_name from oauth_tokens t join oauth_clients c on c.id = t.oauth_client_id)',
);

export interface OrgScope {
  org: OrganizationRow;
  grant: OrganizationGrant;
}

/** The organization and the caller's grant in it (or read ahead with the token); `need` is an organization permission, or 'owner'. */
export async function orgScope(
  db: Db,
  principal: Principal,
  name: string,
  need?: OrganizationPermission | 'owner',
  ahead?: EarlyGuardRead,
): Promise<OrgScope> {
  const found = await organizationWithGrant<OrganizationRow>(db, principal, name, ahead);
  const [org, grant] = [found?.row, found?.grant];
  if (!org || !grant) throw new NotFound();
  if (need === 'owner' ? !grant.isOwner : need && !grant.permissions[need]) throw new NotFound();
  return { org, grant };
}

/**
 * Reading an organization's private module registry (the registry protocol): any grant in the
 * organization, or the token of one of its runs, whose `terraform init` installs the modules.
 */
export async function registryReadScope(db: Db, principal: Principal, name: string): Promise<void> {
  if (principal.kind !== 'run') {
    await orgScope(db, principal, name);
    return;
  }
  if (principal.runOrganization !== name) throw new NotFound();
}

/** Who may run a registry module's tests (and read their configuration versions): the owners team of its organization only. */
const mayRunModuleTests = (grant: OrganizationGrant | null | undefined): boolean => grant?.isOwner === true;

/** A registry module's tests: 404 unless the caller may run them. */
export async function moduleTestScopeById(db: Db, principal: Principal, moduleId: string): Promise<void> {
  const found = await rowWithGrant<{ organization_name: string }>(db, principal, MODULE, [moduleId]);
  if (!mayRunModuleTests(found?.grant)) throw new NotFound();
}

export interface WorkspaceScope {
  workspace: WorkspaceRow;
  grant: OrganizationGrant;
  access: WorkspaceAccess;
}

/** The caller's access to a workspace it has a grant for, which must be at least `need`. */
async function scopeWith(
  db: Db,
  workspace: WorkspaceRow | undefined,
  grant: OrganizationGrant | null | undefined,
  need: WorkspaceNeed,
): Promise<WorkspaceScope> {
  const access = workspace && grant ? await workspaceAccess(db, grant, workspace.id) : null;
  if (!workspace || !grant || !allows(access, need)) throw new NotFound();
  return { workspace, grant, access: access! };
}

/** The workspace and the caller's access to it, which must be at least `need` (default read). */
export async function workspaceScope(
  db: Db,
  principal: Principal,
  workspace: WorkspaceRow | undefined,
  need: WorkspaceNeed = 'read',
): Promise<WorkspaceScope> {
  return scopeWith(
    db,
    workspace,
    workspace && (await organizationGrant(db, principal, workspace.organization_name)),
    need,
  );
}

/** workspaceScope for a workspace id (or a query selecting it): the workspace and the caller's grant come from one query (or read ahead with the token). */
export async function workspaceScopeById(
  db: Db,
  principal: Principal,
  id: string | Knex.QueryBuilder,
  need: WorkspaceNeed = 'read',
  ahead?: EarlyGuardRead,
): Promise<WorkspaceScope> {
  const found = await rowWithGrant<WorkspaceRow>(db, principal, WORKSPACE, [id], ahead);
  return scopeWith(db, found?.row, found?.grant, need);
}

/**
 * workspaceScopeById for a new run of the workspace, with the configuration version the run would
 * use: the one `cvId` names, else the workspace's current one (undefined when there is none). Both
 * are read by one statement (or read ahead with the token); the version is the caller's to look at
 * only once the scope holds.
 */
export async function workspaceScopeForRun(
  db: Db,
  principal: Principal,
  workspaceId: string,
  cvId: string | null,
  need: WorkspaceNeed,
  ahead?: EarlyGuardRead,
): Promise<WorkspaceScope & { cv: RunSourceCv | undefined }> {
  const found = await rowWithGrant<WorkspaceRow & { run_cv: RunSourceCv | null }>(
    db,
    principal,
    WORKSPACE_WITH_RUN_CV,
    [cvId, workspaceId],
    ahead,
  );
  const split = found && splitRunCv(found.row);
  return { ...(await scopeWith(db, split?.row, found?.grant, need)), cv: split?.cv };
}

/** workspaceScopeById for the workspace of a run, found by the run's id in the same statement. */
export async function workspaceScopeOfRun(
  db: Db,
  principal: Principal,
  runId: string,
  need: WorkspaceNeed = 'read',
): Promise<WorkspaceScope> {
  const found = await rowWithGrant<WorkspaceRow>(db, principal, WORKSPACE_OF_RUN, [runId]);
  return scopeWith(db, found?.row, found?.grant, need);
}

/**
 * A run with its references, and the caller's grant and access to its workspace (at least `need`),
 * read by one statement (or read ahead with the token); 404 when there is no such run or the caller
 * may not see it.
 */
export async function runScopeWithReferences(
  db: Db,
  principal: Principal,
  id: string,
  need: WorkspaceNeed = 'read',
  ahead?: EarlyGuardRead,
): Promise<{ run: RunRow; refs: RunReferences; grant: OrganizationGrant; access: WorkspaceAccess }> {
  const found = await rowWithGrant<RunWithReferencesRow>(db, principal, RUN_WITH_REFERENCES, [id], ahead);
  const access = found?.grant ? await workspaceAccess(db, found.grant, found.row.workspace_id) : null;
  if (!found?.grant || !allows(access, need)) throw new NotFound();
  return { ...splitRunReferences(found.row), grant: found.grant, access: access! };
}

/**
 * A row of a run's (a plan, apply, policy check or task stage, as `read` reads it) with its run's
 * status, and the caller's grant and access to the run's workspace, which must be at least
 * `need`; 404 otherwise.
 */
async function ofRunScope<T>(
  db: Db,
  principal: Principal,
  read: GrantedRead,
  id: string,
  need: WorkspaceNeed,
  ahead?: EarlyGuardRead,
): Promise<{ row: T; runStatus: RunRow['status']; grant: OrganizationGrant; access: WorkspaceAccess }> {
  const found = await rowWithGrant<T & RunColumns>(db, principal, read, [id], ahead);
  const split = found && splitRunColumns<T>(found.row);
  const access = split && found.grant ? await workspaceAccess(db, found.grant, split.workspaceId) : null;
  if (!split || !found.grant || !allows(access, need)) throw new NotFound();
  return { row: split.own, runStatus: split.runStatus, grant: found.grant, access: access! };
}

/** A plan and its run's status, read by one statement (or read ahead with the token), for a caller who may access its workspace at `need`. */
export const planScope = (
  db: Db,
  principal: Principal,
  id: string,
  need: WorkspaceNeed = 'read',
  ahead?: EarlyGuardRead,
) => ofRunScope<PlanRow>(db, principal, PLAN_WITH_RUN, id, need, ahead);

/** planScope for an apply. */
export const applyScope = (
  db: Db,
  principal: Principal,
  id: string,
  need: WorkspaceNeed = 'read',
  ahead?: EarlyGuardRead,
) => ofRunScope<ApplyRow>(db, principal, APPLY_WITH_RUN, id, need, ahead);

/** planScope for a policy check. */
export const policyCheckScope = (
  db: Db,
  principal: Principal,
  id: string,
  need: WorkspaceNeed = 'read',
  ahead?: EarlyGuardRead,
) => ofRunScope<PolicyCheckRow>(db, principal, POLICY_CHECK_WITH_RUN, id, need, ahead);

/** planScope for a task stage. */
export const taskStageScope = (
  db: Db,
  principal: Principal,
  id: string,
  need: WorkspaceNeed = 'read',
  ahead?: EarlyGuardRead,
) => ofRunScope<TaskStageRow>(db, principal, TASK_STAGE_WITH_RUN, id, need, ahead);

/**
 * A configuration version with its ingress attributes' id, read by one statement (or read ahead
 * with the token), for a caller whose access to its workspace is at least `need`, or, for a module
 * test version, who may run the module's tests (`access` is then null); 404 otherwise.
 */
export async function cvScope(
  db: Db,
  principal: Principal,
  id: string,
  need: WorkspaceNeed = 'read',
  ahead?: EarlyGuardRead,
): Promise<{ cv: CvRow; ingressId: string | null; grant: OrganizationGrant; access: WorkspaceAccess | null }> {
  const found = await rowWithGrant<CvWithIngressIdRow>(db, principal, CV_WITH_INGRESS_ID, [id], ahead);
  if (!found?.grant) throw new NotFound();
  const { cv, ingressId } = splitIngressId(found.row);
  if (!cv.workspace_id) {
    if (!mayRunModuleTests(found.grant)) throw new NotFound();
    return { cv, ingressId, grant: found.grant, access: null };
  }
  const access = await workspaceAccess(db, found.grant, cv.workspace_id);
  if (!allows(access, need)) throw new NotFound();
  return { cv, ingressId, grant: found.grant, access: access! };
}

/** A workspace's scope with its facts (tags, runs, resources), all read by one statement (or read ahead with the token). */
async function scopeWithFacts(
  db: Db,
  principal: Principal,
  read: GrantedRead,
  key: string[],
  need: WorkspaceNeed,
  ahead?: EarlyGuardRead,
): Promise<WorkspaceScope & { facts: WorkspaceFacts }> {
  const found = await rowWithGrant<WorkspaceRow & FactsColumns>(db, principal, read, key, ahead);
  if (!found) throw new NotFound();
  const { row, facts } = splitFacts(found.row);
  return { ...(await scopeWith(db, row, found.grant, need)), facts };
}

/** workspaceScopeById with the workspace's facts, read by the same statement (or read ahead with the token). */
export const workspaceScopeWithFacts = (
  db: Db,
  principal: Principal,
  id: string,
  need: WorkspaceNeed = 'read',
  ahead?: EarlyGuardRead,
) => scopeWithFacts(db, principal, WORKSPACE_WITH_FACTS, [id], need, ahead);

/** workspaceScopeWithFacts for a workspace by its organization's and its own name. */
export const workspaceScopeByNameWithFacts = (
  db: Db,
  principal: Principal,
  organizationName: string,
  name: string,
  need: WorkspaceNeed = 'read',
  ahead?: EarlyGuardRead,
) => scopeWithFacts(db, principal, WORKSPACE_BY_NAME_WITH_FACTS, [organizationName, name], need, ahead);

/** A read ahead's key, from the groups of the request's path or from its JSON body; null: none. */
type KeyOf = (match: RegExpExecArray, body: unknown) => (string | null)[] | null;

/** The key of a read ahead whose key is the path's groups. */
const pathKey: KeyOf = (match) => match.slice(1).map((segment) => decodeURIComponent(segment));

/**
 * A request whose guard's first read is made with the token's lookup, with the statement that
 * makes both; its key comes from the body unless it is the path's groups.
 */
const earlyGuardRead = (method: string, path: RegExp, read: GrantedRead, keyOf: KeyOf = pathKey) => ({
  method,
  path,
  read,
  keyOf,
  fromBody: keyOf !== pathKey,
  statement: tokenLookupWith(EarlyGuardRead.text(read)),
});

/** The key of creating a run's first read: the configuration version the body names (or null), then its workspace. */
const newRunKey: KeyOf = (_match, body) => {
  const workspaceId = relationshipIdIn(body, 'workspace');
  return workspaceId === undefined ? null : [relationshipIdIn(body, 'configuration-version') ?? null, workspaceId];
};

/**
 * The requests whose guard's first read earlyGuardReadOf names: method, path, read, where its key comes
 * from (the path's groups, or the body), and the token's lookup with the read.
 */
const EARLY_GUARD_READS = [
  earlyGuardRead('POST', /^\/runs$/, WORKSPACE_WITH_RUN_CV, newRunKey),
  earlyGuardRead('GET', /^\/workspaces\/([^/]+)$/, WORKSPACE_WITH_FACTS),
  earlyGuardRead('GET', /^\/runs\/([^/]+)$/, RUN_WITH_REFERENCES),
  earlyGuardRead('GET', /^\/plans\/([^/]+)$/, PLAN_WITH_RUN),
  earlyGuardRead('GET', /^\/applies\/([^/]+)$/, APPLY_WITH_RUN),
  earlyGuardRead('GET', /^\/runs\/([^/]+)\/run-events$/, RUN_WITH_REFERENCES),
  earlyGuardRead('GET', /^\/policy-checks\/([^/]+)$/, POLICY_CHECK_WITH_RUN),
  earlyGuardRead('GET', /^\/task-stages\/([^/]+)$/, TASK_STAGE_WITH_RUN),
  earlyGuardRead('GET', /^\/configuration-versions\/([^/]+)$/, CV_WITH_INGRESS_ID),
  earlyGuardRead('POST', /^\/workspaces\/([^/]+)\/configuration-versions$/, WORKSPACE),
  earlyGuardRead('GET', /^\/organizations\/([^/]+)\/workspaces\/([^/]+)$/, WORKSPACE_BY_NAME_WITH_FACTS),
  earlyGuardRead('GET', /^\/organizations\/([^/]+)\/workspaces$/, ORGANIZATION_BY_NAME),
  earlyGuardRead('GET', /^\/organizations\/([^/]+)\/entitlement-set$/, ORGANIZATION_BY_NAME),
  earlyGuardRead('POST', /^\/organizations\/([^/]+)\/workspaces$/, ORGANIZATION_BY_NAME),
];

/**
 * The granted read a request's guard makes first, when its method and path tell (EARLY_GUARD_READS), with
 * its key from the path or from a body read before authentication; the request's token is then
 * looked up by the same statement (docs/design-for-speed.md, "Read-ahead of the guard's row").
 */
export function earlyGuardReadOf(method: string, path: string, body?: unknown): EarlyGuardReadSpec | null {
  for (const ahead of EARLY_GUARD_READS) {
    const match = method === ahead.method ? ahead.path.exec(path) : null;
    if (!match) continue;
    try {
      const key = ahead.keyOf(match, body);
      return key && { read: ahead.read, key, statement: ahead.statement };
    } catch {
      return null;
    }
  }
  return null;
}

/** Whether the request's read ahead takes its key from its body, which is then worth reading before authentication (see readBodyEarly). */
export function readsAheadFromBody(method: string, path: string): boolean {
  return EARLY_GUARD_READS.some((ahead) => ahead.fromBody && ahead.method === method && ahead.path.test(path));
}

export interface TeamScope {
  team: TeamRow;
  grant: OrganizationGrant;
}

/** Whether a grant may see a team: organization-visible teams, its own teams, or team managers. */
export const canSeeTeam = (grant: OrganizationGrant, team: TeamRow): boolean =>
  team.visibility === 'organization' ||
  grant.isOwner ||
  grant.permissions['manage-teams'] ||
  grant.permissions['access-secret-teams'] ||
  grant.teamIds.includes(team.id);

/** The team and the caller's grant in its organization; `need` as for orgScope. */
export async function teamScope(
  db: Db,
  principal: Principal,
  id: string,
  need?: OrganizationPermission | 'owner',
): Promise<TeamScope> {
  const team = await findTeam(db, id);
  const grant = team ? await organizationGrant(db, principal, team.organization_name) : null;
  if (!team || !grant || !canSeeTeam(grant, team)) throw new NotFound();
  if (need === 'owner' ? !grant.isOwner : need && !grant.permissions[need]) throw new NotFound();
  return { team, grant };
}

export interface VarsetScope {
  set: VariableSetRow;
  grant: OrganizationGrant;
}

/**
 * The variable set and the caller's grant in its organization. Seeing it needs manage-var-sets
 * (owners have it), or a set that is global or applied to a workspace the caller reads; `manage`
 * asks for manage-var-sets.
 */
export async function varsetScope(db: Db, principal: Principal, id: string, manage = false): Promise<VarsetScope> {
  const found = await rowWithGrant<VariableSetRow>(db, principal, VARIABLE_SET, [id]);
  const grant = found?.grant;
  if (!found || !grant) throw new NotFound();
  const allowed = manage ? managesVarsets(grant) : await varsetVisible(db, grant, found.row.id);
  if (!allowed) throw new NotFound();
  return { set: found.row, grant };
}

export interface ProjectScope {
  project: ProjectRow;
  grant: OrganizationGrant;
  access: ProjectAccess;
}

/**
 * The project and what the caller may do with it (404 when it may not see it); `need` names what
 * the request does beyond reading: change or delete the project, manage its teams' access, or
 * create workspaces in it.
 */
export async function projectScope(
  db: Db,
  principal: Principal,
  id: string,
  need?: keyof ProjectAccess,
): Promise<ProjectScope> {
  const found = await rowWithGrant<ProjectRow>(db, principal, PROJECT, [id]);
  const grant = found?.grant;
  const access = found && grant ? await projectAccess(db, grant, found.row.id) : null;
  if (!found || !grant || !access || (need && !access[need])) throw new NotFound();
  return { project: found.row, grant, access };
}

/** An agent pool and the caller's grant in its organization: members see it, manage-agent-pools (`manage`) changes it; 404 otherwise. */
export async function agentPoolScope(
  db: Db,
  principal: Principal,
  id: string,
  manage = false,
): Promise<{ pool: AgentPoolRow; grant: OrganizationGrant }> {
  const found = await rowWithGrant<AgentPoolRow>(db, principal, AGENT_POOL, [id]);
  if (!found?.grant || (manage && !found.grant.permissions['manage-agent-pools'])) throw new NotFound();
  return { pool: found.row, grant: found.grant };
}

/**
 * Whether a grant may act on its organization's SSH keys: changing them needs manage-vcs-settings
 * (`manage`); seeing them, that or admin access to one of its workspaces. An organization token may
 * do neither, as in TFE (403 once it sees the organization).
 */
async function sshKeysAllowed(db: Db, principal: Principal, grant: OrganizationGrant, manage: boolean): Promise<void> {
  if (principal.kind === 'organization')
    throw new Forbidden('SSH keys cannot be used with an organization token; use a user or team token.');
  if (grant.permissions['manage-vcs-settings']) return;
  if (manage || !(await administersSomeWorkspace(db, grant))) throw new NotFound();
}

/** The organization whose SSH keys a request lists (or adds to, `manage`), for a caller allowed to (see sshKeysAllowed). */
export async function sshKeysScope(db: Db, principal: Principal, name: string, manage = false): Promise<OrgScope> {
  const scope = await orgScope(db, principal, name);
  await sshKeysAllowed(db, principal, scope.grant, manage);
  return scope;
}

/** An SSH key and the caller's grant in its organization, for a caller allowed to see it (or change it, `manage`); 404 otherwise. */
export async function sshKeyScope(
  db: Db,
  principal: Principal,
  id: string,
  manage = false,
): Promise<{ key: SshKeyRow; grant: OrganizationGrant }> {
  const found = await rowWithGrant<SshKeyRow>(db, principal, SSH_KEY, [id]);
  if (!found?.grant) throw new NotFound();
  await sshKeysAllowed(db, principal, found.grant, manage);
  return { key: found.row, grant: found.grant };
}

/**
 * VCS connections: manage-vcs-settings changes them; it, or admin access to a workspace (which
 * connects a repository with one), sees them. 404 otherwise.
 */
async function vcsAllowed(db: Db, grant: OrganizationGrant, manage: boolean): Promise<void> {
  if (grant.permissions['manage-vcs-settings']) return;
  if (manage || !(await administersSomeWorkspace(db, grant))) throw new NotFound();
}

/** The organization whose VCS connections a request lists (or adds to, `manage`), for a caller allowed to (see vcsAllowed). */
export async function vcsScope(db: Db, principal: Principal, name: string, manage = false): Promise<OrgScope> {
  const scope = await orgScope(db, principal, name);
  await vcsAllowed(db, scope.grant, manage);
  return scope;
}

/** A VCS connection, for a caller allowed to see it (or change it, `manage`); 404 otherwise. */
export async function oauthClientScope(
  db: Db,
  principal: Principal,
  id: string,
  manage = false,
): Promise<OAuthClientRow> {
  const found = await rowWithGrant<OAuthClientRow>(db, principal, OAUTH_CLIENT, [id]);
  if (!found?.grant) throw new NotFound();
  await vcsAllowed(db, found.grant, manage);
  return found.row;
}

/** A VCS connection's token, for a caller allowed to see it (or change it, `manage`); 404 otherwise. */
export async function oauthTokenScope(
  db: Db,
  principal: Principal,
  id: string,
  manage = false,
): Promise<OAuthTokenRow> {
  const found = await rowWithGrant<OAuthTokenRow & { organization_name: string }>(db, principal, OAUTH_TOKEN, [id]);
  if (!found?.grant) throw new NotFound();
  await vcsAllowed(db, found.grant, manage);
  return found.row;
}

/** A no-code module and the caller's grant in its organization: members see it, manage-modules (`manage`) changes it; 404 otherwise. */
export async function noCodeModuleScope(
  db: Db,
  principal: Principal,
  id: string,
  manage = false,
): Promise<{ ncm: NoCodeModuleRow; grant: OrganizationGrant }> {
  const found = await rowWithGrant<NoCodeModuleRow>(db, principal, NO_CODE_MODULE, [id]);
  if (!found?.grant || (manage && !found.grant.permissions['manage-modules'])) throw new NotFound();
  return { ncm: found.row, grant: found.grant };
}
