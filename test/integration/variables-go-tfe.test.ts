import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { api, doc, expectError, okBody } from '../helpers/api.js';
import { createOrg, createWorkspace, uniq, type TestUser } from '../helpers/fixtures.js';
import { startRun, terraformWorkers, uploadConfig, waitForRun } from '../helpers/terraform.js';

/*
 * What go-tfe's variable, variable set and variable set variable tests send: random UUIDs as keys,
 * reading one variable by id, `q` (with an empty `include`) on variable set lists, and a PATCH of a
 * set naming the workspaces it applies to.
 */

type Org = { name: string; owner: TestUser };
const ws = (id: string) => ({ type: 'workspaces', id });

describe('variables as go-tfe uses them', function () {
  this.timeout(180_000);
  let org: Org;
  let token: string;

  before(async () => {
    org = await createOrg();
    token = org.owner.token;
  });

  const ok = (method: string, path: string, body?: unknown, as = token) => okBody(method, path, as, body);
  const newSet = async (attrs: Record<string, unknown> = {}) =>
    (
      await ok(
        'POST',
        `/organizations/${org.name}/varsets`,
        doc('varsets', { name: uniq('set'), global: false, ...attrs }),
      )
    ).data;

  describe('keys', () => {
    it('takes a UUID (which may start with a digit) as the key of a Terraform and of an environment variable', async () => {
      const w = await createWorkspace(org);
      // go-tfe's createVariable: key, value and description are random UUIDs, hcl and sensitive false.
      const key = `7${randomUUID().slice(1)}`;
      const made = await ok(
        'POST',
        `/workspaces/${w.id}/vars`,
        doc('vars', {
          key,
          value: randomUUID(),
          description: randomUUID(),
          category: 'terraform',
          hcl: false,
          sensitive: false,
        }),
      );
      expect(made.data.attributes).to.include({ key, category: 'terraform' });
      const env = await ok(
        'POST',
        `/workspaces/${w.id}/vars`,
        doc('vars', { key: '9LIVES', value: 'x', category: 'env' }),
      );
      expect(env.data.attributes).to.include({ key: '9LIVES', category: 'env' });
      // go-tfe then reads the workspace and expects the new variable first in its `vars` relationship.
      expect((await ok('GET', `/workspaces/${w.id}`)).data.relationships.vars.data).to.deep.equal([
        { type: 'vars', id: made.data.id },
        { type: 'vars', id: env.data.id },
      ]);
      const set = await newSet();
      const inSet = await ok(
        'POST',
        `/varsets/${set.id}/relationships/vars`,
        doc('vars', { key, value: '', description: '', category: 'terraform', hcl: false, sensitive: false }),
      );
      expect(inSet.data.attributes).to.include({ key, value: '' });
      // Changing the category of a UUID-keyed variable to env: the dashes make it no environment name.
      expectError(
        await api('PATCH', `/workspaces/${w.id}/vars/${made.data.id}`, {
          token,
          body: doc('vars', { category: 'env' }),
        }),
        422,
        /key is invalid/,
      );
    });

    it('still refuses keys no client could mean: a leading dash, spaces, a dash in an environment name', async () => {
      const w = await createWorkspace(org);
      const create = (attrs: Record<string, unknown>) =>
        api('POST', `/workspaces/${w.id}/vars`, { token, body: doc('vars', attrs) });
      expectError(await create({ key: '-abc', category: 'terraform' }), 422, /key is invalid/);
      expectError(await create({ key: 'a b', category: 'terraform' }), 422, /key is invalid/);
      expectError(await create({ key: '1-2', category: 'env' }), 422, /key is invalid/);
    });
  });

  describe('runs', () => {
    terraformWorkers(['run-pipeline']);

    it('a run gets a Terraform variable whose key is not an identifier (Terraform warns it is undeclared) and an environment variable starting with a digit', async () => {
      const w = await createWorkspace(org, { 'auto-apply': true });
      const uuidKey = `4${randomUUID().slice(1)}`;
      await ok(
        'POST',
        `/workspaces/${w.id}/vars`,
        doc('vars', { key: uuidKey, value: 'ignored', category: 'terraform' }),
      );
      await ok(
        'POST',
        `/workspaces/${w.id}/vars`,
        doc('vars', { key: 'declared', value: 'given', category: 'terraform' }),
      );
      await ok(
        'POST',
        `/workspaces/${w.id}/vars`,
        doc('vars', { key: '1ST_ENV', value: 'digit-first-value', category: 'env' }),
      );
      // A shell drops a name starting with a digit from what it passes on, so printenv runs without one.
      const probe = `resource "terraform_data" "probe" {\n  provisioner "local-exec" {\n    interpreter = ["printenv"]\n    command     = "1ST_ENV"\n  }\n}\n`;
      await uploadConfig(w.id, token, {
        'main.tf': `variable "declared" { type = string }\noutput "declared" { value = var.declared }\n${probe}`,
      });
      const runId = await startRun(w.id, token);
      const run = await waitForRun(runId, token, ['applied', 'errored', 'planned_and_finished', 'canceled'], 150_000);
      const withLogs = await ok('GET', `/runs/${runId}?include=plan,apply`);
      const [planLog, applyLog] = await Promise.all(
        withLogs.included.map(async (r: { attributes: Record<string, string> }) =>
          (await fetch(`${r.attributes['log-read-url']}?limit=1048576&offset=0`)).text(),
        ),
      );
      expect(run.attributes.status, `${planLog}\n${applyLog}`).to.equal('applied');
      expect(applyLog).to.match(/\(local-exec\): digit-first-value/);
      expect(planLog).to.include('undeclared variable');
      expect(planLog).to.include(uuidKey);
      const outputs = (await ok('GET', `/workspaces/${w.id}/current-state-version-outputs`)).data as {
        attributes: { name: string; value: unknown };
      }[];
      expect(outputs.find((o) => o.attributes.name === 'declared')?.attributes.value).to.equal('given');
    });
  });

  describe('reading one variable', () => {
    it('GET /workspaces/:id/vars/:var_id answers the variable, a sensitive value null, 404 for another workspace or a caller who cannot read it', async () => {
      const w = await createWorkspace(org);
      const other = await createWorkspace(org);
      const plain = (
        await ok(
          'POST',
          `/workspaces/${w.id}/vars`,
          doc('vars', { key: randomUUID(), value: 'v', category: 'terraform' }),
        )
      ).data;
      const secret = (
        await ok(
          'POST',
          `/workspaces/${w.id}/vars`,
          doc('vars', { key: 'pw', value: 'hunter2', category: 'env', sensitive: true }),
        )
      ).data;

      const read = await ok('GET', `/workspaces/${w.id}/vars/${plain.id}`);
      expect(read.data).to.deep.equal(plain);
      const hidden = await ok('GET', `/workspaces/${w.id}/vars/${secret.id}`);
      expect(hidden.data.attributes).to.include({ key: 'pw', sensitive: true, value: null });

      expect((await api('GET', `/workspaces/${w.id}/vars/nonexisting`, { token })).status).to.equal(404);
      expect((await api('GET', `/workspaces/${other.id}/vars/${plain.id}`, { token })).status).to.equal(404);
      const outsider = (await createOrg()).owner.token;
      expect((await api('GET', `/workspaces/${w.id}/vars/${plain.id}`, { token: outsider })).status).to.equal(404);
    });

    it('GET /varsets/:id/relationships/vars/:var_id answers the variable, a sensitive value null, 404 for another set or an outsider', async () => {
      const set = await newSet();
      const otherSet = await newSet();
      const v = (
        await ok(
          'POST',
          `/varsets/${set.id}/relationships/vars`,
          doc('vars', {
            key: randomUUID(),
            value: 'v',
            description: '',
            category: 'terraform',
            hcl: false,
            sensitive: false,
          }),
        )
      ).data;
      const s = (
        await ok(
          'POST',
          `/varsets/${set.id}/relationships/vars`,
          doc('vars', { key: 'token', value: 'hunter2', category: 'terraform', sensitive: true }),
        )
      ).data;

      const read = await ok('GET', `/varsets/${set.id}/relationships/vars/${v.id}`);
      expect(read.data).to.deep.equal(v);
      expect(read.data.relationships.varset.data).to.deep.equal({ type: 'varsets', id: set.id });
      expect((await ok('GET', `/varsets/${set.id}/relationships/vars/${s.id}`)).data.attributes).to.include({
        sensitive: true,
        value: null,
      });

      expect((await api('GET', `/varsets/${set.id}/relationships/vars/nonexisting`, { token })).status).to.equal(404);
      expect((await api('GET', `/varsets/${otherSet.id}/relationships/vars/${v.id}`, { token })).status).to.equal(404);
      const outsider = (await createOrg()).owner.token;
      expect((await api('GET', `/varsets/${set.id}/relationships/vars/${v.id}`, { token: outsider })).status).to.equal(
        404,
      );
    });
  });

  describe('q on variable set lists', () => {
    it("narrows the organization's list and a workspace's list to the sets whose name contains q (any case)", async () => {
      const w = await createWorkspace(org);
      const marker = uniq('Needle');
      const hit = await newSet({ name: `${marker}-one` });
      const miss = await newSet({ name: uniq('hay') });
      for (const set of [hit, miss])
        await ok('POST', `/varsets/${set.id}/relationships/workspaces`, { data: [ws(w.id)] });
      const ids = (body: { data: { id: string }[] }) => body.data.map((d) => d.id);

      // go-tfe sends `include` (empty) with `q`.
      const orgList = await ok(
        'GET',
        `/organizations/${org.name}/varsets?include=&q=${encodeURIComponent(marker.toLowerCase())}`,
      );
      expect(ids(orgList)).to.deep.equal([hit.id]);
      expect(orgList.meta.pagination['total-count']).to.equal(1);
      const wsList = await ok('GET', `/workspaces/${w.id}/varsets?include=&q=${encodeURIComponent(marker)}`);
      expect(ids(wsList)).to.deep.equal([hit.id]);
      // Wildcards are taken literally.
      expect((await ok('GET', `/organizations/${org.name}/varsets?q=%25`)).data).to.deep.equal([]);
      // Without q (or an empty one), everything.
      expect(ids(await ok('GET', `/workspaces/${w.id}/varsets?include=&q=`))).to.have.members([hit.id, miss.id]);
    });
  });

  describe('PATCH /varsets/:id with relationships.workspaces', () => {
    // go-tfe's UpdateWorkspaces: `?include=workspaces`, `global: false` and the full list.
    const updateWorkspaces = (id: string, workspaceIds: string[], attrs: Record<string, unknown> = { global: false }) =>
      api('PATCH', `/varsets/${id}?include=workspaces`, {
        token,
        body: {
          data: {
            type: 'varsets',
            id,
            attributes: attrs,
            relationships: { workspaces: { data: workspaceIds.map(ws) } },
          },
        },
      });

    it('replaces the workspaces the set applies to and answers with them; an empty list applies it to none', async () => {
      const [a, b] = [await createWorkspace(org), await createWorkspace(org)];
      const set = await newSet();
      await ok('POST', `/varsets/${set.id}/relationships/workspaces`, { data: [ws(a.id)] });

      const replaced = await updateWorkspaces(set.id, [b.id]);
      expect(replaced.status, replaced.text).to.equal(200);
      expect(replaced.body.data.relationships.workspaces.data).to.deep.equal([ws(b.id)]);
      expect(replaced.body.data.attributes).to.include({ global: false, 'workspace-count': 1 });
      expect((await ok('GET', `/varsets/${set.id}`)).data.relationships.workspaces.data).to.deep.equal([ws(b.id)]);

      const emptied = await updateWorkspaces(set.id, []);
      expect(emptied.status, emptied.text).to.equal(200);
      expect(emptied.body.data.relationships.workspaces.data).to.deep.equal([]);
    });

    it('refuses workspaces of another organization and workspaces on a global set with 422, changing nothing', async () => {
      const mine = await createWorkspace(org);
      const foreign = await createWorkspace(await createOrg());
      const set = await newSet();
      await ok('POST', `/varsets/${set.id}/relationships/workspaces`, { data: [ws(mine.id)] });

      expectError(await updateWorkspaces(set.id, [foreign.id]), 422, /not found in organization/);
      expectError(await updateWorkspaces(set.id, [mine.id], { global: true }), 422, /global variable set/);
      const after = (await ok('GET', `/varsets/${set.id}`)).data;
      expect(after.attributes.global).to.equal(false);
      expect(after.relationships.workspaces.data).to.deep.equal([ws(mine.id)]);
    });
  });
});
