import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('teams', (t) => {
    t.text('id').primary();
    t.text('organization_name').notNullable().references('organizations.name').onDelete('CASCADE').onUpdate('CASCADE');
    t.text('name').notNullable();
    t.boolean('is_owners').notNullable().defaultTo(false);
    t.text('visibility').notNullable().defaultTo('secret').checkIn(['secret', 'organization']);
    t.jsonb('organization_access').notNullable().defaultTo('{}');
    t.text('sso_team_id');
    t.boolean('allow_member_token_management').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_name', 'name']);
  });
  await knex.raw('create unique index teams_one_owners_team on teams (organization_name) where is_owners');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('teams');
}
