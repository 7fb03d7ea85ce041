import type { Knex } from 'knex';

// Policy sets applied to projects check the runs of every workspace of the project.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('policy_set_projects', (t) => {
    t.text('policy_set_id').notNullable().references('policy_sets.id').onDelete('CASCADE');
    t.text('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.primary(['policy_set_id', 'project_id']);
    t.index(['project_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('policy_set_projects');
}
