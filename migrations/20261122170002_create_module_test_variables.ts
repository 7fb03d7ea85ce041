import type { Knex } from 'knex';

// Environment variables of a module's test runs. Values are sealed with the service key.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('module_test_variables', (t) => {
    t.text('id').primary();
    t.text('registry_module_id').notNullable().references('registry_modules.id').onDelete('CASCADE');
    t.text('key').notNullable();
    t.text('value_sealed').notNullable();
    t.text('description');
    t.text('category').notNullable().defaultTo('env');
    t.boolean('sensitive').notNullable().defaultTo(false);
    t.boolean('hcl').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['registry_module_id', 'key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('module_test_variables');
}
