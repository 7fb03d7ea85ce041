import { DelayedError, type Job } from 'bullmq';

/**
 * A worker process's fair share of one queue's slots between organizations: one organization
 * holds at most `perOrganization` of them at once, so another organization's job always finds one
 * free (within `holdMs`, below), however many slow jobs the first has queued. Made in the worker's entry point, one per
 * queue (or group of queues sharing slots) and process: the Terraform slots
 * (RUN_SLOTS_PER_ORGANIZATION, by default half of RUN_CONCURRENCY rounded up), and the slots of the
 * queues that call user-supplied URLs (VERIFICATION_, TASK_DISPATCH_ and
 * DELIVERY_SLOTS_PER_ORGANIZATION, by default half of OUTBOUND_QUEUE_CONCURRENCY).
 *
 * The count lives in this process's memory and a slot is released when its job's work ends, however
 * it ends (the `finally` in inFairSlot); a process that dies takes its counts with it, so a crash
 * never strands a slot: BullMQ hands the dead process's jobs to another worker after their lock expires.
 *
 * With `holdMs`, a job whose organization holds its share first waits that long in the process for
 * one of its organization's slots (the next one freed here passes straight to it) and is parked
 * only if none frees, as parking costs a job a second fetch (docs/design-for-speed.md, "Fair slots").
 */
export class OrganizationSlots {
  private readonly held = new Map<string, number>();
  /** Jobs this process sent back to wait for their organization's share, oldest first. */
  private readonly parked = new Map<string, Job<unknown>[]>();
  /** Jobs waiting in this process for one of their organization's slots, oldest first. */
  private readonly holding = new Map<string, Holder[]>();

  /**
   * `retryMs`: how long a parked job waits at most before it is tried again (plus up to a third
   * more, spread); `holdMs`: how long a job waits in the process for a slot before it is parked.
   */
  constructor(
    private readonly perOrganization: number,
    readonly retryMs = 3_000,
    readonly holdMs = 0,
  ) {}

  /** Takes a slot for `organization`; false when it holds its share already. */
  take(organization: string): boolean {
    const n = this.held.get(organization) ?? 0;
    if (n >= this.perOrganization) return false;
    this.held.set(organization, n + 1);
    return true;
  }

  /**
   * Waits up to holdMs for one of `organization`'s slots freed in this process; true when it got
   * one (taken for it), false when none freed in time.
   */
  hold(organization: string): Promise<boolean> {
    if (this.holdMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const holders = this.holding.get(organization) ?? [];
      this.holding.set(organization, holders);
      const holder: Holder = {
        timer: setTimeout(() => {
          // Still in the list: a holder given a slot is taken out of it and its timer cleared.
          holders.splice(holders.indexOf(holder), 1);
          if (!holders.length) this.holding.delete(organization);
          resolve(false);
        }, this.holdMs),
        resolve,
      };
      holders.push(holder);
    });
  }

  /**
   * Frees a slot: it passes to the organization's longest-holding job in this process, or else the
   * organization's longest-waiting parked job is let go at once.
   */
  release(organization: string): void {
    const holders = this.holding.get(organization);
    const holder = holders?.shift();
    if (holders && !holders.length) this.holding.delete(organization);
    if (holder) {
      clearTimeout(holder.timer);
      holder.resolve(true);
      return;
    }
    const n = (this.held.get(organization) ?? 1) - 1;
    if (n <= 0) this.held.delete(organization);
    else this.held.set(organization, n);
    this.wakeOne(organization);
  }

  /**
   * Remembers a job sent back to the delayed set for its organization's share, to promote it when
   * one of the organization's slots frees here; if one freed meanwhile, at once.
   */
  park(organization: string, job: Job<unknown>): void {
    this.parked.set(organization, [...(this.parked.get(organization) ?? []), job]);
    if ((this.held.get(organization) ?? 0) < this.perOrganization) this.wakeOne(organization);
  }

  /**
   * The queue had nothing more for this process: each organization's parked jobs go, as many as it
   * has free slots here. A job promoted when one of its slots freed may have been taken by another
   * process, which leaves this process's slot free and its other parked jobs waiting out their
   * delay unless they are let go here.
   */
  drained(): void {
    for (const organization of [...this.parked.keys()]) {
      const free = this.perOrganization - (this.held.get(organization) ?? 0);
      for (let i = 0; i < free; i++) this.wakeOne(organization);
    }
  }

  private wakeOne(organization: string): void {
    const waiting = this.parked.get(organization);
    const next = waiting?.shift();
    if (waiting && !waiting.length) this.parked.delete(organization);
    // A job another process took meanwhile is no longer delayed: promoting it fails, harmlessly.
    if (next) void next.promote().catch(() => undefined);
  }
}

/** A job waiting in the process for a slot: its deadline, and how it learns whether it got one. */
interface Holder {
  timer: NodeJS.Timeout;
  resolve: (got: boolean) => void;
}

/**
 * Runs `work` in one of `organization`'s slots; when it holds its share, the job waits up to the
 * slots' holdMs in this process for one to free, and otherwise goes back to the
 * queue's delayed set and this process's slot takes the next job. The job waits there until one of
 * the organization's slots frees in this process (which promotes it), or `retryMs` at most. The move does not count as an
 * attempt (BullMQ's Job.moveToDelayed skips the attempt count, and DelayedError is neither a failure
 * nor a completion), and it happens before `work` claims anything, so rows that count their own
 * attempts (deliveries, run task requests) are untouched. A job without an organization (queued by
 * an earlier version) runs unlimited.
 */
export async function inFairSlot(
  slots: OrganizationSlots,
  organization: string | null,
  job: Job<unknown>,
  token: string | undefined,
  work: () => Promise<void>,
): Promise<void> {
  if (organization === null) return work();
  if (!slots.take(organization) && !(await slots.hold(organization))) {
    await job.moveToDelayed(Date.now() + slots.retryMs + Math.floor(Math.random() * (slots.retryMs / 3)), token);
    slots.park(organization, job);
    throw new DelayedError();
  }
  try {
    await work();
  } finally {
    slots.release(organization);
  }
}
