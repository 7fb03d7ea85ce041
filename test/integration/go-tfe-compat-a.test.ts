import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { api, doc, expectError } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { cvRow, statusOf } from '../helpers/cv.js';
import {
  createCv,
  createOrg,
  createUser,
  createWorkspace,
  joinOrg,
  onTestServer,
  putArchive,
  tarGz,
  type TestUser,
} from '../helpers/fixtures.js';
import { readAll } from '../../shared/platform/store/postgres-store.js';
import { terraformWorkers, waitForRun } from '../helpers/terraform.js';

type Org = { name: string; owner: TestUser };

/** Starts a PUT that promises more bytes than it sends, then drops the connection (an upload cut off). */
async function cutOffPut(url: string, part: Buffer): Promise<void> {
  const target = new URL(await onTestServer(url));
  await new Promise<void>((resolve) => {
    const req = request(target, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(part.length * 4) },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(part, () => setTimeout(() => req.destroy(), 200));
  });
}

/** What go-tfe's error carries: the title and detail of each problem. */
const errorText = (body: { errors?: { title: string; detail?: string }[] }): string =>
  (body.errors ?? []).map((e) => `${e.title}\n\n${e.detail ?? ''}`).join('\n');

describe('go-tfe compatibility (configuration versions, memberships, users, workspaces, runs)', () => {
  let org: Org;
  before(async () => {
    org = await createOrg();
  });

  describe('configuration versions', () => {
    it('accepts a second PUT while the version is still pending and keeps the second archive', async () => {
      const ws = await createWorkspace(org);
      const cv = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false });
      const first = await tarGz({ 'main.tf': 'output "a" { value = 1 }\n' });
      await cutOffPut(cv.uploadUrl, first.subarray(0, Math.max(1, first.length >> 1)));
      // The cut-off body is noticed by the server shortly after the connection drops.
      for (let i = 0; i < 20 && (await statusOf(cv.id)) !== 'pending'; i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(await statusOf(cv.id)).to.equal('pending');
      const second = await tarGz({ 'main.tf': 'output "b" { value = 2 }\n' });
      const up = await putArchive(cv.uploadUrl, second);
      expect(up.status, up.text).to.equal(200);
      const row = await cvRow(cv.id);
      expect(row.status).to.equal('uploaded');
      const stored = await readAll(harness().rt.store, row.archive_object_id);
      expect(stored && stored.equals(second)).to.equal(true);
      // Once uploaded, the URL stays used.
      const again = await putArchive(cv.uploadUrl, first);
      expect(again.status, again.text).to.equal(403);
    });

    it('says "transition not allowed" with the reason when archiving the current version (TestConfigurationVersionsArchive)', async () => {
      const ws = await createWorkspace(org);
      const cv = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false });
      expect((await putArchive(cv.uploadUrl, await tarGz({ 'main.tf': '' }))).status).to.equal(200);
      const res = await api('POST', `/configuration-versions/${cv.id}/actions/archive`, { token: org.owner.token });
      expect(res.status, res.text).to.equal(409);
      const text = errorText(res.body);
      expect(text).to.contain('transition not allowed');
      expect(text).to.contain('configuration could not be archived because it is current');
      const next = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false });
      expect((await putArchive(next.uploadUrl, await tarGz({ 'main.tf': '' }))).status).to.equal(200);
      const ok = await api('POST', `/configuration-versions/${cv.id}/actions/archive`, { token: org.owner.token });
      expect(ok.status, ok.text).to.equal(202);
      expect(await statusOf(cv.id)).to.equal('archived');
    });

    it('says "transition not allowed" when restoring permanently deleted backing data (TestConfigurationVersions_ManageBackingData)', async () => {
      const ws = await createWorkspace(org);
      const old = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false });
      expect((await putArchive(old.uploadUrl, await tarGz({ 'main.tf': '' }))).status).to.equal(200);
      const next = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false });
      expect((await putArchive(next.uploadUrl, await tarGz({ 'main.tf': '' }))).status).to.equal(200);
      for (const action of ['soft_delete_backing_data', 'permanently_delete_backing_data']) {
        const res = await api('POST', `/configuration-versions/${old.id}/actions/${action}`, {
          token: org.owner.token,
        });
        expect(res.status, `${action}: ${res.text}`).to.be.within(200, 299);
      }
      const res = await api('POST', `/configuration-versions/${old.id}/actions/restore_backing_data`, {
        token: org.owner.token,
      });
      expect(res.status).to.be.within(400, 499);
      expect(errorText(res.body)).to.contain('transition not allowed');
    });
  });

  describe('organization memberships list (q, filter[status], filter[email])', () => {
    let m: Org;
    const ids: Record<string, string> = {};
    let active: TestUser;
    let other: TestUser;
    let invited: TestUser;
    const list = (query: string) =>
      api('GET', `/organizations/${m.name}/organization-memberships${query}`, { token: m.owner.token });
    const idsOf = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);

    before(async () => {
      m = await createOrg();
      active = await createUser();
      other = await createUser();
      invited = await createUser();
      ids.active = await joinOrg(m, active);
      ids.other = await joinOrg(m, other);
      ids.invited = await joinOrg(m, invited, false);
    });

    it('filters by comma-separated emails as go-tfe sends them (Emails)', async () => {
      const res = await list(`?filter%5Bemail%5D=${encodeURIComponent(`${other.email},${invited.email}`)}`);
      expect(res.status, res.text).to.equal(200);
      expect(idsOf(res)).to.have.members([ids.other, ids.invited]);
      expect(res.body.meta.pagination['total-count']).to.equal(2);
    });

    it('filters by status (Status)', async () => {
      const res = await list('?filter%5Bstatus%5D=invited');
      expect(res.status, res.text).to.equal(200);
      expect(idsOf(res)).to.deep.equal([ids.invited]);
      for (const item of res.body.data) expect(item.attributes.status).to.equal('invited');
    });

    it('searches by email or username with q (Query), case-insensitively', async () => {
      const byEmail = await list(`?q=${encodeURIComponent(other.email.toUpperCase())}`);
      expect(byEmail.status, byEmail.text).to.equal(200);
      expect(idsOf(byEmail)).to.deep.equal([ids.other]);
      const byUsername = await list(`?q=${encodeURIComponent(active.username.slice(2))}`);
      expect(idsOf(byUsername)).to.deep.equal([ids.active]);
      // An invited user's username is not shown until they accept: only their email finds them.
      const hidden = `hidden${Date.now()}`;
      await harness().rt.db('users').where({ id: invited.id }).update({ username: hidden });
      expect(idsOf(await list(`?q=${hidden}`))).to.deep.equal([]);
      expect(idsOf(await list(`?q=${encodeURIComponent(invited.email)}`))).to.deep.equal([ids.invited]);
      const both = await list(`?q=${encodeURIComponent(other.email)}&filter%5Bstatus%5D=invited`);
      expect(idsOf(both)).to.deep.equal([]);
      const wildcard = await list('?q=%25');
      expect(idsOf(wildcard)).to.deep.equal([]);
    });
  });

  describe('users', () => {
    it('shows a stable avatar-url that does not derive from the email (TestUsersReadCurrent: AvatarURL not empty)', async () => {
      const me = await api('GET', '/account/details', { token: org.owner.token });
      expect(me.status, me.text).to.equal(200);
      const url: unknown = me.body.data.attributes['avatar-url'];
      expect(url)
        .to.be.a('string')
        .and.match(/^https:\/\//);
      const again = await api('GET', `/users/${org.owner.id}`, { token: org.owner.token });
      expect(again.status, again.text).to.equal(200);
      expect(again.body.data.attributes['avatar-url']).to.equal(url);
      const email = org.owner.email.trim().toLowerCase();
      for (const algorithm of ['md5', 'sha256'])
        expect(String(url)).to.not.contain(createHash(algorithm).update(email).digest('hex'));
      const someoneElse = await createUser();
      const theirs = await api('GET', '/account/details', { token: someoneElse.token });
      expect(theirs.body.data.attributes['avatar-url']).to.be.a('string').and.not.equal(url);
    });
  });

  describe('workspaces: PATCH by name, file triggers, source, self-html', () => {
    const byName = (name: string) => `/organizations/${org.name}/workspaces/${encodeURIComponent(name)}`;

    it('updates a subset of values by name (TestWorkspacesUpdate: when updating a subset of values)', async () => {
      const ws = await createWorkspace(org);
      const before = (await api('GET', byName(ws.name), { token: org.owner.token })).body.data.attributes;
      const res = await api('PATCH', byName(ws.name), {
        token: org.owner.token,
        body: doc('workspaces', {
          name: ws.name,
          'allow-destroy-plan': !before['allow-destroy-plan'],
          'auto-apply': true,
          operations: true,
          'queue-all-runs': true,
          'assessments-enabled': true,
          'terraform-version': '0.15.4',
        }),
      });
      expect(res.status, res.text).to.equal(200);
      const after = res.body.data.attributes;
      expect(after.name).to.equal(ws.name);
      for (const key of [
        'allow-destroy-plan',
        'auto-apply',
        'queue-all-runs',
        'assessments-enabled',
        'terraform-version',
      ])
        expect(after[key], key).to.not.deep.equal(before[key]);
      expect(after['working-directory']).to.equal(before['working-directory']);
    });

    it('updates by name with every option and reads the same back under the new name (with valid options)', async () => {
      const ws = await createWorkspace(org);
      const attrs = {
        name: `ws-renamed-${Date.now()}`,
        'allow-destroy-plan': true,
        'auto-apply': false,
        'file-triggers-enabled': true,
        operations: false,
        'queue-all-runs': false,
        'speculative-enabled': true,
        description: 'updated description',
        'structured-run-output-enabled': true,
        'terraform-version': '0.11.1',
        'trigger-prefixes': ['/modules', '/shared'],
        'working-directory': 'baz/',
      };
      const res = await api('PATCH', byName(ws.name), { token: org.owner.token, body: doc('workspaces', attrs) });
      expect(res.status, res.text).to.equal(200);
      const refreshed = await api('GET', byName(attrs.name), { token: org.owner.token });
      expect(refreshed.status, refreshed.text).to.equal(200);
      for (const item of [res.body.data, refreshed.body.data]) {
        expect(item.id).to.equal(ws.id);
        for (const [key, value] of Object.entries(attrs)) expect(item.attributes[key], key).to.deep.equal(value);
        expect(item.attributes['trigger-patterns']).to.deep.equal([]);
        expect(item.attributes['execution-mode']).to.equal('local');
      }
      expect((await api('GET', byName(ws.name), { token: org.owner.token })).status).to.equal(404);
      expect(
        (await api('PATCH', byName(ws.name), { token: org.owner.token, body: doc('workspaces', { description: 'x' }) }))
          .status,
      ).to.equal(404);
    });

    it('stores trigger patterns in place of prefixes, and refuses both at once', async () => {
      const create = await api('POST', `/organizations/${org.name}/workspaces`, {
        token: org.owner.token,
        body: doc('workspaces', {
          name: `ws-prefixes-${Date.now()}`,
          'trigger-prefixes': ['/prefix-1/', '/prefix-2/'],
        }),
      });
      expect(create.status, create.text).to.equal(201);
      const name = create.body.data.attributes.name;
      expect(create.body.data.attributes['trigger-prefixes']).to.deep.equal(['/prefix-1/', '/prefix-2/']);
      const patterns = ['/module-1/**/*', '/**/networking/*'];
      const res = await api('PATCH', byName(name), {
        token: org.owner.token,
        body: doc('workspaces', { 'file-triggers-enabled': true, 'trigger-patterns': patterns }),
      });
      expect(res.status, res.text).to.equal(200);
      const refreshed = await api('GET', byName(name), { token: org.owner.token });
      for (const item of [res.body.data, refreshed.body.data]) {
        expect(item.attributes['trigger-patterns']).to.deep.equal(patterns);
        expect(item.attributes['trigger-prefixes']).to.deep.equal([]);
      }
      const both = await api('PATCH', byName(name), {
        token: org.owner.token,
        body: doc('workspaces', { 'trigger-prefixes': ['/module-1'], 'trigger-patterns': patterns }),
      });
      expectError(both, 422, /trigger-prefixes and trigger-patterns/);
      const emptyPrefixes = await api('PATCH', byName(name), {
        token: org.owner.token,
        body: doc('workspaces', { 'trigger-prefixes': [], 'trigger-patterns': ['/x/*'] }),
      });
      expect(emptyPrefixes.status, emptyPrefixes.text).to.equal(200);
      expect(emptyPrefixes.body.data.attributes['trigger-patterns']).to.deep.equal(['/x/*']);
    });

    it('keeps source-name and source-url, defaults file triggers on, and links self-html', async () => {
      const name = `ws-source-${Date.now()}`;
      const res = await api('POST', `/organizations/${org.name}/workspaces`, {
        token: org.owner.token,
        body: doc('workspaces', { name, 'source-name': 'my-tool', 'source-url': 'https://example.com/my-tool' }),
      });
      expect(res.status, res.text).to.equal(201);
      const read = await api('GET', `/workspaces/${res.body.data.id}`, { token: org.owner.token });
      for (const item of [res.body.data, read.body.data]) {
        expect(item.attributes).to.include({
          'source-name': 'my-tool',
          'source-url': 'https://example.com/my-tool',
          'file-triggers-enabled': true,
        });
        expect(item.links['self-html']).to.equal(`/app/${org.name}/workspaces/${name}`);
        expect(item.links.self).to.equal(`/api/v2/organizations/${org.name}/workspaces/${name}`);
      }
      const badUrl = await api('POST', `/organizations/${org.name}/workspaces`, {
        token: org.owner.token,
        body: doc('workspaces', { name: `${name}-2`, 'source-url': 'not a url' }),
      });
      expect(badUrl.status, badUrl.text).to.equal(422);
    });

    it('refuses PATCH by name to a member with read access only (404 or 403, nothing changed)', async () => {
      const ws = await createWorkspace(org);
      const reader = await createUser();
      await joinOrg(org, reader);
      const res = await api('PATCH', byName(ws.name), {
        token: reader.token,
        body: doc('workspaces', { description: 'nope' }),
      });
      expect(res.status, res.text).to.be.oneOf([403, 404]);
      expect((await api('GET', byName(ws.name), { token: org.owner.token })).body.data.attributes.description).to.equal(
        '',
      );
    });
  });

  describe('runs queued by a configuration upload', () => {
    terraformWorkers(['run-pipeline']);
    const config = { 'main.tf': 'output "answer" {\n  value = 42\n}\n' };

    /** Uploads `config` to a new version that queues its run, as go-tfe's createUploadedConfigurationVersion does; returns the run id. */
    async function uploadQueuingRun(wsId: string, attrs: Record<string, unknown> = {}): Promise<string> {
      const cv = await createCv(wsId, org.owner.token, attrs);
      const put = await putArchive(cv.uploadUrl, await tarGz(config));
      expect(put.status, put.text).to.equal(200);
      const runs = await api('GET', `/workspaces/${wsId}/runs`, { token: org.owner.token });
      expect(runs.status, runs.text).to.equal(200);
      const run = runs.body.data.find(
        (r: { relationships: { 'configuration-version': { data: { id: string } | null } } }) =>
          r.relationships['configuration-version'].data?.id === cv.id,
      );
      expect(run, runs.text).to.not.equal(undefined);
      return run.id;
    }

    it('applies without a confirmation on an auto-apply workspace', async () => {
      const ws = await createWorkspace(org, { 'auto-apply': true });
      const runId = await uploadQueuingRun(ws.id);
      const run = await waitForRun(
        runId,
        org.owner.token,
        ['applied', 'planned', 'errored', 'canceled', 'discarded'],
        120_000,
      );
      expect(run.attributes.status).to.equal('applied');
      expect(run.attributes['auto-apply']).to.equal(true);
    });

    it('stops at planned, waiting for a confirmation, when the workspace does not auto-apply', async () => {
      const ws = await createWorkspace(org, { 'auto-apply': false });
      const runId = await uploadQueuingRun(ws.id);
      const run = await waitForRun(
        runId,
        org.owner.token,
        ['applied', 'planned', 'errored', 'canceled', 'discarded'],
        120_000,
      );
      expect(run.attributes.status).to.equal('planned');
      expect(run.attributes['auto-apply']).to.equal(false);
    });
  });
});
