import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workspace_tasks', (t) => {
    t.text('id').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('task_id').notNullable().references('tasks.id').onDelete('CASCADE');
    t.text('enforcement_level').notNullable().checkIn(['advisory', 'mandatory']);
    t.jsonb('stages').notNullable().defaultTo('["post_plan"]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['workspace_id', 'task_id']);
    t.index(['task_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('workspace_tasks');
}
