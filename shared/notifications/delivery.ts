import type { Runtime } from '../runtime.js';
import type { OutboundClient } from '../platform/outbound.js';
import { insertMail } from '../mail/index.js';
import {
  claimDeliveries,
  dropDeliveries,
  emailRecipients,
  settleDeliveries,
  type ClaimedDelivery,
  type DeliverySettlement,
} from './deliveries.repo.js';
import { decryptSecret } from '../platform/crypto.js';
import { nextRetryAt, parseRetryAfter } from './machine.js';
import { emailMessage, slackMessage, teamsMessage, type RunPayload } from './payloads.js';
import { enqueueAfterCommit, jobs } from '../platform/queues.js';

const SIGNATURE_HEADERS = ['X-Svc-Notification-Signature', 'X-TFE-Notification-Signature'];
/** Requests one job has in flight at once (a process runs several jobs: workers/processors.ts). */
const SENDS_PER_JOB = 8;

/** What delivering notifications needs. */
export type DeliveryDeps = Pick<Runtime, 'db' | 'config' | 'logger' | 'queues' | 'metrics'> & {
  outbound: OutboundClient;
};

interface Outcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  retryAfter: number | null;
  durationMs: number;
  body: string;
}

/** Sends one notification to its configuration's destination; the outcome as status and error. */
async function send(deps: DeliveryDeps, d: ClaimedDelivery, token: string | null): Promise<Outcome> {
  if (d.destination_type === 'email') {
    const users = await emailRecipients(deps.db, d.configuration_id);
    const { subject, text } = emailMessage(JSON.parse(d.payload) as RunPayload);
    // Queued only once the outbox rows are committed, so the mail job always finds its row.
    const mailIds = await deps.db.transaction(async (tx) => {
      const ids: string[] = [];
      for (const to of users)
        ids.push((await insertMail(tx, { kind: 'notification', refId: d.id, to, subject, body: text })).id);
      return ids;
    });
    for (const mailId of mailIds) await enqueueAfterCommit(deps.queues, jobs.mailDelivery(mailId), deps.logger);
    return { ok: true, status: null, error: null, retryAfter: null, durationMs: 0, body: '' };
  }
  // Generic destinations get the payload exactly as it was serialised and stored.
  const body =
    d.destination_type === 'slack'
      ? JSON.stringify(slackMessage(JSON.parse(d.payload) as RunPayload))
      : d.destination_type === 'microsoft-teams'
        ? JSON.stringify(teamsMessage(JSON.parse(d.payload) as RunPayload))
        : d.payload;
  const result = await deps.outbound.send({
    url: d.url!,
    method: 'POST',
    body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': `${deps.config.runTaskAgentName}-Notifications/1.0`,
      'X-Svc-Delivery-Id': d.id,
    },
    ...(token ? { sign: { key: token, headers: SIGNATURE_HEADERS } } : {}),
  });
  return {
    ok: result.ok,
    status: result.status,
    error: result.error,
    durationMs: result.durationMs,
    body: result.body,
    retryAfter: parseRetryAfter(result.headers['retry-after']?.[0]),
  };
}

/** How one attempt ends: the row's next status and what the attempt records. */
function settlement(d: ClaimedDelivery, r: Outcome, now: Date): DeliverySettlement & { organization: string } {
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
 * One attempt at each of the given notification deliveries: claimed together, sent concurrently,
 * settled together. 2xx delivers; 410 disables the configuration; anything else retries on the
 * schedule (honouring Retry-After) until it is exhausted. Deliveries of disabled configurations
 * are dropped. Deliveries that are not due (settled, or claimed by a live worker) are skipped.
 */
export async function deliverNotifications(deps: DeliveryDeps, ids: string[]): Promise<void> {
  const claimed = await claimDeliveries(deps.db, ids, deps.config.outboundLeaseSeconds);
  const disabled = claimed.filter((d) => !d.enabled).map((d) => d.id);
  if (disabled.length) await dropDeliveries(deps.db, disabled);
  const live = claimed.filter((d) => d.enabled);
  if (!live.length) return;
  // Each configuration's token is decrypted once per job.
  const tokens = new Map<string, string | null>();
  const tokenOf = (d: ClaimedDelivery) => {
    if (!tokens.has(d.configuration_id))
      tokens.set(
        d.configuration_id,
        d.destination_type === 'generic' && d.token_sealed
          ? decryptSecret(deps.config.encryptionKey, d.token_sealed)
          : null,
      );
    return tokens.get(d.configuration_id)!;
  };
  const outcomes = await mapLimit(live, SENDS_PER_JOB, (d) => send(deps, d, tokenOf(d)));
  const now = new Date();
  const settled = live.map((d, i) => settlement(d, outcomes[i], now));
  await settleDeliveries(deps.db, settled);
  for (const s of settled) {
    deps.metrics.outbound.inc({
      kind: 'notification',
      outcome: s.gone ? 'gone' : s.status === 'pending' ? 'retry' : s.status,
    });
    if (s.gone)
      deps.logger.warn('notification destination answered 410; configuration disabled', {
        configurationId: s.configuration_id,
      });
    if (s.next_at)
      await enqueueAfterCommit(
        deps.queues,
        jobs.notificationDelivery(s.id, s.organization, s.attempt + 1, Date.parse(s.next_at) - Date.now()),
        deps.logger,
      );
  }
}
