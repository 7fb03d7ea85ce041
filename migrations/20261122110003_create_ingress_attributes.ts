import type { Knex } from 'knex';

// Commit information of configuration versions created from a VCS repository.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ingress_attributes', (t) => {
    t.text('id').primary();
    t.text('configuration_version_id')
      .notNullable()
      .unique()
      .references('configuration_versions.id')
      .onDelete('CASCADE');
    t.text('branch');
    t.text('clone_url');
    t.text('commit_message');
    t.text('commit_sha');
    t.text('commit_url');
    t.text('compare_url');
    t.text('identifier');
    t.boolean('is_pull_request').notNullable().defaultTo(false);
    t.boolean('on_default_branch').notNullable().defaultTo(true);
    t.integer('pull_request_number');
    t.text('pull_request_url');
    t.text('pull_request_title');
    t.text('pull_request_body');
    t.text('tag');
    t.text('sender_username');
    t.text('sender_avatar_url');
    t.text('sender_html_url');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('ingress_attributes');
}
