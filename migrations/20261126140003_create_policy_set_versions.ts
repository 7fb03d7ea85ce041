import type { Knex } from 'knex';

// Policy set versions: a bundle of policies uploaded for a set (a tar.gz with sentinel.hcl or
// policies.hcl and the policy files). Once a version is ready the set evaluates its newest ready
// version's policies; `policies` holds them as parsed from the bundle.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('policy_set_versions', (t) => {
    t.text('id').primary();
    t.text('policy_set_id').notNullable().references('policy_sets.id').onDelete('CASCADE');
    t.text('source').notNullable().defaultTo('tfe-api');
    t.text('status').notNullable().defaultTo('pending');
    t.text('error');
    t.text('error_message');
    t.jsonb('status_timestamps').notNullable().defaultTo('{}');
    t.text('archive_object_id');
    t.jsonb('policies').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['policy_set_id', 'status']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('policy_set_versions');
}
