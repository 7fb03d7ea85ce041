import type { Knex } from 'knex';

// Agent pools: named groups a workspace in `agent` execution mode names. A pool that is not
// organization-scoped serves only the workspaces it allows.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('agent_pools', (t) => {
    t.text('id').primary();
    t.text('organization_name').notNullable().references('organizations.name').onDelete('CASCADE').onUpdate('CASCADE');
    t.text('name').notNullable();
    t.boolean('organization_scoped').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_name', 'name']);
  });
  await knex.schema.createTable('agent_pool_allowed_workspaces', (t) => {
    t.text('agent_pool_id').notNullable().references('agent_pools.id').onDelete('CASCADE');
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.primary(['agent_pool_id', 'workspace_id']);
    t.index(['workspace_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('agent_pool_allowed_workspaces');
  await knex.schema.dropTable('agent_pools');
}
