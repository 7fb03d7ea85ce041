import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('applies', (t) => {
    t.text('id').primary();
    t.text('run_id').notNullable().unique().references('runs.id').onDelete('CASCADE');
    t.text('status').notNullable().defaultTo('pending');
    t.text('log_id').references('logs.id').onDelete('SET NULL');
    t.integer('resource_additions').notNullable().defaultTo(0);
    t.integer('resource_changes').notNullable().defaultTo(0);
    t.integer('resource_destructions').notNullable().defaultTo(0);
    t.integer('resource_imports').notNullable().defaultTo(0);
    // Recorded before Terraform starts: an apply is never run twice.
    t.timestamp('started_at', { useTz: true });
    t.jsonb('status_timestamps').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('applies');
}
