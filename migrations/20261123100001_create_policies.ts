import type { Knex } from 'knex';

// Policies of an organization (Sentinel or OPA). The code is uploaded separately and may be absent.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('policies', (t) => {
    t.text('id').primary();
    t.text('organization_name').notNullable().references('organizations.name').onDelete('CASCADE').onUpdate('CASCADE');
    t.text('name').notNullable();
    t.text('description');
    t.text('kind').notNullable().checkIn(['sentinel', 'opa']);
    t.text('query');
    t.text('enforcement_level').notNullable().checkIn(['hard-mandatory', 'soft-mandatory', 'advisory', 'mandatory']);
    t.text('code');
    t.timestamp('code_updated_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_name', 'name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('policies');
}
