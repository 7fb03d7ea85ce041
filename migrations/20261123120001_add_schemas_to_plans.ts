import type { Knex } from 'knex';

// The providers' schemas a plan's changes render with, kept for plans of workspaces with
// structured run output (served in json-output-redacted).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => {
    t.text('schemas_object_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => {
    t.dropColumn('schemas_object_id');
  });
}
