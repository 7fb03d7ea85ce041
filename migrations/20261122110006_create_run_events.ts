import type { Knex } from 'knex';

// Every run transition is recorded here in the same transaction as the move.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('run_events', (t) => {
    t.text('id').primary();
    t.text('run_id').notNullable().references('runs.id').onDelete('CASCADE');
    t.text('action').notNullable();
    t.text('from_status');
    t.text('to_status');
    t.text('actor_id');
    t.text('description');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['run_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('run_events');
}
