import type { Knex } from 'knex';

// A client's Idempotency-Key on the creation of a run or a configuration version, kept on the row
// it created (digested with who sent it) with a digest of the request: a retry finds the row
// instead of creating a second one, and the key is written in the same statement as the row.
export async function up(knex: Knex): Promise<void> {
  for (const table of ['runs', 'configuration_versions']) {
    await knex.schema.alterTable(table, (t) => {
      t.text('idempotency_key');
      t.text('idempotency_request');
    });
    await knex.raw(
      `create unique index ${table}_idempotency_key on ${table} (idempotency_key) where idempotency_key is not null`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['runs', 'configuration_versions']) {
    await knex.raw(`drop index if exists ${table}_idempotency_key`);
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('idempotency_key');
      t.dropColumn('idempotency_request');
    });
  }
}
