import { asJson, type Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import type { BundlePolicy } from './bundle.rules.js';

export type PolicySetVersionStatus = 'pending' | 'ready' | 'errored';

export interface PolicySetVersionRow {
  id: string;
  policy_set_id: string;
  source: string;
  status: PolicySetVersionStatus;
  error: string | null;
  error_message: string | null;
  status_timestamps: Record<string, string>;
  policies: BundlePolicy[];
  created_at: Date;
  updated_at: Date;
}

/** A version without its policies (which may be large): what every read but evaluation needs. */
export type PolicySetVersionSummary = Omit<PolicySetVersionRow, 'policies'>;

/** The columns of a PolicySetVersionSummary. */
export const VERSION_SUMMARY_COLUMNS = [
  'id',
  'policy_set_id',
  'source',
  'status',
  'error',
  'error_message',
  'status_timestamps',
  'created_at',
  'updated_at',
] as const;

export const findPolicySetVersion = (db: Db, id: string): Promise<PolicySetVersionSummary | undefined> =>
  db('policy_set_versions')
    .where({ id })
    .first(...VERSION_SUMMARY_COLUMNS);

export async function insertPolicySetVersion(db: Db, policySetId: string): Promise<PolicySetVersionSummary> {
  const stamp = { 'pending-at': new Date().toISOString() };
  const [row] = await db<PolicySetVersionRow>('policy_set_versions')
    .insert({ id: newId('polsetver'), policy_set_id: policySetId, status_timestamps: asJson(db, stamp) })
    .returning([...VERSION_SUMMARY_COLUMNS]);
  return row;
}

/** Ends a pending version (compare-and-set): ready with its policies, or errored with why. Undefined when it was not pending. */
export async function settlePolicySetVersion(
  db: Db,
  id: string,
  end: { status: 'ready'; policies: BundlePolicy[] } | { status: 'errored'; error: string; error_message: string },
): Promise<PolicySetVersionSummary | undefined> {
  const stamp = db.raw(`status_timestamps || jsonb_build_object(?::text, ?::text)`, [
    `${end.status}-at`,
    new Date().toISOString(),
  ]);
  const values = end.status === 'ready' ? { status: end.status, policies: asJson(db, end.policies) } : end;
  const [row] = await db<PolicySetVersionRow>('policy_set_versions')
    .where({ id, status: 'pending' })
    .update({ ...values, status_timestamps: stamp, updated_at: db.fn.now() })
    .returning([...VERSION_SUMMARY_COLUMNS]);
  return row;
}

const newestReady = (db: Db, setIds: string[]) =>
  db('policy_set_versions')
    .distinctOn('policy_set_id')
    .whereIn('policy_set_id', setIds)
    .where({ status: 'ready' })
    .orderBy([{ column: 'policy_set_id' }, { column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);

/** The newest ready version of each of the given sets (the one a set evaluates), without its policies, by set id. */
export async function newestReadyVersions(db: Db, setIds: string[]): Promise<Map<string, PolicySetVersionSummary>> {
  if (!setIds.length) return new Map();
  const rows = (await newestReady(db, setIds).select(...VERSION_SUMMARY_COLUMNS)) as PolicySetVersionSummary[];
  return new Map(rows.map((r) => [r.policy_set_id, r]));
}

/** The newest ready version of each of the given sets with its policies and their code (for evaluation), by set id. */
export async function newestReadyBundles(
  db: Db,
  setIds: string[],
): Promise<Map<string, Pick<PolicySetVersionRow, 'id' | 'policy_set_id' | 'policies'>>> {
  if (!setIds.length) return new Map();
  const rows = (await newestReady(db, setIds).select('id', 'policy_set_id', 'policies')) as Pick<
    PolicySetVersionRow,
    'id' | 'policy_set_id' | 'policies'
  >[];
  return new Map(rows.map((r) => [r.policy_set_id, r]));
}

/** SQL: the newest ready version of the set `s` brings at least one policy. */
export const readyVersionHasPolicies = (db: Db) =>
  db('policy_set_versions as v')
    .whereRaw('v.policy_set_id = s.id')
    .where('v.status', 'ready')
    .whereRaw(`jsonb_array_length(v.policies) > 0`)
    .whereRaw(
      `v.created_at = (select max(n.created_at) from policy_set_versions n where n.policy_set_id = s.id and n.status = 'ready')`,
    );

/** SQL: the set `s` has a ready version (its bundle replaces its individual policies). */
export const hasReadyVersion = (db: Db) =>
  db('policy_set_versions as r').whereRaw('r.policy_set_id = s.id').where('r.status', 'ready');

/** The organization of a version's set, or undefined when there is no such version. */
export async function policySetVersionOrganization(db: Db, id: string): Promise<string | undefined> {
  const row = await db('policy_set_versions as v')
    .join('policy_sets as s', 's.id', 'v.policy_set_id')
    .where('v.id', id)
    .first('s.organization_name');
  return row?.organization_name;
}
