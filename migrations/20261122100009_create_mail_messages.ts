import type { Knex } from 'knex';

// Outgoing mail is durable work: the row is the truth, a queue job only carries its id.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mail_messages', (t) => {
    t.text('id').primary();
    t.text('kind').notNullable();
    t.text('ref_id');
    t.text('to_address').notNullable();
    t.text('subject').notNullable();
    t.text('body').notNullable();
    t.text('status').notNullable().defaultTo('pending').checkIn(['pending', 'sending', 'sent', 'failed']);
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('lease_until', { useTz: true });
    t.text('last_error');
    t.text('sent_by');
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    `create index mail_messages_due on mail_messages (next_attempt_at) where status in ('pending', 'sending')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('mail_messages');
}
