import type { Knex } from 'knex';

// A team's access to a workspace may be `custom`: its permissions are then stored (a fixed level's
// are implied by the level, so they stay null).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('team_workspaces', (t) => {
    t.jsonb('permissions');
  });
  await knex.raw('alter table team_workspaces drop constraint team_workspaces_access_check');
  await knex.raw(
    `alter table team_workspaces add constraint team_workspaces_access_check check (access in ('read', 'plan', 'write', 'admin', 'custom'))`,
  );
  await knex.raw(
    `alter table team_workspaces add constraint team_workspaces_custom_permissions_check check ((access = 'custom') = (permissions is not null))`,
  );
}

// Custom accesses have no fixed level to fall back to: going down removes them.
export async function down(knex: Knex): Promise<void> {
  await knex('team_workspaces').where({ access: 'custom' }).del();
  await knex.raw('alter table team_workspaces drop constraint team_workspaces_custom_permissions_check');
  await knex.raw('alter table team_workspaces drop constraint team_workspaces_access_check');
  await knex.raw(
    `alter table team_workspaces add constraint team_workspaces_access_check check (access in ('read', 'plan', 'write', 'admin'))`,
  );
  await knex.schema.alterTable('team_workspaces', (t) => {
    t.dropColumn('permissions');
  });
}
