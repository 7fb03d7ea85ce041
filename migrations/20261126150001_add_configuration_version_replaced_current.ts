import type { Knex } from 'knex';

// A version that is not provisional becomes its workspace's current version when it is created
// (as in Terraform Cloud); the version it displaced is remembered so that a failed upload can
// give the workspace its previous current version back.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('configuration_versions', (t) => {
    t.text('replaced_current_id').references('configuration_versions.id').onDelete('SET NULL');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('configuration_versions', (t) => t.dropColumn('replaced_current_id'));
}
