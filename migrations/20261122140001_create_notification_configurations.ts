import type { Knex } from 'knex';

// Workspace notification destinations; the signing token is encrypted at rest.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_configurations', (t) => {
    t.text('id').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('destination_type').notNullable().checkIn(['generic', 'email', 'slack', 'microsoft-teams']);
    t.boolean('enabled').notNullable().defaultTo(false);
    t.text('token_sealed');
    t.jsonb('triggers').notNullable().defaultTo('[]');
    t.text('url');
    t.jsonb('email_addresses').notNullable().defaultTo('[]');
    t.jsonb('delivery_responses').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('notification_configurations');
}
