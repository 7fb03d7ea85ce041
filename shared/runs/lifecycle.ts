import type { Knex } from 'knex';
import { compiled, type Db, type Written } from '../platform/db.js';
import type { Logger } from '../platform/logger.js';
import type { DeliveryRounds, Queues } from '../platform/queues.js';
import type { RunStatus } from './machine.js';
import type { RunRow } from './repo.js';
import { anyOf, namedColumn, never, selectColumns } from './lifecycle.repo.js';

/*
 * How the areas that take part in a run's life (run tasks, policy checks, notifications) are tied
 * to the run engine: one RunLifecycle per process, built at start-up by the entry point (see
 * shared/lifecycle-areas.ts) and carried in the Runtime. It holds the listeners of run moves with
 * their interests, the hooks of the run stages with theirs, and the work done after a move has
 * committed. The run engine itself knows no area.
 */

/** One move of a run, as listeners see it (inside the transaction that made it). */
export interface RunTransition {
  run: RunRow;
  from: RunStatus | null;
  to: RunStatus;
  event: string;
  actorId: string | null;
}

/** What work after a commit needs of the process: its pool, its queues and its logger (a Runtime is one). */
export interface AfterMoveContext {
  db: Db;
  queues: Queues;
  deliveries: DeliveryRounds;
  logger: Logger;
}

/**
 * Work a listener leaves for after the commit of the transaction that made the move (e.g. queue
 * the deliveries it wrote). Work with the same key, left by several moves of one transaction, is
 * done once.
 */
export interface FollowUp {
  key: string;
  run(ctx: AfterMoveContext): Promise<void>;
}

/**
 * A listener of run moves; it may return work for after the commit (see FollowUp). `moves` is the
 * transaction's RunMoves, for a listener that makes moves of its own (e.g. creates runs), which
 * the other listeners then hear of in the same transaction.
 */
export type RunTransitionListener = (tx: Db, change: RunTransition, moves: RunMoves) => Promise<FollowUp | void>;

/**
 * Whether a move may concern a listener: an SQL boolean over the moved run's row (`row` is that
 * row's name in the statement that makes the move), or null when the move cannot concern it.
 * Asked in that statement (docs/design-for-speed.md, "Stage interest in the move statement").
 */
export type Interest = (db: Db, move: { event: string; to: RunStatus }, row: string) => Knex.Raw | null;

/** The points in a run where other areas act: run task stages and the policy check. */
export type RunStage = 'pre_plan' | 'post_plan' | 'policy_check' | 'pre_apply' | 'post_apply';

/**
 * A stage hook decides, inside the transaction that reaches the stage, whether the run passes
 * straight on ('pass') or waits for outside results ('wait': the hook has created what it waits
 * for and resumes the run later); whether the run may then go on is the run's gate (gates.ts).
 * What must follow the commit (queueing the requests it wrote) it leaves with `leave` (see FollowUp).
 */
export type StageHook = (tx: Db, run: RunRow, leave: (work: FollowUp) => void) => Promise<'pass' | 'wait'>;

/**
 * Whether entering a stage may concern a hook, as an SQL boolean about the run `runId`, asked by a
 * statement the caller makes about the run anyway (docs/design-for-speed.md, "Stage interest in
 * the move statement").
 */
export type StageInterest = (db: Db, runId: RunRef) => Knex.Raw;

/** A run as a statement names it: its id, or SQL for it (e.g. a column of a row the statement is making). */
export type RunRef = string | Knex.Raw;

const INTEREST_COLUMN_PREFIX = 'listener_interest_';
/** The column answering listener `i`'s interest in the `hop`th move of a statement (see moveRunRow). */
const interestColumn = (i: number, hop = 0) => `${INTEREST_COLUMN_PREFIX}${i}${hop ? `_${hop}` : ''}`;
const STAGE_COLUMN_PREFIX = 'stage_interest_';
const stageColumn = (stage: RunStage, i: number) => `${STAGE_COLUMN_PREFIX}${stage}_${i}`;

/** A row without its columns named `prefix…`, and those columns apart. */
function takeColumns<T extends object>(row: T, prefix: string): { row: T; answers: Record<string, unknown> } {
  const rest = { ...row } as Record<string, unknown>;
  const answers: Record<string, unknown> = {};
  for (const key of Object.keys(rest)) {
    if (!key.startsWith(prefix)) continue;
    answers[key] = rest[key];
    delete rest[key];
  }
  return { row: rest as T, answers };
}

