import type { Knex } from 'knex';

// At most one non-speculative run holds a workspace: active, neither waiting (pending) nor final.
// The run engine keeps to this under the workspace lock; the index makes it a fact of the data,
// and lets a run be created and queued by one statement that reads the other runs without
// waiting for that lock's holders (a second holder is refused, and that creation takes the
// locked path instead). The statuses are the run machine's final ones at the time of writing.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create unique index runs_one_holder_per_workspace on runs (workspace_id)
    where not plan_only
      and status not in ('pending', 'applied', 'planned_and_finished', 'planned_and_saved', 'discarded', 'errored', 'canceled', 'force_canceled', 'policy_soft_failed')
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists runs_one_holder_per_workspace');
}
