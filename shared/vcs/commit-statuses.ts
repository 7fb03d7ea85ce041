import type { Config } from '../platform/config.js';
import type { Db } from '../platform/db.js';
import { enqueueAfterCommit, jobs } from '../platform/queues.js';
import type { RunLifecycle, RunTransition } from '../runs/lifecycle.js';
import type { RunStatus } from '../runs/machine.js';
import { hasApiClient, type CommitState } from './providers.js';
import { clientFor, type ProviderDeps } from './hooks.js';
import {
  claimDueStatuses,
  commitOfRun,
  followsRepository,
  holdStatuses,
  insertCommitStatus,
  settleStatus,
  type RunCommit,
  type StatusRow,
} from './commit-statuses.repo.js';

/** The status a run's move reports on its commit, or null when the move changes nothing a reader of the commit sees (pure). */
export function commitStatusOf(
  move: { to: RunStatus; event: string },
  run: { plan_only: boolean },
): { state: CommitState; description: string } | null {
  if (move.event === 'create') return { state: 'pending', description: 'Run queued' };
  switch (move.to) {
    case 'planning':
      return { state: 'pending', description: 'Terraform plan in progress' };
    case 'planned':
    case 'policy_checked':
    case 'post_plan_awaiting_decision':
    case 'policy_override':
      return { state: 'pending', description: 'Plan finished: the run waits for confirmation' };
    case 'applying':
      return { state: 'pending', description: 'Terraform apply in progress' };
    case 'planned_and_finished':
      return {
        state: 'success',
        description: run.plan_only ? 'Terraform plan finished' : 'Plan finished: no changes to apply',
      };
    case 'applied':
      return { state: 'success', description: 'Terraform apply finished' };
    case 'errored':
      return { state: 'failure', description: 'The run errored' };
    case 'canceled':
    case 'force_canceled':
      return { state: 'error', description: 'The run was canceled' };
    case 'discarded':
      return { state: 'error', description: 'The run was discarded' };
    default:
      return null;
  }
}

/** The context a status carries, so a commit shows one line per workspace. */
const contextOf = (c: RunCommit) => `terraform/${c.organization_name}/${c.workspace_name}`;

/**
 * Records the commit status a move reports, in the move's transaction (an outbox row), and leaves
 * sending it for after the commit; a sender that dies first is made good by the reconciler.
 */
async function recordCommitStatus(tx: Db, config: Config, change: RunTransition) {
  const status = commitStatusOf(change, change.run);
  if (!status) return undefined;
  const commit = await commitOfRun(tx, change.run.id);
  if (!commit || !hasApiClient(commit.service_provider)) return undefined;
  const id = await insertCommitStatus(tx, {
    run_id: change.run.id,
    oauth_token_id: commit.oauth_token_id,
    identifier: commit.identifier,
    commit_sha: commit.commit_sha,
    state: status.state,
    description: status.description,
    target_url: `${config.baseUrl}/app/${encodeURIComponent(commit.organization_name)}/workspaces/${encodeURIComponent(commit.workspace_name)}/runs/${change.run.id}`,
    context: contextOf(commit),
  });
  const runId = change.run.id;
  return {
    key: `commit-status:${runId}`,
    run: async (ctx: { queues: ProviderDeps['queues']; logger: ProviderDeps['logger'] }) =>
      enqueueAfterCommit(ctx.queues, jobs.commitStatus(runId, commit.organization_name, id), ctx.logger),
  };
}

/** Wires commit statuses into a run lifecycle: only runs in workspaces that follow a repository concern it. */
export function registerCommitStatuses(lifecycle: RunLifecycle, config: Config): void {
  lifecycle.onRunTransition(
    (tx, change) => recordCommitStatus(tx, config, change),
    (db, _move, row) => followsRepository(db, row),
  );
}

/** Attempts before a status is given up; the delay doubles after each. */
const MAX_ATTEMPTS = 8;
const FIRST_RETRY_MS = 5_000;

/** How long a sender holds the statuses it claimed; one that dies leaves them to the reconciler after it. */
const CLAIM_SECONDS = 60;

/**
 * Sends a run's queued commit statuses to the provider in the order its moves made them, so the
 * commit ends on the run's latest state. A failure keeps it and the later ones for a retry (with
 * the error and the provider's answer on the row, for the delivery log); after MAX_ATTEMPTS it is
 * given up and the later ones go on.
 */
export async function sendRunCommitStatuses(deps: ProviderDeps, runId: string): Promise<void> {
  const { db } = deps;
  for (
    let claimed = await claimDueStatuses(db, runId, CLAIM_SECONDS);
    claimed.length;
    claimed = await claimDueStatuses(db, runId, CLAIM_SECONDS)
  ) {
    for (const [i, row] of claimed.entries()) {
      if (await settled(deps, row)) continue;
      // The later ones wait behind the one to retry, released for the same moment.
      const retryAt = new Date(Date.now() + FIRST_RETRY_MS * 2 ** row.attempts);
      await holdStatuses(
        db,
        claimed.slice(i + 1).map((r) => r.id),
        retryAt,
      );
      return;
    }
  }
}

/** Sends one status; true once it is settled (sent, or given up), false when it is to be retried. */
async function settled(deps: ProviderDeps, row: StatusRow): Promise<boolean> {
  const attempts = row.attempts + 1;
  const provider = await clientFor(deps, row.oauth_token_id);
  if (!provider) {
    const error = 'the connection takes no commit statuses';
    await settleStatus(deps.db, row.id, { sent: false, attempts, error, responseStatus: null, retryAt: null });
    return true;
  }
  try {
    await provider.api.setCommitStatus(row.identifier, row.commit_sha, {
      state: row.state,
      targetUrl: row.target_url,
      description: row.description,
      context: row.context,
    });
    await settleStatus(deps.db, row.id, { sent: true, attempts });
    return true;
  } catch (err) {
    const given = attempts >= MAX_ATTEMPTS;
    await settleStatus(deps.db, row.id, {
      sent: false,
      attempts,
      error: String((err as Error).message ?? err),
      responseStatus: (err as { status?: number | null }).status ?? null,
      retryAt: given ? null : new Date(Date.now() + FIRST_RETRY_MS * 2 ** (attempts - 1)),
    });
    return given;
  }
}
