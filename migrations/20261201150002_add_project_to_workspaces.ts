import type { Knex } from 'knex';

// Every workspace belongs to one project of its organization; existing ones go into the default
// project. A project that still holds workspaces cannot be deleted (no cascade).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.text('project_id').references('projects.id');
  });
  await knex.raw(
    `update workspaces as w set project_id = p.id from projects as p where p.organization_name = w.organization_name and p.is_default`,
  );
  await knex.raw('alter table workspaces alter column project_id set not null');
  await knex.schema.alterTable('workspaces', (t) => {
    t.index(['project_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.dropColumn('project_id');
  });
}
