import type { Knex } from 'knex';

// SSH private keys of an organization, for runs whose configurations fetch modules over git+ssh.
// The key is sealed with the service key in value_sealed; nothing reads it back but a run's phase.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ssh_keys', (t) => {
    t.text('id').primary();
    t.text('organization_name').notNullable().references('organizations.name').onDelete('CASCADE').onUpdate('CASCADE');
    t.text('name').notNullable();
    t.text('value_sealed').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('ssh_keys');
}