/**
 * The moves made in one transaction (`tx`), with the lifecycle that tells its areas of them, and
 * the work their listeners left for after the commit (see FollowUp). Made by
 * RunLifecycle.transaction, or by RunLifecycle.moves for a transaction the caller opened.
 */
export class RunMoves {
  private readonly left = new Map<string, FollowUp>();
  /** The moves made so far, in order (told to the lifecycle's observers once committed). */
  readonly made: RunTransition[] = [];

  constructor(
    readonly lifecycle: RunLifecycle,
    readonly tx: Db,
  ) {}

  /** Keeps work for after the commit (once per key). */
  leave(work: FollowUp): void {
    if (!this.left.has(work.key)) this.left.set(work.key, work);
  }

  /** The work left so far, to be done once the transaction has committed. */
  followUps(): FollowUp[] {
    return [...this.left.values()];
  }
}

/** The listeners, stage hooks and after-move work of one process (see the top of this file). */
export class RunLifecycle {
  private readonly listeners: { listener: RunTransitionListener; interest?: Interest }[] = [];
  private readonly hooks: Partial<Record<RunStage, { hook: StageHook; interest?: StageInterest }[]>> = {};
  private readonly observers: ((moves: readonly RunTransition[]) => void)[] = [];
  /** What compiledOnce kept, by key; emptied whenever a listener or hook is registered. */
  private readonly kept = new Map<string, Written | null>();

  /**
   * Subscribes to every run transition. Listeners run inside the transaction that moves the run,
   * so whatever they write (a notification delivery, a task stage) commits atomically with it.
   * With `interest`, the listener is called only for moves its interest holds for.
   */
  onRunTransition(listener: RunTransitionListener, interest?: Interest): void {
    this.listeners.push({ listener, interest });
    this.kept.clear();
  }

  /** Registers a stage hook (run tasks, policies). */
  registerStageHook(stage: RunStage, hook: StageHook, interest?: StageInterest): void {
    (this.hooks[stage] ??= []).push({ hook, interest });
    this.kept.clear();
  }

  /**
   * SQL that depends only on what is registered here, never on a request, built and compiled once
   * under `key` and kept until something else is registered (docs/design-for-speed.md, "Written-out
   * statements"). `build` may return null (e.g. a listener without an interest), which is kept too.
   */
  compiledOnce(key: string, build: () => Knex.Raw | null): Written | null {
    if (!this.kept.has(key)) {
      const raw = build();
      this.kept.set(key, raw && compiled(raw));
    }
    return this.kept.get(key)!;
  }

  /**
   * Registers an observer of committed moves (the process's log lines and metrics of run moves):
   * told of every move a transaction made once it has committed, never of rolled-back ones.
   */
  observeMoves(fn: (moves: readonly RunTransition[]) => void): void {
    this.observers.push(fn);
  }

  /** A RunMoves over a transaction the caller opened. */
  moves(tx: Db): RunMoves {
    return new RunMoves(this, tx);
  }

  /**
   * Runs `work` in a transaction of `db` with the RunMoves over it; resolves, once committed, with
   * what `work` returned and the work its moves left for afterwards (see runAfterMoves).
   */
  async transaction<T>(db: Db, work: (m: RunMoves) => Promise<T>): Promise<[T, FollowUp[]]> {
    let moves: RunMoves | undefined;
    const result = await db.transaction((tx) => work((moves = this.moves(tx))));
    if (moves!.made.length) for (const observe of this.observers) observe(moves!.made);
    return [result, moves!.followUps()];
  }

  /**
   * The columns a statement making `move` selects beside the moved row (named `row`), one per
   * listener with an interest; `hop` numbers the move among those the statement makes.
   */
  interestColumns(db: Db, move: { event: string; to: RunStatus }, row: string, hop = 0): Knex.Raw[] {
    return this.listeners.flatMap(({ interest }, i) => {
      if (!interest) return [];
      return [namedColumn(db, interest(db, move, row) ?? never(db), interestColumn(i, hop))];
    });
  }

