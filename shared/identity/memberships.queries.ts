import type { Db } from '../platform/db.js';
import { membershipsOf, type MembershipRow } from './memberships.repo.js';
import type { TeamRow } from './teams.repo.js';
import type { UserRow } from './users.repo.js';
import { containing, fetchPage, type Page } from '../platform/page.js';

/**
 * One page of an organization's memberships in creation order, optionally only those in
 * `statuses`, of users with these emails (any case), or whose email or username contains `search`
 * (any case). The username of an invited user is not shown until the invitation is accepted, so
 * the search matches it only on active memberships.
 */
export async function membershipsPage(
  db: Db,
  organizationName: string,
  filter: { statuses: string[] | null; emails: string[] | null; search: string | null },
  page: Page,
) {
  const query = membershipsOf(db, organizationName);
  if (filter.statuses) query.whereIn('status', filter.statuses);
  if (filter.emails)
    query.whereIn(
      'user_id',
      db('users')
        .whereRaw('lower(email) = any(?)', [filter.emails.map((e) => e.toLowerCase())])
        .select('id'),
    );
  if (filter.search) {
    const like = containing(filter.search);
    query.where((q) => {
      q.whereIn('user_id', db('users').where('email', 'ilike', like).select('id')).orWhere((active) =>
        active.where('status', 'active').whereIn('user_id', db('users').where('username', 'ilike', like).select('id')),
      );
    });
  }
  return fetchPage<MembershipRow>(query.orderBy('created_at'), page);
}

/** A user's own memberships (invitations included), optionally only those in `statuses`, oldest first. */
export function membershipsOfUser(db: Db, userId: string, statuses: string[] | null): Promise<MembershipRow[]> {
  const query = db<MembershipRow>('organization_memberships').where({ user_id: userId });
  if (statuses) query.whereIn('status', statuses);
  return query.orderBy('created_at');
}

/** What membership resources show: the team links of the memberships, those teams, and the users. */
export async function membershipRelations(
  db: Db,
  rows: MembershipRow[],
): Promise<{ links: { organization_membership_id: string; team_id: string }[]; teams: TeamRow[]; users: UserRow[] }> {
  const ids = rows.map((r) => r.id);
  const links = ids.length
    ? await db('team_members')
        .whereIn('organization_membership_id', ids)
        .select('organization_membership_id', 'team_id')
    : [];
  const teamIds = [...new Set(links.map((t) => t.team_id as string))];
  const teams: TeamRow[] = teamIds.length ? await db('teams').whereIn('id', teamIds) : [];
  const users: UserRow[] = ids.length
    ? await db('users').whereIn(
        'id',
        rows.map((r) => r.user_id),
      )
    : [];
  return { links, teams, users };
}
