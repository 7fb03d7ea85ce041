import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';

export type MembershipStatus = 'invited' | 'active';

export interface MembershipRow {
  id: string;
  organization_name: string;
  user_id: string;
  status: MembershipStatus;
  created_at: Date;
}

export const findMembership = (db: Db, id: string) =>
  db<MembershipRow>('organization_memberships').where({ id }).first();
export const findMembershipOf = (db: Db, organizationName: string, userId: string) =>
  db<MembershipRow>('organization_memberships').where({ organization_name: organizationName, user_id: userId }).first();

export async function insertMembership(
  db: Db,
  organizationName: string,
  userId: string,
  status: MembershipStatus,
): Promise<MembershipRow> {
  const [row] = await db<MembershipRow>('organization_memberships')
    .insert({ id: newId('ou'), organization_name: organizationName, user_id: userId, status })
    .returning('*');
  return row;
}

/** Compare-and-set: invited -> active. Returns undefined when the membership was not invited. */
export async function activateMembership(db: Db, id: string): Promise<MembershipRow | undefined> {
  const [row] = await db<MembershipRow>('organization_memberships')
    .where({ id, status: 'invited' })
    .update({ status: 'active' })
    .returning('*');
  return row;
}

/** The organizations in which a user has accepted a membership (a subquery of names). */
export const activeOrganizationsOf = (db: Db, userId: string) =>
  db('organization_memberships').where({ user_id: userId, status: 'active' }).select('organization_name');

/** Whether a user has accepted a membership in one of these organizations (invitations do not count). */
export async function isActiveMemberOfAny(
  db: Db,
  userId: string,
  organizations: readonly string[] | ReturnType<typeof activeOrganizationsOf>,
): Promise<boolean> {
  const row = await db('organization_memberships')
    .where({ user_id: userId, status: 'active' })
    .whereIn('organization_name', organizations as string[])
    .first('id');
  return Boolean(row);
}

export const deleteMembership = (db: Db, id: string) => db('organization_memberships').where({ id }).del();

export function membershipsOf(db: Db, organizationName: string) {
  return db<MembershipRow>('organization_memberships').where({ organization_name: organizationName });
}

/** Memberships whose users hold the given usernames (or user ids), within one organization. */
export function membershipsByUsername(db: Db, organizationName: string, usernames: string[]) {
  return db('organization_memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.organization_name', organizationName)
    .where((q) => q.whereIn('u.username', usernames).orWhereIn('u.id', usernames))
    .select<(MembershipRow & { username: string })[]>('m.*', 'u.username');
}

/** Which of these users have a membership of the organization, accepted or still an invitation. */
export const memberUserIds = async (db: Db, organizationName: string, userIds: string[]) =>
  (await db('organization_memberships')
    .where({ organization_name: organizationName })
    .whereIn('user_id', userIds)
    .pluck('user_id')) as string[];

/** Which of these membership ids belong to the organization (an invitation counts). */
export const membershipIdsAmong = async (db: Db, organizationName: string, ids: string[]) =>
  (await db('organization_memberships')
    .where({ organization_name: organizationName })
    .whereIn('id', ids)
    .pluck('id')) as string[];
