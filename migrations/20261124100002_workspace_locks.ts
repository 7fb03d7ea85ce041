import type { Knex } from 'knex';

// Who holds a workspace's lock (a user, a team, an organization token, or a run whose apply was
// interrupted) and why; `locked` was there already.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.text('locked_by_type');
    t.text('locked_by_id');
    t.text('lock_reason');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.dropColumn('locked_by_type');
    t.dropColumn('locked_by_id');
    t.dropColumn('lock_reason');
  });
}
