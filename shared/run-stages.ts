import type { Knex } from 'knex';
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

/**
 * Whether entering a stage may concern a hook, as an SQL boolean about the run `runId`; a caller
 * that already makes a statement about the run asks it there (see askStages), so a
 * hook that has nothing to do costs no query.
 */
export type StageInterest = (db: Db, runId: string) => Knex.Raw;

const hooks: Partial<Record<RunStage, { hook: StageHook; interest?: StageInterest }[]>> = {};

/** Registers a hook at start-up (run tasks, policies). */
export function registerStageHook(stage: RunStage, hook: StageHook, interest?: StageInterest): void {
  (hooks[stage] ??= []).push({ hook, interest });
}

const column = (stage: RunStage, i: number) => `enters_${stage}_${i}`;

/** Columns asking each hook of `stage` that has an interest whether entering it concerns the hook. */
function stageInterestColumns(db: Db, stage: RunStage, runId: string): Knex.Raw[] {
  return (hooks[stage] ?? []).flatMap(({ interest }, i) => (interest ? [db.raw('(?) as ??', [interest(db, runId), column(stage, i)])] : []));
}

/**
 * Asks, in one query that locks nothing, whether entering each of `stages` concerns its hooks,
 * with the caller's own `questions` (named columns); a row for enterStage and stageConcerned.
 */
export async function askStages(db: Db, stages: RunStage[], runId: string, questions: Knex.Raw[] = []): Promise<Record<string, unknown>> {
  const columns = [...stages.flatMap((stage) => stageInterestColumns(db, stage, runId)), ...questions];
  return columns.length ? ((await db.select(columns)) as Record<string, unknown>[])[0] : {};
}

/** Whether entering `stage` concerns a hook, by such a row: a hook without an interest always may. */
export function stageConcerned(stage: RunStage, answers: Record<string, unknown>): boolean {
  return (hooks[stage] ?? []).some(({ interest }, i) => !interest || answers[column(stage, i)] !== false);
}

/**
 * Whether entering `stage` may concern any of its hooks, as one SQL condition about the run; null
 * when a hook has no interest to ask (it must be called).
 */
export function stageInterestCondition(db: Db, stage: RunStage, runId: string): Knex.Raw | null {
  const registered = hooks[stage] ?? [];
  if (registered.some((h) => !h.interest)) return null;
  if (!registered.length) return db.raw('false');
  return db.raw(registered.map(() => '(?)').join(' or '), registered.map((h) => h.interest!(db, runId)));
}

/**
 * Combined outcome of every hook of a stage; with none registered the run passes straight
 * through. `answers`: a row from askStages; hooks it says are not concerned are skipped.
 */
export async function enterStage(tx: Db, run: RunRow, stage: RunStage, answers?: Record<string, unknown>): Promise<'pass' | 'wait' | 'fail'> {
  let outcome: 'pass' | 'wait' | 'fail' = 'pass';
  for (const [i, { hook, interest }] of (hooks[stage] ?? []).entries()) {
    if (interest && answers?.[column(stage, i)] === false) continue;
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
