import type { Knex } from 'knex';

// The policy runtimes (OPA and Sentinel versions) a site admin makes available for policy sets to
// pin. `url` and `sha` are the version's own top-level download; `archs` lists its builds per
// operating system and architecture ({url, sha, os, arch}). A version is unique per tool.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('policy_tool_versions', (t) => {
    t.text('id').primary();
    t.text('tool').notNullable().checkIn(['opa', 'sentinel']);
    t.text('version').notNullable();
    t.text('url');
    t.text('sha');
    t.jsonb('archs').notNullable().defaultTo('[]');
    t.boolean('official').notNullable().defaultTo(false);
    t.boolean('enabled').notNullable().defaultTo(true);
    t.boolean('beta').notNullable().defaultTo(false);
    t.boolean('deprecated').notNullable().defaultTo(false);
    t.text('deprecated_reason');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['tool', 'version']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('policy_tool_versions');
}
