import type { Knex } from 'knex';

// Single sign-on through OpenID Connect providers: which account a provider's subject is, the
// sign-ins under way (their state, nonce and PKCE verifier, used once), and which team
// memberships the provider's groups gave (those the next sign-in may take away again).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_identities', (t) => {
    t.text('provider').notNullable();
    t.text('subject').notNullable();
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('signed_in_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['provider', 'subject']);
    t.index(['user_id']);
  });
  await knex.schema.createTable('sso_requests', (t) => {
    t.text('id').primary();
    t.text('provider').notNullable();
    t.text('verifier_sealed').notNullable();
    t.text('nonce').notNullable();
    t.text('next').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
  await knex.schema.alterTable('team_members', (t) => {
    t.text('source').notNullable().defaultTo('manual').checkIn(['manual', 'sso']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('team_members', (t) => {
    t.dropColumn('source');
  });
  await knex.schema.dropTable('sso_requests');
  await knex.schema.dropTable('user_identities');
}
