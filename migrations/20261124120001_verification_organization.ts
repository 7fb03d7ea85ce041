import type { Knex } from 'knex';

// The organization a verification is made for: its job carries it (the verification worker's fair
// share between organizations), and the reconciler reads it here when it queues the job again.
// Rows written before have none, and their jobs run outside any share.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('verifications', (t) => {
    t.text('organization_name');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('verifications', (t) => {
    t.dropColumn('organization_name');
  });
}
