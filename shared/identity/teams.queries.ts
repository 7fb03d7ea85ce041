import type { Db } from '../platform/db.js';
import type { MembershipRow } from './memberships.repo.js';
import { teamsOf, type TeamRow } from './teams.repo.js';

/** Membership rows by id and, for each, the teams it is in (by team name). */
export async function membershipsWithTeamLinks(
  db: Db,
  ids: string[],
): Promise<{ rows: Map<string, MembershipRow>; links: (TeamRow & { membership_id: string })[] }> {
  const rows = new Map((await db<MembershipRow>('organization_memberships').whereIn('id', ids)).map((r) => [r.id, r]));
  const links = await db('team_members as tm')
    .join('teams as t', 't.id', 'tm.team_id')
    .whereIn('tm.organization_membership_id', ids)
    .orderBy('t.name')
    .select<(TeamRow & { membership_id: string })[]>('t.*', 'tm.organization_membership_id as membership_id');
  return { rows, links };
}

/** An organization's teams by name, optionally only those named in `names` or whose name contains `search` (any case). */
export async function teamsOfOrganization(
  db: Db,
  organizationName: string,
  filter: { names: string[] | null; search: string | null },
): Promise<TeamRow[]> {
  const query = teamsOf(db, organizationName);
  if (filter.names) query.whereIn('name', filter.names);
  if (filter.search) query.whereILike('name', `%${filter.search.replace(/[%_\\]/g, '\\$&')}%`);
  return query.orderBy('name');
}
