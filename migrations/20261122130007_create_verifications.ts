import type { Knex } from 'knex';

// A check of a destination URL that the API waits for (run task endpoints; notification configurations).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('verifications', (t) => {
    t.text('id').primary();
    t.text('kind').notNullable();
    t.text('url').notNullable();
    // Encrypted request material (e.g. the HMAC key), never put in job data.
    t.text('secret_sealed');
    t.text('body');
    t.text('status').notNullable().defaultTo('pending').checkIn(['pending', 'running', 'succeeded', 'failed']);
    t.integer('response_status');
    t.jsonb('response_headers');
    t.text('response_body');
    t.text('error');
    t.timestamp('lease_until', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('verifications');
}
