import type { Knex } from 'knex';
import { asJson, type Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';

export interface VerificationRow {
  id: string;
  kind: string;
  organization_name: string | null;
  url: string;
  /** The URL's host name (null on rows from before it was recorded). */
  host: string | null;
  secret_sealed: string | null;
  body: string | null;
  status: 'pending' | 'running' | 'succeeded' | 'failed';
  response_status: number | null;
  response_headers: Record<string, string[]> | null;
  response_body: string | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

/** The channel on which a settled verification's id is announced (see NotificationListener). */
export const VERIFICATION_SETTLED = 'verification_settled';

/** The advisory lock class under which verifications of one host take turns (its second key is the host's hash). */
const HOST_LOCK_CLASS = 7_431_006;

/**
 * Records a verification request, pending, unless `maxOpen` verifications of its host are open
 * (pending or running) already: then null. Only rows created in the last `windowSeconds` count,
 * so a row whose waiting request died with its process does not hold a place for good. Requests
 * for one host take turns here (a transaction-level advisory lock), so concurrent ones cannot
 * overshoot the bound. `maxOpen` 0: no bound.
 */
export async function insertVerificationIfRoom(
  db: Db,
  attrs: Pick<VerificationRow, 'kind' | 'organization_name' | 'url' | 'host' | 'body' | 'secret_sealed'>,
  bound: { maxOpen: number; windowSeconds: number },
): Promise<VerificationRow | null> {
  const insert = async (q: Db) =>
    (
      await q<VerificationRow>('verifications')
        .insert({ id: newId('verify'), ...attrs })
        .returning('*')
    )[0];
  if (bound.maxOpen <= 0 || attrs.host === null) return insert(db);
  return db.transaction(async (tx) => {
    await tx.raw('select pg_advisory_xact_lock(?, hashtext(?))', [HOST_LOCK_CLASS, attrs.host]);
    const { rows } = await tx.raw(
      `select count(*)::int as open from verifications
        where host = ? and status in ('pending', 'running') and created_at > now() - make_interval(secs => ?)`,
      [attrs.host, bound.windowSeconds],
    );
    return (rows as { open: number }[])[0].open >= bound.maxOpen ? null : insert(tx);
  });
}

export const findVerification = (db: Db, id: string) => db<VerificationRow>('verifications').where({ id }).first();

/**
 * Settles a verification that is in one of `from` with its outcome and announces its id on
 * VERIFICATION_SETTLED, in one statement; nothing happens to one settled already.
 */
export async function settleVerification(
  db: Db,
  id: string,
  from: VerificationRow['status'][],
  outcome: Pick<VerificationRow, 'status' | 'error'> &
    Partial<Pick<VerificationRow, 'response_status' | 'response_headers' | 'response_body'>>,
): Promise<void> {
  const values: Record<string, unknown> = { ...outcome, finished_at: db.fn.now() };
  if (outcome.response_headers) values.response_headers = asJson(db, outcome.response_headers);
  await db
    .with('settled', db('verifications').where({ id }).whereIn('status', from).update(values).returning('id'))
    .select(db.raw('pg_notify(?, id)', [VERIFICATION_SETTLED]))
    .from('settled');
}

/** Verifications still pending within the minute an API call waits for them, keyed by id (for pageAfter). */
export const verificationsDue = (db: Db): Knex.QueryBuilder =>
  db('verifications')
    .where('status', 'pending')
    .andWhere('created_at', '>', db.raw(`now() - interval '1 minute'`))
    .select('id as key', 'id', 'organization_name');
