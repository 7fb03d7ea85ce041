import type { Knex } from 'knex';

// Whether workspace admins may force-delete workspaces that still manage resources (Terraform
// Cloud's `allow-force-delete-workspaces`). Stored and shown; a delete here never checks resources.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) =>
    t.boolean('allow_force_delete_workspaces').notNullable().defaultTo(false),
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) => t.dropColumn('allow_force_delete_workspaces'));
}
