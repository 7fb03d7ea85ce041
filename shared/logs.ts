import type { Db } from './db.js';
import { newId } from './ids.js';

const STX = Buffer.from([0x02]);
const ETX = Buffer.from([0x03]);

/** Creates an empty log; readers get nothing until the writer opens it. */
export async function createLog(db: Db): Promise<string> {
  const id = newId('log');
  await db('logs').insert({ id });
  return id;
}

/** Bytes [offset, offset + limit) of a log as stored (STX ... ETX framing included). */
export async function readLog(db: Db, id: string, offset: number, limit: number): Promise<Buffer | null> {
  const log = await db('logs').where({ id }).first('size');
  if (!log) return null;
  const end = offset + limit;
  const chunks = (await db('log_chunks')
    .where({ log_id: id })
    .andWhere('offset', '<', end)
    .andWhereRaw('"offset" + length(data) > ?', [offset])
    .orderBy('offset')
    .select('offset', 'data')) as { offset: number; data: Buffer }[];
  const parts = chunks.map((c) => c.data.subarray(Math.max(0, offset - Number(c.offset)), Math.max(0, end - Number(c.offset))));
  return Buffer.concat(parts);
}

/**
 * Appends process output to a log, batching writes (every `flushMs` or `maxBuffer` bytes) so a
 * chatty process costs few round trips. One writer per log. open() writes STX; close() writes ETX.
 */
export class LogWriter {
  private buffer: Buffer[] = [];
  private buffered = 0;
  private size = 0;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    readonly id: string,
    private readonly flushMs = 250,
    private readonly maxBuffer = 64 * 1024,
  ) {}

  /** Starts the log (STX), or continues an existing one after its current end. */
  async open(): Promise<void> {
    const row = await this.db('logs').where({ id: this.id }).first('size');
    this.size = Number(row?.size ?? 0);
    if (this.size === 0) this.write(STX);
    await this.flush();
  }

  write(data: Buffer | string): void {
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    if (!buf.length) return;
    this.buffer.push(buf);
    this.buffered += buf.length;
    if (this.buffered >= this.maxBuffer) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
  }

  /** Writes what is buffered; flushes are serialised so offsets stay contiguous. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.buffered) return this.chain;
    const data = Buffer.concat(this.buffer);
    this.buffer = [];
    this.buffered = 0;
    const offset = this.size;
    this.size += data.length;
    this.chain = this.chain.then(async () => {
      await this.db('log_chunks').insert({ log_id: this.id, offset, data });
      await this.db('logs').where({ id: this.id }).update({ size: offset + data.length });
    });
    return this.chain;
  }

  /** Ends the log with ETX; readers then know it is complete. */
  async close(): Promise<void> {
    this.write(ETX);
    await this.flush();
    await this.db('logs').where({ id: this.id }).update({ finished: true });
  }
}
