import type { Runtime } from '../runtime.js';
import { newId } from '../ids.js';
import { encryptSecret } from '../crypto.js';
import { enqueueAfterCommit, jobs } from '../queues.js';
import { verificationWaitMs } from '../config.js';

export interface VerificationRow {
  id: string;
  kind: string;
  organization_name: string | null;
  url: string;
  secret_sealed: string | null;
  body: string | null;
  status: 'pending' | 'running' | 'succeeded' | 'failed';
  response_status: number | null;
  response_headers: Record<string, string[]> | null;
  response_body: string | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

/**
 * Asks the verification worker to call a destination and waits (bounded) for the outcome; the
 * API never calls user-supplied URLs itself. The request is a durable row; its secret is sealed.
 * The wait is the request's own timeout (VERIFICATION_TIMEOUT_SECONDS) plus a margin for the job's
 * time in the queue, where the organization's fair share of the worker may hold it a little.
 */
export async function verifyDestination(
  rt: Runtime,
  req: { kind: string; organization: string; url: string; body: string; secret: string | null },
  waitMs = verificationWaitMs(rt.config),
): Promise<VerificationRow> {
  const [row] = await rt.db<VerificationRow>('verifications')
    .insert({
      id: newId('verify'),
      kind: req.kind,
      organization_name: req.organization,
      url: req.url,
      body: req.body,
      secret_sealed: req.secret ? encryptSecret(rt.config.encryptionKey, req.secret) : null,
    })
    .returning('*');
  await enqueueAfterCommit(rt.queues, jobs.verify(row.id, req.organization), rt.logger);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const current = (await rt.db<VerificationRow>('verifications').where({ id: row.id }).first())!;
    if (current.status === 'succeeded' || current.status === 'failed') return current;
    if (Date.now() > deadline) {
      await rt.db('verifications').where({ id: row.id }).whereIn('status', ['pending', 'running']).update({ status: 'failed', error: 'no verification result in time', finished_at: rt.db.fn.now() });
      return { ...current, status: 'failed', error: 'the destination could not be verified in time' };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
