import type { Knex } from 'knex';

// Run tokens: an API token a worker mints for one plan or apply phase of a run, so that the run's
// Terraform can read the state of the workspaces that share it (terraform_remote_state with the
// `remote` backend). It names its run; it expires with the phase and is revoked when it ends.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table authentication_tokens drop constraint authentication_tokens_kind_check');
  await knex.raw(
    `alter table authentication_tokens add constraint authentication_tokens_kind_check check (kind in ('user', 'team', 'organization', 'run'))`,
  );
  await knex.schema.alterTable('authentication_tokens', (t) => {
    t.text('run_id').references('runs.id').onDelete('CASCADE');
    t.index(['run_id']);
  });
  await knex.raw(
    `alter table authentication_tokens add constraint authentication_tokens_run_check check ((kind = 'run') = (run_id is not null))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex('authentication_tokens').where({ kind: 'run' }).del();
  await knex.raw('alter table authentication_tokens drop constraint authentication_tokens_run_check');
  await knex.schema.alterTable('authentication_tokens', (t) => {
    t.dropIndex(['run_id']);
    t.dropColumn('run_id');
  });
  await knex.raw('alter table authentication_tokens drop constraint authentication_tokens_kind_check');
  await knex.raw(
    `alter table authentication_tokens add constraint authentication_tokens_kind_check check (kind in ('user', 'team', 'organization'))`,
  );
}
