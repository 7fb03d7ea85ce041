import type { Knex } from 'knex';

// Audit trail tokens: an organization's second token (`?token=audit-trails`), one per
// organization, which authenticates no API route here (see docs/decisions.md).
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table authentication_tokens drop constraint authentication_tokens_kind_check');
  await knex.raw(
    `alter table authentication_tokens add constraint authentication_tokens_kind_check check (kind in ('user', 'team', 'organization', 'run', 'audit-trail'))`,
  );
  await knex.raw(
    `create unique index authentication_tokens_one_audit_trail_per_org on authentication_tokens (organization_name) where kind = 'audit-trail'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex('authentication_tokens').where({ kind: 'audit-trail' }).del();
  await knex.raw('drop index authentication_tokens_one_audit_trail_per_org');
  await knex.raw('alter table authentication_tokens drop constraint authentication_tokens_kind_check');
  await knex.raw(
    `alter table authentication_tokens add constraint authentication_tokens_kind_check check (kind in ('user', 'team', 'organization', 'run'))`,
  );
}
