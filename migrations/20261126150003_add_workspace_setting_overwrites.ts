import type { Knex } from 'knex';

// Whether a workspace sets its own execution mode and agent pool (true) or follows its
// organization's defaults (false). Existing workspaces whose mode differs from their
// organization's default keep it as their own.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.boolean('overwrites_execution_mode').notNullable().defaultTo(false);
    t.boolean('overwrites_agent_pool').notNullable().defaultTo(false);
  });
  await knex.raw(
    `update workspaces w set overwrites_execution_mode = true, overwrites_agent_pool = true
       from organizations o where o.name = w.organization_name and o.default_execution_mode <> w.execution_mode`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.dropColumn('overwrites_execution_mode');
    t.dropColumn('overwrites_agent_pool');
  });
}
