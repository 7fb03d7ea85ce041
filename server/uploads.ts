import type { Request, Response } from 'express';
import { ApiError } from '../shared/platform/errors.js';
import type { Runtime } from '../shared/runtime.js';
import { routeOf } from './observability.js';
import { clientAddress } from './rate-limit.js';
import { CallerUploadSlots, UploadSlots } from './upload-slots.js';

/** What an upload counts against: the organization it is for, and the user it is attributed to (null when none is known). */
export interface UploadOwner {
  organization: string;
  user: string | null;
}

/** The client closed the connection before the body ended (it hears nothing of this answer). */
export class UploadAborted extends ApiError {
  constructor(readonly bytes: number) {
    super('bad-request', 'bad request', 'The connection closed before the upload ended; nothing was stored.');
  }
}

/** The client fell too far behind the minimum rate (UPLOAD_MIN_BYTES_PER_SECOND, UPLOAD_RATE_GRACE_SECONDS). */
export class UploadTooSlow extends ApiError {
  constructor(
    readonly bytes: number,
    minBytesPerSecond: number,
    graceSeconds: number,
  ) {
    super(
      'timed-out',
      'request timeout',
      `The upload arrived slower than ${minBytesPerSecond} bytes a second for longer than ${graceSeconds} seconds; nothing was stored.`,
    );
  }
}

/**
 * A request body read at a minimum pace: the service waits on the client for at most
 * `graceSeconds` behind `minBytesPerSecond`. The client is owed that many bytes for every second
 * the service waits for its next piece (time spent storing what came does not count), and may be
 * behind by at most the grace's worth; a body sent fast and then stalled gets no more than the
 * grace either. Errors of the request stream, which only the client's side causes, end it as
 * aborted.
 */
class PacedBody implements AsyncIterable<Buffer> {
  bytes = 0;

  constructor(
    private readonly req: Request,
    private readonly minBytesPerSecond: number,
    private readonly graceSeconds: number,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    const pieces = (this.req as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    const most = this.minBytesPerSecond * this.graceSeconds;
    let slack = most;
    let reading = false;
    try {
      for (;;) {
        const from = Date.now();
        reading = true;
        const piece = await this.nextPiece(pieces, slack);
        reading = false;
        if (piece.done) {
          if (!this.req.complete) throw new UploadAborted(this.bytes);
          return;
        }
        this.bytes += piece.value.length;
        slack = Math.min(most, slack - ((Date.now() - from) * this.minBytesPerSecond) / 1000 + piece.value.length);
        yield piece.value;
      }
    } finally {
      // The consumer stopped early: the rest of the body is left unread, as when it iterated the
      // request itself. A read still pending (too slow) is left alone, so the answer can be sent.
      if (!reading) await pieces.return?.();
    }
  }

  /** The next piece, unless the client's slack runs out first or its connection fails. */
  private async nextPiece(pieces: AsyncIterator<Buffer>, slack: number): Promise<IteratorResult<Buffer>> {
    const next = pieces.next().catch(() => {
      throw new UploadAborted(this.bytes);
    });
    if (this.minBytesPerSecond <= 0) return next;
    let timer: NodeJS.Timeout | undefined;
    const tooSlow = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new UploadTooSlow(this.bytes, this.minBytesPerSecond, this.graceSeconds)),
        Math.max(0, (slack / this.minBytesPerSecond) * 1000),
      );
    });
    // The read left pending when the client is too slow fails later, with the connection.
    next.catch(() => undefined);
    try {
      return await Promise.race([next, tooSlow]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Where every upload's body is taken in (archives, states, policy code and policy set bundles):
 * the process's slots (in all and per organization), the caller's slots across processes (per
 * user and per client address), the minimum pace, and what an upload cut short logs. Nothing of
 * a refused or cut-short upload is kept: its consumer discards what it stored.
 */
export class Uploads {
  private readonly process: UploadSlots;
  private readonly callers: CallerUploadSlots;

  constructor(private readonly rt: Pick<Runtime, 'config' | 'logger' | 'redis'>) {
    this.process = new UploadSlots(rt.config.maxConcurrentUploads, rt.config.maxConcurrentUploadsPerOrganization);
    this.callers = new CallerUploadSlots(rt.redis, rt.config, rt.logger);
  }

  /**
   * Hands the request body, as a stream of pieces, to `consume` within the upload's slots and
   * releases them when done. Refused before the whole body arrived, the rest is left unread and
   * the connection closes after the answer.
   */
  async receive<T>(
    req: Request,
    res: Response,
    owner: UploadOwner,
    consume: (body: AsyncIterable<Buffer>, declaredBytes: number | undefined) => Promise<T>,
  ): Promise<T> {
    const releaseProcess = this.process.take(owner.organization);
    let releaseCaller: () => void;
    try {
      releaseCaller = await this.callers.take({ user: owner.user, address: clientAddress(req) });
    } catch (err) {
      releaseProcess();
      throw err;
    }
    const declared = Number(req.get('content-length') ?? NaN);
    const body = new PacedBody(req, this.rt.config.uploadMinBytesPerSecond, this.rt.config.uploadRateGraceSeconds);
    try {
      return await consume(body, Number.isFinite(declared) ? declared : undefined);
    } catch (err) {
      if (!req.complete) res.set('Connection', 'close');
      if (err instanceof UploadAborted || err instanceof UploadTooSlow) {
        this.rt.logger.warn(err instanceof UploadAborted ? 'upload aborted' : 'upload too slow', {
          requestId: res.locals.requestId,
          method: req.method,
          route: routeOf(req),
          organization: owner.organization,
          bytes: err.bytes,
        });
      }
      throw err;
    } finally {
      releaseProcess();
      releaseCaller();
    }
  }
}
