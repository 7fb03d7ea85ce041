import type { Runtime } from '../runtime.js';
import { decryptSecret, encryptSecret } from '../platform/crypto.js';
import type { OutboundClient } from '../platform/outbound.js';
import { claimLease } from '../platform/leases.js';
import {
  findVerification,
  insertVerificationIfRoom,
  settleVerification,
  type VerificationRow,
} from './verifications.repo.js';
import { enqueueAfterCommit, jobs } from '../platform/queues.js';
import { verificationWaitMs } from '../platform/config.js';
import { TooManyRequests } from '../platform/errors.js';
import { budgetSpent } from '../platform/rate-limits.js';

/** The host a verification calls: its budgets are the destination's, whoever asks. */
function destinationHost(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/** How long a caller refused for a busy destination is asked to wait: verifications mostly take well under a second. */
const BUSY_HOST_RETRY_MS = 1_000;

/**
 * Records a verification within its destination host's limits: 429 when the host's budget of
 * verifications this minute is spent (RATE_LIMIT_VERIFICATIONS_PER_HOST_PER_MINUTE) or too many of
 * its verifications are waiting for their answer (MAX_CONCURRENT_VERIFICATIONS_PER_HOST).
 */
async function recordWithinHostLimits(
  rt: Runtime,
  attrs: Parameters<typeof insertVerificationIfRoom>[1],
  waitMs: number,
): Promise<VerificationRow> {
  const host = attrs.host;
  const spent = host === null ? null : await rt.rateLimits.consume('verification-host', host);
  if (spent && !spent.allowed) throw budgetSpent('verification-host', spent);
  const max = rt.config.maxConcurrentVerificationsPerHost;
  const row = await insertVerificationIfRoom(rt.db, attrs, { maxOpen: max, windowSeconds: Math.ceil(waitMs / 1000) });
  if (!row) {
    throw new TooManyRequests(
      `Rate limit exceeded: too many verifications of ${host} under way at once (at most ${max}); retry in ${BUSY_HOST_RETRY_MS / 1000} seconds.`,
      {
        limit: max,
        msBeforeReset: BUSY_HOST_RETRY_MS,
      },
    );
  }
  return row;
}

/**
 * Asks the verification worker to call a destination and waits (bounded) for the outcome, within
 * the destination host's limits (429 beyond them, before anything is recorded); the
 * API never calls user-supplied URLs itself. The request is a durable row; its secret is sealed.
 * The wait is the request's own timeout (VERIFICATION_TIMEOUT_SECONDS) plus a margin for the job's
 * time in the queue, where the organization's fair share of the worker may hold it a little.
 */
export async function verifyDestination(
  rt: Runtime,
  req: { kind: string; organization: string; url: string; body: string; secret: string | null },
  waitMs = verificationWaitMs(rt.config),
): Promise<VerificationRow> {
  const deadline = Date.now() + waitMs;
  // Listening before the request exists, so its settlement cannot be missed.
  await rt.verificationsSettled.listen();
  const row = await recordWithinHostLimits(
    rt,
    {
      kind: req.kind,
      organization_name: req.organization,
      url: req.url,
      host: destinationHost(req.url),
      body: req.body,
      secret_sealed: req.secret ? encryptSecret(rt.config.encryptionKey, req.secret) : null,
    },
    waitMs,
  );
  await enqueueAfterCommit(rt.queues, jobs.verify(row.id, req.organization), rt.logger);
  for (;;) {
    const current = (await findVerification(rt.db, row.id))!;
    if (current.status === 'succeeded' || current.status === 'failed') return current;
    if (Date.now() >= deadline) {
      await settleVerification(rt.db, row.id, ['pending', 'running'], {
        status: 'failed',
        error: 'no verification result in time',
      });
      return { ...current, status: 'failed', error: 'the destination could not be verified in time' };
    }
    // Woken by the worker's settlement (or a lost listener connection), else at the deadline.
    await rt.verificationsSettled.wait(row.id, deadline - Date.now());
  }
}

/** Headers a verification request carries per kind; the body was composed by the API. */
const SIGNATURE_HEADERS: Record<string, string[]> = {
  'run-task': ['X-Svc-Task-Signature', 'X-TFC-Task-Signature'],
  notification: ['X-Svc-Notification-Signature', 'X-TFE-Notification-Signature'],
};

/**
 * Calls the destination of one pending verification row, claimed under a lease, and records what
 * came back; a row claimed or settled elsewhere is left alone. `verifier` has the short
 * verification timeouts, so a slow destination gives its slot back quickly.
 */
export async function runVerification(
  deps: Pick<Runtime, 'db' | 'config' | 'metrics'> & { verifier: OutboundClient },
  id: string,
): Promise<void> {
  const [row] = await claimLease<VerificationRow>(deps.db, {
    table: 'verifications',
    id,
    from: ['pending'],
    to: 'running',
    leaseSeconds: deps.config.outboundLeaseSeconds,
  });
  if (!row) return;
  const secret = row.secret_sealed ? decryptSecret(deps.config.encryptionKey, row.secret_sealed) : null;
  const result = await deps.verifier.send({
    url: row.url,
    method: 'POST',
    body: row.body ?? '',
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': `${deps.config.runTaskAgentName}/1.0 (+${deps.config.baseUrl}; ${deps.config.runTaskAgentName})`,
    },
    // Run task requests always carry the signature header (empty without a key); notifications only when signed.
    ...(row.kind === 'run-task' || secret ? { sign: { key: secret, headers: SIGNATURE_HEADERS[row.kind] ?? [] } } : {}),
  });
  await settleVerification(deps.db, id, ['running'], {
    status: result.ok ? 'succeeded' : 'failed',
    response_status: result.status,
    response_headers: result.headers,
    response_body: result.body,
    error: result.error ?? (result.ok ? null : `the destination answered ${result.status}`),
  });
  deps.metrics.outbound.inc({ kind: 'verification', outcome: result.ok ? 'succeeded' : 'failed' });
}
