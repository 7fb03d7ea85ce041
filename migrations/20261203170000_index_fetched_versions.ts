import type { Knex } from 'knex';

// The reconciler looks for versions fetched from a repository that are still fetching or hold
// files no run uses; the index holds those alone, so the look costs nothing for API uploads.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `create index configuration_versions_fetched on configuration_versions (id)
       where source not in ('tfe-api', 'terraform', 'tfe-configuration-version') and status in ('fetching', 'uploaded')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index configuration_versions_fetched');
}
