import type { Knex } from 'knex';

// Email recipients of a notification configuration.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_configuration_users', (t) => {
    t.text('configuration_id').notNullable().references('notification_configurations.id').onDelete('CASCADE');
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.primary(['configuration_id', 'user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('notification_configuration_users');
}
