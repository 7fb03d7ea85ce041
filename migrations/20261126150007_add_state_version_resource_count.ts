import type { Knex } from 'knex';

// How many resources a state version manages (managed resources with at least one instance),
// counted when its state is stored; null for versions stored before it was counted.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('state_versions', (t) => t.integer('resource_count'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('state_versions', (t) => t.dropColumn('resource_count'));
}
