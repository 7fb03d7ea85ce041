import { createHash } from 'node:crypto';
import { iso, many, one, type Resource } from '../jsonapi.js';
import {
  normalizeAccess,
  allows,
  type OrganizationGrant,
  type WorkspaceAccess,
  type WorkspaceNeed,
} from '../../shared/identity/access.queries.js';
import type { Config } from '../../shared/platform/config.js';
import type { OrganizationRow } from '../../shared/organizations/repo.js';
import type { UserRow } from '../../shared/identity/users.repo.js';
import type { MembershipRow } from '../../shared/identity/memberships.repo.js';
import type { TeamRow } from '../../shared/identity/teams.repo.js';
import type { TokenRow } from '../../shared/identity/tokens.repo.js';
import type { WorkspaceRow } from '../../shared/workspaces/repo.js';
import type { TeamWorkspaceRow } from '../../shared/identity/team-workspaces.repo.js';
import {
  mayCreateOrganizations,
  permissionsOfTeamWorkspace,
  type OrganizationCreation,
} from '../../shared/identity/index.js';
import type { TagRow } from '../../shared/workspaces/tags.repo.js';
import type { StateOutputRow } from '../../shared/state/repo.js';
import type { WorkspaceFacts } from '../../shared/workspaces/queries.js';
import { isFinal } from '../../shared/runs/index.js';
import { dataRetentionRelationships } from './data-retention-policies.js';

/** What `remaining-testable-count` says when module tests are unlimited, as they are here. */
export const UNLIMITED_TESTABLE_COUNT = 2 ** 31 - 1;

export function organizationResource(org: OrganizationRow, grant: OrganizationGrant | null): Resource {
  const owner = grant?.isOwner ?? false;
  return {
    type: 'organizations',
    id: org.name,
    attributes: {
      name: org.name,
      email: org.email,
      'external-id': org.external_id,
      'created-at': iso(org.created_at),
      'collaborator-auth-policy': 'password',
      'default-execution-mode': org.default_execution_mode,
      'cost-estimation-enabled': false,
      'session-timeout': org.session_timeout,
      'session-remember': org.session_remember,
      'two-factor-conformant': false,
      'trial-expires-at': null,
      // Module tests have no quota: the largest 32-bit integer, so a client typing it as an
      // integer (go-tfe: int) reads "unlimited", where null would decode as 0 (docs/decisions.md).
      'remaining-testable-count': UNLIMITED_TESTABLE_COUNT,
      // Settings of Terraform Cloud that this service does not have, shown with the values that
      // mean "off" (clients decode them; none changes anything here). allow-force-delete-workspaces
      // is stored as given.
      'assessments-enforced': false,
      'allow-force-delete-workspaces': org.allow_force_delete_workspaces,
      // This service's own setting (Terraform Cloud has none): see docs/security.md, "Plan access".
      'speculative-runs-withhold-secrets': org.speculative_runs_withhold_secrets,
      'user-tokens-enabled': true,
      'saml-enabled': false,
      'owners-team-saml-role-id': null,
      'send-passing-statuses-for-untriggered-speculative-plans': false,
      'aggregated-commit-status-enabled': false,
      'speculative-plan-management-enabled': false,
      'fair-run-queuing-enabled': true,
      permissions: {
        'can-update': owner,
        'can-destroy': owner,
        'can-create-team': owner || (grant?.permissions['manage-teams'] ?? false),
        'can-create-workspace': grant?.permissions['manage-workspaces'] ?? false,
        'can-manage-users': owner || (grant?.permissions['manage-membership'] ?? false),
        'can-manage-subscription': false,
        'can-manage-run-tasks': grant?.permissions['manage-run-tasks'] ?? false,
        'can-update-api-token': owner,
        'can-create-module': grant?.permissions['manage-modules'] ?? false,
        'can-manage-policies': grant?.permissions['manage-policies'] ?? false,
        'can-manage-policy-overrides': grant?.permissions['manage-policy-overrides'] ?? false,
        'can-manage-varsets': grant?.permissions['manage-var-sets'] ?? false,
        // Provisioning a workspace with a no-code module creates it; offering modules manages them.
        'can-deploy-no-code-modules': grant?.permissions['manage-workspaces'] ?? false,
        'can-manage-no-code-modules': grant?.permissions['manage-modules'] ?? false,
      },
    },
    relationships: {
      'entitlement-set': one('entitlement-sets', org.external_id),
      'default-agent-pool': one('agent-pools', org.default_agent_pool_id),
      ...dataRetentionRelationships(org),
    },
    links: { self: `/api/v2/organizations/${encodeURIComponent(org.name)}` },
  };
}

