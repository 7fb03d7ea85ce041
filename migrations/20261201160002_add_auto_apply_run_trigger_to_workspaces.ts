import type { Knex } from 'knex';

// Whether runs queued by a run trigger apply without confirmation (independent of `auto_apply`).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.boolean('auto_apply_run_trigger').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.dropColumn('auto_apply_run_trigger');
  });
}
