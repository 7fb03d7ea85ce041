import type { Runtime } from '../runtime.js';
import type { Mailer } from '../platform/mailer.js';
import { claimMail, openMailBody, settleMail } from './repo.js';

/** A mail message's lease while it is being sent. */
const MAIL_LEASE_SECONDS = 60;

/** How a mail attempt failed: the error, and whether it was the last attempt allowed. */
export interface MailFailure {
  error: unknown;
  last: boolean;
}

/**
 * Delivers one outgoing mail row: claim under a lease, send, settle. A settled row is a no-op.
 * A failed send is settled as a retry (or given up on the last attempt) and returned.
 */
export async function deliverMail(
  deps: Pick<Runtime, 'db' | 'logger' | 'metrics' | 'config'> & { mailer: Mailer; workerId: string },
  mailId: string,
  attempt: { made: number; allowed: number; jobId?: string },
): Promise<MailFailure | null> {
  const mail = await claimMail(deps.db, mailId, MAIL_LEASE_SECONDS);
  if (!mail) return null;
  try {
    await deps.mailer.send({
      to: mail.to_address,
      subject: mail.subject,
      text: openMailBody(mail, deps.config.encryptionKey),
    });
  } catch (err) {
    const last = attempt.made + 1 >= attempt.allowed;
    const retryInMs = 5000 * 2 ** attempt.made;
    await settleMail(deps.db, mail.id, last ? 'give_up' : 'retry', { error: String(err), retryInMs });
    deps.logger.warn('mail delivery failed', { jobId: attempt.jobId, mailId, attempt: attempt.made + 1, last });
    deps.metrics.outbound.inc({ kind: 'mail', outcome: last ? 'failed' : 'retry' });
    return { error: err, last };
  }
  await settleMail(deps.db, mail.id, 'deliver', { sentBy: deps.workerId });
  deps.metrics.outbound.inc({ kind: 'mail', outcome: 'delivered' });
  return null;
}
