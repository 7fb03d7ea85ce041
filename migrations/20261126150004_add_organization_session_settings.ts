import type { Knex } from 'knex';

// Session settings of an organization as clients write and read them (minutes; null is the
// service's default). Stored and shown; sign-in sessions here do not depend on them.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) => {
    t.integer('session_timeout');
    t.integer('session_remember');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) => {
    t.dropColumn('session_timeout');
    t.dropColumn('session_remember');
  });
}
