import { createHash } from 'node:crypto';
import type { Principal } from '../identity/access.queries.js';
import { isUniqueViolation, type Db } from '../platform/db.js';
import { BadRequest, Conflict, Unprocessable } from '../platform/errors.js';
import {
  createdUnder,
  idempotencyIndex,
  releaseExpired,
  type IdempotencyColumns,
  type IdempotentTable,
} from './repo.js';

/** The header a client sends to make a creation safe to retry. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Set on the answer to a retry that found its earlier creation. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a key names the row it created; after that it may be used again. */
export const IDEMPOTENCY_HOURS = 24;

/** A request's key: the client's key digested with who sent it, and a digest of what it asked. */
export interface IdempotentRequest {
  key: string;
  request: string;
}

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex');

/**
 * The key of a creation request, or null when the client sent none (then nothing changes). A key
 * belongs to who sent it (a user, whichever of their tokens, or a team or organization token),
 * so one client cannot find what another created. 1 to 255 visible ASCII characters.
 */
export function idempotentRequest(
  header: string | undefined,
  sender: Principal,
  request: { method: string; path: string; body: unknown },
): IdempotentRequest | null {
  if (header === undefined) return null;
  if (!/^[\x21-\x7e]{1,255}$/.test(header))
    throw new BadRequest(`the ${IDEMPOTENCY_HEADER} header must be 1 to 255 visible ASCII characters`);
  const who = sender.kind === 'user' ? `user:${sender.user.id}` : `token:${sender.tokenId}`;
  return {
    key: digest(who, header),
    request: digest(request.method, request.path, JSON.stringify(request.body ?? null)),
  };
}

/**
 * Creates a row once per key: a request whose key created a row in the last IDEMPOTENCY_HOURS
 * gets that row's id back (`replayed`), one with the same key but another body or path is
 * refused (422), and two at once are settled by the unique index (the second waits for the first
 * and then replays it). `create` writes the key columns with its row, in the same statement.
 */
export async function createOnce<T>(
  db: Db,
  table: IdempotentTable,
  idem: IdempotentRequest | null,
  create: (columns: IdempotencyColumns | null) => Promise<T>,
): Promise<{ created: T } | { replayed: string }> {
  if (!idem) return { created: await create(null) };
  const earlier = await replayOf(db, table, idem);
  if (earlier) return { replayed: earlier };
  await releaseExpired(db, table, idem.key, IDEMPOTENCY_HOURS);
  try {
    return { created: await create({ idempotency_key: idem.key, idempotency_request: idem.request }) };
  } catch (err) {
    if (!isUniqueViolation(err, idempotencyIndex(table))) throw err;
    const raced = await replayOf(db, table, idem);
    if (raced) return { replayed: raced };
    throw new Conflict(`another request with this ${IDEMPOTENCY_HEADER} is under way; try again`);
  }
}

async function replayOf(db: Db, table: IdempotentTable, idem: IdempotentRequest): Promise<string | undefined> {
  const row = await createdUnder(db, table, idem.key, IDEMPOTENCY_HOURS);
  if (!row) return undefined;
  if (row.idempotency_request !== idem.request)
    throw new Unprocessable(`this ${IDEMPOTENCY_HEADER} was used for a different request; use a new key`);
  return row.id;
}
