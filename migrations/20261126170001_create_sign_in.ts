import type { Knex } from 'knex';

// Sign-in for people: a password per user (argon2id, PHC string), one-time password links
// (invitations and site-admin resets), console sessions and terraform login authorization codes.
// Every secret is stored only as its SHA-256 digest.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.text('password_hash');
    t.timestamp('password_changed_at', { useTz: true });
  });
  await knex.schema.createTable('password_links', (t) => {
    t.text('id').primary();
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('purpose').notNullable().checkIn(['invitation', 'reset']);
    // The invitation a link accepts when it is used (invitation links only).
    t.text('membership_id').references('organization_memberships.id').onDelete('CASCADE');
    t.text('digest').notNullable().unique();
    t.text('created_by_id').references('users.id').onDelete('SET NULL');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
  });
  await knex.raw(
    `alter table password_links add constraint password_links_membership_check check ((purpose = 'invitation') = (membership_id is not null))`,
  );
  await knex.schema.createTable('console_sessions', (t) => {
    t.text('id').primary();
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('digest').notNullable().unique();
    // The session's CSRF token (also a cookie the console reads), bound to this session.
    t.text('csrf_digest').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('last_seen_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
  });
  await knex.schema.createTable('oauth_codes', (t) => {
    t.text('id').primary();
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('digest').notNullable().unique();
    t.text('client_id').notNullable();
    t.text('redirect_uri').notNullable();
    t.text('code_challenge').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('oauth_codes');
  await knex.schema.dropTable('console_sessions');
  await knex.schema.dropTable('password_links');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('password_changed_at');
    t.dropColumn('password_hash');
  });
}
