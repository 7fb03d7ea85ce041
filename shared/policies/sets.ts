import type { Db } from '../platform/db.js';
import { applySetToProjects, assertProjects } from '../projects/index.js';
import { type ElementField, type Field, Unprocessable } from '../platform/errors.js';
import { FREE_POLICIES_PER_SET, FREE_POLICY_SETS_PER_ORGANIZATION, type PolicyKind } from './rules.js';
import {
  attachWorkspaces,
  countPolicySets,
  deletePolicy,
  deletePolicySet,
  detachWorkspaces,
  excludeWorkspaces,
  insertPolicy,
  insertPolicySet,
  linkPolicies,
  lockPolicyOrganization,
  lockPolicySets,
  nameTaken,
  policyCounts,
  rowsInOrganization,
  unexcludeWorkspaces,
  unlinkPolicies,
  updatePolicySet,
  type PolicyRow,
  type PolicySetRow,
  type SetChangeable,
} from './repo.js';
import { assertPinnable } from './tool-versions.js';

/*
 * Rules shared by the policy and policy set endpoints: what a request may name, and the free
 * edition's limits. Every refusal is a 422 naming the offending field or element.
 */

/**
 * Ids of `table` rows named by a request, which must all be in the organization and, when `kind`
 * is given, of that kind. `what` names the resource in messages (e.g. "policy set").
 */
async function named(
  q: Db,
  table: string,
  what: string,
  org: string,
  ids: string[],
  element: ElementField,
  kind?: PolicyKind,
): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await rowsInOrganization(q, table, org, ids, Boolean(kind));
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const [i, id] of ids.entries()) {
    const row = byId.get(id);
    if (!row) throw new Unprocessable(`${what} ${id} was not found in organization ${org}`, element(i));
    if (kind && row.kind !== kind)
      throw new Unprocessable(
        `${what} ${id} is of kind ${row.kind}; a policy set holds policies of its own kind only (${kind})`,
        element(i),
      );
  }
  return ids;
}

export const namedPolicySets = (q: Db, org: string, kind: PolicyKind, ids: string[], element: ElementField) =>
  named(q, 'policy_sets', 'policy set', org, ids, element, kind);
export const namedPolicies = (q: Db, org: string, kind: PolicyKind, ids: string[], element: ElementField) =>
  named(q, 'policies', 'policy', org, ids, element, kind);
export const namedWorkspaces = (q: Db, org: string, ids: string[], element: ElementField) =>
  named(q, 'workspaces', 'workspace', org, ids, element);

/** 422 when another row of `table` in the organization has the name. */
export async function assertNameFree(
  q: Db,
  table: 'policies' | 'policy_sets',
  org: string,
  name: string,
  exceptId?: string,
): Promise<void> {
  if (await nameTaken(q, table, org, name, exceptId))
    throw new Unprocessable('name has already been taken', { attribute: 'name' });
}

/**
 * Links policies to sets (inside the caller's transaction). The sets are locked first, so in the
 * free edition concurrent additions cannot together pass five policies per set.
 */
export async function addPoliciesToSets(
  tx: Db,
  free: boolean,
  links: { policy_set_id: string; policy_id: string }[],
  field: Field,
): Promise<void> {
  if (!links.length) return;
  const setIds = [...new Set(links.map((l) => l.policy_set_id))];
  await lockPolicySets(tx, setIds);
  await linkPolicies(tx, links);
  if (!free) return;
  for (const [id, count] of await policyCounts(tx, setIds)) {
    if (count > FREE_POLICIES_PER_SET) {
      throw new Unprocessable(
        `the free edition allows at most ${FREE_POLICIES_PER_SET} policies in a policy set; policy set ${id} would hold ${count}`,
        field,
      );
    }
  }
}

/** The free edition allows one policy set per organization; the organization row stays locked until commit. */
export async function assertRoomForPolicySet(tx: Db, free: boolean, org: string): Promise<void> {
  if (!free) return;
  await lockPolicyOrganization(tx, org);
  if ((await countPolicySets(tx, org)) >= FREE_POLICY_SETS_PER_ORGANIZATION) {
    throw new Unprocessable(
      `the free edition allows ${FREE_POLICY_SETS_PER_ORGANIZATION} policy set per organization`,
      { primary: true },
    );
  }
}

/** A new policy's attributes (settled by settlePolicy). */
export type NewPolicy = Pick<PolicyRow, 'name' | 'description' | 'kind' | 'query' | 'enforcement_level'>;

/** Creates a policy in the named policy sets of its organization (of its kind), in one transaction. */
export async function createPolicy(
  db: Db,
  free: boolean,
  org: string,
  attrs: NewPolicy,
  setIds: string[],
): Promise<PolicyRow> {
  return db.transaction(async (tx) => {
    await assertNameFree(tx, 'policies', org, attrs.name);
    await namedPolicySets(tx, org, attrs.kind, setIds, (i) => ({ relationship: 'policy-sets', element: i, id: true }));
    const row = await insertPolicy(tx, { organization_name: org, ...attrs });
    await addPoliciesToSets(
      tx,
      free,
      setIds.map((id) => ({ policy_set_id: id, policy_id: row.id })),
      { relationship: 'policy-sets' },
    );
    return row;
  });
}

