import type { Runtime } from '../runtime.js';
import type { Principal } from '../identity/access.queries.js';
import { NotFound } from '../platform/errors.js';
import { newRunToken, revokeRunToken, type NewRunToken } from '../identity/index.js';
import type { WorkspaceRow } from '../workspaces/repo.js';
import { mayReadOutputsAs } from '../state/index.js';

/** A run token's principal. */
export type RunPrincipal = Extract<Principal, { kind: 'run' }>;

/**
 * How long a phase's token lives past its minting when nothing revokes it (a worker that died):
 * the phase's time limit and its grace, and a minute for the claim and init before the limit counts.
 */
const MINT_MARGIN_SECONDS = 60;

/**
 * The token of one plan or apply phase, its row not written yet: the statement that reads the
 * phase's sources writes it (see startPhase). It is revoked when the phase ends
 * (revokePhaseToken); otherwise it expires with the phase's time limit.
 */
export function newPhaseToken(rt: Pick<Runtime, 'db' | 'config'>, runId: string, phase: 'plan' | 'apply'): NewRunToken {
  const limit = phase === 'plan' ? rt.config.runPlanTimeoutSeconds : rt.config.runApplyTimeoutSeconds;
  const seconds = limit + rt.config.runTimeoutGraceSeconds + MINT_MARGIN_SECONDS;
  return newRunToken(rt.db, runId, phase, new Date(Date.now() + seconds * 1000));
}

/** Ends a phase's token at once. */
export const revokePhaseToken = (rt: Pick<Runtime, 'db'>, tokenId: string): Promise<void> =>
  revokeRunToken(rt.db, tokenId);

/**
 * The workspace when a run token may read its state: its run's own workspace, or a workspace of the
 * same organization that shares its state with the run's workspace (global remote state, or the run's
 * workspace among its remote state consumers; see mayReadOutputsAs). Anything else is a 404.
 */
export async function stateReadableByRun(
  rt: Runtime,
  principal: RunPrincipal,
  workspace: WorkspaceRow | undefined,
): Promise<WorkspaceRow> {
  if (!workspace || workspace.organization_name !== principal.runOrganization) throw new NotFound();
  if (workspace.id === principal.workspaceId) return workspace;
  if (!(await mayReadOutputsAs(rt, workspace.id, principal.workspaceId))) throw new NotFound();
  return workspace;
}
