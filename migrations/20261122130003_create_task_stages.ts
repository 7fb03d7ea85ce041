import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('task_stages', (t) => {
    t.text('id').primary();
    t.text('run_id').notNullable().references('runs.id').onDelete('CASCADE');
    t.text('stage').notNullable().checkIn(['pre_plan', 'post_plan', 'pre_apply', 'post_apply']);
    t.text('status').notNullable().defaultTo('pending');
    t.jsonb('status_timestamps').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['run_id', 'stage']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('task_stages');
}
