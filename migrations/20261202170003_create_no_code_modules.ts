import type { Knex } from 'knex';

// No-code modules: a private registry module offered for provisioning workspaces without writing
// configuration, at a pinned version (null or `latest`: the latest published). One per registry
// module; it goes with the module.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('no_code_modules', (t) => {
    t.text('id').primary();
    t.text('organization_name').notNullable().references('organizations.name').onDelete('CASCADE').onUpdate('CASCADE');
    t.text('registry_module_id').notNullable().unique().references('registry_modules.id').onDelete('CASCADE');
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('version_pin');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('no_code_modules');
}
