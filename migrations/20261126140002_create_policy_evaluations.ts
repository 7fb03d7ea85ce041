import type { Knex } from 'knex';

// Policy evaluations: how OPA policy sets (and agent-enabled Sentinel sets) report on a run, in
// its post-plan task stage, one evaluation per policy kind; each holds one outcome per policy set.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('policy_evaluations', (t) => {
    t.text('id').primary();
    t.text('run_id').notNullable().references('runs.id').onDelete('CASCADE');
    t.text('task_stage_id').notNullable().references('task_stages.id').onDelete('CASCADE');
    t.text('policy_kind').notNullable().checkIn(['opa', 'sentinel']);
    t.text('status').notNullable().defaultTo('pending');
    // The policy sets that applied when the run was created.
    t.jsonb('policy_set_ids').notNullable().defaultTo('[]');
    t.boolean('is_overridable').notNullable().defaultTo(false);
    t.jsonb('result_count')
      .notNullable()
      .defaultTo(JSON.stringify({ 'advisory-failed': 0, 'mandatory-failed': 0, passed: 0, errored: 0 }));
    t.jsonb('status_timestamps').notNullable().defaultTo('{}');
    t.text('overridden_by_id').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['task_stage_id', 'policy_kind']);
    t.index(['run_id']);
  });
  await knex.raw(
    `create index policy_evaluations_open on policy_evaluations (status) where status in ('queued', 'running')`,
  );
  await knex.schema.createTable('policy_set_outcomes', (t) => {
    t.text('id').primary();
    t.text('policy_evaluation_id').notNullable().references('policy_evaluations.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('policy_set_id');
    t.text('policy_set_name').notNullable();
    t.text('policy_set_description');
    t.boolean('overridable').notNullable();
    t.text('error');
    t.jsonb('outcomes').notNullable().defaultTo('[]');
    t.jsonb('result_count').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['policy_evaluation_id', 'position']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('policy_set_outcomes');
  await knex.schema.dropTable('policy_evaluations');
}
