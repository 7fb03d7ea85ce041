import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('state_version_outputs', (t) => {
    t.text('id').primary();
    t.text('state_version_id').notNullable().references('state_versions.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.boolean('sensitive').notNullable().defaultTo(false);
    t.jsonb('type');
    // JSON of the value; sensitive values are encrypted (AES-256-GCM) instead.
    t.text('value').notNullable();
    t.unique(['state_version_id', 'name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('state_version_outputs');
}
