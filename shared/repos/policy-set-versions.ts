import { asJson, type Db } from '../db.js';
import { newId } from '../ids.js';
import type { BundlePolicy } from '../domain/policy-bundle.js';

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

export const findPolicySetVersion = (db: Db, id: string) => db<PolicySetVersionRow>('policy_set_versions').where({ id }).first();

export async function insertPolicySetVersion(db: Db, policySetId: string): Promise<PolicySetVersionRow> {
  const stamp = { 'pending-at': new Date().toISOString() };
  const [row] = await db<PolicySetVersionRow>('policy_set_versions').insert({ id: newId('polsetver'), policy_set_id: policySetId, status_timestamps: asJson(db, stamp) }).returning('*');
  return row;
}

/** Ends a pending version (compare-and-set): ready with its policies, or errored with why. Undefined when it was not pending. */
export async function settlePolicySetVersion(
  db: Db,
  id: string,
  end: { status: 'ready'; policies: BundlePolicy[] } | { status: 'errored'; error: string; error_message: string },
): Promise<PolicySetVersionRow | undefined> {
  const stamp = db.raw(`status_timestamps || jsonb_build_object(?::text, ?::text)`, [`${end.status}-at`, new Date().toISOString()]);
  const values = end.status === 'ready' ? { status: end.status, policies: asJson(db, end.policies) } : end;
  const [row] = await db<PolicySetVersionRow>('policy_set_versions')
    .where({ id, status: 'pending' })
    .update({ ...values, status_timestamps: stamp, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** The newest ready version of each of the given sets (the one a set evaluates), by set id. */
export async function newestReadyVersions(db: Db, setIds: string[]): Promise<Map<string, PolicySetVersionRow>> {
  if (!setIds.length) return new Map();
  const rows = (await db('policy_set_versions')
    .distinctOn('policy_set_id')
    .whereIn('policy_set_id', setIds)
    .where({ status: 'ready' })
    .orderBy([{ column: 'policy_set_id' }, { column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])) as PolicySetVersionRow[];
  return new Map(rows.map((r) => [r.policy_set_id, r]));
}

/** SQL: the newest ready version of the set `s` brings at least one policy. */
export const readyVersionHasPolicies = (db: Db) =>
  db('policy_set_versions as v')
    .whereRaw('v.policy_set_id = s.id')
    .where('v.status', 'ready')
    .whereRaw(`jsonb_array_length(v.policies) > 0`)
    .whereRaw(`v.created_at = (select max(n.created_at) from policy_set_versions n where n.policy_set_id = s.id and n.status = 'ready')`);

/** SQL: the set `s` has a ready version (its bundle replaces its individual policies). */
export const hasReadyVersion = (db: Db) => db('policy_set_versions as r').whereRaw('r.policy_set_id = s.id').where('r.status', 'ready');

/** The organization of a version's set, or undefined when there is no such version. */
export async function policySetVersionOrganization(db: Db, id: string): Promise<string | undefined> {
  const row = await db('policy_set_versions as v').join('policy_sets as s', 's.id', 'v.policy_set_id').where('v.id', id).first('s.organization_name');
  return row?.organization_name;
}
