import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import type { Principal } from '../identity/access.queries.js';
import type { DataRetentionColumns } from '../retention/rules.js';

/** An organization; its own data retention policy is kept on its row (DataRetentionColumns). */
export interface OrganizationRow extends DataRetentionColumns {
  name: string;
  external_id: string;
  email: string;
  /** The execution mode of workspaces created without one. */
  default_execution_mode: 'remote' | 'local' | 'agent';
  /** The agent pool of workspaces that follow the default execution mode when it is `agent`. */
  default_agent_pool_id: string | null;
  /** Session settings clients write and read back (minutes; null is the default). */
  session_timeout: number | null;
  session_remember: number | null;
  /** Stored and shown (a delete here never checks resources). */
  allow_force_delete_workspaces: boolean;
  /**
   * Speculative runs queued by callers with plan access only (no apply) get none of their
   * workspace's secrets: no sensitive variables, no state, a run token that reads nothing of the API.
   */
  speculative_runs_withhold_secrets: boolean;
  created_at: Date;
  updated_at: Date;
}

export const findOrganization = (db: Db, name: string) => db<OrganizationRow>('organizations').where({ name }).first();

/** What a client may set on an organization besides its name and email. */
export type OrganizationSettings = Partial<
  Pick<
    OrganizationRow,
    | 'default_execution_mode'
    | 'default_agent_pool_id'
    | 'session_timeout'
    | 'session_remember'
    | 'allow_force_delete_workspaces'
    | 'speculative_runs_withhold_secrets'
  >
>;

export async function insertOrganization(
  db: Db,
  attrs: { name: string; email: string } & OrganizationSettings,
): Promise<OrganizationRow> {
  const [row] = await db<OrganizationRow>('organizations')
    .insert({
      name: attrs.name,
      email: attrs.email,
      external_id: newId('org'),
      ...(attrs.default_execution_mode ? { default_execution_mode: attrs.default_execution_mode } : {}),
      session_timeout: attrs.session_timeout ?? null,
      session_remember: attrs.session_remember ?? null,
      allow_force_delete_workspaces: attrs.allow_force_delete_workspaces ?? false,
      speculative_runs_withhold_secrets: attrs.speculative_runs_withhold_secrets ?? false,
    })
    .returning('*');
  return row;
}

export async function updateOrganization(
  db: Db,
  name: string,
  patch: { name?: string; email?: string } & OrganizationSettings,
): Promise<OrganizationRow> {
  const [row] = await db<OrganizationRow>('organizations')
    .where({ name })
    .update({ ...patch, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** Whether an organization withholds its secrets from speculative runs of callers with plan access only (false when there is no such organization). */
export async function withholdsSecretsFromPlanAccess(db: Db, name: string): Promise<boolean> {
  const row = await db<OrganizationRow>('organizations').where({ name }).first('speculative_runs_withhold_secrets');
  return row?.speculative_runs_withhold_secrets === true;
}

/** Organizations a principal can see: a user's active memberships (all for a site admin), a token's own organization. */
export function organizationsVisibleTo(db: Db, principal: Principal) {
  const q = db<OrganizationRow>('organizations');
  if (principal.kind === 'team') return q.where('name', principal.team.organization_name);
  if (principal.kind === 'organization') return q.where('name', principal.organizationName);
  if (principal.kind === 'run') return q.whereRaw('false');
  if (!principal.user.is_admin) {
    q.whereIn(
      'name',
      db('organization_memberships')
        .where({ user_id: principal.user.id, status: 'active' })
        .select('organization_name'),
    );
  }
  return q;
}

/** Deletes an organization (its rows cascade); how many were deleted. */
export const deleteOrganization = (db: Db, name: string) => db('organizations').where({ name }).del();
