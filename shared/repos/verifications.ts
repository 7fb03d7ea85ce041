import { asJson, type Db } from '../db.js';
import { newId } from '../ids.js';

export interface VerificationRow {
  id: string;
  kind: string;
  organization_name: string | null;
  url: string;
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

/** Records a verification request, pending. */
export async function insertVerification(db: Db, attrs: Pick<VerificationRow, 'kind' | 'organization_name' | 'url' | 'body' | 'secret_sealed'>): Promise<VerificationRow> {
  const [row] = await db<VerificationRow>('verifications').insert({ id: newId('verify'), ...attrs }).returning('*');
  return row;
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
  outcome: Pick<VerificationRow, 'status' | 'error'> & Partial<Pick<VerificationRow, 'response_status' | 'response_headers' | 'response_body'>>,
): Promise<void> {
  const values: Record<string, unknown> = { ...outcome, finished_at: db.fn.now() };
  if (outcome.response_headers) values.response_headers = asJson(db, outcome.response_headers);
  await db
    .with('settled', db('verifications').where({ id }).whereIn('status', from).update(values).returning('id'))
    .select(db.raw('pg_notify(?, id)', [VERIFICATION_SETTLED]))
    .from('settled');
}
