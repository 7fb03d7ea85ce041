import type { Knex } from 'knex';

// A project's tag bindings (key and value pairs), kept with the project as TFE shows them.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.jsonb('tag_bindings').notNullable().defaultTo('[]');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.dropColumn('tag_bindings');
  });
}
