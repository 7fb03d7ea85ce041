import type { Db } from '../platform/db.js';
import { projectAccessMap, seesAllProjects, type OrganizationGrant, type ProjectAccess } from '../identity/index.js';
import type { ProjectRow } from './repo.js';

/** How many workspaces and teams with access a project has. */
export interface ProjectCounts {
  workspaces: number;
  teams: number;
}

export const NO_COUNTS: ProjectCounts = { workspaces: 0, teams: 0 };

/** The counts of each project, read in one statement. */
export async function projectCounts(db: Db, ids: string[]): Promise<Map<string, ProjectCounts>> {
  if (!ids.length) return new Map();
  const rows = (await db('projects as p')
    .whereIn('p.id', ids)
    .select(
      'p.id',
      db.raw('(select count(*)::int from workspaces w where w.project_id = p.id) as workspaces'),
      db.raw('(select count(*)::int from team_projects tp where tp.project_id = p.id) as teams'),
    )) as ({ id: string } & ProjectCounts)[];
  return new Map(rows.map((r) => [r.id, { workspaces: r.workspaces, teams: r.teams }]));
}

/**
 * An organization's projects the grant sees, by name (the default project first), optionally only
 * those whose name contains `query` (any case) or is one of `names`, with the access to each.
 */
export async function visibleProjects(
  db: Db,
  organizationName: string,
  grant: OrganizationGrant,
  filter: { query?: string; names?: string[] },
): Promise<{ rows: ProjectRow[]; access: Map<string, ProjectAccess> }> {
  const q = db<ProjectRow>('projects').where({ organization_name: organizationName });
  if (filter.query) q.whereILike('name', `%${filter.query.replace(/[%_\\]/g, '\\$&')}%`);
  if (filter.names?.length) q.whereIn('name', filter.names);
  if (!seesAllProjects(grant))
    q.whereIn('id', db('team_projects').whereIn('team_id', grant.teamIds).select('project_id'));
  const rows = await q.orderBy([{ column: 'is_default', order: 'desc' }, { column: 'name' }]);
  const access = await projectAccessMap(
    db,
    grant,
    rows.map((r) => r.id),
  );
  return { rows: rows.filter((r) => access.has(r.id)), access };
}
