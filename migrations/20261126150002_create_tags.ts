import type { Knex } from 'knex';

// Workspace tags: named per organization, attached to workspaces in the order they were added.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tags', (t) => {
    t.text('id').primary();
    t.text('organization_name').notNullable().references('organizations.name').onDelete('CASCADE').onUpdate('CASCADE');
    t.text('name').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_name', 'name']);
  });
  await knex.schema.createTable('workspace_tags', (t) => {
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('tag_id').notNullable().references('tags.id').onDelete('CASCADE');
    t.specificType('position', 'bigserial');
    t.primary(['workspace_id', 'tag_id']);
    t.index(['tag_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('workspace_tags');
  await knex.schema.dropTable('tags');
}
