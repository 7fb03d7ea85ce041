import type { Knex } from 'knex';

// State versions created through the API: a version may wait for its state (`pending`) until the
// upload URL receives it (`finalized`); the md5 the creator declared is checked against the bytes.
// The JSON state (optional) is a second object. Organizations get a default execution mode, and
// workspaces a list of the workspaces allowed to read their outputs (remote state sharing).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('state_versions', (t) => {
    t.text('status')
      .notNullable()
      .defaultTo('finalized')
      .checkIn(['pending', 'finalized', 'discarded'], 'state_versions_status_check');
    t.text('md5');
    t.text('json_object_id').references('objects.id').onDelete('SET NULL');
    t.index(['workspace_id', 'serial']);
  });
  await knex.schema.alterTable('organizations', (t) => {
    t.text('default_execution_mode')
      .notNullable()
      .defaultTo('remote')
      .checkIn(['remote', 'local', 'agent'], 'organizations_default_execution_mode_check');
  });
  await knex.schema.createTable('remote_state_consumers', (t) => {
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('consumer_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.primary(['workspace_id', 'consumer_id']);
    t.index(['consumer_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('remote_state_consumers');
  await knex.schema.alterTable('organizations', (t) => t.dropColumn('default_execution_mode'));
  await knex.schema.alterTable('state_versions', (t) => {
    t.dropIndex(['workspace_id', 'serial']);
    t.dropColumn('json_object_id');
    t.dropColumn('md5');
    t.dropColumn('status');
  });
}