/** Entitlements follow the edition: `free` applies the free edition's limits (docs/decisions.md, "Editions"). */
export function entitlementSetResource(org: OrganizationRow, config: Config): Resource {
  const full = config.edition !== 'free';
  return {
    type: 'entitlement-sets',
    id: org.external_id,
    attributes: {
      agents: false,
      'audit-logging': full,
      'configuration-designer': true,
      'cost-estimation': false,
      'global-run-tasks': full,
      'module-tests-generation': false,
      operations: true,
      'policy-enforcement': true,
      'policy-limit': full ? null : 5,
      'policy-mandatory-enforcement-limit': null,
      'policy-set-limit': full ? null : 1,
      'private-module-registry': true,
      'run-task-limit': full ? null : 1,
      'run-task-mandatory-enforcement-limit': null,
      'run-task-workspace-limit': full ? null : 10,
      'run-tasks': true,
      sentinel: true,
      'self-serve-billing': false,
      sso: false,
      'state-storage': true,
      teams: true,
      'usage-reporting': false,
      'user-limit': null,
      'vcs-integrations': false,
    },
  };
}

/**
 * A user's avatar: a generated (identicon) Gravatar image keyed by a hash of the user's id, never
 * of the email, so it is stable and tells nothing about the person beyond the id it is shown with.
 */
export const avatarUrl = (userId: string): string =>
  `https://www.gravatar.com/avatar/${createHash('sha256').update(`user:${userId}`).digest('hex')}?s=100&d=identicon&f=y`;

/** A user; `organizationCreation` (ORGANIZATION_CREATION) says whether it may create organizations. */
export function userResource(
  user: UserRow,
  organizationCreation: OrganizationCreation,
  opts: { self?: boolean } = {},
): Resource {
  return {
    type: 'users',
    id: user.id,
    attributes: {
      username: user.username,
      ...(opts.self ? { email: user.email, 'unconfirmed-email': user.unconfirmed_email ?? null } : {}),
      'is-service-account': false,
      'is-site-admin': user.is_admin,
      // Only the site admin's list of users reads the suspension (TFE's admin users show it).
      ...(user.suspended_at !== undefined ? { 'is-suspended': user.suspended_at !== null } : {}),
      'avatar-url': avatarUrl(user.id),
      'v2-only': true,
      'two-factor': { enabled: false, verified: false },
      permissions: {
        'can-create-organizations': mayCreateOrganizations(organizationCreation, user),
        'can-change-email': opts.self ?? false,
        'can-change-username': opts.self ?? false,
      },
    },
    links: { self: `/api/v2/users/${user.id}` },
  };
}

/**
 * The user of a membership not accepted yet, as anyone but that user sees it: the id the
 * membership names, nothing that identifies the person (no username, email or site-admin flag).
 */
/** An organization as the site admin's list shows it: its name, contact email and creation. */
export const adminOrganizationResource = (org: OrganizationRow): Resource => ({
  type: 'organizations',
  id: org.name,
  attributes: { name: org.name, email: org.email, 'created-at': iso(org.created_at) },
  links: { self: `/api/v2/organizations/${org.name}` },
});

/** A site admin's password reset link for a user (shown once, to that admin). */
export function passwordResetLinkResource(
  link: { id: string; url: string; expiresAt: Date },
  userId: string,
): Resource {
  return {
    type: 'password-reset-links',
    id: link.id,
    attributes: { 'reset-url': link.url, 'expires-at': link.expiresAt.toISOString() },
    relationships: { user: { data: { type: 'users', id: userId } } },
  };
}

export function invitedUserResource(id: string): Resource {
  return { type: 'users', id, attributes: { username: null, 'is-service-account': false, 'avatar-url': null } };
}

export function membershipResource(m: MembershipRow, email: string | null, teamIds: string[]): Resource {
  return {
    type: 'organization-memberships',
    id: m.id,
    attributes: { status: m.status, email, 'created-at': iso(m.created_at) },
    relationships: {
      organization: one('organizations', m.organization_name),
      user: one('users', m.user_id),
      teams: many('teams', teamIds),
    },
  };
}

