import type { Knex } from 'knex';

// Variables of a workspace or of a variable set (exactly one owner). A sensitive variable's value
// is sealed with the service key in value_sealed and `value` is null; a key is unique per
// category within its owner.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('variables', (t) => {
    t.text('id').primary();
    t.text('workspace_id').references('workspaces.id').onDelete('CASCADE');
    t.text('variable_set_id').references('variable_sets.id').onDelete('CASCADE');
    t.text('key').notNullable();
    t.text('value');
    t.text('value_sealed');
    t.text('description');
    t.text('category').notNullable().checkIn(['terraform', 'env']);
    t.boolean('hcl').notNullable().defaultTo(false);
    t.boolean('sensitive').notNullable().defaultTo(false);
    t.text('version_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id']);
    t.index(['variable_set_id']);
  });
  await knex.raw(
    `alter table variables add constraint variables_one_owner check ((workspace_id is null) <> (variable_set_id is null))`,
  );
  await knex.raw(
    `alter table variables add constraint variables_sealed_when_sensitive check (not sensitive or value is null)`,
  );
  await knex.raw(
    `create unique index variables_workspace_key on variables (workspace_id, category, key) where workspace_id is not null`,
  );
  await knex.raw(
    `create unique index variables_set_key on variables (variable_set_id, category, key) where variable_set_id is not null`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('variables');
}
