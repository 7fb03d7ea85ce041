import type { Knex } from 'knex';

// The values a variable of a no-code module may take when a workspace is provisioned with it, in
// the order they were given.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('no_code_variable_options', (t) => {
    t.text('id').primary();
    t.text('no_code_module_id').notNullable().references('no_code_modules.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('variable_name').notNullable();
    t.text('variable_type').notNullable();
    t.jsonb('options').notNullable();
    t.unique(['no_code_module_id', 'variable_name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('no_code_variable_options');
}
