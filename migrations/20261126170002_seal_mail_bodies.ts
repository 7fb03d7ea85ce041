import type { Knex } from 'knex';

// Outgoing mail that carries a secret (an invitation's one-time link) is stored encrypted under
// ENCRYPTION_KEY; the sender opens it just before sending.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('mail_messages', (t) => {
    t.boolean('body_sealed').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('mail_messages', (t) => {
    t.dropColumn('body_sealed');
  });
}
