import { Parser, type ReadEntry } from 'tar';

export type ArchiveCheck = { ok: true; files: string[]; unpackedBytes: number } | { ok: false; message: string };

const GZIP_MAGIC = [0x1f, 0x8b];
const INSPECT_SLICE_BYTES = 64 * 1024;

/** A path inside an archive that stays inside the directory it is unpacked into. */
export function safeEntryPath(path: string): boolean {
  const parts = path.replace(/\\/g, '/').split('/');
  return !path.startsWith('/') && !/^[A-Za-z]:/.test(path) && !parts.includes('..');
}

/**
 * Checks that bytes are a gzip-compressed tar whose entries are plain files, directories or
 * links with safe relative paths, unpacking to at most `maxUnpackedBytes`. An archive with no
 * files is valid (the CLI uploads an empty directory for destroy runs); zero bytes is not.
 */
export async function inspectArchive(data: Buffer, maxUnpackedBytes: number): Promise<ArchiveCheck> {
  if (data.length === 0) return { ok: false, message: 'the archive is empty' };
  if (data[0] !== GZIP_MAGIC[0] || data[1] !== GZIP_MAGIC[1]) return { ok: false, message: 'the archive is not gzip-compressed (expected a .tar.gz)' };
  const files: string[] = [];
  let unpackedBytes = 0;
  let problem: string | null = null;
  let parser!: Parser;
  const parsed = new Promise<void>((resolve) => {
    parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        if (!problem && !safeEntryPath(entry.path)) problem = `unsafe path in archive: ${entry.path}`;
        if (!problem && !['File', 'OldFile', 'ContiguousFile', 'Directory', 'SymbolicLink', 'Link'].includes(entry.type)) {
          problem = `unsupported entry type ${entry.type}: ${entry.path}`;
        }
        unpackedBytes += entry.size ?? 0;
        if (!problem && unpackedBytes > maxUnpackedBytes) problem = 'the archive unpacks to more than the allowed size';
        if (entry.type !== 'Directory') files.push(entry.path.replace(/^\.\//, ''));
        entry.resume();
      },
    });
    parser.on('error', (err: Error) => {
      problem ??= `the archive is not a valid tar.gz: ${err.message}`;
      resolve();
    });
    parser.on('end', () => resolve());
    parser.on('close', () => resolve());
  });
  // Fed a slice at a time, letting other work run in between: decompression is synchronous, and a
  // problem (such as an entry larger than allowed) stops it there instead of after the whole body.
  for (let at = 0; at < data.length && !problem; at += INSPECT_SLICE_BYTES) {
    parser.write(data.subarray(at, at + INSPECT_SLICE_BYTES));
    if (at + INSPECT_SLICE_BYTES < data.length) await new Promise((resolve) => setImmediate(resolve));
  }
  if (problem) parser.abort(new Error(problem));
  else parser.end();
  await parsed;
  return problem ? { ok: false, message: problem } : { ok: true, files, unpackedBytes };
}
