import { UnrecoverableError, type Job } from 'bullmq';
import type { WorkerDeps } from './context.js';
import { idFrom } from './context.js';
import { claimMail, settleMail } from '../shared/repos/mail.js';

const LEASE_MS = 60_000;

/** Delivers one outgoing mail row: claim under a lease, send, settle. A settled row is a no-op. */
export async function deliverMail(job: Job<unknown>, deps: WorkerDeps): Promise<void> {
  let mailId: string;
  try {
    mailId = idFrom(job.data, 'mailId');
  } catch (err) {
    throw new UnrecoverableError(String(err));
  }
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
