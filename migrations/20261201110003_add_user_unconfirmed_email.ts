import type { Knex } from 'knex';

// The address a user asked to change their email to (PATCH /account/update): held apart from the
// account's email, which it does not replace until it is confirmed (see docs/decisions.md).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => t.text('unconfirmed_email'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => t.dropColumn('unconfirmed_email'));
}
