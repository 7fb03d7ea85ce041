import type { Db } from '../platform/db.js';
import type { DeliveryRow, NotificationConfigurationRow } from './repo.js';
import { fetchPage, type Page } from '../platform/page.js';

/** A workspace's notification configurations in creation order (one page, or all when `page` is null), each with its users' ids. */
export async function notificationConfigurationsOf(
  db: Db,
  workspaceId: string,
  page: Page | null,
): Promise<{ rows: { configuration: NotificationConfigurationRow; userIds: string[] }[]; total: number }> {
  const query = db<NotificationConfigurationRow>('notification_configurations').where({ workspace_id: workspaceId });
  const [{ count }] = await query.clone().count<{ count: number }[]>({ count: '*' });
  const rows = await (page
    ? query
        .orderBy('created_at')
        .orderBy('id')
        .limit(page.size)
        .offset((page.number - 1) * page.size)
    : query.orderBy('created_at').orderBy('id'));
  const users = rows.length
    ? await db('notification_configuration_users').whereIn(
        'configuration_id',
        rows.map((r) => r.id),
      )
    : [];
  return {
    rows: rows.map((r) => ({
      configuration: r,
      userIds: users.filter((u) => u.configuration_id === r.id).map((u) => u.user_id as string),
    })),
    total: Number(count),
  };
}

/** One page of a configuration's deliveries, newest first, each with its attempts (rows of notification_delivery_attempts) in order. */
export async function deliveriesOf(db: Db, configurationId: string, page: Page) {
  const query = db('notification_deliveries').where({ configuration_id: configurationId });
  const { rows, total } = await fetchPage<DeliveryRow>(query.orderBy('created_at', 'desc').orderBy('id'), page);
  const attempts = rows.length
    ? await db('notification_delivery_attempts')
        .whereIn(
          'delivery_id',
          rows.map((r) => r.id),
        )
        .orderBy('seq')
    : [];
  return { rows: rows.map((d) => ({ delivery: d, attempts: attempts.filter((a) => a.delivery_id === d.id) })), total };
}
