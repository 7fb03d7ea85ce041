import type { Knex } from 'knex';

// Workspaces connected to a repository through a VCS connection, the provider webhooks the service
// keeps for those repositories, the deliveries it has received (once each), and the commit
// statuses it reports back.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    // The webhook the workspace's repository sends to (one per connection and repository).
    t.text('vcs_hook_id');
    t.index(['vcs_hook_id']);
  });
  await knex.schema.createTable('vcs_hooks', (t) => {
    t.text('id').primary();
    t.text('oauth_client_id').notNullable().references('oauth_clients.id').onDelete('CASCADE');
    t.text('identifier').notNullable();
    // The provider's id of the webhook, once created; null while it is not.
    t.text('provider_hook_id');
    t.text('last_error');
    t.timestamp('synced_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('vcs_deliveries', (t) => {
    t.text('hook_id').notNullable();
    t.text('delivery_id').notNullable();
    t.text('event').notNullable();
    // The configuration versions the delivery created, for the delivery log.
    t.specificType('configuration_version_ids', 'text[]').notNullable().defaultTo('{}');
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['hook_id', 'delivery_id']);
  });
  await knex.schema.createTable('vcs_commit_statuses', (t) => {
    t.text('id').primary();
    t.text('run_id').notNullable().references('runs.id').onDelete('CASCADE');
    t.text('oauth_token_id').notNullable().references('oauth_tokens.id').onDelete('CASCADE');
    t.text('identifier').notNullable();
    t.text('commit_sha').notNullable();
    t.text('state').notNullable();
    t.text('description').notNullable();
    t.text('target_url').notNullable();
    t.text('context').notNullable();
    // queued -> sent, or failed after the last attempt.
    t.text('delivery_status').notNullable().defaultTo('queued');
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
    t.integer('response_status');
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['run_id', 'created_at']);
  });
  await knex.raw(
    `create index vcs_commit_statuses_due on vcs_commit_statuses (next_attempt_at) where delivery_status = 'queued'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('vcs_commit_statuses');
  await knex.schema.dropTable('vcs_deliveries');
  await knex.schema.dropTable('vcs_hooks');
  await knex.schema.alterTable('workspaces', (t) => t.dropColumn('vcs_hook_id'));
}
