import type { Db } from '../platform/db.js';

/**
 * Takes the turn of the sweep step `name` when it is due, and makes it due again in `everySeconds`
 * (compare-and-set, so of all the processes that sweep, one takes each turn). False when it is not
 * due. A step never run before is due, and so is one whose next turn is further away than
 * `everySeconds`: a shorter interval takes effect at once.
 */
export async function claimDueStep(db: Db, name: string, everySeconds: number): Promise<boolean> {
  const { rows } = await db.raw<{ rows: unknown[] }>(
    `insert into sweep_schedules (name, next_run_at) values (?, now() + make_interval(secs => ?))
     on conflict (name) do update set next_run_at = excluded.next_run_at
      where sweep_schedules.next_run_at <= now() or sweep_schedules.next_run_at > excluded.next_run_at
     returning name`,
    [name, everySeconds],
  );
  return rows.length > 0;
}

/** Makes the step due at once (it left work for the next sweep). */
export async function dueNow(db: Db, name: string): Promise<void> {
  await db('sweep_schedules').where({ name }).update({ next_run_at: db.fn.now() });
}
