import type { Job } from 'bullmq';
import type { WorkerDeps } from './context.js';
import { idFrom, organizationFrom } from './context.js';
import { decryptSecret } from '../shared/crypto.js';
import type { VerificationRow } from '../shared/usecases/verification.js';
import { inFairSlot } from './organization-slots.js';

/** Headers a verification request carries per kind; the body was composed by the API. */
const SIGNATURE_HEADERS: Record<string, string[]> = {
  'run-task': ['X-Svc-Task-Signature', 'X-TFC-Task-Signature'],
  notification: ['X-Svc-Notification-Signature', 'X-TFE-Notification-Signature'],
};

/**
 * Calls the destination of one verification row and records what came back, in one of its
 * organization's slots of this process (so a slow destination of one organization never holds
 * every slot while another organization's API call waits). The request has the short verification
 * timeouts (deps.verifier), so a slow destination gives its slot back quickly.
 */
export async function verify(job: Job<unknown>, deps: WorkerDeps, token?: string): Promise<void> {
  const id = idFrom(job.data, 'verificationId');
  await inFairSlot(deps.outboundSlots.verification, organizationFrom(job.data), job, token, () => verifyRow(deps, id));
}

async function verifyRow(deps: WorkerDeps, id: string): Promise<void> {
  const [row] = await deps.db<VerificationRow>('verifications')
    .where({ id, status: 'pending' })
    .update({ status: 'running', lease_until: deps.db.raw(`now() + interval '30 seconds'`) } as never)
    .returning('*');
  if (!row) return;
  const secret = row.secret_sealed ? decryptSecret(deps.config.encryptionKey, row.secret_sealed) : null;
  const result = await deps.verifier.send(
    {
      url: row.url,
      method: 'POST',
      body: row.body ?? '',
      headers: { 'Content-Type': 'application/json', 'User-Agent': `${deps.config.runTaskAgentName}/1.0 (+${deps.config.baseUrl}; ${deps.config.runTaskAgentName})` },
      // Run task requests always carry the signature header (empty without a key); notifications only when signed.
      ...(row.kind === 'run-task' || secret ? { sign: { key: secret, headers: SIGNATURE_HEADERS[row.kind] ?? [] } } : {}),
    },
  );
  await deps.db('verifications')
    .where({ id, status: 'running' })
    .update({
      status: result.ok ? 'succeeded' : 'failed',
      response_status: result.status,
      response_headers: JSON.stringify(result.headers),
      response_body: result.body,
      error: result.error ?? (result.ok ? null : `the destination answered ${result.status}`),
      finished_at: deps.db.fn.now(),
    });
}
