import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { migrateLatest } from '../../shared/platform/db/migrate.js';
import { createDb, dropDatabase } from '../../shared/platform/db.js';
import { harness } from '../helpers/harness.js';

describe('migrations', function () {
  this.timeout(60_000);

  it('create the database and apply every migration once when two processes start at the same time', async () => {
    const url = `postgres://postgres@127.0.0.1:5432/rls_migrate_${randomBytes(4).toString('hex')}`;
    try {
      const [a, b] = await Promise.all([migrateLatest(url), migrateLatest(url)]);
      expect(a.length + b.length).to.be.greaterThan(0);
      expect(Math.min(a.length, b.length)).to.equal(0);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query('select name from knex_migrations');
      await client.end();
      expect(rows.length).to.equal(a.length + b.length);
      expect(await migrateLatest(url)).to.deep.equal([]);
    } finally {
      await dropDatabase(url);
    }
  });

  it("leave no column whose name starts with auth_: the token lookup names its own columns so, and shares its row with a guard's read", async () => {
    const { rows } = await harness().rt.db.raw<{ rows: { table_name: string; column_name: string }[] }>(
      "select table_name, column_name from information_schema.columns where table_schema = 'public'",
    );
    expect(rows.length).to.be.greaterThan(100);
    expect(
      rows.filter((r) => r.column_name.startsWith('auth_')).map((r) => `${r.table_name}.${r.column_name}`),
    ).to.deep.equal([]);
  });

  it("keep a team's one token as its legacy token when teams may hold several, dropping its description", async () => {
    const url = `postgres://postgres@127.0.0.1:5432/rls_migrate_${randomBytes(4).toString('hex')}`;
    const directory = fileURLToPath(new URL('../../migrations', import.meta.url));
    const db = createDb(url, 2);
    try {
      await migrateLatest(url);
      await db.migrate.down({
        directory,
        loadExtensions: ['.js'],
        name: '20261201110001_allow_several_team_tokens.js',
      });
      await db('organizations').insert({ name: 'org-m', external_id: 'org-m1', email: 'm@example.test' });
      await db('teams').insert({ id: 'team-m', organization_name: 'org-m', name: 'ci' });
      await db('authentication_tokens').insert({
        id: 'at-m',
        kind: 'team',
        team_id: 'team-m',
        digest: 'd-m',
        description: 'ci token',
      });
      await db.migrate.up({ directory, loadExtensions: ['.js'], name: '20261201110001_allow_several_team_tokens.js' });
      expect(await db('authentication_tokens').where({ id: 'at-m' }).first('description')).to.deep.equal({
        description: null,
      });
      // A second description-less token of the team is refused; a described one is not.
      let refused: unknown;
      await db('authentication_tokens')
        .insert({ id: 'at-m2', kind: 'team', team_id: 'team-m', digest: 'd-m2' })
        .catch((err: unknown) => (refused = err));
      expect((refused as { code?: string } | undefined)?.code).to.equal('23505');
      await db('authentication_tokens').insert({
        id: 'at-m3',
        kind: 'team',
        team_id: 'team-m',
        digest: 'd-m3',
        description: 'deploy',
      });
    } finally {
      await db.destroy();
      await dropDatabase(url);
    }
  });
});
