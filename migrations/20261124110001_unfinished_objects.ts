import type { Knex } from 'knex';

// Uploads stream into objects that stay unfinished (empty digest) until their version commits;
// the sweep finds the ones a crash cut off through this index.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX objects_unfinished ON objects (created_at) WHERE sha256 = ''`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX objects_unfinished');
}
