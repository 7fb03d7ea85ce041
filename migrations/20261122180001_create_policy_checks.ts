import type { Knex } from 'knex';

// Policy checks of runs: one per scope (organization-wide sets, workspace sets), with the result.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('policy_checks', (t) => {
    t.text('id').primary();
    t.text('run_id').notNullable().references('runs.id').onDelete('CASCADE');
    t.text('scope').notNullable();
    t.text('status').notNullable().defaultTo('queued');
    t.jsonb('policy_set_ids').notNullable().defaultTo('[]');
    t.jsonb('result');
    t.text('output');
    t.boolean('is_overridable').notNullable().defaultTo(false);
    t.text('overridden_by_id').references('users.id').onDelete('SET NULL');
    t.jsonb('status_timestamps').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['run_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('policy_checks');
}
