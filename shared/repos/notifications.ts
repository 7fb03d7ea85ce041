import type { Db } from '../db.js';
import type { DestinationType } from '../domain/notification.js';

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
