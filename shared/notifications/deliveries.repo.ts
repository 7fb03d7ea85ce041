import type { Knex } from 'knex';
import { RELAXED_COMMIT, type Db } from '../platform/db.js';
import type { NotificationConfigurationRow } from './repo.js';
import { leaseClaimQuery } from '../platform/leases.js';

/** A claimed delivery with what sending it needs from its configuration. */
export interface ClaimedDelivery {
  id: string;
  payload: string;
  attempts: number;
  configuration_id: string;
  enabled: boolean;
  destination_type: NotificationConfigurationRow['destination_type'];
  url: string | null;
  token_sealed: string | null;
  organization: string;
}

/** How one attempt at a delivery ended, as settleDeliveries records it. */
export interface DeliverySettlement {
  id: string;
  attempt: number;
  configuration_id: string;
  status: string;
  code: number | null;
  error: string | null;
  next_at: string | null;
  duration: number;
  body: string;
  gone: boolean;
}

/**
 * Claims the given deliveries that are due (compare-and-set with a lease) in one statement, reads
 * their configurations with them, and records each attempt about to be sent as open (it is closed
 * when it ends; one whose sender dies stays open, and shows as abandoned). Deliveries already
 * claimed, settled or not yet due are left out. The commit does not wait for the disk
 * (`relaxed`): a claim lost in a database crash leaves the deliveries due, to be sent again
 * (docs/design-for-speed.md, "Relaxed commits for claims").
 */
export async function claimDeliveries(db: Db, ids: string[], leaseSeconds: number): Promise<ClaimedDelivery[]> {
  const claim = leaseClaimQuery(db, {
    table: 'notification_deliveries',
    id: ids,
    from: ['pending'],
    dueColumn: 'next_attempt_at',
    to: 'sending',
    takeOver: true,
    leaseSeconds,
    set: { attempts: db.raw('attempts + 1') },
  });
  const { rows } = await db.raw<{ rows: ClaimedDelivery[] }>(
    `with ${RELAXED_COMMIT}, claimed as (?), configured as (
       select d.id, d.payload, d.attempts, d.configuration_id, c.enabled, c.destination_type, c.url, c.token_sealed, w.organization_name as organization
         from claimed d join notification_configurations c on c.id = d.configuration_id join workspaces w on w.id = c.workspace_id
     ), opened as (
       insert into notification_delivery_attempts (delivery_id, attempt)
       select id, attempts from configured where enabled
       on conflict (delivery_id, attempt) do nothing
     )
     select c.* from relaxed, configured c`,
    [claim],
  );
  return rows;
}

/** A delivery about to be written (its payload already JSON). */
export interface NewDelivery {
  id: string;
  configuration_id: string;
  run_id: string | null;
  event_key: string;
  trigger: string;
  payload: string;
}

/** Inserts deliveries; one whose configuration already has a delivery for its event key is left out. Returns the ids written. */
export async function insertNewDeliveries(db: Db, rows: NewDelivery[]): Promise<string[]> {
  const inserted = (await db('notification_deliveries')
    .insert(rows)
    .onConflict(['configuration_id', 'event_key'])
    .ignore()
    .returning('id')) as { id: string }[];
  return inserted.map((r) => r.id);
}

/** The run's pending deliveries not tried yet, with their workspaces' organizations (the delivery jobs' fair share). */
export async function untriedDeliveriesOfRun(
  db: Db,
  runId: string,
): Promise<{ id: string; organization_name: string }[]> {
  return db('notification_deliveries as d')
    .join('notification_configurations as c', 'c.id', 'd.configuration_id')
    .join('workspaces as w', 'w.id', 'c.workspace_id')
    .where({ 'd.run_id': runId, 'd.status': 'pending', 'd.attempts': 0 })
    .select('d.id', 'w.organization_name');
}

/** Drops claimed deliveries whose configuration is disabled. */
export async function dropDeliveries(db: Db, ids: string[]): Promise<void> {
  await db('notification_deliveries')
    .whereIn('id', ids)
    .andWhere({ status: 'sending' })
    .update({ status: 'dropped', lease_until: null, last_error: 'the configuration is disabled' });
}

/**
 * The addresses of the users an email configuration notifies: those with an accepted membership
 * of the workspace's organization now (an invitation not yet accepted, or a membership since
 * removed, gets no mail).
 */
export async function emailRecipients(db: Db, configurationId: string): Promise<string[]> {
  return (await db('users as u')
    .join('notification_configuration_users as cu', 'cu.user_id', 'u.id')
    .join('notification_configurations as c', 'c.id', 'cu.configuration_id')
    .join('workspaces as w', 'w.id', 'c.workspace_id')
    .join('organization_memberships as m', (j) =>
      j.on('m.user_id', '=', 'u.id').andOn('m.organization_name', '=', 'w.organization_name'),
    )
    .where('cu.configuration_id', configurationId)
    .where('m.status', 'active')
    .whereNotNull('u.email')
    .pluck('u.email')) as string[];
}

/**
 * Closes the attempts (recorded open at the claim) and settles their deliveries in one statement: a 410 disables its
 * configuration in the same statement, so a delivery is never settled without it. A delivery whose
 * lease ran out and another worker claimed again (its attempt count moved on) is left to that worker.
 */
export async function settleDeliveries(db: Db, settled: DeliverySettlement[]): Promise<void> {
  await db.raw(
    `with r as (
       select * from jsonb_to_recordset(?::jsonb)
         as x(id text, attempt int, configuration_id text, status text, code int, error text, next_at timestamptz, duration int, body text, gone boolean)
     ), recorded as (
       insert into notification_delivery_attempts (delivery_id, attempt, status_code, duration_ms, error, response_body, ended_at)
       select id, attempt, code, duration, error, body, now() from r
       on conflict (delivery_id, attempt) do update
          set status_code = excluded.status_code, duration_ms = excluded.duration_ms, error = excluded.error,
              response_body = excluded.response_body, ended_at = excluded.ended_at
     ), disabled as (
       update notification_configurations set enabled = false, updated_at = now()
        where id in (select configuration_id from r where gone)
     )
     update notification_deliveries d
        set status = r.status, lease_until = null, last_status_code = r.code, last_error = r.error,
            next_attempt_at = coalesce(r.next_at, d.next_attempt_at),
            delivered_at = case when r.status = 'delivered' then now() else d.delivered_at end
       from r
      where d.id = r.id and d.status = 'sending' and d.attempts = r.attempt`,
    [JSON.stringify(settled)],
  );
}

/**
 * Deliveries due (first tries and retries) or whose sender died, keyed by id (for pageAfter), with
 * the attempt a job makes of each and its workspace's organization.
 */
export const deliveriesDue = (db: Db): Knex.QueryBuilder =>
  db('notification_deliveries as d')
    .join('notification_configurations as c', 'c.id', 'd.configuration_id')
    .join('workspaces as w', 'w.id', 'c.workspace_id')
    .where((q) =>
      q
        .where((p) => p.where('d.status', 'pending').andWhere('d.next_attempt_at', '<=', db.fn.now()))
        .orWhere((p) => p.where('d.status', 'sending').andWhere('d.lease_until', '<', db.fn.now())),
    )
    .select('d.id as key', 'd.id', 'd.attempts', 'd.status', 'w.organization_name');
