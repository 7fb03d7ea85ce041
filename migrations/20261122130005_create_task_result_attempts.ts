import type { Knex } from 'knex';

// Every attempt to deliver a run task request, as operators and integrators see it on the result.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('task_result_attempts', (t) => {
    t.bigIncrements('seq');
    t.text('task_result_id').notNullable().references('task_results.id').onDelete('CASCADE');
    t.integer('attempt').notNullable();
    t.integer('status_code');
    t.integer('duration_ms').notNullable();
    t.text('error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['task_result_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('task_result_attempts');
}
