import type { Knex } from 'knex';

// The SSH key a workspace's runs use for git module sources. Deleting the key unassigns it, as TFE does.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.text('ssh_key_id').references('ssh_keys.id').onDelete('SET NULL');
    t.index(['ssh_key_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.dropColumn('ssh_key_id');
  });
}
