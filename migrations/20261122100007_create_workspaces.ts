import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workspaces', (t) => {
    t.text('id').primary();
    t.text('organization_name').notNullable().references('organizations.name').onDelete('CASCADE').onUpdate('CASCADE');
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('working_directory').notNullable().defaultTo('');
    t.boolean('auto_apply').notNullable().defaultTo(false);
    t.text('execution_mode').notNullable().defaultTo('remote').checkIn(['remote', 'local', 'agent']);
    t.text('terraform_version').notNullable().defaultTo('latest');
    t.jsonb('vcs_repo');
    t.boolean('assessments_enabled').notNullable().defaultTo(false);
    t.timestamp('auto_destroy_at', { useTz: true });
    t.boolean('allow_destroy_plan').notNullable().defaultTo(true);
    t.boolean('queue_all_runs').notNullable().defaultTo(false);
    t.boolean('speculative_enabled').notNullable().defaultTo(true);
    t.boolean('global_remote_state').notNullable().defaultTo(false);
    t.boolean('structured_run_output_enabled').notNullable().defaultTo(false);
    t.boolean('locked').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_name', 'name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('workspaces');
}
