import type { Db } from './db.js';
import type { RunRow } from './repos/runs.js';
import type { Runtime } from './runtime.js';

/** The points in a run where other areas act: run task stages and the policy check. */
export type RunStage = 'pre_plan' | 'post_plan' | 'policy_check' | 'pre_apply' | 'post_apply';

/**
 * A stage hook decides, inside the transaction that reaches the stage, whether the run passes
 * straight on ('pass'), waits for outside results ('wait': the hook has created what it waits for
 * and resumes the run later), or stops ('fail').
 */
export type StageHook = (tx: Db, run: RunRow) => Promise<'pass' | 'wait' | 'fail'>;

const hooks: Partial<Record<RunStage, StageHook[]>> = {};

/** Registers a hook at start-up (run tasks, policies). */
export function registerStageHook(stage: RunStage, hook: StageHook): void {
  (hooks[stage] ??= []).push(hook);
}

/** Combined outcome of every hook of a stage; with none registered the run passes straight through. */
export async function enterStage(tx: Db, run: RunRow, stage: RunStage): Promise<'pass' | 'wait' | 'fail'> {
  let outcome: 'pass' | 'wait' | 'fail' = 'pass';
  for (const hook of hooks[stage] ?? []) {
    const result = await hook(tx, run);
    if (result === 'fail') return 'fail';
    if (result === 'wait') outcome = 'wait';
  }
  return outcome;
}

/** Work an area does after a run's move has committed (e.g. queue the requests of a stage it entered). */
export type AfterMove = (rt: Runtime, run: RunRow) => Promise<void>;

const afterMoves: AfterMove[] = [];

export function registerAfterMove(fn: AfterMove): void {
  afterMoves.push(fn);
}

export async function runAfterMoves(rt: Runtime, run: RunRow): Promise<void> {
  for (const fn of afterMoves) await fn(rt, run);
}
