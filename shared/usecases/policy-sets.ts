import type { Db } from '../db.js';
import { Unprocessable } from '../errors.js';
import { FREE_POLICIES_PER_SET, FREE_POLICY_SETS_PER_ORGANIZATION, type PolicyKind } from '../domain/policy.js';
import { linkPolicies, policyCounts } from '../repos/policies.js';

/*
 * Rules shared by the policy and policy set endpoints: what a request may name, and the free
 * edition's limits. Every refusal is a 422 whose pointer names the offending element.
 */

/** Where the i-th element of a request's list lives, e.g. `/data/relationships/policies/data/3/id`. */
export type ElementPointer = (i: number) => string;

/**
 * Ids of `table` rows named by a request, which must all be in the organization and, when `kind`
 * is given, of that kind. `what` names the resource in messages (e.g. "policy set").
 */
async function named(q: Db, table: string, what: string, org: string, ids: string[], pointer: ElementPointer, kind?: PolicyKind): Promise<string[]> {
  if (!ids.length) return [];
  const rows = (await q(table).where({ organization_name: org }).whereIn('id', ids).select('id', ...(kind ? ['kind'] : []))) as { id: string; kind?: PolicyKind }[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const [i, id] of ids.entries()) {
    const row = byId.get(id);
    if (!row) throw new Unprocessable(`${what} ${id} was not found in organization ${org}`, pointer(i));
    if (kind && row.kind !== kind) throw new Unprocessable(`${what} ${id} is of kind ${row.kind}; a policy set holds policies of its own kind only (${kind})`, pointer(i));
  }
  return ids;
}

export const namedPolicySets = (q: Db, org: string, kind: PolicyKind, ids: string[], pointer: ElementPointer) => named(q, 'policy_sets', 'policy set', org, ids, pointer, kind);
export const namedPolicies = (q: Db, org: string, kind: PolicyKind, ids: string[], pointer: ElementPointer) => named(q, 'policies', 'policy', org, ids, pointer, kind);
export const namedWorkspaces = (q: Db, org: string, ids: string[], pointer: ElementPointer) => named(q, 'workspaces', 'workspace', org, ids, pointer);

/** 422 when another row of `table` in the organization has the name. */
export async function assertNameFree(q: Db, table: 'policies' | 'policy_sets', org: string, name: string, exceptId?: string): Promise<void> {
  const query = q(table).where({ organization_name: org, name });
  if (exceptId) query.whereNot({ id: exceptId });
  if (await query.first('id')) throw new Unprocessable('name has already been taken', '/data/attributes/name');
}

/**
 * Links policies to sets (inside the caller's transaction). The sets are locked first, so in the
 * free edition concurrent additions cannot together pass five policies per set.
 */
export async function addPoliciesToSets(tx: Db, free: boolean, links: { policy_set_id: string; policy_id: string }[], pointer: string): Promise<void> {
  if (!links.length) return;
  const setIds = [...new Set(links.map((l) => l.policy_set_id))];
  await tx('policy_sets').whereIn('id', setIds).orderBy('id').forUpdate().select('id');
  await linkPolicies(tx, links);
  if (!free) return;
  for (const [id, count] of await policyCounts(tx, setIds)) {
    if (count > FREE_POLICIES_PER_SET) {
      throw new Unprocessable(`the free edition allows at most ${FREE_POLICIES_PER_SET} policies in a policy set; policy set ${id} would hold ${count}`, pointer);
    }
  }
}

/** The free edition allows one policy set per organization; the organization row stays locked until commit. */
export async function assertRoomForPolicySet(tx: Db, free: boolean, org: string): Promise<void> {
  if (!free) return;
  await tx('organizations').where({ name: org }).forUpdate().first('name');
  const [{ count }] = await tx('policy_sets').where({ organization_name: org }).count<{ count: number }[]>({ count: '*' });
  if (Number(count) >= FREE_POLICY_SETS_PER_ORGANIZATION) {
    throw new Unprocessable(`the free edition allows ${FREE_POLICY_SETS_PER_ORGANIZATION} policy set per organization`, '/data');
  }
}
