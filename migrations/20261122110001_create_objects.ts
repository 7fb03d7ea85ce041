import type { Knex } from 'knex';

// The default object store: blobs in Postgres, split into chunks so large archives stream.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('objects', (t) => {
    t.text('id').primary();
    t.bigInteger('size').notNullable();
    t.text('sha256').notNullable();
    t.text('content_type').notNullable().defaultTo('application/octet-stream');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('object_chunks', (t) => {
    t.text('object_id').notNullable().references('objects.id').onDelete('CASCADE');
    t.integer('seq').notNullable();
    t.binary('data').notNullable();
    t.primary(['object_id', 'seq']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('object_chunks');
  await knex.schema.dropTable('objects');
}
