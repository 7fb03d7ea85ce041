import { isUniqueViolation, type Db } from '../platform/db.js';
import { NotFound, Unprocessable } from '../platform/errors.js';
import type { PolicyKind } from './rules.js';
import { buildsAfterUpdate, buildsAtCreation, creationProblems, type ToolBuild } from './tool-versions.rules.js';
import {
  deleteToolVersion,
  findToolVersion,
  insertToolVersion,
  toolVersionNumbers,
  toolVersionTaken,
  updateToolVersion,
  type PolicyToolVersionRow,
} from './tool-versions.repo.js';

/*
 * The policy runtime versions a site admin registers (OPA and Sentinel alike), and the rule that a
 * policy set pins only a registered version of its kind.
 */

export interface ToolVersionInput {
  version?: string;
  url?: string;
  sha?: string;
  archs?: ToolBuild[];
  official?: boolean;
  enabled?: boolean;
  beta?: boolean;
  deprecated?: boolean;
  'deprecated-reason'?: string | null;
}

const RUNTIME: Record<PolicyKind, string> = { opa: 'OPA', sentinel: 'Sentinel' };

const taken = () => new Unprocessable('version has already been taken', { attribute: 'version' });
const versionRace = (err: unknown): never => {
  if (isUniqueViolation(err)) throw taken();
  throw err;
};

export async function createToolVersion(
  db: Db,
  tool: PolicyKind,
  a: ToolVersionInput & { version: string },
): Promise<PolicyToolVersionRow> {
  const problems = creationProblems(a.url, a.sha, a.archs);
  if (problems.length) throw Unprocessable.many(problems);
  if (await toolVersionTaken(db, tool, a.version)) throw taken();
  const deprecated = a.deprecated ?? false;
  return insertToolVersion(db, tool, {
    version: a.version,
    url: a.url ?? null,
    sha: a.sha ?? null,
    archs: buildsAtCreation(a.url, a.sha, a.archs),
    official: a.official ?? false,
    enabled: a.enabled ?? true,
    beta: a.beta ?? false,
    deprecated,
    deprecated_reason: deprecated ? (a['deprecated-reason'] ?? null) : null,
  }).catch(versionRace);
}

/** Omitted attributes keep their value; a version no longer deprecated has no reason. */
export async function changeToolVersion(
  db: Db,
  row: PolicyToolVersionRow,
  a: ToolVersionInput,
): Promise<PolicyToolVersionRow> {
  if (a.version !== undefined && (await toolVersionTaken(db, row.tool, a.version, row.id))) throw taken();
  const deprecated = a.deprecated ?? row.deprecated;
  const reason = a['deprecated-reason'] !== undefined ? a['deprecated-reason'] : row.deprecated_reason;
  const changes = {
    ...(a.version !== undefined ? { version: a.version } : {}),
    ...buildsAfterUpdate(row, a),
    ...Object.fromEntries(
      Object.entries({ official: a.official, enabled: a.enabled, beta: a.beta }).filter(([, v]) => v !== undefined),
    ),
    deprecated,
    deprecated_reason: deprecated ? reason : null,
  };
  return updateToolVersion(db, row.id, changes).catch(versionRace);
}

/** A version of the tool by id; 404 otherwise. */
export async function toolVersionOf(db: Db, tool: PolicyKind, id: string): Promise<PolicyToolVersionRow> {
  const row = await findToolVersion(db, tool, id);
  if (!row) throw new NotFound(`${RUNTIME[tool]} version not found`);
  return row;
}

export async function removeToolVersion(db: Db, row: PolicyToolVersionRow): Promise<void> {
  await deleteToolVersion(db, row.id);
}

/** 422 unless `version` is `latest` or a registered version of the kind's runtime; the message names those that are. */
export async function assertPinnable(db: Db, kind: PolicyKind, version: string | undefined): Promise<void> {
  if (version === undefined || version === 'latest') return;
  const known = await toolVersionNumbers(db, kind);
  if (known.includes(version)) return;
  throw new Unprocessable(
    `policy-tool-version ${version} is not a registered ${RUNTIME[kind]} version; known: latest${known.length ? `, ${known.join(', ')}` : ''}`,
    { attribute: 'policy-tool-version' },
  );
}
