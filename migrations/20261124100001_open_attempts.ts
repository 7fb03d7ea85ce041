import type { Knex } from 'knex';

// Attempts are recorded when they start (open: no end, no duration yet) and closed when they end,
// so an attempt whose sender died shows as abandoned. One row per attempt number.
export async function up(knex: Knex): Promise<void> {
  for (const [table, parent] of [
    ['notification_delivery_attempts', 'delivery_id'],
    ['task_result_attempts', 'task_result_id'],
  ] as const) {
    await knex.schema.alterTable(table, (t) => {
      t.timestamp('ended_at', { useTz: true });
      t.integer('duration_ms').nullable().alter();
    });
    await knex(table).update({ ended_at: knex.ref('created_at') });
    // Older rows may repeat an attempt number (a sender that died after recording): keep the first.
    await knex.raw(`delete from ?? a using ?? b where a.?? = b.?? and a.attempt = b.attempt and a.seq > b.seq`, [
      table,
      table,
      parent,
      parent,
    ]);
    await knex.schema.alterTable(table, (t) => t.unique([parent, 'attempt']));
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, parent] of [
    ['notification_delivery_attempts', 'delivery_id'],
    ['task_result_attempts', 'task_result_id'],
  ] as const) {
    await knex.schema.alterTable(table, (t) => t.dropUnique([parent, 'attempt']));
    await knex(table).whereNull('duration_ms').update({ duration_ms: 0 });
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('ended_at');
      t.integer('duration_ms').notNullable().alter();
    });
  }
}
