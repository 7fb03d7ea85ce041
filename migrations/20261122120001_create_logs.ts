import type { Knex } from 'knex';

// Plan, apply and test logs, appended while the process runs and read by byte offset.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('logs', (t) => {
    t.text('id').primary();
    t.bigInteger('size').notNullable().defaultTo(0);
    t.boolean('finished').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('log_chunks', (t) => {
    t.text('log_id').notNullable().references('logs.id').onDelete('CASCADE');
    t.bigInteger('offset').notNullable();
    t.binary('data').notNullable();
    t.primary(['log_id', 'offset']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('log_chunks');
  await knex.schema.dropTable('logs');
}
