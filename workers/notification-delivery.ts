import { UnrecoverableError, type Job } from 'bullmq';
import type { WorkerDeps } from './context.js';
import { idFrom, organizationFrom } from './context.js';
import { inFairSlot } from './organization-slots.js';
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
/** Requests one job has in flight at once (a process runs several jobs: workers/processors.ts). */
const SENDS_PER_JOB = 8;

/** The delivery ids a job carries: several (`deliveryIds`) or one (`deliveryId`). */
function deliveryIdsFrom(data: unknown): string[] {
  const many = (data as Record<string, unknown> | null)?.deliveryIds;
  if (!Array.isArray(many)) return [idFrom(data, 'deliveryId')];
  if (many.length === 0) throw new UnrecoverableError('job data lacks delivery ids');
  return many.map((id: unknown) => idFrom({ id }, 'id'));
}

/** A claimed delivery with what sending it needs from its configuration. */
interface Claimed {
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

/**
 * Claims the given deliveries that are due (compare-and-set with a lease) in one statement, reads
 * their configurations with them, and records each attempt about to be sent as open (it is closed
 * when it ends; one whose sender dies stays open, and shows as abandoned). Deliveries already
 * claimed, settled or not yet due are left out.
 */
async function claimDeliveries(deps: WorkerDeps, ids: string[]): Promise<Claimed[]> {
  const { rows } = await deps.db.raw<{ rows: Claimed[] }>(
    `with claimed as (
       update notification_deliveries d
          set status = 'sending', attempts = d.attempts + 1, lease_until = now() + interval '30 seconds'
         from notification_configurations c, workspaces w
        where d.id = any(?::text[]) and c.id = d.configuration_id and w.id = c.workspace_id
          and ((d.status = 'pending' and d.next_attempt_at <= now()) or (d.status = 'sending' and d.lease_until < now()))
    returning d.id, d.payload, d.attempts, d.configuration_id, c.enabled, c.destination_type, c.url, c.token_sealed, w.organization_name as organization
     ), opened as (
       insert into notification_delivery_attempts (delivery_id, attempt)
       select id, attempts from claimed where enabled
       on conflict (delivery_id, attempt) do nothing
     )
     select * from claimed`,
    [ids],
  );
  return rows;
}

interface Outcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  retryAfter: number | null;
  durationMs: number;
  body: string;
}

/** Sends one notification to its configuration's destination; the outcome as status and error. */
async function send(deps: WorkerDeps, d: Claimed, token: string | null): Promise<Outcome> {
  if (d.destination_type === 'email') {
    const users = (await deps.db('users as u').join('notification_configuration_users as cu', 'cu.user_id', 'u.id').where('cu.configuration_id', d.configuration_id).whereNotNull('u.email').pluck('u.email')) as string[];
    const { subject, text } = emailMessage(JSON.parse(d.payload) as RunPayload);
    // Queued only once the outbox rows are committed, so the mail job always finds its row.
    const mailIds = await deps.db.transaction(async (tx) => {
      const ids: string[] = [];
      for (const to of users) ids.push((await insertMail(tx, { kind: 'notification', refId: d.id, to, subject, body: text })).id);
      return ids;
    });
    for (const mailId of mailIds) await enqueueAfterCommit(deps.queues, jobs.mailDelivery(mailId), deps.logger);
    return { ok: true, status: null, error: null, retryAfter: null, durationMs: 0, body: '' };
  }
  // Generic destinations get the payload exactly as it was serialised and stored.
  const body =
    d.destination_type === 'slack' ? JSON.stringify(slackMessage(JSON.parse(d.payload) as RunPayload))
    : d.destination_type === 'microsoft-teams' ? JSON.stringify(teamsMessage(JSON.parse(d.payload) as RunPayload))
    : d.payload;
  const result = await deps.outbound.send({
    url: d.url!,
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json', 'User-Agent': `${deps.config.runTaskAgentName}-Notifications/1.0`, 'X-Svc-Delivery-Id': d.id },
    ...(token ? { sign: { key: token, headers: SIGNATURE_HEADERS } } : {}),
  });
  return { ok: result.ok, status: result.status, error: result.error, durationMs: result.durationMs, body: result.body, retryAfter: parseRetryAfter(result.headers['retry-after']?.[0]) };
}

