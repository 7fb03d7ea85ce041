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

export const findNotificationConfiguration = (db: Db, id: string) => db<NotificationConfigurationRow>('notification_configurations').where({ id }).first();
export const configurationUserIds = async (db: Db, id: string) =>
  (await db('notification_configuration_users').where({ configuration_id: id }).orderBy('user_id').pluck('user_id')) as string[];

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

/** How many notification configurations a workspace has. */
export async function countNotificationConfigurations(db: Db, workspaceId: string): Promise<number> {
  const [{ count }] = await db('notification_configurations').where({ workspace_id: workspaceId }).count<{ count: number }[]>({ count: '*' });
  return Number(count);
}

/** Inserts a configuration with this id; returns the row. */
export async function insertNotificationConfiguration(db: Db, id: string, workspaceId: string, values: NotificationConfigurationValues): Promise<NotificationConfigurationRow> {
  const [row] = await db('notification_configurations').insert({ id, workspace_id: workspaceId, ...values }).returning('*');
  return row as NotificationConfigurationRow;
}

/** Updates a configuration's columns; returns the row. */
export async function updateNotificationConfiguration(db: Db, id: string, values: Partial<NotificationConfigurationValues>): Promise<NotificationConfigurationRow> {
  const [row] = await db('notification_configurations').where({ id }).update({ ...values, updated_at: db.fn.now() }).returning('*');
  return row as NotificationConfigurationRow;
}

/** Replaces the users an email configuration notifies. */
export async function replaceConfigurationUsers(db: Db, id: string, userIds: string[]): Promise<void> {
  await db('notification_configuration_users').where({ configuration_id: id }).del();
  if (userIds.length) await db('notification_configuration_users').insert(userIds.map((u) => ({ configuration_id: id, user_id: u })));
}

/** Records a configuration's delivery responses (its updated_at unchanged); returns the row. */
export async function setDeliveryResponses(db: Db, id: string, responses: DeliveryResponse[]): Promise<NotificationConfigurationRow> {
  const [row] = await db<NotificationConfigurationRow>('notification_configurations').where({ id }).update({ delivery_responses: asJson(db, responses) }).returning('*');
  return row;
}

export const deleteNotificationConfiguration = (db: Db, id: string) => db('notification_configurations').where({ id }).del();

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