/** Deletes a policy. */
export async function removePolicy(db: Db, policy: PolicyRow): Promise<void> {
  await deletePolicy(db, policy.id);
}

/** A global policy set applies to every workspace: 422 naming `field` when workspaces are attached to it. */
export const globalHasNoWorkspaces = (field: Field) =>
  new Unprocessable('a global policy set applies to every workspace; workspaces cannot be attached to it', field);

const elementOf =
  (relationship: string): ElementField =>
  (i) => ({ relationship, element: i, id: true });
const listElement: ElementField = (i) => ({ primary: true, element: i, id: true });

/** A new policy set's attributes. */
export type NewPolicySet = Pick<
  PolicySetRow,
  'name' | 'description' | 'kind' | 'global' | 'overridable' | 'agent_enabled' | 'policy_tool_version'
>;

/** What a new policy set holds: policies (of its kind), and workspaces it applies to or excludes. */
export interface NewSetMembers {
  policyIds: string[];
  workspaceIds: string[];
  excludedWorkspaceIds: string[];
  /** Projects whose workspaces the set applies to. */
  projectIds?: string[];
}

/** Creates a policy set with the named policies and workspaces of its organization, in one transaction. */
export async function createPolicySet(
  db: Db,
  free: boolean,
  org: string,
  attrs: NewPolicySet,
  members: NewSetMembers,
): Promise<PolicySetRow> {
  const { policyIds, workspaceIds, excludedWorkspaceIds, projectIds = [] } = members;
  if (attrs.global && projectIds.length) throw globalHasNoWorkspaces({ relationship: 'projects' });
  return db.transaction(async (tx) => {
    await assertRoomForPolicySet(tx, free, org);
    await assertNameFree(tx, 'policy_sets', org, attrs.name);
    await assertPinnable(tx, attrs.kind, attrs.policy_tool_version);
    await namedPolicies(tx, org, attrs.kind, policyIds, elementOf('policies'));
    await namedWorkspaces(tx, org, workspaceIds, elementOf('workspaces'));
    await namedWorkspaces(tx, org, excludedWorkspaceIds, elementOf('workspace-exclusions'));
    await assertProjects(tx, org, projectIds, elementOf('projects'));
    const row = await insertPolicySet(tx, { organization_name: org, ...attrs });
    await addPoliciesToSets(
      tx,
      free,
      policyIds.map((id) => ({ policy_set_id: row.id, policy_id: id })),
      { relationship: 'policies' },
    );
    await attachWorkspaces(tx, row.id, workspaceIds);
    await excludeWorkspaces(tx, row.id, excludedWorkspaceIds);
    await applySetToProjects(tx, 'policy', row.id, projectIds);
    return row;
  });
}

/** Changes a policy set's given attributes; turning global on detaches its workspaces. */
export async function changePolicySet(
  db: Db,
  set: PolicySetRow,
  changes: Partial<Pick<PolicySetRow, SetChangeable>>,
): Promise<PolicySetRow> {
  return db.transaction(async (tx) => {
    if (changes.name !== undefined)
      await assertNameFree(tx, 'policy_sets', set.organization_name, changes.name, set.id);
    await assertPinnable(tx, set.kind, changes.policy_tool_version);
    if (changes.global) await detachWorkspaces(tx, set.id);
    return updatePolicySet(tx, set.id, Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)));
  });
}

/** Deletes a policy set. */
export async function removePolicySet(db: Db, set: PolicySetRow): Promise<void> {
  await deletePolicySet(db, set.id);
}

/** What a relationship endpoint of a policy set changes. */
export type SetMembership =
  | 'add-policies'
  | 'remove-policies'
  | 'add-workspaces'
  | 'remove-workspaces'
  | 'add-workspace-exclusions'
  | 'remove-workspace-exclusions';

/** Adds or removes a set's policies or workspaces: every element named is checked, then all change in one transaction. */
export async function changeSetMembers(
  db: Db,
  free: boolean,
  set: PolicySetRow,
  change: SetMembership,
  ids: string[],
): Promise<void> {
  await db.transaction(async (tx) => {
    switch (change) {
      case 'add-policies':
        await namedPolicies(tx, set.organization_name, set.kind, ids, listElement);
        return addPoliciesToSets(
          tx,
          free,
          ids.map((id) => ({ policy_set_id: set.id, policy_id: id })),
          { primary: true },
        );
      case 'remove-policies':
        await namedPolicies(tx, set.organization_name, set.kind, ids, listElement);
        return unlinkPolicies(tx, set.id, ids);
      case 'add-workspaces':
        if (set.global) throw globalHasNoWorkspaces({ primary: true });
        await namedWorkspaces(tx, set.organization_name, ids, listElement);
        return attachWorkspaces(tx, set.id, ids);
      case 'remove-workspaces':
        await namedWorkspaces(tx, set.organization_name, ids, listElement);
        return detachWorkspaces(tx, set.id, ids);
      case 'add-workspace-exclusions':
        await namedWorkspaces(tx, set.organization_name, ids, listElement);
        return excludeWorkspaces(tx, set.id, ids);
      case 'remove-workspace-exclusions':
        await namedWorkspaces(tx, set.organization_name, ids, listElement);
        return unexcludeWorkspaces(tx, set.id, ids);
    }
  });
}
