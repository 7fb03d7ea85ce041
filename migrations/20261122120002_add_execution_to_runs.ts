import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('runs', (t) => {
    t.boolean('has_changes');
    t.boolean('allow_empty_apply').notNullable().defaultTo(false);
    t.text('terraform_version');
    // Set while a worker executes Terraform for the run; an expired lease means the worker died.
    t.text('lease_owner');
    t.timestamp('lease_until', { useTz: true });
    t.timestamp('cancel_requested_at', { useTz: true });
    t.timestamp('force_cancel_available_at', { useTz: true });
    t.text('error_message');
    t.index(['status']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('runs', (t) => {
    for (const c of [
      'has_changes',
      'allow_empty_apply',
      'terraform_version',
      'lease_owner',
      'lease_until',
      'cancel_requested_at',
      'force_cancel_available_at',
      'error_message',
    ])
      t.dropColumn(c);
  });
}
