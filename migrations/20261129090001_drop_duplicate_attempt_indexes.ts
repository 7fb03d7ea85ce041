import type { Knex } from 'knex';

// An attempt row's parent id has two indexes: its own and the unique (parent, attempt) one, whose
// first column serves every lookup by parent (the delivery log, the cascade when a parent row is
// deleted). The single-column one is dropped: one index fewer to write at every attempt.
const TABLES = [
  ['notification_delivery_attempts', 'delivery_id'],
  ['task_result_attempts', 'task_result_id'],
] as const;

export async function up(knex: Knex): Promise<void> {
  for (const [table, parent] of TABLES) await knex.schema.alterTable(table, (t) => t.dropIndex([parent]));
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, parent] of TABLES) await knex.schema.alterTable(table, (t) => t.index([parent]));
}
