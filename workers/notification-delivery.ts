import { UnrecoverableError } from 'bullmq';
import type { NotificationPayload } from '../shared/platform/queues.js';
import type { QueueJob, WorkerDeps } from './context.js';
import { idFrom, organizationFrom } from './context.js';
import { inFairSlot } from './organization-slots.js';
import { deliverNotifications } from '../shared/notifications/index.js';
import { deliverMail as deliverMailMessage } from '../shared/mail/index.js';

/** Delivers one outgoing mail row; a failed send is retried by the queue, the last one fails the job for good. */
export async function deliverMail(
  job: QueueJob<'notification-delivery', 'mail-delivery'>,
  deps: WorkerDeps,
): Promise<void> {
  const mailId = idFrom(job.data, 'mailId');
  const failure = await deliverMailMessage(deps, mailId, {
    made: job.attemptsMade,
    allowed: job.opts.attempts ?? 1,
    jobId: job.id,
  });
  if (!failure) return;
  if (failure.last) throw new UnrecoverableError(`mail ${mailId} failed: ${String(failure.error)}`);
  throw failure.error;
}

/** The delivery ids a job carries: several (`deliveryIds`) or one (`deliveryId`). */
function deliveryIdsFrom(data: NotificationPayload): string[] {
  const many: unknown = data?.deliveryIds;
  if (!Array.isArray(many)) return [idFrom(data, 'deliveryId')];
  if (many.length === 0) throw new UnrecoverableError('job data lacks delivery ids');
  return many.map((id: unknown) => idFrom({ id }, 'id'));
}

/**
 * One attempt at each of a job's notification deliveries (all of one organization), in one of
 * that organization's slots of this process (see deliverNotifications). A job that waits for its
 * organization's share has claimed nothing, so the wait is not an attempt.
 */
export async function deliverNotification(
  job: QueueJob<'notification-delivery', 'notify'>,
  deps: WorkerDeps,
  token?: string,
): Promise<void> {
  const ids = deliveryIdsFrom(job.data);
  await inFairSlot(deps.outboundSlots['notification-delivery'], organizationFrom(job.data), job, token, () =>
    deliverNotifications(deps, ids),
  );
}
