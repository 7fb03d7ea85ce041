import { iso, many, one, type Resource } from '../jsonapi.js';
import type { NotificationConfigurationRow } from '../../shared/notifications/repo.js';

/** A notification configuration; the token is write-only and always shown as null. */
export function notificationConfigurationResource(c: NotificationConfigurationRow, userIds: string[]): Resource {
  return {
    type: 'notification-configurations',
    id: c.id,
    attributes: {
      'destination-type': c.destination_type,
      enabled: c.enabled,
      name: c.name,
      token: null,
      triggers: c.triggers,
      url: c.url,
      'email-addresses': c.email_addresses,
      'delivery-responses': c.delivery_responses,
      'created-at': iso(c.created_at),
      'updated-at': iso(c.updated_at),
    },
    relationships: {
      subscribable: one('workspaces', c.workspace_id),
      users: many('users', userIds),
    },
    links: { self: `/api/v2/notification-configurations/${c.id}` },
  };
}

export function deliveryResource(
  d: {
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
  },
  attempts: {
    attempt: number;
    status_code: number | null;
    duration_ms: number | null;
    error: string | null;
    created_at: Date;
    ended_at: Date | null;
  }[],
): Resource {
  return {
    type: 'notification-deliveries',
    id: d.id,
    attributes: {
      trigger: d.trigger,
      status: d.status,
      'attempt-count': d.attempts,
      'last-status-code': d.last_status_code,
      'last-error': d.last_error,
      'next-attempt-at': d.status === 'pending' ? iso(d.next_attempt_at) : null,
      'created-at': iso(d.created_at),
      'delivered-at': iso(d.delivered_at),
      attempts: attempts.map((a) => attemptAttributes(a, d.attempts, d.status === 'sending')),
    },
    relationships: {
      'notification-configuration': one('notification-configurations', d.configuration_id),
      run: one('runs', d.run_id),
    },
  };
}

/** The text an attempt carries when its sender stopped (a killed worker) before it ended. */
const ABANDONED_ATTEMPT = 'the sender stopped before this attempt ended';

/**
 * How one attempt of a delivery (or of a run task request) reads: `state` is `in-progress` while
 * it is the latest attempt and its sender holds it, `abandoned` when it was never ended (its
 * sender died, and a later attempt or the end of the delivery came), else `ended`.
 */
export function attemptAttributes(
  a: {
    attempt: number;
    status_code: number | null;
    duration_ms: number | null;
    error: string | null;
    created_at: Date;
    ended_at: Date | null;
  },
  latest: number,
  sending: boolean,
) {
  const state = a.ended_at ? 'ended' : a.attempt === latest && sending ? 'in-progress' : 'abandoned';
  return {
    attempt: a.attempt,
    state,
    'status-code': a.status_code,
    'duration-ms': a.duration_ms,
    error: state === 'abandoned' ? ABANDONED_ATTEMPT : a.error,
    'sent-at': iso(a.created_at),
    'ended-at': iso(a.ended_at),
  };
}
