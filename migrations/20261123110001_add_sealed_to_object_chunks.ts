import type { Knex } from 'knex';

// Chunks written from now on are encrypted (AES-256-GCM, see shared/platform/store/postgres-store.ts);
// those written before stay readable as they are.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('object_chunks', (t) => {
    t.boolean('sealed').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('object_chunks', (t) => {
    t.dropColumn('sealed');
  });
}
