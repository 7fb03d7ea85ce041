import { writeAsOneStatement, type Db, type Writes } from './db.js';
import { newId } from './ids.js';

const STX = Buffer.from([0x02]);
const ETX = Buffer.from([0x03]);

/** Inserts empty logs (a query: await it, or use it in a larger statement); readers get nothing until a writer writes. */
export const insertLogs = (db: Db, ids: string[]) => db('logs').insert(ids.map((id) => ({ id })));

/** Creates an empty log. */
export async function createLog(db: Db): Promise<string> {
  const id = newId('log');
  await insertLogs(db, [id]);
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
  const parts = chunks.map((c) =>
    c.data.subarray(Math.max(0, offset - Number(c.offset)), Math.max(0, end - Number(c.offset))),
  );
  return Buffer.concat(parts);
}

/** The last line of a log cut at `limit` bytes (MAX_LOG_BYTES). */
export const truncationLine = (limit: number) =>
  `\n[The log was cut here: it reached the limit of ${limit} bytes (MAX_LOG_BYTES); the rest of the output was not kept.]\n`;

export interface LogWriterOptions {
  /** Bytes the log may hold (STX included): what goes past them is dropped, after one last line saying so (see truncationLine). */
  maxBytes?: number;
  flushMs?: number;
  maxBuffer?: number;
}

/**
 * Appends process output to a log, batching writes (every `flushMs` or `maxBuffer` bytes) so a
 * chatty process costs few round trips. One writer per log. The first chunk starts with STX;
 * close() or closing() writes ETX, after which the writer takes nothing more. Flushes are
 * serialised on one chain, and the closing write comes after all of them, so offsets stay
 * contiguous. A log that reaches `maxBytes` is cut there: the truncation line is its last
 * content, and later writes are dropped (ETX still ends it). A write that fails (the database is
 * unreachable) keeps its bytes for the next one, and closing() may be run again after the
 * statement carrying it failed: an outage delays a log, it does not lose or reorder it.
 */
export class LogWriter {
  private buffer: Buffer[] = [];
  private buffered = 0;
  private size = 0;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  /** The log was cut at maxBytes: nothing more is kept. */
  private cut = false;
  /** What closing() wrote, from where: the same again when the statement that carried it failed. */
  private ending: { data: Buffer; size: number; cut: boolean } | null = null;
  /** A write is queued on the chain and has not started. */
  private waiting = false;
  private readonly maxBytes: number;
  private readonly flushMs: number;
  private readonly maxBuffer: number;

  constructor(
    private readonly db: Db,
    readonly id: string,
    options: LogWriterOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? Infinity;
    this.flushMs = options.flushMs ?? 250;
    this.maxBuffer = options.maxBuffer ?? 64 * 1024;
  }

  /**
   * Starts the log, or continues an existing one after its current end, with `preface`. Only the
   * end is read here: the preface goes out with the next flush, STX first when the log is new.
   * Writes may follow at once, without waiting: they queue behind it.
   */
  open(preface = ''): Promise<void> {
    this.chain = this.chain.then(async () => {
      const row = await this.db('logs').where({ id: this.id }).first('size');
      this.size = Number(row?.size ?? 0);
      // A log continued past its limit was cut already, its truncation line written.
      if (this.size >= this.maxBytes) this.cut = true;
    });
    this.write(preface);
    return this.chain;
  }

  write(data: Buffer | string): void {
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    if (!buf.length || this.closed || this.cut) return;
    this.buffer.push(buf);
    this.buffered += buf.length;
    if (this.buffered >= this.maxBuffer) this.flushLater();
    else this.timer ??= setTimeout(() => this.flushLater(), this.flushMs);
  }

  /** A flush nobody waits for: a failure stops the chain and surfaces at the next awaited flush or close(). */
  private flushLater(): void {
    this.flush().catch(() => undefined);
  }

  /** Writes what is buffered (through `db`, e.g. a transaction), after every earlier write. */
  flush(db: Db = this.db, finished = false): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.buffered && !finished) return this.chain;
    // One waiting write is enough: it takes, when its turn comes, whatever is buffered then
    // (bytes a failed write gave back first), so an outage does not pile up attempts.
    if (this.waiting && db === this.db && !finished) return this.chain;
    this.waiting = true;
    this.chain = this.chain
      .catch(() => undefined)
      .then(() => {
        this.waiting = false;
        return this.append(db, finished);
      });
    return this.chain;
  }

  /** Ends the log with ETX (through `db`, e.g. the transaction that records the end of the phase); readers then know it is complete. */
  async close(db: Db = this.db): Promise<void> {
    await writeAsOneStatement(db, await this.closing(db));
  }

  /**
   * Ends the log as writes for a larger statement (see Writes), to run in `db`: once every earlier
   * write is done, what is still buffered and ETX. Nothing may be written after.
   */
  async closing(db: Db): Promise<Writes> {
    for (let chain = this.chain; ; chain = this.chain) {
      await chain.catch(() => undefined);
      if (chain === this.chain) break;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.closed = true;
    if (!this.ending) {
      this.ending = { data: Buffer.concat([...this.buffer, ETX]), size: this.size, cut: this.cut };
      this.buffer = [];
      this.buffered = 0;
    }
    this.size = this.ending.size;
    this.cut = this.ending.cut;
    return this.appendWrites(db, this.ending.data, true);
  }

  /** Writes what is buffered; on failure gives the bytes back, to go first in the next write. */
  private async append(db: Db, finished: boolean): Promise<void> {
    const data = Buffer.concat(this.buffer);
    this.buffer = [];
    this.buffered = 0;
    const [size, cut] = [this.size, this.cut];
    try {
      await writeAsOneStatement(db, this.appendWrites(db, data, finished));
    } catch (err) {
      [this.size, this.cut] = [size, cut];
      this.buffer.unshift(data);
      this.buffered += data.length;
      throw err;
    }
  }

  /**
   * What of `content` the log keeps: all of it within maxBytes; else what fits (not splitting a
   * UTF-8 character) and the truncation line, once; nothing after. ETX (`finished`) is always kept.
   */
  private kept(content: Buffer, finished: boolean): Buffer {
    const etx = finished && content.length > 0 && content[content.length - 1] === ETX[0] ? 1 : 0;
    const [body, end] = [content.subarray(0, content.length - etx), content.subarray(content.length - etx)];
    const header = this.size === 0 ? 1 : 0;
    if (this.cut) return end;
    if (this.size + header + body.length <= this.maxBytes) return content;
    let room = Math.max(0, this.maxBytes - this.size - header);
    while (room > 0 && room < body.length && (body[room] & 0xc0) === 0x80) room--;
    this.cut = true;
    return Buffer.concat([body.subarray(0, room), Buffer.from(truncationLine(this.maxBytes)), end]);
  }

  /** The chunk and the log's new end (STX first when the log is new); counts the bytes as written. */
  private appendWrites(db: Db, raw: Buffer, finished: boolean): Writes {
    const content = this.kept(raw, finished);
    const data = this.size === 0 ? Buffer.concat([STX, content]) : content;
    const offset = this.size;
    this.size += data.length;
    return [
      ['log_chunk', db('log_chunks').insert({ log_id: this.id, offset, data })],
      [
        'log_end',
        db('logs')
          .where({ id: this.id })
          .update(finished ? { size: this.size, finished: true } : { size: this.size }),
      ],
    ];
  }
}
