import type { Runtime } from '../runtime.js';
import { ApiError, type ErrorKind } from '../platform/errors.js';
import { ArchiveInspector, type Keep } from '../platform/archive.js';
import type { ObjectWriter } from '../platform/store/object-store.js';

/** Why an upload was refused; the signed-URL route maps it to its HTTP status. */
export class UploadRefused extends ApiError {}

/** Unpacked archives may be this many times larger than the upload limit (guards against gzip bombs). */
const UNPACK_FACTOR = 10;

/** Records why an upload was refused and throws; never returns. */
export type Refuse = (kind: ErrorKind, title: string, message: string) => Promise<never>;

/**
 * Streams an archive upload into a new, unfinished object of the store, checking each piece as it
 * arrives (gzip, tar structure, paths, links, entry count, unpacked size, MAX_ARCHIVE_BYTES)
 * before it is written; the first problem calls `refuse` there and nothing stays stored. Returns
 * the writer (the caller finishes it in the transaction that points at it, or discards it) and the
 * texts of the files `keep` names.
 */
export async function intakeArchive(
  rt: Runtime,
  body: AsyncIterable<Buffer>,
  declaredBytes: number | undefined,
  refuse: Refuse,
  keep?: Keep,
): Promise<{ writer: ObjectWriter; texts: ReadonlyMap<string, string> }> {
  const limit = rt.config.maxArchiveBytes;
  const tooLarge = `the archive is larger than the limit of ${limit} bytes`;
  if (declaredBytes !== undefined && declaredBytes > limit) await refuse('too-large', 'payload too large', tooLarge);
  const inspector = new ArchiveInspector(limit * UNPACK_FACTOR, rt.config.maxArchiveEntries, keep);
  const writer = await rt.store.create({ contentType: 'application/x-tar+gzip', prefix: 'archive' });
  try {
    let size = 0;
    for await (const piece of body) {
      size += piece.length;
      if (size > limit) await refuse('too-large', 'payload too large', tooLarge);
      const problem = await inspector.write(piece);
      if (problem) await refuse('invalid', 'invalid archive', problem);
      await writer.write(piece);
    }
    const check = await inspector.end();
    if (!check.ok) await refuse('invalid', 'invalid archive', check.message);
    return { writer, texts: inspector.texts };
  } catch (err) {
    // Refused or cut off: what was written of the archive goes (an unfinished object left by a
    // crash here is removed by the sweep).
    await writer.discard().catch(() => undefined);
    throw err;
  }
}
