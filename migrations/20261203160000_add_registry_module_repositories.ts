import type { Knex } from 'knex';

// Registry modules published from a repository's tags: the repository they follow (as a
// workspace's vcs-repo), and the webhook its tag pushes come through.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('registry_modules', (t) => {
    t.jsonb('vcs_repo');
    t.text('vcs_hook_id');
    t.index(['vcs_hook_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('registry_modules', (t) => {
    t.dropColumn('vcs_hook_id');
    t.dropColumn('vcs_repo');
  });
}
