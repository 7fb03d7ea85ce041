import type { Knex } from 'knex';

// Policy sets record the runtime options clients send: `agent-enabled` and `policy-tool-version`
// (the runtime version a set asks for; `latest` unless one is named). Evaluation does not depend
// on them: it always runs on the workers with the runtime installed there.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('policy_sets', (t) => {
    t.boolean('agent_enabled').notNullable().defaultTo(false);
    t.text('policy_tool_version').notNullable().defaultTo('latest');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('policy_sets', (t) => {
    t.dropColumn('policy_tool_version');
    t.dropColumn('agent_enabled');
  });
}
