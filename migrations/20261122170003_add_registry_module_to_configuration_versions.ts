import type { Knex } from 'knex';

// A configuration version belongs to a workspace or, for module tests, to a registry module.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('configuration_versions', (t) => {
    t.setNullable('workspace_id');
    t.text('registry_module_id').references('registry_modules.id').onDelete('CASCADE');
    t.index(['registry_module_id', 'created_at']);
  });
  await knex.raw(
    'ALTER TABLE configuration_versions ADD CONSTRAINT configuration_versions_one_owner CHECK ((workspace_id IS NULL) <> (registry_module_id IS NULL))',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE configuration_versions DROP CONSTRAINT configuration_versions_one_owner');
  await knex.schema.alterTable('configuration_versions', (t) => {
    t.dropColumn('registry_module_id');
    t.dropNullable('workspace_id');
  });
}
