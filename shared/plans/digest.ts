import { Worker } from 'node:worker_threads';
import { countChanges, schemasOfChanges, structuredPlan } from './json.js';

/** A JSON plan and, when there are any, the providers' schemas (all of them, or those already kept for it). */
export interface DigestInput {
  plan: Uint8Array;
  schemas: Uint8Array | null;
}

/** What a PlanDigester makes of a JSON plan. */
export interface PlanDigest {
  counts: ReturnType<typeof countChanges>;
  /** The schemas of the types the plan changes (see schemasOfChanges), serialized; null without schemas. */
  schemas: Buffer | null;
  /** The redacted plan served by json-output-redacted (see structuredPlan), serialized. */
  redacted: Buffer;
}

/**
 * Plans up to this size are digested in the calling thread: a few milliseconds of work at most,
 * where starting a thread costs some 35 ms (most plans are a few kilobytes).
 */
const INLINE_BYTES = 256 * 1024;

/** Threads digesting at once in a process: each holds a parsed plan (several times its size in memory). */
const MAX_THREADS = 2;

const bytes = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/** A PlanDigester's work, in the calling thread (the thread's module runs the same). */
export function digestHere(input: DigestInput): PlanDigest {
  const plan = JSON.parse(bytes(input.plan).toString('utf8'));
  const schemas = input.schemas ? schemasOfChanges(plan, JSON.parse(bytes(input.schemas).toString('utf8'))) : null;
  return {
    counts: countChanges(plan),
    schemas: schemas ? Buffer.from(JSON.stringify(schemas)) : null,
    redacted: Buffer.from(JSON.stringify(structuredPlan(plan, schemas))),
  };
}

/**
 * Parses, counts and redacts JSON plans; a large one on a thread of its own, so its seconds of
 * work hold up nothing else the process does (docs/design-for-speed.md, "Plans digested on
 * threads"). The buffers are copied to the thread; the results come back without a copy. One per
 * process (see Runtime): it runs at most `maxThreads` threads at once.
 */
export class PlanDigester {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly maxThreads = MAX_THREADS) {}

  async digest(input: DigestInput): Promise<PlanDigest> {
    if (input.plan.byteLength + (input.schemas?.byteLength ?? 0) <= INLINE_BYTES) return digestHere(input);
    return this.slot(
      () =>
        new Promise<PlanDigest>((resolve, reject) => {
          const thread = new Worker(new URL('./digest-thread.js', import.meta.url), { workerData: input });
          let answer: PlanDigest | undefined;
          thread.once(
            'message',
            (m: { counts: PlanDigest['counts']; schemas: Uint8Array | null; redacted: Uint8Array }) => {
              answer = { counts: m.counts, schemas: m.schemas && bytes(m.schemas), redacted: bytes(m.redacted) };
            },
          );
          thread.once('error', reject);
          thread.once('exit', (code) =>
            answer
              ? resolve(answer)
              : reject(new Error(`the plan could not be read (thread exited with code ${code})`)),
          );
        }),
    );
  }

  private async slot<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.maxThreads) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
