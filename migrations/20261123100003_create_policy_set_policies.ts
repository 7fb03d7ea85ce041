import type { Knex } from 'knex';

// Which policies a policy set holds.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('policy_set_policies', (t) => {
    t.text('policy_set_id').notNullable().references('policy_sets.id').onDelete('CASCADE');
    t.text('policy_id').notNullable().references('policies.id').onDelete('CASCADE');
    t.primary(['policy_set_id', 'policy_id']);
    t.index(['policy_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('policy_set_policies');
}
