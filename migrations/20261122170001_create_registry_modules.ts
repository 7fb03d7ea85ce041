import type { Knex } from 'knex';

// Private registry modules: enough of the registry for module test runs.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('registry_modules', (t) => {
    t.text('id').primary();
    t.text('organization_name').notNullable().references('organizations.name').onDelete('CASCADE').onUpdate('CASCADE');
    t.text('registry_name').notNullable().defaultTo('private');
    t.text('namespace').notNullable();
    t.text('name').notNullable();
    t.text('provider').notNullable();
    t.text('created_by_id').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_name', 'registry_name', 'namespace', 'name', 'provider']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('registry_modules');
}
