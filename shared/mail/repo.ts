import type { Knex } from 'knex';
import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import { mailMachine, type MailStatus } from './machine.js';
import { claimLease } from '../platform/leases.js';
import { decryptSecret, encryptSecret } from '../platform/crypto.js';

export interface MailRow {
  id: string;
  kind: string;
  ref_id: string | null;
  to_address: string;
  subject: string;
  /** The text, or (body_sealed) its encryption under ENCRYPTION_KEY (see openMailBody). */
  body: string;
  body_sealed: boolean;
  status: MailStatus;
  attempts: number;
  next_attempt_at: Date;
  lease_until: Date | null;
  last_error: string | null;
  sent_by: string | null;
  sent_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Writes outgoing mail; a body with a secret in it is given `sealWith` (the encryption key) and stored encrypted. */
export async function insertMail(
  db: Db,
  msg: { kind: string; refId?: string; to: string; subject: string; body: string; sealWith?: Buffer },
): Promise<MailRow> {
  const body = msg.sealWith ? encryptSecret(msg.sealWith, msg.body) : msg.body;
  const [row] = await db<MailRow>('mail_messages')
    .insert({
      id: newId('mail'),
      kind: msg.kind,
      ref_id: msg.refId ?? null,
      to_address: msg.to,
      subject: msg.subject,
      body,
      body_sealed: Boolean(msg.sealWith),
    })
    .returning('*');
  return row;
}

/** A mail row's text, opened when it was stored encrypted. */
export const openMailBody = (row: Pick<MailRow, 'body' | 'body_sealed'>, key: Buffer): string =>
  row.body_sealed ? decryptSecret(key, row.body) : row.body;

/** Claims a message under a lease (compare-and-set). Undefined means nothing to do: sent, failed, or leased elsewhere. */
export async function claimMail(db: Db, id: string, leaseSeconds: number): Promise<MailRow | undefined> {
  const [row] = await claimLease<MailRow>(db, {
    table: 'mail_messages',
    id,
    from: ['pending'],
    to: mailMachine.moves.claim.to,
    takeOver: true,
    leaseSeconds,
    set: { attempts: db.raw('attempts + 1'), updated_at: db.fn.now() },
  });
  return row;
}

/** Finishes a claimed message: sent, back to pending for a retry, or failed for good. */
export async function settleMail(
  db: Db,
  id: string,
  event: 'deliver' | 'retry' | 'give_up',
  info: { sentBy?: string; error?: string; retryInMs?: number },
): Promise<boolean> {
  const values: Record<string, unknown> = {
    status: mailMachine.moves[event].to,
    lease_until: null,
    updated_at: db.fn.now(),
  };
  if (event === 'deliver')
    Object.assign(values, { sent_at: db.fn.now(), sent_by: info.sentBy ?? null, last_error: null });
  if (info.error) values.last_error = info.error.slice(0, 2000);
  if (event === 'retry')
    values.next_attempt_at = db.raw(`now() + (? || ' milliseconds')::interval`, [String(info.retryInMs ?? 0)]);
  const n = await db('mail_messages').where({ id }).whereIn('status', mailMachine.sources(event)).update(values);
  return n === 1;
}

/** Messages that should have a job, keyed by id (for pageAfter): due pending ones and expired leases. */
export const mailDue = (db: Db): Knex.QueryBuilder =>
  db('mail_messages')
    .where((q) =>
      q
        .where((p) => p.where('status', 'pending').andWhere('next_attempt_at', '<=', db.fn.now()))
        .orWhere((p) => p.where('status', 'sending').andWhere('lease_until', '<', db.fn.now())),
    )
    .select('id as key', 'id');
