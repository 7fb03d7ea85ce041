import type { Knex } from 'knex';

// When a periodic step of the sweep is next due. The sweep runs every few seconds in every worker
// process; a step that should run less often (data retention: hourly) claims its turn here, so
// its schedule survives restarts and Redis flushes and is shared by all processes.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sweep_schedules', (t) => {
    t.text('name').primary();
    t.timestamp('next_run_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sweep_schedules');
}
