import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import type { CommitState } from './rules.js';

/** The commit a run's configuration came from, and the connection that reports on it. */
export interface RunCommit {
  commit_sha: string;
  identifier: string;
  oauth_token_id: string;
  organization_name: string;
  workspace_name: string;
  service_provider: string;
}

/** A status to report on a commit (an outbox row), with its delivery so far. */
export interface StatusRow {
  id: string;
  oauth_token_id: string;
  identifier: string;
  commit_sha: string;
  state: CommitState;
  description: string;
  target_url: string;
  context: string;
  attempts: number;
  created_at: Date;
}

/** The commit of a run whose version came from the repository its workspace still follows. */
export const commitOfRun = (tx: Db, runId: string): Promise<RunCommit | undefined> =>
  tx('runs as r')
    .join('ingress_attributes as ia', 'ia.configuration_version_id', 'r.configuration_version_id')
    .join('workspaces as w', 'w.id', 'r.workspace_id')
    .join('oauth_tokens as t', 't.id', tx.raw(`w.vcs_repo->>'oauth-token-id'`))
    .join('oauth_clients as c', 'c.id', 't.oauth_client_id')
    .where('r.id', runId)
    .whereNotNull('ia.commit_sha')
    .first(
      'c.service_provider',
      'ia.commit_sha',
      tx.raw(`w.vcs_repo->>'identifier' as identifier`),
      tx.raw(`w.vcs_repo->>'oauth-token-id' as oauth_token_id`),
      'w.organization_name',
      'w.name as workspace_name',
    );

/**
 * Whether a move's run (`row`, its name in the move statement) is in a workspace that follows a
 * repository; its workspace is all a run being created names there.
 */
export const followsRepository = (db: Db, row: string) =>
  db.raw('exists (select 1 from workspaces w where w.id = ??.workspace_id and w.vcs_hook_id is not null)', [row]);

export async function insertCommitStatus(
  tx: Db,
  row: Omit<StatusRow, 'id' | 'attempts' | 'created_at'> & { run_id: string },
): Promise<string> {
  const id = newId('cst');
  await tx('vcs_commit_statuses').insert({ id, ...row });
  return id;
}

/**
 * Claims a run's queued statuses for `seconds`, oldest first, unless another sender holds some or
 * one waits for its retry. Claims of one run take turns (an advisory lock), so its statuses go out
 * in order.
 */
export async function claimDueStatuses(db: Db, runId: string, seconds: number): Promise<StatusRow[]> {
  return db.transaction(async (tx) => {
    await tx.raw('select pg_advisory_xact_lock(hashtext(?))', [`commit-status:${runId}`]);
    const held = await tx('vcs_commit_statuses')
      .where({ run_id: runId, delivery_status: 'queued' })
      .where('next_attempt_at', '>', tx.fn.now())
      .first('id');
    if (held) return [];
    const rows: StatusRow[] = await tx('vcs_commit_statuses')
      .where({ run_id: runId, delivery_status: 'queued' })
      .update({ next_attempt_at: tx.raw(`now() + make_interval(secs => ?)`, [seconds]) })
      .returning('*');
    return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id));
  });
}

/** How a send ended: sent, given up, or to be retried at `retryAt`. */
export type SendEnd =
  | { sent: true; attempts: number }
  | { sent: false; attempts: number; error: string; responseStatus: number | null; retryAt: Date | null };

export async function settleStatus(db: Db, id: string, end: SendEnd): Promise<void> {
  await db('vcs_commit_statuses')
    .where({ id })
    .update(
      end.sent
        ? {
            delivery_status: 'sent',
            attempts: end.attempts,
            sent_at: db.fn.now(),
            last_error: null,
            response_status: null,
          }
        : {
            delivery_status: end.retryAt ? 'queued' : 'failed',
            attempts: end.attempts,
            last_error: end.error.slice(0, 1000),
            response_status: end.responseStatus,
            ...(end.retryAt ? { next_attempt_at: end.retryAt } : {}),
          },
    );
}

/** Holds claimed statuses back until `at` (they wait behind one to retry). */
export async function holdStatuses(db: Db, ids: string[], at: Date): Promise<void> {
  if (ids.length) await db('vcs_commit_statuses').whereIn('id', ids).update({ next_attempt_at: at });
}

/** Runs with commit statuses due, for the reconciler (retries, and sends whose process died). */
export const commitStatusesDue = (db: Db) =>
  db('vcs_commit_statuses as s')
    .join('runs as r', 'r.id', 's.run_id')
    .join('workspaces as w', 'w.id', 'r.workspace_id')
    .where('s.delivery_status', 'queued')
    .where('s.next_attempt_at', '<=', db.fn.now())
    .distinct('s.run_id as key', 'w.organization_name');
