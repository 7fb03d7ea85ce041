import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('configuration_versions', (t) => {
    t.text('id').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('status').notNullable().defaultTo('pending');
    t.text('source').notNullable().defaultTo('tfe-api');
    t.boolean('auto_queue_runs').notNullable().defaultTo(true);
    t.boolean('speculative').notNullable().defaultTo(false);
    t.boolean('provisional').notNullable().defaultTo(false);
    t.text('error');
    t.text('error_message');
    t.text('archive_object_id').references('objects.id').onDelete('SET NULL');
    t.jsonb('changed_files').notNullable().defaultTo('[]');
    t.jsonb('status_timestamps').notNullable().defaultTo('{}');
    t.text('created_by_id').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('configuration_versions');
}
