import { JOB, type QueueName } from '../shared/queues.js';
import type { Processor } from './context.js';
import { deliverMail } from './notification-delivery.js';
import { runReconciler } from './deadline-expiry.js';

/**
 * Processors by queue and job name. Queues without an entry have no processor yet: their
 * process type starts, says so in the log and exits cleanly until its area is built.
 */
export const PROCESSORS: Partial<Record<QueueName, Record<string, Processor>>> = {
  'notification-delivery': { [JOB.mailDelivery]: deliverMail },
  'deadline-expiry': { [JOB.reconcile]: runReconciler },
};

/** Concurrency per queue for one process. */
export const CONCURRENCY: Partial<Record<QueueName, number>> = {
  'notification-delivery': 8,
  'deadline-expiry': 1,
};
