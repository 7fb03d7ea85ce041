/*
 * Run triggers: an apply in a source workspace queues a run in each workspace that names it as a
 * source. Pure rules, no I/O.
 */

/** How many source workspaces one workspace may name, as in Terraform Cloud. */
export const MAX_RUN_TRIGGER_SOURCES = 20;

/** The two sides a workspace's run triggers are listed from: where it is the target, or the source. */
export const RUN_TRIGGER_TYPES = ['inbound', 'outbound'] as const;
export type RunTriggerType = (typeof RUN_TRIGGER_TYPES)[number];

export const isRunTriggerType = (v: unknown): v is RunTriggerType => RUN_TRIGGER_TYPES.includes(v as RunTriggerType);

/** The `source` of a run queued by a run trigger. */
export const RUN_TRIGGER_SOURCE = 'tfe-run-trigger';

/** Why a run was queued (`trigger-reason`): by a run trigger, or by whoever or whatever created it. */
export const triggerReason = (source: string): 'run-trigger' | 'manual' =>
  source === RUN_TRIGGER_SOURCE ? 'run-trigger' : 'manual';

/** A triggered run's message, naming the run that applied and its workspace. */
export const triggeredRunMessage = (sourceRunId: string, sourceWorkspaceName: string): string =>
  `Queued by a run trigger: run ${sourceRunId} was applied in workspace ${sourceWorkspaceName}`;

/**
 * Whether a run's move fires its workspace's run triggers: only reaching `applied` does (a
 * plan-only run never gets there). Destroy and refresh-only runs that apply fire them too, since
 * they change what the source workspace's state holds.
 */
export const firesRunTriggers = (move: { to: string }): boolean => move.to === 'applied';
