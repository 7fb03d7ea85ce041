import { asJson, type Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import type { OrganizationAccess } from './permissions.rules.js';

export interface TeamRow {
  id: string;
  organization_name: string;
  name: string;
  is_owners: boolean;
  visibility: 'secret' | 'organization';
  organization_access: Partial<OrganizationAccess>;
  sso_team_id: string | null;
  allow_member_token_management: boolean;
  created_at: Date;
}

export const findTeam = (db: Db, id: string) => db<TeamRow>('teams').where({ id }).first();
export const teamsOf = (db: Db, organizationName: string) =>
  db<TeamRow>('teams').where({ organization_name: organizationName });

export async function insertTeam(
  db: Db,
  attrs: Pick<TeamRow, 'organization_name' | 'name'> &
    Partial<
      Pick<
        TeamRow,
        'is_owners' | 'visibility' | 'organization_access' | 'sso_team_id' | 'allow_member_token_management'
      >
    >,
): Promise<TeamRow> {
  const [row] = await db<TeamRow>('teams')
    .insert({ id: newId('team'), ...attrs, organization_access: asJson(db, attrs.organization_access ?? {}) })
    .returning('*');
  return row;
}

export async function updateTeam(
  db: Db,
  id: string,
  patch: Partial<
    Pick<TeamRow, 'name' | 'visibility' | 'organization_access' | 'sso_team_id' | 'allow_member_token_management'>
  >,
): Promise<TeamRow> {
  const values: Record<string, unknown> = { ...patch };
  if (patch.organization_access) values.organization_access = JSON.stringify(patch.organization_access);
  const [row] = await db<TeamRow>('teams').where({ id }).update(values).returning('*');
  return row;
}

export const deleteTeam = (db: Db, id: string) => db('teams').where({ id }).del();

/** Members of a team with their membership status and user. */
export function teamMembers(db: Db, teamIds: string[]) {
  return db('team_members as tm')
    .join('organization_memberships as m', 'm.id', 'tm.organization_membership_id')
    .join('users as u', 'u.id', 'm.user_id')
    .whereIn('tm.team_id', teamIds)
    .orderBy(['tm.created_at', 'u.username'])
    .select<
      {
        team_id: string;
        membership_id: string;
        status: string;
        user_id: string;
        username: string;
        email: string | null;
        is_admin: boolean;
        user_created_at: Date;
      }[]
    >(
      'tm.team_id',
      'm.id as membership_id',
      'm.status',
      'u.id as user_id',
      'u.username',
      'u.email',
      'u.is_admin',
      'u.created_at as user_created_at',
    );
}

export async function addTeamMembers(db: Db, teamId: string, membershipIds: string[]): Promise<void> {
  if (!membershipIds.length) return;
  await db('team_members')
    .insert(membershipIds.map((id) => ({ team_id: teamId, organization_membership_id: id })))
    .onConflict(['team_id', 'organization_membership_id'])
    .ignore();
}

export async function removeTeamMembers(db: Db, teamId: string, membershipIds: string[]): Promise<number> {
  return db('team_members').where({ team_id: teamId }).whereIn('organization_membership_id', membershipIds).del();
}

export async function countTeamMembers(db: Db, teamId: string): Promise<number> {
  const row = await db('team_members').where({ team_id: teamId }).count<{ count: number }[]>({ count: '*' }).first();
  return Number(row?.count ?? 0);
}

/** An organization's owners team, locked until the caller's transaction ends when `lock` (changes to who owns serialise on it). */
export function ownersTeamOf(db: Db, organizationName: string, lock = false) {
  const query = db<TeamRow>('teams').where({ organization_name: organizationName, is_owners: true });
  return (lock ? query.forUpdate() : query).first('id');
}

/** Locks a team row until the caller's transaction ends. */
export async function lockTeam(db: Db, id: string): Promise<void> {
  await db('teams').where({ id }).forUpdate().first('id');
}

/** The teams of an organization among these ids. */
export const teamsAmong = (db: Db, organizationName: string, ids: string[]) =>
  db<TeamRow>('teams').where({ organization_name: organizationName }).whereIn('id', ids);

/** A team of an organization by its name. */
export const findTeamByName = (db: Db, organizationName: string, name: string) =>
  teamsOf(db, organizationName).where({ name }).first();

/** Which of these memberships are in the team. */
export const teamMembershipIdsAmong = async (db: Db, teamId: string, membershipIds: string[]) =>
  (await db('team_members')
    .where({ team_id: teamId })
    .whereIn('organization_membership_id', membershipIds)
    .pluck('organization_membership_id')) as string[];

/** Whether a membership is in the organization's owners team. */
export async function isInOwnersTeam(db: Db, membershipId: string): Promise<boolean> {
  const row = await db('team_members as tm')
    .join('teams as t', 't.id', 'tm.team_id')
    .where({ 'tm.organization_membership_id': membershipId, 't.is_owners': true })
    .first('t.id');
  return Boolean(row);
}

/** Whether a team has an active member other than the given memberships. */
export async function hasOtherActiveMember(db: Db, teamId: string, leavingMembershipIds: string[]): Promise<boolean> {
  const remaining = await db('team_members as tm')
    .join('organization_memberships as m', 'm.id', 'tm.organization_membership_id')
    .where({ 'tm.team_id': teamId, 'm.status': 'active' })
    .whereNotIn('tm.organization_membership_id', leavingMembershipIds)
    .first('tm.organization_membership_id');
  return Boolean(remaining);
}
