import type { QueueJob, WorkerDeps } from './context.js';
import { idFrom, organizationFrom } from './context.js';
import { runVerification } from '../shared/notifications/index.js';
import { inFairSlot } from './organization-slots.js';

/**
 * Calls the destination of one verification row and records what came back, in one of its
 * organization's slots of this process (so a slow destination of one organization never holds
 * every slot while another organization's API call waits).
 */
export async function verify(job: QueueJob<'verification', 'verify'>, deps: WorkerDeps, token?: string): Promise<void> {
  const id = idFrom(job.data, 'verificationId');
  await inFairSlot(deps.outboundSlots.verification, organizationFrom(job.data), job, token, () =>
    runVerification(deps, id),
  );
}
