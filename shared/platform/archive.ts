import { gzipSync } from 'node:zlib';
import { Header, Parser, type ReadEntry } from 'tar';

export type ArchiveCheck = { ok: true; files: string[]; unpackedBytes: number } | { ok: false; message: string };

const GZIP_MAGIC = [0x1f, 0x8b];
const INSPECT_SLICE_BYTES = 64 * 1024;
/** The largest file whose text an inspection keeps, and the most it keeps in all of the files it needs (see Keep). */
export const KEPT_FILE_BYTES = 512 * 1024;
export const KEPT_TOTAL_BYTES = 4 * 1024 * 1024;
/** The most an inspection keeps in all of the files it may do without (see Keep), apart from KEPT_TOTAL_BYTES. */
export const KEPT_OPTIONAL_BYTES = 1024 * 1024;

/**
 * Whether an inspection keeps a file's text: `need` (the archive is refused when the file is
 * larger than KEPT_FILE_BYTES or the needed files than KEPT_TOTAL_BYTES in all), `may` (kept when
 * it fits KEPT_FILE_BYTES and KEPT_OPTIONAL_BYTES, skipped otherwise), or null. Optional files have
 * a budget of their own, so they never crowd out a needed one that comes after them.
 */
export type Keep = (path: string) => 'need' | 'may' | null;

const FILE_TYPES = ['File', 'OldFile', 'ContiguousFile'];

/** A path inside an archive that stays inside the directory it is unpacked into. */
export function safeEntryPath(path: string): boolean {
  const parts = path.replace(/\\/g, '/').split('/');
  return !path.startsWith('/') && !/^[A-Za-z]:/.test(path) && !parts.includes('..');
}

/** Whether a link's target, relative to the entry's own directory, stays inside the archive (never absolute). */
export function safeLinkTarget(entryPath: string, target: string): boolean {
  if (target.startsWith('/') || /^[A-Za-z]:/.test(target)) return false;
  const depth: string[] = entryPath
    .replace(/\\/g, '/')
    .split('/')
    .filter((p) => p && p !== '.')
    .slice(0, -1);
  for (const part of target.replace(/\\/g, '/').split('/')) {
    if (part === '..') {
      if (!depth.length) return false;
      depth.pop();
    } else if (part && part !== '.') depth.push(part);
  }
  return true;
}

/**
 * Checks, as its bytes arrive, that an upload is a gzip-compressed tar whose entries are plain
 * files, directories or links with safe relative paths (a link's target inside the archive too),
 * at most `maxEntries` of them, unpacking to at most `maxUnpackedBytes`. The first bad byte
 * settles it: `write` answers the problem at once and ignores what follows. An archive with no
 * files is valid (the CLI uploads an empty directory for destroy runs); zero bytes is not.
 */
export class ArchiveInspector {
  private readonly files: string[] = [];
  /** Texts of the files `keep` asked for (see the constructor), by path. */
  readonly texts = new Map<string, string>();
  /** Bytes kept by kind, and each kept path's size (a path may come twice: the later one wins). */
  private readonly keptBytes = { need: 0, may: 0 };
  private readonly keptSizes = new Map<string, number>();
  private entries = 0;
  private unpackedBytes = 0;
  private received = 0;
  private problem: string | null = null;
  private readonly parser: Parser;
  private readonly parsed: Promise<void>;

  constructor(
    private readonly maxUnpackedBytes: number,
    private readonly maxEntries = Number.POSITIVE_INFINITY,
    /** Files whose text to keep (in `texts`). */
    private readonly keep?: Keep,
  ) {
    let done!: () => void;
    this.parsed = new Promise<void>((resolve) => (done = resolve));
    this.parser = new Parser({ strict: true, onReadEntry: (entry: ReadEntry) => this.entry(entry) });
    this.parser.on('error', (err: Error) => {
      this.problem ??= `the archive is not a valid tar.gz: ${err.message}`;
      done();
    });
    this.parser.on('end', done);
    this.parser.on('close', done);
  }

