import type { Knex } from 'knex';

// Health assessment results of workspaces (refresh-only plans run on a schedule).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('assessment_results', (t) => {
    t.text('id').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.boolean('succeeded').notNullable();
    t.boolean('drifted').notNullable().defaultTo(false);
    t.integer('resources_drifted').notNullable().defaultTo(0);
    t.integer('resources_undrifted').notNullable().defaultTo(0);
    t.integer('checks_passed').notNullable().defaultTo(0);
    t.integer('checks_failed').notNullable().defaultTo(0);
    t.integer('checks_errored').notNullable().defaultTo(0);
    t.integer('checks_unknown').notNullable().defaultTo(0);
    t.text('error_message');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.raw('clock_timestamp()'));
    t.index(['workspace_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('assessment_results');
}
