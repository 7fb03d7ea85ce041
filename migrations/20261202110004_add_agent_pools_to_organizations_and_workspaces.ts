import type { Knex } from 'knex';

// An organization's default agent pool (with the `agent` default execution mode), and the pool of
// a workspace in `agent` mode. A pool in use is not deleted (the API refuses); deleting an
// organization removes its pools with its workspaces in one statement.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) => {
    t.text('default_agent_pool_id').references('agent_pools.id');
  });
  await knex.schema.alterTable('workspaces', (t) => {
    t.text('agent_pool_id').references('agent_pools.id');
    t.index(['agent_pool_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.dropColumn('agent_pool_id');
  });
  await knex.schema.alterTable('organizations', (t) => {
    t.dropColumn('default_agent_pool_id');
  });
}
