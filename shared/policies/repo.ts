import type { Knex } from 'knex';
import { setsOfWorkspaceProject } from '../projects/index.js';
import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import { newestReadyBundles } from './set-versions.repo.js';
import type { EnforcementLevel, PolicyKind } from './rules.js';

/** A policy without its code (which can be 10 MB; only download and evaluation read it). */
export interface PolicyRow {
  id: string;
  organization_name: string;
  name: string;
  description: string | null;
  kind: PolicyKind;
  query: string | null;
  enforcement_level: EnforcementLevel;
  code_updated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface PolicySetRow {
  id: string;
  organization_name: string;
  name: string;
  description: string | null;
  kind: PolicyKind;
  global: boolean;
  overridable: boolean;
  agent_enabled: boolean;
  policy_tool_version: string;
  created_at: Date;
  updated_at: Date;
}

/** A policy as evaluation needs it: its rules and its code (null until uploaded). */
export interface RunPolicy {
  id: string;
  name: string;
  description: string | null;
  kind: PolicyKind;
  query: string | null;
  enforcement_level: EnforcementLevel;
  code: string | null;
}

/** A policy set that applies to a run, with its policies (ordered by name). */
export interface RunPolicySet {
  id: string;
  name: string;
  description: string | null;
  kind: PolicyKind;
  global: boolean;
  overridable: boolean;
  policies: RunPolicy[];
}

const POLICY_COLUMNS = [
  'id',
  'organization_name',
  'name',
  'description',
  'kind',
  'query',
  'enforcement_level',
  'code_updated_at',
  'created_at',
  'updated_at',
] as const;

/** Policies without their code, for lists and documents. */
export const policies = (db: Db) => db<PolicyRow>('policies').select(...POLICY_COLUMNS);
export const findPolicy = (db: Db, id: string) => policies(db).where({ id }).first();
export const findPolicySet = (db: Db, id: string) => db<PolicySetRow>('policy_sets').where({ id }).first();

/** The policy's code: undefined when there is no such policy, null when nothing was uploaded yet. */
export async function policyCode(db: Db, id: string): Promise<string | null | undefined> {
  const row = await db('policies').where({ id }).first('code');
  return row ? (row.code as string | null) : undefined;
}

/** The rows of `table` (policies, policy sets, workspaces) in the organization among `ids`: their ids, with their kinds when `withKind`. */
export async function rowsInOrganization(
  db: Db,
  table: string,
  org: string,
  ids: string[],
  withKind: boolean,
): Promise<{ id: string; kind?: PolicyKind }[]> {
  return (await db(table)
    .where({ organization_name: org })
    .whereIn('id', ids)
    .select('id', ...(withKind ? ['kind'] : []))) as { id: string; kind?: PolicyKind }[];
}

/** Whether a row of `table` in the organization other than `exceptId` has the name. */
export async function nameTaken(
  db: Db,
  table: 'policies' | 'policy_sets',
  org: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  const query = db(table).where({ organization_name: org, name });
  if (exceptId) query.whereNot({ id: exceptId });
  return Boolean(await query.first('id'));
}

export async function insertPolicy(
  db: Db,
  attrs: Pick<PolicyRow, 'organization_name' | 'name' | 'description' | 'kind' | 'query' | 'enforcement_level'>,
): Promise<PolicyRow> {
  const [row] = await db('policies')
    .insert({ id: newId('pol'), ...attrs })
    .returning([...POLICY_COLUMNS]);
  return row as PolicyRow;
}

export async function updatePolicy(
  db: Db,
  id: string,
  changes: Partial<Pick<PolicyRow, 'description' | 'query' | 'enforcement_level'>>,
): Promise<PolicyRow> {
  const [row] = await db('policies')
    .where({ id })
    .update({ ...changes, updated_at: db.fn.now() })
    .returning([...POLICY_COLUMNS]);
  return row as PolicyRow;
}

/** Deletes a policy (its set links go with it). */
export const deletePolicy = (db: Db, id: string) => db('policies').where({ id }).del();

/** Deletes a policy set (its links and attachments go with it). */
export const deletePolicySet = (db: Db, id: string) => db('policy_sets').where({ id }).del();

/** Replaces the code of a policy (the whole text, in one statement). */
export async function storePolicyCode(db: Db, id: string, code: string): Promise<void> {
  await db('policies').where({ id }).update({ code, code_updated_at: db.fn.now(), updated_at: db.fn.now() });
}

export async function insertPolicySet(
  db: Db,
  attrs: Pick<
    PolicySetRow,
    | 'organization_name'
    | 'name'
    | 'description'
    | 'kind'
    | 'global'
    | 'overridable'
    | 'agent_enabled'
    | 'policy_tool_version'
  >,
): Promise<PolicySetRow> {
  const [row] = await db<PolicySetRow>('policy_sets')
    .insert({ id: newId('polset'), ...attrs })
    .returning('*');
  return row;
}

export async function updatePolicySet(
  db: Db,
  id: string,
  changes: Partial<Pick<PolicySetRow, SetChangeable>>,
): Promise<PolicySetRow> {
  const [row] = await db<PolicySetRow>('policy_sets')
    .where({ id })
    .update({ ...changes, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** What a policy set PATCH may change. */
export type SetChangeable = 'name' | 'description' | 'global' | 'overridable' | 'agent_enabled' | 'policy_tool_version';

/** Groups join-table rows `from -> to` by `from`, for the given `from` ids (every id gets a list). */
async function grouped(db: Db, table: string, from: string, to: string, ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const rows = (await db(table).whereIn(from, ids).orderBy(to).select(from, to)) as Record<string, string>[];
  for (const r of rows) out.get(r[from])!.push(r[to]);
  return out;
}

/** Policy set ids of each policy. */
export const setIdsByPolicy = (db: Db, policyIds: string[]) =>
  grouped(db, 'policy_set_policies', 'policy_id', 'policy_set_id', policyIds);
/** Policy ids of each policy set. */
export const policyIdsBySet = (db: Db, setIds: string[]) =>
  grouped(db, 'policy_set_policies', 'policy_set_id', 'policy_id', setIds);
/** Workspace ids each policy set is attached to. */
export const workspaceIdsBySet = (db: Db, setIds: string[]) =>
  grouped(db, 'policy_set_workspaces', 'policy_set_id', 'workspace_id', setIds);

/** Workspaces each policy set excludes. */
export const excludedIdsBySet = (db: Db, setIds: string[]) =>
  grouped(db, 'policy_set_workspace_exclusions', 'policy_set_id', 'workspace_id', setIds);

/** Excludes workspaces from a set; exclusions that exist already are kept. */
export async function excludeWorkspaces(db: Db, setId: string, workspaceIds: string[]): Promise<void> {
  if (!workspaceIds.length) return;
  await db('policy_set_workspace_exclusions')
    .insert(workspaceIds.map((workspace_id) => ({ policy_set_id: setId, workspace_id })))
    .onConflict(['policy_set_id', 'workspace_id'])
    .ignore();
}

/** Ends the exclusion of the given workspaces from a set. */
export async function unexcludeWorkspaces(db: Db, setId: string, workspaceIds: string[]): Promise<void> {
  await db('policy_set_workspace_exclusions')
    .where({ policy_set_id: setId })
    .whereIn('workspace_id', workspaceIds)
    .del();
}

/** Links policies to sets; links that exist already are kept as they are. */
export async function linkPolicies(db: Db, links: { policy_set_id: string; policy_id: string }[]): Promise<void> {
  if (links.length) await db('policy_set_policies').insert(links).onConflict(['policy_set_id', 'policy_id']).ignore();
}

export async function unlinkPolicies(db: Db, setId: string, policyIds: string[]): Promise<void> {
  await db('policy_set_policies').where({ policy_set_id: setId }).whereIn('policy_id', policyIds).del();
}

export async function attachWorkspaces(db: Db, setId: string, workspaceIds: string[]): Promise<void> {
  if (!workspaceIds.length) return;
  await db('policy_set_workspaces')
    .insert(workspaceIds.map((workspace_id) => ({ policy_set_id: setId, workspace_id })))
    .onConflict(['policy_set_id', 'workspace_id'])
    .ignore();
}

/** Detaches the given workspaces, or every workspace when `workspaceIds` is omitted. */
export async function detachWorkspaces(db: Db, setId: string, workspaceIds?: string[]): Promise<void> {
  const query = db('policy_set_workspaces').where({ policy_set_id: setId });
  if (workspaceIds) query.whereIn('workspace_id', workspaceIds);
  await query.del();
}

/** Locks the given sets until the caller's transaction ends, in id order (so that two lockers never wait for each other). */
export async function lockPolicySets(tx: Db, setIds: string[]): Promise<void> {
  await tx('policy_sets').whereIn('id', setIds).orderBy('id').forUpdate().select('id');
}

/** Locks an organization's row until the caller's transaction ends (the free edition's policy set limit is checked under it). */
export async function lockPolicyOrganization(tx: Db, org: string): Promise<void> {
  await tx('organizations').where({ name: org }).forUpdate().first('name');
}

/** How many policy sets an organization has. */
export async function countPolicySets(db: Db, org: string): Promise<number> {
  const [{ count }] = await db('policy_sets')
    .where({ organization_name: org })
    .count<{ count: number }[]>({ count: '*' });
  return Number(count);
}

/** How many policies each of the given sets holds. */
export async function policyCounts(db: Db, setIds: string[]): Promise<Map<string, number>> {
  const rows = (await db('policy_set_policies')
    .whereIn('policy_set_id', setIds)
    .groupBy('policy_set_id')
    .select('policy_set_id')
    .count({ count: '*' })) as {
    policy_set_id: string;
    count: number;
  }[];
  return new Map(setIds.map((id) => [id, Number(rows.find((r) => r.policy_set_id === id)?.count ?? 0)]));
}

/**
 * The policy sets that apply to a workspace's runs: global ones, those attached to it or to its project, except
 * those that exclude it, by name. The organization and the workspace are their names or ids, or
 * queries that select them.
 */
export const applicableSets = (
  db: Db,
  organizationName: string | Knex.QueryBuilder,
  workspaceId: string | Knex.QueryBuilder | Knex.Raw,
) =>
  db<PolicySetRow>('policy_sets as s')
    .where('s.organization_name', organizationName)
    .andWhere((q) =>
      q
        .where('s.global', true)
        .orWhereIn('s.id', db('policy_set_workspaces').where('workspace_id', workspaceId).select('policy_set_id'))
        .orWhereIn('s.id', setsOfWorkspaceProject(db, 'policy', workspaceId)),
    )
    .whereNotIn(
      's.id',
      db('policy_set_workspace_exclusions').where('workspace_id', workspaceId).select('policy_set_id'),
    )
    .orderBy('s.name')
    .orderBy('s.id');

/**
 * Every policy set of the organization that applies to a run in the workspace (global ones and
 * those attached to it), of both kinds, each with its policies and their code (a set with a ready
 * version: its newest ready version's policies). Ordered by name.
 */
export async function policySetsForRun(db: Db, organizationName: string, workspaceId: string): Promise<RunPolicySet[]> {
  const sets = (await applicableSets(db, organizationName, workspaceId)) as PolicySetRow[];
  if (!sets.length) return [];
  const rows = (await db('policy_set_policies as l')
    .join('policies as p', 'p.id', 'l.policy_id')
    .whereIn(
      'l.policy_set_id',
      sets.map((s) => s.id),
    )
    .orderBy('p.name')
    .select(
      'l.policy_set_id',
      'p.id',
      'p.name',
      'p.description',
      'p.kind',
      'p.query',
      'p.enforcement_level',
      'p.code',
    )) as (RunPolicy & { policy_set_id: string })[];
  // A set with a ready version evaluates its newest ready version's bundle instead of its own policies.
  const versions = await newestReadyBundles(
    db,
    sets.map((s) => s.id),
  );
  const bundled = (s: PolicySetRow): RunPolicy[] | undefined => {
    const v = versions.get(s.id);
    return v?.policies.map((p) => ({
      id: `${v.id}/${p.name}`,
      name: p.name,
      description: p.description,
      kind: p.kind,
      query: p.query,
      enforcement_level: p.enforcement_level,
      code: p.code,
    }));
  };
  return sets.map((s) => ({
    id: s.id,
    name: s.name,
    description: s.description,
    kind: s.kind,
    global: s.global,
    overridable: s.overridable,
    policies: bundled(s) ?? rows.filter((r) => r.policy_set_id === s.id).map(({ policy_set_id: _, ...p }) => p),
  }));
}