  /**
   * Whether a move may concern any listener, as one SQL boolean over the row named `row`; null when
   * a listener has no interest (every move concerns it).
   */
  concernsAny(db: Db, move: { event: string; to: RunStatus }, row: string): Knex.Raw | null {
    if (this.listeners.some(({ interest }) => !interest)) return null;
    const conditions = this.listeners
      .map(({ interest }) => interest!(db, move, row))
      .filter((c): c is Knex.Raw => c !== null);
    return anyOf(db, conditions);
  }

  /** Splits what such a statement returned into the run's row and the listeners' answers. */
  readInterests(selected: Record<string, unknown>): { run: RunRow; answers: Record<string, unknown> } {
    const { row, answers } = takeColumns(selected, INTEREST_COLUMN_PREFIX);
    return { run: row as unknown as RunRow, answers };
  }

  /**
   * Calls the listeners a move concerns (every listener when `answers` is missing); what they leave
   * goes to `m`. `hop`: the move's number among those its statement made.
   */
  async publishRunTransition(
    m: RunMoves,
    change: RunTransition,
    answers?: Record<string, unknown>,
    hop = 0,
  ): Promise<void> {
    m.made.push(change);
    for (const [i, { listener, interest }] of this.listeners.entries()) {
      if (interest && answers && answers[interestColumn(i, hop)] === false) continue;
      const left = await listener(m.tx, change, m);
      if (left) m.leave(left);
    }
  }

  /** Columns asking each hook of `stage` that has an interest whether entering it concerns the hook. */
  stageInterestColumns(db: Db, stage: RunStage, runId: RunRef): Knex.Raw[] {
    return (this.hooks[stage] ?? []).flatMap(({ interest }, i) =>
      interest ? [namedColumn(db, interest(db, runId), stageColumn(stage, i))] : [],
    );
  }

  /** Takes the answers of stageInterestColumns out of a row that was read with them. */
  splitStageInterest<T extends object>(row: T): { row: T; answers: Record<string, unknown> } {
    return takeColumns(row, STAGE_COLUMN_PREFIX);
  }

  /**
   * Asks, in one query that locks nothing, whether entering each of `stages` concerns its hooks,
   * with the caller's own `questions` (named columns); a row for enterStage and stageConcerned.
   */
  async askStages(
    db: Db,
    stages: RunStage[],
    runId: RunRef,
    questions: Knex.Raw[] = [],
  ): Promise<Record<string, unknown>> {
    const columns = [...stages.flatMap((stage) => this.stageInterestColumns(db, stage, runId)), ...questions];
    return columns.length ? selectColumns(db, columns) : {};
  }

  /** Whether entering `stage` concerns a hook, by such a row: a hook without an interest always may. */
  stageConcerned(stage: RunStage, answers: Record<string, unknown>): boolean {
    return (this.hooks[stage] ?? []).some(({ interest }, i) => !interest || answers[stageColumn(stage, i)] !== false);
  }

  /**
   * Whether entering `stage` may concern any of its hooks, as one SQL condition about the run; null
   * when a hook has no interest to ask (it must be called).
   */
  stageInterestCondition(db: Db, stage: RunStage, runId: RunRef): Knex.Raw | null {
    const registered = this.hooks[stage] ?? [];
    if (registered.some((h) => !h.interest)) return null;
    return anyOf(
      db,
      registered.map((h) => h.interest!(db, runId)),
    );
  }

  /**
   * Combined outcome of every hook of a stage; with none registered the run passes straight
   * through. `answers`: a row from askStages; hooks it says are not concerned are skipped.
   */
  async enterStage(
    m: RunMoves,
    run: RunRow,
    stage: RunStage,
    answers?: Record<string, unknown>,
  ): Promise<'pass' | 'wait'> {
    let outcome: 'pass' | 'wait' = 'pass';
    for (const [i, { hook, interest }] of (this.hooks[stage] ?? []).entries()) {
      if (interest && answers?.[stageColumn(stage, i)] === false) continue;
      const result = await hook(m.tx, run, (work) => m.leave(work));
      if (result === 'wait') outcome = 'wait';
    }
    return outcome;
  }

  /** After a committed move: the work its transaction's listeners and stage hooks left. */
  async runAfterMoves(ctx: AfterMoveContext, followUps: readonly FollowUp[] = []): Promise<void> {
    for (const work of followUps) await work.run(ctx);
  }
}
