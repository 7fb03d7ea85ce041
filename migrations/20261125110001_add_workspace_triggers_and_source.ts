import type { Knex } from 'knex';

// What Terraform Cloud keeps about a workspace's VCS file triggers (stored and shown; this service
// has no VCS runs to apply them to) and which tool created it (`source-name`, `source-url`).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.boolean('file_triggers_enabled').notNullable().defaultTo(true);
    t.specificType('trigger_prefixes', 'text[]').notNullable().defaultTo('{}');
    t.specificType('trigger_patterns', 'text[]').notNullable().defaultTo('{}');
    t.text('source_name');
    t.text('source_url');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.dropColumn('file_triggers_enabled');
    t.dropColumn('trigger_prefixes');
    t.dropColumn('trigger_patterns');
    t.dropColumn('source_name');
    t.dropColumn('source_url');
  });
}
