import type { Knex } from 'knex';

// Archives, plans and states arrive compressed or are small: Postgres's own compression of the
// chunk column only costs time, so keep chunks out of line and uncompressed.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table object_chunks alter column data set storage external');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table object_chunks alter column data set storage extended');
}
