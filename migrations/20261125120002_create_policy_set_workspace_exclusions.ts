import type { Knex } from 'knex';

// Workspaces a policy set never applies to, even when it is global or attached to them.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('policy_set_workspace_exclusions', (t) => {
    t.text('policy_set_id').notNullable().references('policy_sets.id').onDelete('CASCADE');
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.primary(['policy_set_id', 'workspace_id']);
    t.index(['workspace_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('policy_set_workspace_exclusions');
}
