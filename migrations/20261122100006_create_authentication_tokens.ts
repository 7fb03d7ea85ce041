import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('authentication_tokens', (t) => {
    t.text('id').primary();
    t.text('kind').notNullable().checkIn(['user', 'team', 'organization']);
    t.text('user_id').references('users.id').onDelete('CASCADE');
    t.text('team_id').references('teams.id').onDelete('CASCADE');
    t.text('organization_name').references('organizations.name').onDelete('CASCADE').onUpdate('CASCADE');
    // SHA-256 of the token; the token itself is shown once and never stored.
    t.text('digest').notNullable().unique();
    t.text('description');
    t.boolean('from_configuration').notNullable().defaultTo(false);
    t.text('created_by_id').references('users.id').onDelete('SET NULL');
    t.timestamp('expired_at', { useTz: true });
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
  });
  await knex.raw(
    `create unique index authentication_tokens_one_per_team on authentication_tokens (team_id) where kind = 'team'`,
  );
  await knex.raw(
    `create unique index authentication_tokens_one_per_org on authentication_tokens (organization_name) where kind = 'organization'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('authentication_tokens');
}