  private entry(entry: ReadEntry): void {
    const fail = (message: string) => void (this.problem ??= message);
    if (!safeEntryPath(entry.path)) fail(`unsafe path in archive: ${entry.path}`);
    if (!['File', 'OldFile', 'ContiguousFile', 'Directory', 'SymbolicLink', 'Link'].includes(entry.type))
      fail(`unsupported entry type ${entry.type}: ${entry.path}`);
    // A hard link names another entry (from the archive's root); a symbolic link's target is
    // relative to its own directory. Either must stay inside the archive.
    const target = String(entry.linkpath ?? '');
    const linkOk =
      entry.type === 'Link'
        ? safeEntryPath(target)
        : entry.type !== 'SymbolicLink' || safeLinkTarget(entry.path, target);
    if (!linkOk) fail(`link leaves the archive: ${entry.path} -> ${target}`);
    if (++this.entries > this.maxEntries) fail(`the archive has more than ${this.maxEntries} entries`);
    this.unpackedBytes += entry.size ?? 0;
    if (this.unpackedBytes > this.maxUnpackedBytes) fail('the archive unpacks to more than the allowed size');
    const path = entry.path.replace(/^\.\//, '');
    if (entry.type !== 'Directory') this.files.push(path);
    const kind = this.keep && !this.problem && FILE_TYPES.includes(entry.type) ? this.keep(path) : null;
    if (kind && this.fits(kind, path, entry.size ?? 0)) {
      const parts: Buffer[] = [];
      entry.on('data', (d: Buffer) => parts.push(d));
      entry.on('end', () => this.texts.set(path, Buffer.concat(parts).toString('utf8')));
      return;
    }
    entry.resume();
  }

  /** Counts a file to keep against its budget when it fits; a needed one that does not is the archive's problem. */
  private fits(kind: 'need' | 'may', path: string, size: number): boolean {
    const before = this.keptSizes.get(path) ?? 0;
    const total = this.keptBytes[kind] - before + size;
    const limit = kind === 'need' ? KEPT_TOTAL_BYTES : KEPT_OPTIONAL_BYTES;
    if (size <= KEPT_FILE_BYTES && total <= limit) {
      this.keptBytes[kind] = total;
      this.keptSizes.set(path, size);
      return true;
    }
    if (kind === 'may' && before) {
      // An earlier entry of the same path is replaced by this one, which is not kept.
      this.keptBytes.may -= before;
      this.keptSizes.delete(path);
      this.texts.delete(path);
    }
    if (kind === 'need') {
      this.problem ??=
        size > KEPT_FILE_BYTES
          ? `${path} is larger than ${KEPT_FILE_BYTES} bytes, the most a file the archive is read from may have`
          : `the files the archive is read from are larger than ${KEPT_TOTAL_BYTES} bytes in all (at ${path})`;
    }
    return false;
  }

  /**
   * Feeds the next bytes, a slice at a time with other work let run in between (decompression is
   * synchronous); the problem found so far, or null.
   */
  async write(piece: Buffer): Promise<string | null> {
    if (this.problem) return this.problem;
    if (this.received < GZIP_MAGIC.length) {
      for (let i = 0; i < piece.length && this.received + i < GZIP_MAGIC.length; i++) {
        if (piece[i] !== GZIP_MAGIC[this.received + i])
          return (this.problem = 'the archive is not gzip-compressed (expected a .tar.gz)');
      }
    }
    this.received += piece.length;
    for (let at = 0; at < piece.length && !this.problem; at += INSPECT_SLICE_BYTES) {
      this.parser.write(piece.subarray(at, at + INSPECT_SLICE_BYTES));
      if (at + INSPECT_SLICE_BYTES < piece.length) await new Promise((resolve) => setImmediate(resolve));
    }
    return this.problem;
  }

  /** Ends the input: the verdict on the whole archive. */
  async end(): Promise<ArchiveCheck> {
    if (!this.problem && this.received === 0) this.problem = 'the archive is empty';
    if (this.problem) this.parser.abort(new Error(this.problem));
    else this.parser.end();
    await this.parsed;
    return this.problem
      ? { ok: false, message: this.problem }
      : { ok: true, files: this.files, unpackedBytes: this.unpackedBytes };
  }
}

/** Checks a whole archive in memory (see ArchiveInspector). */
export async function inspectArchive(
  data: Buffer,
  maxUnpackedBytes: number,
  maxEntries = Number.POSITIVE_INFINITY,
): Promise<ArchiveCheck> {
  const inspector = new ArchiveInspector(maxUnpackedBytes, maxEntries);
  await inspector.write(data);
  return inspector.end();
}

/**
 * The regular files of an archive as text (path without a leading `./` -> UTF-8 content), once
 * inspectArchive found it safe and within the limits. Links are not followed: a bundle's files
 * are read as they are stored.
 */
export async function archiveTexts(
  data: Buffer,
  maxUnpackedBytes: number,
  maxEntries = Number.POSITIVE_INFINITY,
): Promise<{ ok: true; files: Map<string, string> } | { ok: false; message: string }> {
  const check = await inspectArchive(data, maxUnpackedBytes, maxEntries);
  if (!check.ok) return check;
  const files = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        if (!['File', 'OldFile', 'ContiguousFile'].includes(entry.type)) return void entry.resume();
        const parts: Buffer[] = [];
        entry.on('data', (c: Buffer) => parts.push(c));
        entry.on('end', () => files.set(entry.path.replace(/^\.\//, ''), Buffer.concat(parts).toString('utf8')));
      },
    });
    parser.on('error', reject);
    parser.on('end', () => resolve());
    parser.end(data);
  });
  return { ok: true, files };
}

/** A .tar.gz of a few text files the service writes itself (path -> text), built in memory. */
export function tarGzOf(files: Record<string, string>): Buffer {
  const blocks: Buffer[] = [];
  for (const [path, text] of Object.entries(files)) {
    const body = Buffer.from(text, 'utf8');
    const header = Buffer.alloc(512);
    new Header({ path, mode: 0o644, size: body.length, mtime: new Date(0), type: 'File' }).encode(header, 0);
    blocks.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  // Two empty blocks end the archive.
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}
