import type { Db } from '../platform/db.js';
import { API_SOURCES } from '../configuration-versions/machine.js';
import { columnsOf, type DataRetentionColumns, type DataRetentionPolicy } from './rules.js';
import { FINAL_RUN_STATUSES } from '../runs/machine.js';

/** Whose policy: an organization (by name) or a workspace (by id). */
export type PolicyHolder = { table: 'organizations'; name: string } | { table: 'workspaces'; id: string };

const keyOf = (holder: PolicyHolder) => (holder.table === 'organizations' ? { name: holder.name } : { id: holder.id });

const POLICY_COLUMNS = ['data_retention_policy_id', 'data_retention_policy_kind', 'data_retention_days'] as const;

/** The holder's policy columns, its row locked for the rest of the transaction; undefined when it is gone. */
export const lockPolicyColumns = (tx: Db, holder: PolicyHolder): Promise<DataRetentionColumns | undefined> =>
  tx(holder.table)
    .where(keyOf(holder))
    .forUpdate()
    .first(...POLICY_COLUMNS);

/** Stores the holder's policy (null: none). */
export async function writePolicy(db: Db, holder: PolicyHolder, policy: DataRetentionPolicy | null): Promise<void> {
  await db(holder.table)
    .where(keyOf(holder))
    .update({ ...columnsOf(policy), updated_at: db.fn.now() });
}

/** A workspace's own policy columns (`w`) and its organization's (`o`). */
export interface PoliciesOfWorkspace {
  w: DataRetentionColumns;
  o: DataRetentionColumns;
}

/** The policies that decide what a workspace keeps: its own and its organization's. */
export async function policiesOfWorkspace(db: Db, workspaceId: string): Promise<PoliciesOfWorkspace | undefined> {
  const row = await db('workspaces as w')
    .join('organizations as o', 'o.name', 'w.organization_name')
    .where('w.id', workspaceId)
    .first(...POLICY_COLUMNS.flatMap((c) => [`w.${c} as w_${c}`, `o.${c} as o_${c}`]));
  if (!row) return undefined;
  const side = (p: 'w' | 'o') =>
    Object.fromEntries(POLICY_COLUMNS.map((c) => [c, row[`${p}_${c}`]])) as unknown as DataRetentionColumns;
  return { w: side('w'), o: side('o') };
}

/** A version that a policy in force says is past retention. */
export interface ExpiredVersion {
  id: string;
  workspace_id: string;
  created_at: Date;
}

/**
 * The days of the delete-older policy in force in workspace `w` (its own policy, else its
 * organization's `o`), null when none is (and a comparison with null selects nothing): the SQL
 * form of policyInForce, which the transaction deleting a version checks again.
 */
const DAYS_IN_FORCE = `case when w.data_retention_policy_kind is not null
  then (case when w.data_retention_policy_kind = 'delete-older' then w.data_retention_days end)
  else (case when o.data_retention_policy_kind = 'delete-older' then o.data_retention_days end) end`;

/** Candidates past retention at `now`: rows of `table` as `v`, oldest first, at most `limit`. */
function expired(db: Db, table: 'state_versions' | 'configuration_versions', now: Date, limit: number) {
  return db(`${table} as v`)
    .join('workspaces as w', 'w.id', 'v.workspace_id')
    .join('organizations as o', 'o.name', 'w.organization_name')
    .whereRaw(`v.created_at < ?::timestamptz - make_interval(days => ${DAYS_IN_FORCE})`, [now])
    .orderBy([{ column: 'v.created_at' }, { column: 'v.id' }])
    .limit(limit)
    .select('v.id', 'v.workspace_id', 'v.created_at');
}

/** State versions whose backing data a policy says to delete: stored or soft deleted, not their workspace's current state. */
export async function expiredStateVersions(db: Db, now: Date, limit: number): Promise<ExpiredVersion[]> {
  return expired(db, 'state_versions', now, limit)
    .whereIn('v.status', ['finalized', 'backing_data_soft_deleted'])
    .whereRaw('w.current_state_version_id is distinct from v.id');
}

/**
 * Configuration versions whose backing data a policy says to delete: uploaded through the API or
 * the CLI (or soft deleted), current nowhere, used by no run in progress, and not what a pending
 * upload's failure would make current again.
 */
export async function expiredConfigurationVersions(db: Db, now: Date, limit: number): Promise<ExpiredVersion[]> {
  return expired(db, 'configuration_versions', now, limit)
    .whereIn('v.status', ['uploaded', 'backing_data_soft_deleted'])
    .whereIn('v.source', [...API_SOURCES])
    .whereNotExists(db('workspaces as c').whereRaw('c.current_configuration_version_id = v.id'))
    .whereNotExists(
      db('runs as r')
        .whereRaw('r.configuration_version_id = v.id')
        .whereNotIn('r.status', [...FINAL_RUN_STATUSES]),
    )
    .whereNotExists(
      db('configuration_versions as p').whereRaw('p.replaced_current_id = v.id').where('p.status', 'pending'),
    );
}
