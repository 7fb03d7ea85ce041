import type { Knex } from 'knex';

// Module test runs: `terraform test` executed by the test-run-execution worker.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('test_runs', (t) => {
    t.text('id').primary();
    t.text('registry_module_id').notNullable().references('registry_modules.id').onDelete('CASCADE');
    // Null once the version is gone (it may belong to another module, deleted since).
    t.text('configuration_version_id').references('configuration_versions.id').onDelete('SET NULL');
    t.text('status').notNullable().defaultTo('pending');
    t.text('test_status');
    t.integer('tests_passed');
    t.integer('tests_failed');
    t.integer('tests_errored');
    t.integer('tests_skipped');
    t.text('source').notNullable();
    t.boolean('verbose').notNullable().defaultTo(false);
    t.text('test_directory').notNullable().defaultTo('tests');
    t.jsonb('filters').notNullable().defaultTo('[]');
    // Variables may carry secrets (the CLI sends TF_VAR_* values): sealed like other secrets.
    t.text('variables_sealed');
    t.jsonb('variable_keys').notNullable().defaultTo('[]');
    t.integer('parallelism');
    t.text('log_id').notNullable().references('logs.id');
    t.text('message');
    t.timestamp('cancel_requested_at', { useTz: true });
    t.text('lease_owner');
    t.timestamp('lease_until', { useTz: true });
    t.integer('attempts').notNullable().defaultTo(0);
    t.jsonb('status_timestamps').notNullable().defaultTo('{}');
    t.text('created_by_id').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['registry_module_id', 'created_at']);
    t.index(['status']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('test_runs');
}
