import type { Knex } from 'knex';

// Parameters of a policy set (key/value pairs its policies are given). A sensitive parameter's
// value is sealed with the service key in value_sealed and `value` is null; a key is unique in its set.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('policy_set_parameters', (t) => {
    t.text('id').primary();
    t.text('policy_set_id').notNullable().references('policy_sets.id').onDelete('CASCADE');
    t.text('key').notNullable();
    t.text('value');
    t.text('value_sealed');
    t.boolean('sensitive').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['policy_set_id', 'key']);
  });
  await knex.raw(
    `alter table policy_set_parameters add constraint policy_set_parameters_sealed_when_sensitive check (not sensitive or value is null)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('policy_set_parameters');
}
