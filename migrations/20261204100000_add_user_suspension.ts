import type { Knex } from 'knex';

// A site admin may suspend a user: until unsuspended, none of the user's tokens, sessions or
// passwords is accepted.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.timestamp('suspended_at', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('suspended_at');
  });
}
