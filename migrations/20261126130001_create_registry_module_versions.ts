import type { Knex } from 'knex';

// Published versions of private registry modules: the archive, what was read from its files, and
// the test run whose result the version carries. A test run may target a version's archive.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('registry_module_versions', (t) => {
    t.text('id').primary();
    t.text('registry_module_id').notNullable().references('registry_modules.id').onDelete('CASCADE');
    t.text('version').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.text('error').nullable();
    t.text('commit_sha').nullable();
    t.text('archive_object_id').nullable();
    t.text('readme').nullable();
    t.jsonb('root').nullable();
    t.jsonb('submodules').nullable();
    t.text('test_run_id').nullable().references('test_runs.id').onDelete('SET NULL');
    t.text('created_by_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['registry_module_id', 'version']);
  });
  await knex.schema.alterTable('test_runs', (t) => {
    t.text('module_version_id').nullable().references('registry_module_versions.id').onDelete('SET NULL');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('test_runs', (t) => t.dropColumn('module_version_id'));
  await knex.schema.dropTable('registry_module_versions');
}
