import { Unavailable } from '../shared/errors.js';
import { UNAVAILABLE_RETRY_SECONDS } from './errors.js';

/**
 * How many request bodies (archives, policy code) one web process takes in at once, in all and
 * per organization (MAX_CONCURRENT_UPLOADS, MAX_CONCURRENT_UPLOADS_PER_ORGANIZATION). Each upload
 * streams with bounded memory; the caps bound how many of those buffers, and of the database
 * writes behind them, one process carries, and keep one organization from taking them all.
 */
export class UploadSlots {
  private total = 0;
  private readonly held = new Map<string, number>();

  constructor(
    private readonly perProcess: number,
    private readonly perOrganization: number,
  ) {}

  /** Takes a slot for `organization` until the returned release is called; 503 with Retry-After when none is free. */
  take(organization: string): () => void {
    const mine = this.held.get(organization) ?? 0;
    if (this.total >= this.perProcess || mine >= this.perOrganization) {
      const whose = mine >= this.perOrganization ? 'this organization has' : 'the service has';
      throw new Unavailable(`${whose} too many uploads in progress; try again in ${UNAVAILABLE_RETRY_SECONDS} seconds`);
    }
    this.total++;
    this.held.set(organization, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const n = (this.held.get(organization) ?? 1) - 1;
      if (n <= 0) this.held.delete(organization);
      else this.held.set(organization, n);
    };
  }
}
