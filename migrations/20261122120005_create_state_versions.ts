import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('state_versions', (t) => {
    t.text('id').primary();
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('run_id').references('runs.id').onDelete('SET NULL');
    t.integer('serial').notNullable();
    t.text('lineage');
    t.text('terraform_version');
    t.text('object_id').references('objects.id').onDelete('SET NULL');
    t.bigInteger('size').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('state_versions');
}
