import type { Knex } from 'knex';

// A team's access to a project: a fixed level, or `custom` with its project and workspace
// permissions spelled out (stored for every level, as the level implies them otherwise).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('team_projects', (t) => {
    t.text('id').primary();
    t.text('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('access').notNullable().checkIn(['read', 'write', 'maintain', 'admin', 'custom']);
    t.jsonb('project_access').notNullable();
    t.jsonb('workspace_access').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['team_id', 'project_id']);
    t.index(['project_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('team_projects');
}
