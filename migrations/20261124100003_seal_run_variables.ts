import type { Knex } from 'knex';

// Run variables (`POST /runs` `variables`, the CLI's -var) are secrets: their values are kept
// sealed (AES-256-GCM under ENCRYPTION_KEY) here, and `variables` keeps their keys only.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('runs', (t) => {
    t.text('variables_sealed');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('runs', (t) => {
    t.dropColumn('variables_sealed');
  });
}
