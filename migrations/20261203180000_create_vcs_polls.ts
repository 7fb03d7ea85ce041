import type { Knex } from 'knex';

// Where the branches of a repository the service polls (a git server that sends no webhooks)
// stood at the last look, so a new commit is seen once.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('vcs_polls', (t) => {
    t.text('hook_id').primary();
    t.jsonb('heads').notNullable();
    t.timestamp('polled_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('vcs_polls');
}
