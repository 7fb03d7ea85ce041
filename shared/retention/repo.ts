import type { Db } from '../platform/db.js';
import { FINAL_RUN_STATUSES } from '../runs/machine.js';

/** Rows deleted per statement, so a prune never holds long locks or a long transaction. */
const BATCH = 1000;

/** Deletes, a batch at a time, the rows `ids` selects (at most `limit` ids per batch); returns how many went. */
async function inBatches(
  select: (limit: number) => Promise<(string | number)[]>,
  remove: (ids: (string | number)[]) => Promise<number>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const ids = await select(BATCH);
    if (!ids.length) return total;
    total += await remove(ids);
    if (ids.length < BATCH) return total;
  }
}

/** What one prune removed, by kind. */
export interface Pruned {
  runLogs: number;
  runEvents: number;
  deliveries: number;
  deliveryAttempts: number;
  taskResultAttempts: number;
}

/**
 * Removes what is older than `cutoff` and finished: the plan and apply logs and the events of runs
 * that ended (their last move) before it, notification deliveries settled before it (with their
 * attempts), and the attempts of notification deliveries and run task requests made before it.
 * Runs themselves, their plans, applies, task results and state stay.
 */
export async function pruneBefore(db: Db, cutoff: Date): Promise<Pruned> {
  const endedRuns = () =>
    db('runs')
      .whereIn('status', [...FINAL_RUN_STATUSES])
      .andWhere('updated_at', '<', cutoff)
      .select('id');
  const phaseLogs = (table: 'plans' | 'applies') =>
    db(table).whereIn('run_id', endedRuns()).whereNotNull('log_id').select('log_id');
  const runLogs = await inBatches(
    async (limit) =>
      (await db('logs')
        .whereIn('id', phaseLogs('plans'))
        .orWhereIn('id', phaseLogs('applies'))
        .limit(limit)
        .pluck('id')) as string[],
    (ids) => db('logs').whereIn('id', ids).del(),
  );
  const runEvents = await inBatches(
    async (limit) =>
      (await db('run_events')
        .whereIn('run_id', endedRuns())
        .andWhere('created_at', '<', cutoff)
        .limit(limit)
        .pluck('id')) as string[],
    (ids) => db('run_events').whereIn('id', ids).del(),
  );
  const deliveries = await inBatches(
    async (limit) =>
      (await db('notification_deliveries')
        .whereIn('status', ['delivered', 'failed', 'dropped'])
        .andWhere('created_at', '<', cutoff)
        .limit(limit)
        .pluck('id')) as string[],
    (ids) => db('notification_deliveries').whereIn('id', ids).del(),
  );
  const attemptsOf = (table: 'notification_delivery_attempts' | 'task_result_attempts') =>
    inBatches(
      async (limit) => (await db(table).where('created_at', '<', cutoff).limit(limit).pluck('seq')) as number[],
      (seqs) => db(table).whereIn('seq', seqs).del(),
    );
  return {
    runLogs,
    runEvents,
    deliveries,
    deliveryAttempts: await attemptsOf('notification_delivery_attempts'),
    taskResultAttempts: await attemptsOf('task_result_attempts'),
  };
}
