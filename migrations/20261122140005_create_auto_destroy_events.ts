import type { Knex } from 'knex';

// What the auto-destroy sweep has done for one scheduled time: reminders sent, run attempted.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('auto_destroy_events', (t) => {
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.timestamp('auto_destroy_at', { useTz: true }).notNullable();
    t.text('kind').notNullable().checkIn(['reminder-24h', 'reminder-12h', 'run']);
    t.text('run_id');
    t.text('error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'auto_destroy_at', 'kind']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('auto_destroy_events');
}
