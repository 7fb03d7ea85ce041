import type { Knex } from 'knex';

// One delivery per (event, configuration), written with the event; the payload is serialised once.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_deliveries', (t) => {
    t.text('id').primary();
    t.text('configuration_id').notNullable().references('notification_configurations.id').onDelete('CASCADE');
    t.text('run_id').references('runs.id').onDelete('SET NULL');
    // What the notification is about, e.g. run-…:run:created; one delivery per configuration and event.
    t.text('event_key').notNullable();
    t.text('trigger').notNullable();
    t.text('payload').notNullable();
    t.text('status')
      .notNullable()
      .defaultTo('pending')
      .checkIn(['pending', 'sending', 'delivered', 'failed', 'dropped']);
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('lease_until', { useTz: true });
    t.integer('last_status_code');
    t.text('last_error');
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.raw('clock_timestamp()'));
    t.unique(['configuration_id', 'event_key']);
    t.index(['run_id']);
  });
  await knex.raw(
    `create index notification_deliveries_due on notification_deliveries (next_attempt_at) where status in ('pending', 'sending')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('notification_deliveries');
}
