import type { Knex } from 'knex';

// A run trigger: an apply in the source workspace (`sourceable_id`) queues a run in `workspace_id`.
// A workspace never triggers itself, and names a source at most once.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('run_triggers', (t) => {
    t.text('id').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('sourceable_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['workspace_id', 'sourceable_id']);
    t.index(['sourceable_id']);
  });
  await knex.raw('alter table run_triggers add constraint run_triggers_not_self check (workspace_id <> sourceable_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('run_triggers');
}
