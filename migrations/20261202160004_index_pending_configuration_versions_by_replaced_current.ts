import type { Knex } from 'knex';

// A pending version whose upload fails gives its workspace back the version it displaced: data
// retention keeps that version's files, and finds the pending versions that name it here.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `create index configuration_versions_pending_replaced_current on configuration_versions (replaced_current_id) where status = 'pending'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists configuration_versions_pending_replaced_current');
}
