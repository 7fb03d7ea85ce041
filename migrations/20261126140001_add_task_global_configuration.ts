import type { Knex } from 'knex';

// A run task's global configuration: when enabled, the task applies to every workspace of its
// organization at the stages named, at the enforcement level named, without an attachment (an
// attachment of the task to a workspace takes its place there).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tasks', (t) => {
    t.boolean('global_enabled').notNullable().defaultTo(false);
    t.jsonb('global_stages')
      .notNullable()
      .defaultTo(JSON.stringify(['post_plan']));
    t.text('global_enforcement_level').notNullable().defaultTo('advisory');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tasks', (t) => {
    t.dropColumn('global_enforcement_level');
    t.dropColumn('global_stages');
    t.dropColumn('global_enabled');
  });
}
