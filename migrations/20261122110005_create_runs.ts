import type { Knex } from 'knex';

// Runs. The run engine adds its own columns; this is what queueing a run needs.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('runs', (t) => {
    t.text('id').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('configuration_version_id').references('configuration_versions.id').onDelete('SET NULL');
    t.text('status').notNullable().defaultTo('pending');
    t.text('source').notNullable().defaultTo('tfe-api');
    t.text('message').notNullable().defaultTo('Queued manually via the Terraform Enterprise API');
    t.boolean('is_destroy').notNullable().defaultTo(false);
    t.boolean('auto_apply').notNullable().defaultTo(false);
    t.boolean('plan_only').notNullable().defaultTo(false);
    t.boolean('refresh').notNullable().defaultTo(true);
    t.boolean('refresh_only').notNullable().defaultTo(false);
    t.boolean('save_plan').notNullable().defaultTo(false);
    t.jsonb('target_addrs').notNullable().defaultTo('[]');
    t.jsonb('replace_addrs').notNullable().defaultTo('[]');
    t.jsonb('variables').notNullable().defaultTo('[]');
    t.jsonb('status_timestamps').notNullable().defaultTo('{}');
    t.text('created_by_id').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'created_at']);
    t.index(['configuration_version_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('runs');
}
