import type { Knex } from 'knex';

// A state version's backing data (its state, JSON state and outputs) can be soft deleted,
// restored, then permanently deleted, as in the self-hosted edition of TFE.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table state_versions drop constraint state_versions_status_check');
  await knex.raw(
    `alter table state_versions add constraint state_versions_status_check check (status in ('pending', 'finalized', 'discarded', 'backing_data_soft_deleted', 'backing_data_permanently_deleted'))`,
  );
}

// A version whose data was deleted has no state to be finalized with: going down discards it.
export async function down(knex: Knex): Promise<void> {
  await knex('state_versions')
    .whereIn('status', ['backing_data_soft_deleted', 'backing_data_permanently_deleted'])
    .update({ status: 'discarded' });
  await knex.raw('alter table state_versions drop constraint state_versions_status_check');
  await knex.raw(
    `alter table state_versions add constraint state_versions_status_check check (status in ('pending', 'finalized', 'discarded'))`,
  );
}
