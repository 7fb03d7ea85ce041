import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('task_result_outcomes', (t) => {
    t.text('id').primary();
    t.text('task_result_id').notNullable().references('task_results.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('outcome_id');
    t.text('description');
    t.text('body');
    t.text('url');
    t.jsonb('tags').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['task_result_id', 'position']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('task_result_outcomes');
}