export function teamResource(
  team: TeamRow,
  members: { userIds: string[]; membershipIds: string[] },
  grant: OrganizationGrant | null,
): Resource {
  const manage = (grant?.isOwner ?? false) || (grant?.permissions['manage-teams'] ?? false);
  const membership = (grant?.isOwner ?? false) || (grant?.permissions['manage-membership'] ?? false);
  return {
    type: 'teams',
    id: team.id,
    attributes: {
      name: team.name,
      'is-unified': false,
      visibility: team.visibility,
      'users-count': members.userIds.length,
      'sso-team-id': team.sso_team_id,
      'allow-member-token-management': team.allow_member_token_management,
      'organization-access': team.is_owners
        ? Object.fromEntries(Object.keys(normalizeAccess({})).map((k) => [k, true]))
        : normalizeAccess(team.organization_access),
      permissions: {
        'can-update-membership': membership && (!team.is_owners || (grant?.isOwner ?? false)),
        'can-destroy': manage && !team.is_owners,
        'can-update-organization-access':
          manage &&
          !team.is_owners &&
          ((grant?.isOwner ?? false) || (grant?.permissions['manage-organization-access'] ?? false)),
        'can-update-api-token': manage,
        'can-update-visibility': manage,
        'can-update-name': manage && !team.is_owners,
        'can-update-sso-team-id': manage,
        'can-update-member-token-management': manage,
        'can-view-api-token': manage,
      },
      'created-at': iso(team.created_at),
    },
    relationships: {
      organization: one('organizations', team.organization_name),
      users: many('users', members.userIds),
      'organization-memberships': many('organization-memberships', members.membershipIds),
    },
    links: { self: `/api/v2/teams/${team.id}` },
  };
}

/** Token document; `secret` is present only in the response that created it. */
export function tokenResource(row: TokenRow, secret?: string): Resource {
  return {
    type: 'authentication-tokens',
    id: row.id,
    attributes: {
      'created-at': iso(row.created_at),
      'last-used-at': iso(row.last_used_at),
      description: row.description,
      'expired-at': iso(row.expired_at),
      token: secret ?? null,
    },
    relationships: {
      'created-by': one('users', row.created_by_id),
      ...(row.team_id ? { team: one('teams', row.team_id) } : {}),
      ...(row.organization_name ? { organization: one('organizations', row.organization_name) } : {}),
    },
  };
}

/** A tag; `instanceCount` (how many workspaces carry it) in the organization's list. */
export function tagResource(tag: TagRow, instanceCount?: number): Resource {
  return {
    type: 'tags',
    id: tag.id,
    attributes: {
      name: tag.name,
      'created-at': iso(tag.created_at),
      ...(instanceCount === undefined ? {} : { 'instance-count': instanceCount }),
    },
    relationships: { organization: one('organizations', tag.organization_name) },
  };
}

/** A workspace's facts when they were not read (included workspaces): none. */
export const NO_FACTS: WorkspaceFacts = {
  tagNames: [],
  runsCount: 0,
  resourceCount: 0,
  currentRun: null,
  latestRunId: null,
  varIds: [],
};

/** The run holding a workspace (its current run, while neither pending nor finished), if one does. */
const holdingRunOf = (facts: WorkspaceFacts): string | null =>
  facts.currentRun && facts.currentRun.status !== 'pending' && !isFinal(facts.currentRun.status)
    ? facts.currentRun.id
    : null;

