import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { api } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { cvRow, statusOf } from '../helpers/cv.js';
import { createCv, createOrg, createUser, createWorkspace, joinOrg, onTestServer, putArchive, tarGz, type TestUser } from '../helpers/fixtures.js';
import { readAll } from '../../shared/store/postgres-store.js';

type Org = { name: string; owner: TestUser };

/** Starts a PUT that promises more bytes than it sends, then drops the connection (an upload cut off). */
async function cutOffPut(url: string, part: Buffer): Promise<void> {
  const target = new URL(await onTestServer(url));
  await new Promise<void>((resolve) => {
    const req = request(target, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(part.length * 4) } });
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
      for (let i = 0; i < 20 && (await statusOf(cv.id)) !== 'pending'; i++) await new Promise((r) => setTimeout(r, 100));
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
        const res = await api('POST', `/configuration-versions/${old.id}/actions/${action}`, { token: org.owner.token });
        expect(res.status, `${action}: ${res.text}`).to.be.within(200, 299);
      }
      const res = await api('POST', `/configuration-versions/${old.id}/actions/restore_backing_data`, { token: org.owner.token });
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
    const list = (query: string) => api('GET', `/organizations/${m.name}/organization-memberships${query}`, { token: m.owner.token });
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
      expect(url).to.be.a('string').and.match(/^https:\/\//);
      const again = await api('GET', `/users/${org.owner.id}`, { token: org.owner.token });
      expect(again.status, again.text).to.equal(200);
      expect(again.body.data.attributes['avatar-url']).to.equal(url);
      const email = org.owner.email.trim().toLowerCase();
      for (const algorithm of ['md5', 'sha256']) expect(String(url)).to.not.contain(createHash(algorithm).update(email).digest('hex'));
      const someoneElse = await createUser();
      const theirs = await api('GET', '/account/details', { token: someoneElse.token });
      expect(theirs.body.data.attributes['avatar-url']).to.be.a('string').and.not.equal(url);
    });
  });
});
