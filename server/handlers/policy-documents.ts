import type { Response } from 'express';
import type { Db } from '../../shared/platform/db.js';
import { BadRequest } from '../../shared/platform/errors.js';
import { workspaceAccessMap, type OrganizationGrant } from '../../shared/identity/access.queries.js';
import {
  excludedIdsBySet,
  POLICY_KINDS,
  policyIdsBySet,
  type PolicyKind,
  type PolicyRow,
  type PolicySetRow,
  setIdsByPolicy,
  workspaceIdsBySet,
} from '../../shared/policies/index.js';
import { projectIdsBySet } from '../../shared/projects/index.js';
import {
  namedPage as namedRows,
  policiesByIds,
  policySetsByIds,
  versionsOfSets,
} from '../../shared/policies/queries.js';
import type { PolicySetVersionSummary } from '../../shared/policies/set-versions.repo.js';
import { workspacesByIds } from '../../shared/workspaces/queries.js';
import { paginate, readPageOrDefault, readParam, send, uniqueResources, type Page, type Resource } from '../jsonapi.js';
import { policyResource, policySetResource } from '../serializers/policies.js';
import { workspaceResource } from '../serializers/foundation.js';
import type { Req } from './body.js';

/** Documents of policies and policy sets with their linkages, and the `included` resources asked for. */
export interface Documents {
  data: Resource[];
  included: Resource[];
}

const unique = (lists: Iterable<string[]>): string[] => [...new Set([...lists].flat())];

/** Policies with their policy set linkages; `policy_sets` includes those sets. */
export async function policyDocuments(
  db: Db,
  grant: OrganizationGrant,
  rows: PolicyRow[],
  include: Set<string>,
): Promise<Documents> {
  const setIds = await setIdsByPolicy(
    db,
    rows.map((p) => p.id),
  );
  const data = rows.map((p) => policyResource(p, setIds.get(p.id)!));
  if (!include.has('policy_sets')) return { data, included: [] };
  const sets = await policySetsByIds(db, unique(setIds.values()));
  return { data, included: (await policySetDocuments(db, grant, sets, new Set())).data };
}

/** Policy sets with their policy and workspace linkages; `policies`, `workspaces` and `workspace_exclusions` include those (workspaces the caller can see). */
export async function policySetDocuments(
  db: Db,
  grant: OrganizationGrant,
  rows: PolicySetRow[],
  include: Set<string>,
  versionResource?: (v: PolicySetVersionSummary) => Resource,
): Promise<Documents> {
  const ids = rows.map((s) => s.id);
  const [policyIds, workspaceIds, excludedIds, versions, projectIds] = await Promise.all([
    policyIdsBySet(db, ids),
    workspaceIdsBySet(db, ids),
    excludedIdsBySet(db, ids),
    versionsOfSets(db, ids),
    projectIdsBySet(db, 'policy', ids),
  ]);
  const data = rows.map((s) =>
    policySetResource(
      s,
      policyIds.get(s.id)!,
      workspaceIds.get(s.id)!,
      excludedIds.get(s.id)!,
      { newest: versions.newest.get(s.id)?.id ?? null, current: versions.current.get(s.id)?.id ?? null },
      projectIds.get(s.id) ?? [],
    ),
  );
  const included: Resource[] = [];
  // `newest_version` and `current_version` include those versions (with their upload link while pending).
  for (const [name, found] of [
    ['newest_version', versions.newest],
    ['current_version', versions.current],
  ] as const) {
    if (include.has(name) && versionResource) included.push(...[...found.values()].map(versionResource));
  }
  if (include.has('policies')) {
    const members = await policiesByIds(db, unique(policyIds.values()));
    included.push(...(await policyDocuments(db, grant, members, new Set())).data);
  }
  // `workspaces` and `workspace_exclusions` include those workspaces (the ones the caller can see).
  const wanted = [
    ...(include.has('workspaces') ? workspaceIds.values() : []),
    ...(include.has('workspace_exclusions') ? excludedIds.values() : []),
  ];
  if (wanted.length) {
    const access = await workspaceAccessMap(db, grant, unique(wanted));
    const workspaces = await workspacesByIds(db, [...access.keys()], true);
    included.push(...workspaces.map((ws) => workspaceResource(ws, access.get(ws.id)!)));
  }
  return { data, included: uniqueResources(included) };
}

/** filter[kind], when given, must name a policy kind (400 otherwise). */
function readKind(req: Req): PolicyKind | undefined {
  const kind = readParam(req, 'filter[kind]');
  if (kind === undefined || kind === '') return undefined;
  if (!(POLICY_KINDS as readonly string[]).includes(kind))
    throw new BadRequest(`filter[kind] must be one of ${POLICY_KINDS.join(', ')}`, 'filter[kind]');
  return kind as PolicyKind;
}

/**
 * One page (default 20) of an organization's policies or policy sets, ordered by name, narrowed by
 * `search[name]` (a substring, case-insensitive) and `filter[kind]`.
 */
export async function namedPage<T>(
  db: Db,
  req: Req,
  table: 'policies' | 'policy_sets',
  org: string,
): Promise<{ rows: T[]; page: Page; total: number }> {
  const page = readPageOrDefault(req);
  const { rows, total } = await namedRows<T>(db, table, org, page, {
    kind: readKind(req),
    search: readParam(req, 'search[name]') || undefined,
  });
  return { rows, page, total };
}

/** Sends a page of documents with pagination meta and links. */
export function sendPage(req: Req, res: Response, docs: Documents, page: Page, total: number): void {
  send(res, 200, {
    data: docs.data,
    ...(docs.included.length ? { included: docs.included } : {}),
    ...paginate(req, page, total),
  });
}
