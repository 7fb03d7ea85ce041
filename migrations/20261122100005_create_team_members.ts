import type { Knex } from 'knex';

// Team members reference organization memberships, so an invitation is enough to join a team
// and the user counts as a member once the invitation is accepted.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('team_members', (t) => {
    t.text('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('organization_membership_id').notNullable().references('organization_memberships.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['team_id', 'organization_membership_id']);
    t.index(['organization_membership_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('team_members');
}
