import type { Knex } from 'knex';
import { asJson, type Db } from '../platform/db.js';
import type { DestinationType } from './machine.js';

export interface DeliveryResponse {
  body: string;
  code: string;
  headers: Record<string, string[]>;
  'sent-at': string;
  successful: boolean;
  url: string;
}

export interface NotificationConfigurationRow {
  id: string;
  workspace_id: string;
  name: string;
  destination_type: DestinationType;
  enabled: boolean;
  token_sealed: string | null;
  triggers: string[];
  url: string | null;
  email_addresses: string[];
  delivery_responses: DeliveryResponse[];
  created_at: Date;
  updated_at: Date;
}

export const findNotificationConfiguration = (db: Db, id: string) =>
  db<NotificationConfigurationRow>('notification_configurations').where({ id }).first();
export const configurationUserIds = async (db: Db, id: string) =>
  (await db('notification_configuration_users')
    .where({ configuration_id: id })
    .orderBy('user_id')
    .pluck('user_id')) as string[];

/** The columns a configuration's save writes (JSON columns already encoded). */
export interface NotificationConfigurationValues {
  name: string;
  destination_type: DestinationType;
  enabled: boolean;
  token_sealed: string | null;
  triggers: string;
  url: string | null;
  email_addresses: string;
  delivery_responses: string;
}

/** The workspace's enabled configurations subscribed to any of `triggers`, with the triggers each subscribes to. */
export async function subscribedConfigurations(
  db: Db,
  workspaceId: string,
  triggers: string[],
): Promise<{ id: string; triggers: string[] }[]> {
  return (await db('notification_configurations')
    .where({ workspace_id: workspaceId, enabled: true })
    .whereRaw('triggers \\?| ?', [triggers])
    .select('id', 'triggers')) as { id: string; triggers: string[] }[];
}

/** SQL: the workspace of the row named `row` (a run) has an enabled configuration. */
export const hasEnabledConfiguration = (db: Db, row: string): Knex.Raw =>
  db.raw('exists (select 1 from notification_configurations c where c.workspace_id = ??.workspace_id and c.enabled)', [
    row,
  ]);

/** A workspace's id, name and organization, as a run's payload names them. */
export const workspaceNames = (db: Db, id: string): Promise<{ id: string; name: string; organization_name: string }> =>
  db('workspaces').where({ id }).first('id', 'name', 'organization_name');

/** A user's username, as payloads name who acted; null for no user (or one since deleted). */
export async function usernameOf(db: Db, id: string | null): Promise<string | null> {
  if (!id) return null;
  return ((await db('users').where({ id }).first('username')) as { username: string } | undefined)?.username ?? null;
}

/** How many notification configurations a workspace has. */
export async function countNotificationConfigurations(db: Db, workspaceId: string): Promise<number> {
  const [{ count }] = await db('notification_configurations')
    .where({ workspace_id: workspaceId })
    .count<{ count: number }[]>({ count: '*' });
  return Number(count);
}

/** Inserts a configuration with this id; returns the row. */
export async function insertNotificationConfiguration(
  db: Db,
  id: string,
  workspaceId: string,
  values: NotificationConfigurationValues,
): Promise<NotificationConfigurationRow> {
  const [row] = await db('notification_configurations')
    .insert({ id, workspace_id: workspaceId, ...values })
    .returning('*');
  return row as NotificationConfigurationRow;
}

/** Updates a configuration's columns; returns the row. */
export async function updateNotificationConfiguration(
  db: Db,
  id: string,
  values: Partial<NotificationConfigurationValues>,
): Promise<NotificationConfigurationRow> {
  const [row] = await db('notification_configurations')
    .where({ id })
    .update({ ...values, updated_at: db.fn.now() })
    .returning('*');
  return row as NotificationConfigurationRow;
}

/** Replaces the users an email configuration notifies. */
export async function replaceConfigurationUsers(db: Db, id: string, userIds: string[]): Promise<void> {
  await db('notification_configuration_users').where({ configuration_id: id }).del();
  if (userIds.length)
    await db('notification_configuration_users').insert(userIds.map((u) => ({ configuration_id: id, user_id: u })));
}

/** Records a configuration's delivery responses (its updated_at unchanged); returns the row. */
export async function setDeliveryResponses(
  db: Db,
  id: string,
  responses: DeliveryResponse[],
): Promise<NotificationConfigurationRow> {
  const [row] = await db<NotificationConfigurationRow>('notification_configurations')
    .where({ id })
    .update({ delivery_responses: asJson(db, responses) })
    .returning('*');
  return row;
}

export const deleteNotificationConfiguration = (db: Db, id: string) =>
  db('notification_configurations').where({ id }).del();

/** A notification delivery: one payload for one configuration, sent in one or more attempts. */
export interface DeliveryRow {
  id: string;
  configuration_id: string;
  run_id: string | null;
  trigger: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
  next_attempt_at: Date;
}

export const findDelivery = (db: Db, id: string) => db<DeliveryRow>('notification_deliveries').where({ id }).first();

/** Puts a delivery in one of `from` back to pending, due now; undefined when it was in none of them. */
export async function requeueDelivery(db: Db, id: string, from: readonly string[]): Promise<DeliveryRow | undefined> {
  const [row] = await db('notification_deliveries')
    .where({ id })
    .whereIn('status', from)
    .update({ status: 'pending', next_attempt_at: db.fn.now(), last_error: null })
    .returning('*');
  return row as DeliveryRow | undefined;
}
