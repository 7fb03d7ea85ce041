/** Execution modes and agent pools: which pool a workspace or an organization's default names, and when (pure). */

import type { Field } from '../platform/errors.js';

export const EXECUTION_MODES = ['remote', 'local', 'agent'] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

/** A mode with the agent pool it runs in (null unless the mode is `agent`). */
export interface Execution {
  mode: ExecutionMode;
  pool: string | null;
}

/** Why a request may not set these, with the attribute or relationship it is about. */
export interface ExecutionProblem {
  problem: string;
  field: Field;
}

/** An execution a request asks for: a mode, and a pool when it names one (null: none). */
export interface ExecutionRequest {
  mode?: ExecutionMode;
  pool?: string | null;
}

/** The refusal of a pool named without the agent mode, as TFE words it. */
export const poolWithoutAgentMode = (what: 'Agent pool' | 'Default agent pool') =>
  `${what} must not be specified unless using 'agent' execution mode`;

/**
 * The mode and pool `before` becomes with `request`, as TFE words its refusals (`what`: "Agent
 * pool" for a workspace, "Default agent pool" for an organization). A pool goes with the agent mode
 * only: leaving that mode drops the pool, naming one without it is refused, and so is the agent
 * mode without one when the request sets either.
 */
export function executionAfter(
  before: Execution,
  request: ExecutionRequest,
  what: 'Agent pool' | 'Default agent pool',
  field: Field,
): Execution | ExecutionProblem {
  const mode = request.mode ?? before.mode;
  const named = request.pool !== undefined;
  const pool = named ? request.pool! : mode === 'agent' ? before.pool : null;
  if (pool && mode !== 'agent') return { problem: poolWithoutAgentMode(what), field };
  if (mode === 'agent' && !pool && (named || request.mode !== undefined))
    return { problem: `${what} must be specified when using 'agent' execution mode`, field };
  return { mode, pool };
}

export const isProblem = (e: Execution | ExecutionProblem): e is ExecutionProblem => 'problem' in e;

/** Whether a pool serves a workspace: every workspace of its organization, or the ones it allows. */
export const poolServes = (pool: { organization_scoped: boolean }, allowed: boolean): boolean =>
  pool.organization_scoped || allowed;
