import { DelayedError, type Job } from 'bullmq';

/**
 * A worker process's fair share of its Terraform slots between organizations: one organization
 * holds at most `perOrganization` of them at once (RUN_SLOTS_PER_ORGANIZATION, by default half of
 * RUN_CONCURRENCY rounded up), so another organization's run always finds one free, however many
 * slow runs the first has queued. Made in the worker's entry point, one per process.
 */
export class OrganizationSlots {
  private readonly held = new Map<string, number>();

  constructor(private readonly perOrganization: number) {}

  /** Takes a slot for `organization`; false when it holds its share already. */
  take(organization: string): boolean {
    const n = this.held.get(organization) ?? 0;
    if (n >= this.perOrganization) return false;
    this.held.set(organization, n + 1);
    return true;
  }

  release(organization: string): void {
    const n = (this.held.get(organization) ?? 1) - 1;
    if (n <= 0) this.held.delete(organization);
    else this.held.set(organization, n);
  }
}

/** How long a job whose organization holds its share waits before it is tried again (with a little spread). */
const RETRY_MS = 3_000;

/**
 * Runs `work` in one of `organization`'s slots; when it holds its share, the job goes back to the
 * queue's delayed set (not failed, no attempt counted) and this process's slot takes the next job.
 */
export async function inFairSlot(slots: OrganizationSlots, organization: string | null, job: Job<unknown>, token: string | undefined, work: () => Promise<void>): Promise<void> {
  if (organization === null) return work();
  if (!slots.take(organization)) {
    await job.moveToDelayed(Date.now() + RETRY_MS + Math.floor(Math.random() * 1000), token);
    throw new DelayedError();
  }
  try {
    await work();
  } finally {
    slots.release(organization);
  }
}
