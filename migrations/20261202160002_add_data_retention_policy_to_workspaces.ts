import type { Knex } from 'knex';

// A workspace's own data retention policy (it wins over its organization's), kept on its row as
// the organization's is.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.text('data_retention_policy_id');
    t.text('data_retention_policy_kind');
    t.integer('data_retention_days');
  });
  await knex.raw(`alter table workspaces add constraint workspaces_data_retention_policy_check check (
    (data_retention_policy_id is null and data_retention_policy_kind is null and data_retention_days is null)
    or (data_retention_policy_id is not null and data_retention_policy_kind = 'dont-delete' and data_retention_days is null)
    or (data_retention_policy_id is not null and data_retention_policy_kind = 'delete-older' and data_retention_days >= 1))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.dropColumn('data_retention_policy_id');
    t.dropColumn('data_retention_policy_kind');
    t.dropColumn('data_retention_days');
  });
}
