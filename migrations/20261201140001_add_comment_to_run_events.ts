import type { Knex } from 'knex';

// A comment on a run is one of its events (action `commented`), pointing at the comment.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('run_events', (t) => {
    t.text('comment_id').references('comments.id').onDelete('SET NULL');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('run_events', (t) => {
    t.dropColumn('comment_id');
  });
}
