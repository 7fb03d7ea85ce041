import type { Knex } from 'knex';

// An organization may withhold its workspaces' secrets (sensitive variables, state, a run token
// that reads anything) from speculative runs queued by callers who may plan but not apply. A
// configuration version remembers whether its creator was such a caller, for the run its upload
// queues; a run records once, when it is queued, whether its secrets are withheld.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) => {
    t.boolean('speculative_runs_withhold_secrets').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('configuration_versions', (t) => {
    t.boolean('created_with_plan_access_only').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('runs', (t) => {
    t.boolean('secrets_withheld').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('runs', (t) => {
    t.dropColumn('secrets_withheld');
  });
  await knex.schema.alterTable('configuration_versions', (t) => {
    t.dropColumn('created_with_plan_access_only');
  });
  await knex.schema.alterTable('organizations', (t) => {
    t.dropColumn('speculative_runs_withhold_secrets');
  });
}
