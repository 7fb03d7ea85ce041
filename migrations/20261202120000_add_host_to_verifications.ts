import type { Knex } from 'knex';

// The destination host of a verification (its URL's host name), so the API can count the ones of
// a host still waiting for their answer (MAX_CONCURRENT_VERIFICATIONS_PER_HOST). Earlier rows have
// none and count for no host: they were settled long ago.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('verifications', (t) => {
    t.text('host');
  });
  await knex.raw(
    `create index verifications_open_by_host on verifications (host, created_at) where status in ('pending', 'running')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists verifications_open_by_host');
  await knex.schema.alterTable('verifications', (t) => {
    t.dropColumn('host');
  });
}
