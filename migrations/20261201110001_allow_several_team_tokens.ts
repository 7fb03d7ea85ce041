import type { Knex } from 'knex';

// A team may hold several tokens: at most one without a description (the legacy token, which
// `POST /teams/:id/authentication-token` replaces) and any number of described ones, each
// description once per team.
export async function up(knex: Knex): Promise<void> {
  // Each team had one token until now, issued by the legacy endpoint: it stays the legacy token
  // (which that endpoint still reads and revokes), so its description, if it had one, goes.
  await knex('authentication_tokens').where({ kind: 'team' }).whereNotNull('description').update({ description: null });
  await knex.raw('drop index authentication_tokens_one_per_team');
  await knex.raw(
    `create unique index authentication_tokens_one_legacy_per_team on authentication_tokens (team_id) where kind = 'team' and description is null`,
  );
  await knex.raw(
    `create unique index authentication_tokens_team_description on authentication_tokens (team_id, description) where kind = 'team' and description is not null`,
  );
}

export async function down(knex: Knex): Promise<void> {
  // Keeps the newest token of each team, as only one may remain.
  await knex.raw(`
    delete from authentication_tokens t using authentication_tokens newer
     where t.kind = 'team' and newer.kind = 'team' and newer.team_id = t.team_id
       and (newer.created_at, newer.id) > (t.created_at, t.id)`);
  await knex.raw('drop index authentication_tokens_team_description');
  await knex.raw('drop index authentication_tokens_one_legacy_per_team');
  await knex.raw(
    `create unique index authentication_tokens_one_per_team on authentication_tokens (team_id) where kind = 'team'`,
  );
}
