import type { Knex } from 'knex';

// Variable sets applied to projects reach every workspace of the project.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('variable_set_projects', (t) => {
    t.text('variable_set_id').notNullable().references('variable_sets.id').onDelete('CASCADE');
    t.text('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.primary(['variable_set_id', 'project_id']);
    t.index(['project_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('variable_set_projects');
}