/** How one attempt ends: the row's next status and what the attempt records. */
function settlement(d: Claimed, r: Outcome, now: Date) {
  const gone = r.status === 410;
  const next = r.ok || gone ? null : nextRetryAt(d.attempts, now, r.retryAfter);
  return {
    id: d.id,
    attempt: d.attempts,
    configuration_id: d.configuration_id,
    status: r.ok ? 'delivered' : next ? 'pending' : 'failed',
    code: r.status,
    error: r.ok ? null : (r.error ?? `the destination answered ${r.status}`),
    next_at: next?.toISOString() ?? null,
    duration: r.durationMs,
    // Postgres text holds no NUL characters.
    body: r.body.slice(0, 4096).replaceAll('\0', ''),
    gone,
    organization: d.organization,
  };
}
type Settlement = ReturnType<typeof settlement>;

/**
 * Closes the attempts (recorded open at the claim) and settles their deliveries in one statement: a 410 disables its
 * configuration in the same statement, so a delivery is never settled without it. A delivery whose
 * lease ran out and another worker claimed again (its attempt count moved on) is left to that worker.
 */
async function settle(deps: WorkerDeps, settled: Settlement[]): Promise<void> {
  await deps.db.raw(
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

/** Runs `fn` over `items`, at most `width` at a time, keeping the order of results. */
async function mapLimit<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

/**
 * One attempt at each of a job's notification deliveries (all of one organization), in one of
 * that organization's slots of this process: claimed together, sent concurrently, settled
 * together. 2xx delivers; 410 disables the configuration; anything else retries on the schedule
 * (honouring Retry-After) until it is exhausted. Deliveries of disabled configurations are
 * dropped. Deliveries that are not due (settled, or claimed by a live worker) are skipped. A job
 * that waits for its organization's share has claimed nothing, so the wait is not an attempt.
 */
export async function deliverNotification(job: Job<unknown>, deps: WorkerDeps, token?: string): Promise<void> {
  const ids = deliveryIdsFrom(job.data);
  await inFairSlot(deps.outboundSlots['notification-delivery'], organizationFrom(job.data), job, token, () => deliverAll(deps, ids));
}

async function deliverAll(deps: WorkerDeps, ids: string[]): Promise<void> {
  const claimed = await claimDeliveries(deps, ids);
  const disabled = claimed.filter((d) => !d.enabled).map((d) => d.id);
  if (disabled.length) {
    await deps.db('notification_deliveries').whereIn('id', disabled).andWhere({ status: 'sending' }).update({ status: 'dropped', lease_until: null, last_error: 'the configuration is disabled' });
  }
  const live = claimed.filter((d) => d.enabled);
  if (!live.length) return;
  // Each configuration's token is decrypted once per job.
  const tokens = new Map<string, string | null>();
  const tokenOf = (d: Claimed) => {
    if (!tokens.has(d.configuration_id)) tokens.set(d.configuration_id, d.destination_type === 'generic' && d.token_sealed ? decryptSecret(deps.config.encryptionKey, d.token_sealed) : null);
    return tokens.get(d.configuration_id)!;
  };
  const outcomes = await mapLimit(live, SENDS_PER_JOB, (d) => send(deps, d, tokenOf(d)));
  const now = new Date();
  const settled = live.map((d, i) => settlement(d, outcomes[i], now));
  await settle(deps, settled);
  for (const s of settled) {
    if (s.gone) deps.logger.warn('notification destination answered 410; configuration disabled', { configurationId: s.configuration_id });
    if (s.next_at) await enqueueAfterCommit(deps.queues, jobs.notificationDelivery(s.id, s.organization, s.attempt + 1, Date.parse(s.next_at) - Date.now()), deps.logger);
  }
}
