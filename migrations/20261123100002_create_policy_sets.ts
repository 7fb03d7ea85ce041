import type { Knex } from 'knex';

// Policy sets group policies of one kind and apply them to workspaces (or, when global, to all).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('policy_sets', (t) => {
    t.text('id').primary();
    t.text('organization_name').notNullable().references('organizations.name').onDelete('CASCADE').onUpdate('CASCADE');
    t.text('name').notNullable();
    t.text('description');
    t.text('kind').notNullable().checkIn(['sentinel', 'opa']);
    t.boolean('global').notNullable().defaultTo(false);
    t.boolean('overridable').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_name', 'name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('policy_sets');
}
