import type { Knex } from 'knex';

// Variable sets of an organization: applied to chosen workspaces, or to all of them when global;
// a priority set's variables override the workspace's and the run's own.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('variable_sets', (t) => {
    t.text('id').primary();
    t.text('organization_name').notNullable().references('organizations.name').onDelete('CASCADE').onUpdate('CASCADE');
    t.text('name').notNullable();
    t.text('description');
    t.boolean('global').notNullable().defaultTo(false);
    t.boolean('priority').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_name', 'name']);
  });
  await knex.schema.createTable('variable_set_workspaces', (t) => {
    t.text('variable_set_id').notNullable().references('variable_sets.id').onDelete('CASCADE');
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.primary(['variable_set_id', 'workspace_id']);
    t.index(['workspace_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('variable_set_workspaces');
  await knex.schema.dropTable('variable_sets');
}
