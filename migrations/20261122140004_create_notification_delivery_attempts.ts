import type { Knex } from 'knex';

// Every attempt to deliver a notification.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_delivery_attempts', (t) => {
    t.bigIncrements('seq');
    t.text('delivery_id').notNullable().references('notification_deliveries.id').onDelete('CASCADE');
    t.integer('attempt').notNullable();
    t.integer('status_code');
    t.integer('duration_ms').notNullable();
    t.text('error');
    t.text('response_body');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['delivery_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('notification_delivery_attempts');
}
