import type { Knex } from 'knex';

// VCS connections (TFE's OAuth clients) of an organization and their OAuth tokens. Every secret
// (an OAuth secret, a private key, a token, an SSH key) is sealed with the service key.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oauth_clients', (t) => {
    t.text('id').primary();
    t.text('organization_name').notNullable().references('organizations.name').onDelete('CASCADE').onUpdate('CASCADE');
    t.text('service_provider').notNullable();
    t.text('name');
    t.text('http_url').notNullable();
    t.text('api_url').notNullable();
    t.text('key');
    t.text('secret_sealed');
    t.text('rsa_public_key');
    t.text('private_key_sealed');
    t.boolean('organization_scoped').notNullable().defaultTo(true);
    t.text('agent_pool_id').references('agent_pools.id').onDelete('SET NULL');
    // The id in the connection's callback URL and connect path.
    t.uuid('callback_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_name', 'created_at']);
  });
  await knex.schema.createTable('oauth_tokens', (t) => {
    t.text('id').primary();
    t.text('oauth_client_id').notNullable().references('oauth_clients.id').onDelete('CASCADE');
    t.text('token_sealed').notNullable();
    t.text('ssh_key_sealed');
    t.text('service_provider_user');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['oauth_client_id', 'created_at']);
  });
  await knex.schema.createTable('oauth_client_projects', (t) => {
    t.text('oauth_client_id').notNullable().references('oauth_clients.id').onDelete('CASCADE');
    t.text('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.primary(['oauth_client_id', 'project_id']);
    t.index(['project_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('oauth_client_projects');
  await knex.schema.dropTable('oauth_tokens');
  await knex.schema.dropTable('oauth_clients');
}
