import { Parser, type ReadEntry } from 'tar';

export type ArchiveCheck = { ok: true; files: string[]; unpackedBytes: number } | { ok: false; message: string };

const GZIP_MAGIC = [0x1f, 0x8b];
const INSPECT_SLICE_BYTES = 64 * 1024;

/** A path inside an archive that stays inside the directory it is unpacked into. */
export function safeEntryPath(path: string): boolean {
  const parts = path.replace(/\\/g, '/').split('/');
  return !path.startsWith('/') && !/^[A-Za-z]:/.test(path) && !parts.includes('..');
}

/** Whether a link's target, relative to the entry's own directory, stays inside the archive (never absolute). */
export function safeLinkTarget(entryPath: string, target: string): boolean {
  if (target.startsWith('/') || /^[A-Za-z]:/.test(target)) return false;
  const depth: string[] = entryPath.replace(/\\/g, '/').split('/').filter((p) => p && p !== '.').slice(0, -1);
  for (const part of target.replace(/\\/g, '/').split('/')) {
    if (part === '..') {
      if (!depth.length) return false;
      depth.pop();
    } else if (part && part !== '.') depth.push(part);
  }
  return true;
}

/**
 * Checks that bytes are a gzip-compressed tar whose entries are plain files, directories or
 * links with safe relative paths (a link's target inside the archive too), at most `maxEntries`
 * of them, unpacking to at most `maxUnpackedBytes`. An archive with no files is valid (the CLI
 * uploads an empty directory for destroy runs); zero bytes is not.
 */
export async function inspectArchive(data: Buffer, maxUnpackedBytes: number, maxEntries = Number.POSITIVE_INFINITY): Promise<ArchiveCheck> {
  if (data.length === 0) return { ok: false, message: 'the archive is empty' };
  if (data[0] !== GZIP_MAGIC[0] || data[1] !== GZIP_MAGIC[1]) return { ok: false, message: 'the archive is not gzip-compressed (expected a .tar.gz)' };
  const files: string[] = [];
  let entries = 0;
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
        // A hard link names another entry (from the archive's root); a symbolic link's target is
        // relative to its own directory. Either must stay inside the archive.
        const target = String(entry.linkpath ?? '');
        const linkOk = entry.type === 'Link' ? safeEntryPath(target) : entry.type !== 'SymbolicLink' || safeLinkTarget(entry.path, target);
        if (!problem && !linkOk) problem = `link leaves the archive: ${entry.path} -> ${target}`;
        if (!problem && ++entries > maxEntries) problem = `the archive has more than ${maxEntries} entries`;
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