export function workspaceResource(
  ws: WorkspaceRow,
  access: WorkspaceAccess,
  facts: WorkspaceFacts = NO_FACTS,
  outputIds?: string[],
): Resource {
  const at = (need: WorkspaceNeed) => allows(access, need);
  // A run holding the workspace locks it, as TFE shows it (a lock taken by hand is shown first).
  const holdingRun = ws.locked ? null : holdingRunOf(facts);
  return {
    type: 'workspaces',
    id: ws.id,
    attributes: {
      name: ws.name,
      description: ws.description,
      'working-directory': ws.working_directory,
      'auto-apply': ws.auto_apply,
      'auto-apply-run-trigger': ws.auto_apply_run_trigger,
      'execution-mode': ws.execution_mode,
      operations: ws.execution_mode !== 'local',
      'terraform-version': ws.terraform_version,
      'vcs-repo': ws.vcs_repo,
      'vcs-repo-identifier': (ws.vcs_repo?.identifier as string | undefined) ?? null,
      'assessments-enabled': ws.assessments_enabled,
      'auto-destroy-at': iso(ws.auto_destroy_at),
      'allow-destroy-plan': ws.allow_destroy_plan,
      'queue-all-runs': ws.queue_all_runs,
      'speculative-enabled': ws.speculative_enabled,
      'global-remote-state': ws.global_remote_state,
      'structured-run-output-enabled': ws.structured_run_output_enabled,
      'file-triggers-enabled': ws.file_triggers_enabled,
      'trigger-prefixes': ws.trigger_prefixes,
      'trigger-patterns': ws.trigger_patterns,
      'tag-names': facts.tagNames,
      'setting-overwrites': { 'execution-mode': ws.overwrites_execution_mode, 'agent-pool': ws.overwrites_agent_pool },
      source: 'tfe-api',
      'source-name': ws.source_name,
      'source-url': ws.source_url,
      environment: 'default',
      locked: ws.locked || holdingRun !== null,
      // Beyond TFE's attributes: why the workspace is locked (the reason given, or why a run locked it).
      'locked-reason': ws.locked ? ws.lock_reason : null,
      'resource-count': facts.resourceCount,
      'runs-count': facts.runsCount,
      // The name go-tfe and the tfe provider read the count under.
      'workspace-kpis-runs-count': facts.runsCount,
      'created-at': iso(ws.created_at),
      'updated-at': iso(ws.updated_at),
      actions: { 'is-destroyable': at('admin') },
      permissions: {
        'can-update': at('admin'),
        'can-destroy': at('admin'),
        'can-queue-run': at('queue-plans'),
        'can-queue-apply': at('apply'),
        'can-queue-destroy': at('admin'),
        'can-read-variable': at('read-variables'),
        'can-update-variable': at('write-variables'),
        'can-read-state-versions': at('read-state-outputs'),
        'can-read-state-outputs': at('read-state-outputs'),
        'can-create-state-versions': at('write-state'),
        'can-lock': at('lock'),
        'can-unlock': at('lock'),
        'can-force-unlock': at('admin'),
        'can-read-settings': at('read'),
        'can-manage-tags': at('admin'),
        'can-manage-run-tasks': at('manage-run-tasks'),
        'can-force-delete': at('admin'),
        'can-manage-assessments': at('admin'),
        'can-read-assessment-results': at('read'),
        'can-manage-notification-configurations': at('admin'),
      },
    },
    relationships: {
      organization: one('organizations', ws.organization_name),
      project: one('projects', ws.project_id),
      'agent-pool': one('agent-pools', ws.agent_pool_id),
      'ssh-key': one('ssh-keys', ws.ssh_key_id),
      'current-run': one('runs', facts.currentRun?.id ?? null),
      'latest-run': one('runs', facts.latestRunId),
      'current-configuration-version': one('configuration-versions', ws.current_configuration_version_id),
      'current-state-version': one('state-versions', ws.current_state_version_id),
      'locked-by': holdingRun
        ? one('runs', holdingRun)
        : one(ws.locked && ws.locked_by_type ? ws.locked_by_type : 'users', ws.locked ? ws.locked_by_id : null),
      // go-tfe reads a workspace's variables from here (ids only; their values are under /vars).
      vars: many('vars', facts.varIds),
      ...dataRetentionRelationships(ws),
      ...(outputIds ? { outputs: many('workspace-outputs', outputIds) } : {}),
    },
    links: {
      self: `/api/v2/organizations/${encodeURIComponent(ws.organization_name)}/workspaces/${encodeURIComponent(ws.name)}`,
      // Where Terraform Cloud's web UI shows the workspace (this service's web pages do not; clients only link to it).
      'self-html': `/app/${encodeURIComponent(ws.organization_name)}/workspaces/${encodeURIComponent(ws.name)}`,
    },
  };
}

/** An output of a workspace's current state (`include=outputs`); a sensitive value is null. */
export function workspaceOutputResource(o: StateOutputRow, value: unknown): Resource {
  return {
    type: 'workspace-outputs',
    id: o.id,
    attributes: {
      name: o.name,
      sensitive: o.sensitive,
      'output-type': typeof o.type === 'string' ? o.type : 'unknown',
      value: o.sensitive ? null : value,
    },
  };
}

/** A team's access to a workspace, with the permissions it gives (a fixed level's as it implies them). */
export function teamWorkspaceResource(row: TeamWorkspaceRow): Resource {
  return {
    type: 'team-workspaces',
    id: row.id,
    attributes: { access: row.access, ...permissionsOfTeamWorkspace(row.access, row.permissions) },
    relationships: { team: one('teams', row.team_id), workspace: one('workspaces', row.workspace_id) },
  };
}
