import type { Knex } from 'knex';

// One result per attached task and stage. The row drives dispatch (with retries) and the deadline.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('task_results', (t) => {
    t.text('id').primary();
    t.text('task_stage_id').notNullable().references('task_stages.id').onDelete('CASCADE');
    t.text('run_id').notNullable().references('runs.id').onDelete('CASCADE');
    t.text('task_id').references('tasks.id').onDelete('SET NULL');
    t.text('workspace_task_id').references('workspace_tasks.id').onDelete('SET NULL');
    t.text('task_name').notNullable();
    t.text('task_url').notNullable();
    t.text('enforcement_level').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.text('message');
    t.text('url');
    t.jsonb('status_timestamps').notNullable().defaultTo('{}');
    // Callback credential: SHA-256 of the access token (for lookup) and the token sealed with the
    // encryption key (so every delivery attempt sends the same token); never in job data.
    t.text('access_token_digest');
    t.text('access_token_sealed');
    t.timestamp('triggered_at', { useTz: true });
    t.timestamp('deadline_at', { useTz: true });
    t.text('dispatch_status')
      .notNullable()
      .defaultTo('idle')
      .checkIn(['idle', 'pending', 'sending', 'delivered', 'gave_up']);
    t.integer('dispatch_attempts').notNullable().defaultTo(0);
    t.timestamp('next_dispatch_at', { useTz: true });
    t.timestamp('dispatch_lease_until', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['task_stage_id']);
    t.index(['run_id']);
  });
  await knex.raw(
    `create unique index task_results_token on task_results (access_token_digest) where access_token_digest is not null`,
  );
  await knex.raw(
    `create index task_results_due on task_results (next_dispatch_at) where dispatch_status in ('pending', 'sending')`,
  );
  await knex.raw(
    `create index task_results_deadline on task_results (deadline_at) where status in ('pending', 'running')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('task_results');
}
