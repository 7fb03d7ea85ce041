import type { Knex } from 'knex';

// An organization's data retention policy, kept on its row (every read of the organization then
// has it, with no other statement): its id, its kind, and for `delete-older` the number of days
// the backing data of its workspaces' state and configuration versions is kept.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) => {
    t.text('data_retention_policy_id');
    t.text('data_retention_policy_kind');
    t.integer('data_retention_days');
  });
  await knex.raw(`alter table organizations add constraint organizations_data_retention_policy_check check (
    (data_retention_policy_id is null and data_retention_policy_kind is null and data_retention_days is null)
    or (data_retention_policy_id is not null and data_retention_policy_kind = 'dont-delete' and data_retention_days is null)
    or (data_retention_policy_id is not null and data_retention_policy_kind = 'delete-older' and data_retention_days >= 1))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) => {
    t.dropColumn('data_retention_policy_id');
    t.dropColumn('data_retention_policy_kind');
    t.dropColumn('data_retention_days');
  });
}
