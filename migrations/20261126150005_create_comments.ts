import type { Knex } from 'knex';

// Comments on runs: posted directly, or the comment given with an apply, discard or cancel.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('comments', (t) => {
    t.text('id').primary();
    t.text('run_id').notNullable().references('runs.id').onDelete('CASCADE');
    t.text('body').notNullable();
    t.text('created_by_id').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['run_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('comments');
}
