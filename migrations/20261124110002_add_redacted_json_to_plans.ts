import type { Knex } from 'knex';

// The redacted JSON plan (json-output-redacted), made once by the worker when the plan finishes
// and served as stored; and, for a plan whose JSON was not stored because it exceeded
// MAX_PLAN_JSON_BYTES, the size it had (json-output and json-output-redacted then answer 422).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => {
    t.text('redacted_object_id').references('objects.id').onDelete('SET NULL');
    t.bigInteger('json_omitted_bytes');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => {
    t.dropColumn('redacted_object_id');
    t.dropColumn('json_omitted_bytes');
  });
}
