import type { Knex } from 'knex';

// The task's HMAC key (sealed) copied onto each result when its stage starts, so retries stay
// signed even if the task is changed or deleted meanwhile.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('task_results', (t) => t.text('hmac_key_sealed'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('task_results', (t) => t.dropColumn('hmac_key_sealed'));
}
