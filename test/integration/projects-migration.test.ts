import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createDb, dropDatabase, ensureDatabase } from '../../shared/platform/db.js';

const MIGRATIONS = { directory: fileURLToPath(new URL('../../migrations', import.meta.url)), loadExtensions: ['.js'] };

describe('the projects migration', function () {
  this.timeout(120_000);

  it('gives every existing organization a default project and puts its existing workspaces in it', async () => {
    const url = `postgres://postgres@127.0.0.1:5432/rls_projects_${randomBytes(4).toString('hex')}`;
    await ensureDatabase(url);
    const db = createDb(url, 2);
    try {
      // Every migration before the one creating projects.
      for (;;) {
        const [, pending] = (await db.migrate.list(MIGRATIONS)) as [unknown[], { file: string }[]];
        if (!pending.length || pending[0].file.startsWith('20261201150001')) break;
        await db.migrate.up(MIGRATIONS);
      }
      for (const name of ['acme', 'globex'])
        await db('organizations').insert({ name, external_id: `org-${name}`, email: `${name}@example.test` });
      await db('workspaces').insert([
        { id: 'ws-a1', organization_name: 'acme', name: 'one' },
        { id: 'ws-a2', organization_name: 'acme', name: 'two' },
        { id: 'ws-g1', organization_name: 'globex', name: 'one' },
      ]);
      await db.migrate.latest(MIGRATIONS);

      const projects = await db('projects')
        .orderBy('organization_name')
        .select('id', 'organization_name', 'name', 'is_default');
      expect(projects.map((p) => [p.organization_name, p.name, p.is_default])).to.deep.equal([
        ['acme', 'Default Project', true],
        ['globex', 'Default Project', true],
      ]);
      for (const p of projects) expect(p.id).to.match(/^prj-[1-9A-HJ-NP-Za-km-z]{16}$/);
      expect(projects[0].id).to.not.equal(projects[1].id);
      const placed = Object.fromEntries(
        (await db('workspaces').select('id', 'project_id')).map((w) => [w.id, w.project_id]),
      );
      expect(placed).to.deep.equal({ 'ws-a1': projects[0].id, 'ws-a2': projects[0].id, 'ws-g1': projects[1].id });
    } finally {
      await db.destroy();
      await dropDatabase(url);
    }
  });
});
