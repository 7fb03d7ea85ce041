import { UnrecoverableError, type Job } from 'bullmq';
import type { WorkerDeps } from './context.js';
import { idFrom } from './context.js';
import { claimMail, insertMail, settleMail } from '../shared/repos/mail.js';
import { decryptSecret } from '../shared/crypto.js';
import { nextRetryAt, parseRetryAfter } from '../shared/domain/notification.js';
import { emailMessage, slackMessage, teamsMessage, type RunPayload } from '../shared/notifications/payloads.js';
import type { NotificationConfigurationRow } from '../shared/repos/notifications.js';
import { enqueueAfterCommit, jobs } from '../shared/queues.js';

const LEASE_MS = 60_000;

/** Delivers one outgoing mail row: claim under a lease, send, settle. A settled row is a no-op. */
export async function deliverMail(job: Job<unknown>, deps: WorkerDeps): Promise<void> {
  const mailId = idFrom(job.data, 'mailId');
  const mail = await claimMail(deps.db, mailId, LEASE_MS);
  if (!mail) return;
  try {
    await deps.mailer.send({ to: mail.to_address, subject: mail.subject, text: mail.body });
  } catch (err) {
    const attempts = job.opts.attempts ?? 1;
    const last = job.attemptsMade + 1 >= attempts;
    const retryInMs = 5000 * 2 ** job.attemptsMade;
    await settleMail(deps.db, mail.id, last ? 'give_up' : 'retry', { error: String(err), retryInMs });
    deps.logger.warn('mail delivery failed', { jobId: job.id, mailId, attempt: job.attemptsMade + 1, last });
    if (last) throw new UnrecoverableError(`mail ${mailId} failed: ${String(err)}`);
    throw err;
  }
  await settleMail(deps.db, mail.id, 'deliver', { sentBy: deps.workerId });
}

const SIGNATURE_HEADERS = ['X-Svc-Notification-Signature', 'X-TFE-Notification-Signature'];

/** Claims a due delivery (compare-and-set with a lease); undefined when nothing is due. */
async function claimDelivery(deps: WorkerDeps, id: string) {
  const [row] = await deps.db('notification_deliveries')
    .where({ id })
    .andWhere((q) =>
      q
        .where((p) => p.where('status', 'pending').andWhere('next_attempt_at', '<=', deps.db.fn.now()))
        .orWhere((p) => p.where('status', 'sending').andWhere('lease_until', '<', deps.db.fn.now())),
    )
    .update({ status: 'sending', attempts: deps.db.raw('attempts + 1'), lease_until: deps.db.raw(`now() + interval '30 seconds'`) })
    .returning('*');
  return row as { id: string; configuration_id: string; payload: string; attempts: number } | undefined;
}

/** Sends one notification to its configuration's destination; the outcome as status and error. */
async function send(deps: WorkerDeps, cfg: NotificationConfigurationRow, deliveryId: string, payload: RunPayload) {
  if (cfg.destination_type === 'email') {
    const users = (await deps.db('users as u').join('notification_configuration_users as cu', 'cu.user_id', 'u.id').where('cu.configuration_id', cfg.id).whereNotNull('u.email').pluck('u.email')) as string[];
    const { subject, text } = emailMessage(payload);
    // Queued only once the outbox rows are committed, so the mail job always finds its row.
    const mailIds = await deps.db.transaction(async (tx) => {
      const ids: string[] = [];
      for (const to of users) ids.push((await insertMail(tx, { kind: 'notification', refId: deliveryId, to, subject, body: text })).id);
      return ids;
    });
    for (const mailId of mailIds) await enqueueAfterCommit(deps.queues, jobs.mailDelivery(mailId), deps.logger);
    return { ok: true, status: null, error: null, retryAfter: null, durationMs: 0, body: '' };
  }
  const body = JSON.stringify(cfg.destination_type === 'slack' ? slackMessage(payload) : cfg.destination_type === 'microsoft-teams' ? teamsMessage(payload) : payload);
  const token = cfg.destination_type === 'generic' && cfg.token_sealed ? decryptSecret(deps.config.encryptionKey, cfg.token_sealed) : null;
  const result = await deps.outbound.send({
    url: cfg.url!,
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json', 'User-Agent': `${deps.config.runTaskAgentName}-Notifications/1.0`, 'X-Svc-Delivery-Id': deliveryId },
    ...(token ? { sign: { key: token, headers: SIGNATURE_HEADERS } } : {}),
  });
  return { ...result, retryAfter: parseRetryAfter(result.headers['retry-after']?.[0]) };
}

/**
 * One delivery attempt of a notification. 2xx delivers; 410 disables the configuration;
 * anything else retries on the schedule (honouring Retry-After) until it is exhausted. Deliveries
 * of disabled or deleted configurations are dropped.
 */
export async function deliverNotification(job: Job<unknown>, deps: WorkerDeps): Promise<void> {
  const id = idFrom(job.data, 'deliveryId');
  const delivery = await claimDelivery(deps, id);
  if (!delivery) return;
  const cfg = await deps.db<NotificationConfigurationRow>('notification_configurations').where({ id: delivery.configuration_id }).first();
  if (!cfg || !cfg.enabled) {
    await deps.db('notification_deliveries').where({ id, status: 'sending' }).update({ status: 'dropped', lease_until: null, last_error: 'the configuration is disabled' });
    return;
  }
  const result = await send(deps, cfg, id, JSON.parse(delivery.payload) as RunPayload);
  await deps.db('notification_delivery_attempts').insert({
    delivery_id: id,
    attempt: delivery.attempts,
    status_code: result.status,
    duration_ms: result.durationMs,
    error: result.ok ? null : (result.error ?? `the destination answered ${result.status}`),
    response_body: result.body.slice(0, 4096),
  });
  const gone = result.status === 410;
  const next = result.ok || gone ? null : nextRetryAt(delivery.attempts, new Date(), result.retryAfter);
  const status = result.ok ? 'delivered' : next ? 'pending' : 'failed';
  // A 410 settles the delivery and disables its configuration together: never one without the other.
  await deps.db.transaction(async (tx) => {
    await tx('notification_deliveries')
      .where({ id, status: 'sending' })
      .update({
        status,
        lease_until: null,
        last_status_code: result.status,
        last_error: result.ok ? null : (result.error ?? `the destination answered ${result.status}`),
        ...(next ? { next_attempt_at: next } : {}),
        ...(result.ok ? { delivered_at: tx.fn.now() } : {}),
      });
    if (gone) await tx('notification_configurations').where({ id: cfg.id }).update({ enabled: false, updated_at: tx.fn.now() });
  });
  if (gone) deps.logger.warn('notification destination answered 410; configuration disabled', { configurationId: cfg.id });
  if (next) await enqueueAfterCommit(deps.queues, jobs.notificationDelivery(id, delivery.attempts + 1, next.getTime() - Date.now()), deps.logger);
}
