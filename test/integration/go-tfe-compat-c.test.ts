import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { api, doc, expectError, type ApiResponse } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { currentCvOf, cvRow } from '../helpers/cv.js';
import {
  createCv,
  createOrg,
  createUser,
  createWorkspace,
  joinOrg,
  memberWithAccess,
  putArchive,
  tarGz,
  uniq,
  type TestUser,
} from '../helpers/fixtures.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startRun, terraformWorkers, uploadConfig, waitForRun } from '../helpers/terraform.js';

type Org = { name: string; owner: TestUser };

const CONFIG = { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' };
const ws = (id: string) => ({ data: { type: 'workspaces', id } });

/** A run created as go-tfe's Runs.Create marshals it: attributes, workspace, and a null configuration version unless one is named. */
const runBody = (workspaceId: string, attrs: Record<string, unknown>, cvId?: string) =>
  doc('runs', attrs, {
    'configuration-version': { data: cvId ? { type: 'configuration-versions', id: cvId } : null },
    workspace: ws(workspaceId),
  });

/** Requests as go-tfe sends them, and what its integration tests assert about the answers. */
describe('go-tfe compatibility (notifications, configuration versions, organizations, workspaces, runs)', function () {
  this.timeout(120_000);
  let org: Org;
  before(async () => {
    org = await createOrg();
  });

  describe('notifications: email users with pending memberships', () => {
    let worker: WorkerProcess;
    before(async () => {
      worker = spawnWorkers(['notification-delivery']);
      await workersReady(worker);
    });
    after(async () => {
      await worker?.stop();
    });

    const users = (...ids: string[]) => ({ users: { data: ids.map((id) => ({ type: 'users', id })) } });
    const create = (wsId: string, attrs: Record<string, unknown>, rel?: Record<string, unknown>) =>
      api('POST', `/workspaces/${wsId}/notification-configurations`, {
        token: org.owner.token,
        body: doc('notification-configurations', attrs, rel),
      });
    const userIds = (res: ApiResponse) =>
      res.body.data.relationships.users.data.map((u: { type: string; id: string }) => `${u.type}:${u.id}`);

    it('Create and Update take invited members (createOrganizationMembership) as email users, shown as linkages only', async () => {
      const w = await createWorkspace(org);
      const invited1 = await createUser();
      const invited2 = await createUser();
      await joinOrg(org, invited1, false);
      await joinOrg(org, invited2, false);
      const created = await create(
        w.id,
        { 'destination-type': 'email', enabled: false, name: uniq('nc') },
        users(invited1.id),
      );
      expect(created.status, created.text).to.equal(201);
      expect(userIds(created)).to.deep.equal([`users:${invited1.id}`]);
      // go-tfe compares the decoded users with {ID} alone: nothing about them is included.
      expect(created.body.included).to.equal(undefined);

      const updated = await api('PATCH', `/notification-configurations/${created.body.data.id}`, {
        token: org.owner.token,
        body: doc('notification-configurations', { enabled: true, name: 'newName' }, users(invited1.id, invited2.id)),
      });
      expect(updated.status, updated.text).to.equal(200);
      expect(updated.body.data.attributes).to.include({ enabled: true, name: 'newName' });
      expect(userIds(updated)).to.have.members([`users:${invited1.id}`, `users:${invited2.id}`]);

      // A PATCH without users clears them, as TFE (TestNotificationConfigurationUpdate: go-tfe leaves an empty list out).
      const cleared = await api('PATCH', `/notification-configurations/${created.body.data.id}`, {
        token: org.owner.token,
        body: doc('notification-configurations', { enabled: true, name: 'newName' }),
      });
      expect(cleared.status, cleared.text).to.equal(200);
      expect(cleared.body.data.relationships.users.data).to.deep.equal([]);
      const read = await api('GET', `/notification-configurations/${created.body.data.id}`, { token: org.owner.token });
      expect(read.body.data.relationships.users.data).to.deep.equal([]);
      expect(read.body.data.attributes).to.include({ enabled: true, name: 'newName' });
    });

    it('still refuses users with no membership at all, nothing written', async () => {
      const w = await createWorkspace(org);
      const stranger = await createUser();
      const before = await harness()
        .rt.db('notification_configurations')
        .where({ workspace_id: w.id })
        .count<{ count: string }[]>({ count: '*' });
      expectError(
        await create(w.id, { 'destination-type': 'email', enabled: false, name: uniq('nc') }, users(stranger.id)),
        422,
        /member/,
      );
      const after = await harness()
        .rt.db('notification_configurations')
        .where({ workspace_id: w.id })
        .count<{ count: string }[]>({ count: '*' });
      expect(after).to.deep.equal(before);
    });

    it('mails an invited user only once the invitation is accepted', async () => {
      const m = await createOrg();
      const invited = await createUser();
      const membership = await joinOrg(m, invited, false);
      const w = await createWorkspace(m);
      const c = await api('POST', `/workspaces/${w.id}/notification-configurations`, {
        token: m.owner.token,
        body: doc(
          'notification-configurations',
          { 'destination-type': 'email', enabled: true, name: uniq('nc'), triggers: ['run:created'] },
          users(m.owner.id, invited.id),
        ),
      });
      expect(c.status, c.text).to.equal(201);
      const cv = await uploadConfig(w.id, m.owner.token, CONFIG);
      const recipients = async (runId: string) => {
        const delivery = await waitFor(
          async () =>
            (await harness().rt.db('notification_deliveries').where({ run_id: runId, status: 'delivered' }).first()) ??
            null,
          'the delivery',
        );
        return (await harness().rt.db('mail_messages').where({ ref_id: delivery.id }).pluck('to_address')) as string[];
      };

      const first = await startRun(w.id, m.owner.token, { 'plan-only': false }, cv);
      expect(await recipients(first)).to.deep.equal([m.owner.email]);
      await api('POST', `/runs/${first}/actions/cancel`, { token: m.owner.token, body: {} });

      const acc = await api('POST', `/organization-memberships/${membership}/actions/accept`, { token: invited.token });
      expect(acc.status, acc.text).to.equal(200);
      const second = await startRun(w.id, m.owner.token, {}, cv);
      expect((await recipients(second)).sort()).to.deep.equal([m.owner.email, invited.email].sort());
      await api('POST', `/runs/${second}/actions/cancel`, { token: m.owner.token, body: {} });
    });
  });

  describe('configuration versions: current and provisional (TestConfigurationVersionsCreate)', () => {
    const current = async (wsId: string) =>
      (await api('GET', `/workspaces/${wsId}`, { token: org.owner.token })).body.data.relationships[
        'current-configuration-version'
      ].data;

    it('with valid options: pending, tfe-api, upload URL only at creation, and current at once', async () => {
      const w = await createWorkspace(org);
      const res = await api('POST', `/workspaces/${w.id}/configuration-versions`, {
        token: org.owner.token,
        body: doc('configuration-versions', {}),
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.attributes['upload-url']).to.be.a('string').that.is.not.empty;
      const refreshed = await api('GET', `/configuration-versions/${res.body.data.id}`, { token: org.owner.token });
      expect(refreshed.body.data.attributes['upload-url'] ?? '').to.equal('');
      for (const item of [res.body.data, refreshed.body.data]) {
        expect(item.attributes).to.include({ status: 'pending', source: 'tfe-api', provisional: false });
        expect(item.attributes.error ?? '').to.equal('');
      }
      expect(await current(w.id)).to.deep.equal({ type: 'configuration-versions', id: res.body.data.id });

      // provisional: created, flagged, and not the current one.
      const prov = await api('POST', `/workspaces/${w.id}/configuration-versions`, {
        token: org.owner.token,
        body: doc('configuration-versions', { provisional: true }),
      });
      expect(prov.status, prov.text).to.equal(201);
      expect(prov.body.data.attributes.provisional).to.equal(true);
      const now = await current(w.id);
      expect(now).to.not.equal(null);
      expect(now.id).to.not.equal(prov.body.data.id);
      expect(now.id).to.equal(res.body.data.id);
      // Uploading the provisional version leaves the current one as it is.
      expect((await putArchive(prov.body.data.attributes['upload-url'], await tarGz(CONFIG))).status).to.equal(200);
      expect((await current(w.id)).id).to.equal(res.body.data.id);
    });

    it('versions created at once in one workspace leave the newest current', async () => {
      const w = await createWorkspace(org);
      const made = await Promise.all(
        Array.from({ length: 8 }, () =>
          api('POST', `/workspaces/${w.id}/configuration-versions`, {
            token: org.owner.token,
            body: doc('configuration-versions', {}),
          }),
        ),
      );
      for (const res of made) expect(res.status, res.text).to.equal(201);
      const rows = await harness()
        .rt.db('configuration_versions')
        .where({ workspace_id: w.id })
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .select('id', 'created_at');
      expect(rows).to.have.length(8);
      expect((await current(w.id)).id).to.equal(rows[0].id);
    });

    it('stays current after its upload; a run without a version waits for the upload (422 while pending)', async () => {
      const w = await createWorkspace(org);
      const cv = await createCv(w.id, org.owner.token, { 'auto-queue-runs': false });
      expect(await currentCvOf(w.id)).to.equal(cv.id);
      const early = await api('POST', '/runs', { token: org.owner.token, body: runBody(w.id, {}) });
      expectError(early, 422, /pending, not uploaded/);
      expect((await putArchive(cv.uploadUrl, await tarGz(CONFIG))).status).to.equal(200);
      expect(await currentCvOf(w.id)).to.equal(cv.id);
      // Once uploaded, the URL is spent (a second PUT while pending would have replaced the archive).
      expect((await putArchive(cv.uploadUrl, await tarGz(CONFIG))).status).to.equal(403);
    });

    it('a refused upload gives the workspace back its previous current version', async () => {
      const w = await createWorkspace(org);
      const good = await createCv(w.id, org.owner.token, { 'auto-queue-runs': false });
      expect((await putArchive(good.uploadUrl, await tarGz(CONFIG))).status).to.equal(200);
      const bad = await createCv(w.id, org.owner.token, { 'auto-queue-runs': false });
      expect(await currentCvOf(w.id)).to.equal(bad.id);
      const res = await putArchive(bad.uploadUrl, Buffer.from('not a gzip stream'));
      expect(res.status, res.text).to.equal(422);
      expect((await cvRow(bad.id)).status).to.equal('errored');
      expect(await currentCvOf(w.id)).to.equal(good.id);
    });

    it('a newer version created meanwhile stays current when an older one fails', async () => {
      const w = await createWorkspace(org);
      const older = await createCv(w.id, org.owner.token, { 'auto-queue-runs': false });
      const newer = await createCv(w.id, org.owner.token, { 'auto-queue-runs': false });
      expect((await putArchive(older.uploadUrl, Buffer.from('junk'))).status).to.equal(422);
      expect(await currentCvOf(w.id)).to.equal(newer.id);
    });
  });

  describe('organizations: attributes go-tfe reads', () => {
    it('Create: default-execution-mode remote, no default agent pool (TestOrganizationsCreate)', async () => {
      const owner = await createUser();
      const name = uniq('org');
      const res = await api('POST', '/organizations', {
        token: owner.token,
        body: doc('organizations', { name, email: `${name}@tfe.local` }),
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.attributes).to.include({
        name,
        email: `${name}@tfe.local`,
        'default-execution-mode': 'remote',
      });
      expect(res.body.data.relationships['default-agent-pool']).to.deep.equal({ data: null });
    });

    it('Read: safe values of the right types for the attributes clients decode (TestOrganizationsRead)', async () => {
      const res = await api('GET', `/organizations/${org.name}`, { token: org.owner.token });
      expect(res.status, res.text).to.equal(200);
      const a = res.body.data.attributes;
      expect(a['created-at']).to.match(/Z$/);
      expect(a['trial-expires-at']).to.equal(null);
      for (const key of [
        'assessments-enforced',
        'allow-force-delete-workspaces',
        'cost-estimation-enabled',
        'saml-enabled',
        'two-factor-conformant',
      ])
        expect(a[key], key).to.equal(false);
      expect(a['user-tokens-enabled']).to.equal(true);
      expect(a.permissions['can-destroy']).to.equal(true);
      expect(a['collaborator-auth-policy']).to.equal('password');
    });

    it('Update with valid options: name, email, session settings and execution mode read back (TestOrganizationsUpdate)', async () => {
      const o = await createOrg();
      const name = uniq('org');
      const attrs = {
        name,
        email: `${name}@tfe.local`,
        'session-timeout': 3600,
        'session-remember': 3600,
        'default-execution-mode': 'local',
      };
      const res = await api('PATCH', `/organizations/${o.name}`, {
        token: o.owner.token,
        body: doc('organizations', attrs),
      });
      expect(res.status, res.text).to.equal(200);
      const refreshed = await api('GET', `/organizations/${name}`, { token: o.owner.token });
      for (const item of [res.body.data, refreshed.body.data]) expect(item.attributes).to.include(attrs);
      // When only updating a subset of fields, the others stay.
      const subset = await api('PATCH', `/organizations/${name}`, {
        token: o.owner.token,
        body: doc('organizations', {}),
      });
      expect(subset.body.data.attributes).to.include(attrs);
      expectError(
        await api('PATCH', `/organizations/${name}`, {
          token: o.owner.token,
          body: doc('organizations', { 'session-timeout': 'long' }),
        }),
        422,
      );
    });

    it('allow-force-delete-workspaces is taken at create and update and read back (TestOrganizationsAllowForceDeleteSetting)', async () => {
      const owner = await createUser();
      const name = uniq('org');
      const created = await api('POST', '/organizations', {
        token: owner.token,
        body: doc('organizations', { name, email: `${name}@tfe.local`, 'allow-force-delete-workspaces': true }),
      });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.data.attributes['allow-force-delete-workspaces']).to.equal(true);
      const updated = await api('PATCH', `/organizations/${name}`, {
        token: owner.token,
        body: doc('organizations', { 'allow-force-delete-workspaces': false }),
      });
      expect(updated.body.data.attributes['allow-force-delete-workspaces']).to.equal(false);
      expect(
        (await api('GET', `/organizations/${name}`, { token: owner.token })).body.data.attributes[
          'allow-force-delete-workspaces'
        ],
      ).to.equal(false);
    });
  });

  describe('organization and team tokens: Read (TestOrganizationTokensRead, TestTeamTokensRead)', () => {
    it('reads the token that exists, without its secret, and answers 404 once it is gone', async () => {
      const o = await createOrg();
      const paths = [`/organizations/${o.name}/authentication-token`];
      const team = await api('POST', `/organizations/${o.name}/teams`, {
        token: o.owner.token,
        body: doc('teams', { name: uniq('team') }),
      });
      paths.push(`/teams/${team.body.data.id}/authentication-token`);
      for (const path of paths) {
        expect((await api('GET', path, { token: o.owner.token })).status).to.equal(404);
        const created = await api('POST', path, { token: o.owner.token, body: doc('authentication-token', {}) });
        expect(created.status, created.text).to.equal(201);
        const read = await api('GET', path, { token: o.owner.token });
        expect(read.status, read.text).to.equal(200);
        expect(read.body.data.id).to.equal(created.body.data.id);
        expect(read.body.data.attributes.token ?? null).to.equal(null);
        expect((await api('DELETE', path, { token: o.owner.token })).status).to.equal(204);
        expect((await api('GET', path, { token: o.owner.token })).status).to.equal(404);
        expect((await api('DELETE', path, { token: o.owner.token })).status).to.equal(404);
      }
      // another organization's owner sees neither
      const other = await createOrg();
      for (const path of paths) expect((await api('GET', path, { token: other.owner.token })).status).to.equal(404);
    });
  });

  describe('workspaces: tags and setting-overwrites', () => {
    const tags = (...names: string[]) => ({ data: names.map((name) => ({ type: 'tags', attributes: { name } })) });
    const tagNames = async (wsName: string) =>
      (await api('GET', `/organizations/${org.name}/workspaces/${wsName}`, { token: org.owner.token })).body.data
        .attributes['tag-names'];
    const listTags = async (wsId: string) =>
      (await api('GET', `/workspaces/${wsId}/relationships/tags`, { token: org.owner.token })).body;

    it('Create with tags: tag-names in order on the answer and on a read (TestWorkspacesCreate)', async () => {
      const name = uniq('ws');
      const res = await api('POST', `/organizations/${org.name}/workspaces`, {
        token: org.owner.token,
        body: doc('workspaces', { name, 'file-triggers-enabled': true }, { tags: tags('tag1', 'tag2') }),
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.attributes['tag-names']).to.deep.equal(['tag1', 'tag2']);
      expect(await tagNames(name)).to.deep.equal(['tag1', 'tag2']);
    });

    it('AddTags, ListTags, RemoveTags, by name and by id (TestWorkspaces_AddTags, TestWorkspaces_RemoveTags)', async () => {
      const w = await createWorkspace(org);
      const add = (wsId: string, body: unknown) =>
        api('POST', `/workspaces/${wsId}/relationships/tags`, { token: org.owner.token, body });
      expect((await add(w.id, tags('tag1', 'tag2', 'tag3'))).status).to.equal(204);
      expect(await tagNames(w.name)).to.deep.equal(['tag1', 'tag2', 'tag3']);
      expect((await add(w.id, tags('tag4'))).status).to.equal(204);
      const listed = await listTags(w.id);
      expect(listed.data.map((t: { attributes: { name: string } }) => t.attributes.name)).to.deep.equal([
        'tag1',
        'tag2',
        'tag3',
        'tag4',
      ]);
      expect(listed.data[3].type).to.equal('tags');
      expect(listed.meta.pagination['total-count']).to.equal(4);

      // by id: a tag another workspace of the organization carries
      const other = await createWorkspace(org);
      expect((await add(other.id, tags('tagbyid'))).status).to.equal(204);
      const byId = (await listTags(other.id)).data[0].id;
      expect((await add(w.id, { data: [{ type: 'tags', id: byId }] })).status).to.equal(204);
      const after = await listTags(w.id);
      expect(after.data).to.have.length(5);
      expect(after.data[4]).to.include({ id: byId });
      expect(after.data[4].attributes.name).to.equal('tagbyid');

      const removed = await api('DELETE', `/workspaces/${w.id}/relationships/tags`, {
        token: org.owner.token,
        body: tags('tag1', 'tag2'),
      });
      expect(removed.status, removed.text).to.equal(204);
      expect(await tagNames(w.name)).to.deep.equal(['tag3', 'tag4', 'tagbyid']);
      // removing a tag that does not exist is no error
      expect(
        (
          await api('DELETE', `/workspaces/${w.id}/relationships/tags`, {
            token: org.owner.token,
            body: tags('NonExistentTag'),
          })
        ).status,
      ).to.equal(204);
      // an empty list is refused (go-tfe refuses it before sending)
      expect((await add(w.id, { data: [] })).status).to.equal(422);
    });

    it('List: search[tags], search[exclude-tags] and search[wildcard-name] (TestWorkspacesList)', async () => {
      const o = await createOrg();
      const a = await createWorkspace(o);
      const b = await createWorkspace(o);
      for (const [id, tag] of [
        [a.id, 'foo'],
        [b.id, 'bar'],
      ]) {
        expect(
          (await api('POST', `/workspaces/${id}/relationships/tags`, { token: o.owner.token, body: tags(tag) })).status,
        ).to.equal(204);
      }
      const list = (q: string) => api('GET', `/organizations/${o.name}/workspaces?${q}`, { token: o.owner.token });
      const withTag = await list('search%5Btags%5D=foo');
      expect(withTag.body.data.map((x: { id: string }) => x.id)).to.deep.equal([a.id]);
      expect(withTag.body.meta.pagination['total-count']).to.equal(1);
      const without = await list('search%5Bexclude-tags%5D=foo');
      expect(without.body.data.map((x: { id: string }) => x.id)).to.deep.equal([b.id]);
      // search[wildcard-name]: a known substring, and one that matches nothing
      const prod = await api('POST', `/organizations/${o.name}/workspaces`, {
        token: o.owner.token,
        body: doc('workspaces', { name: 'hashicorp-prod' }),
      });
      const wild = await list('search%5Bwildcard-name%5D=*-prod');
      expect(wild.body.data.map((x: { id: string }) => x.id)).to.deep.equal([prod.body.data.id]);
      expect(wild.body.meta.pagination['total-count']).to.equal(1);
      expect((await list('search%5Bwildcard-name%5D=*-dev')).body.meta.pagination['total-count']).to.equal(0);
      expect((await list('search%5Bwildcard-name%5D=hashicorp_*')).body.meta.pagination['total-count']).to.equal(0);
      const orgTags = await api('GET', `/organizations/${o.name}/tags`, { token: o.owner.token });
      expect(orgTags.status, orgTags.text).to.equal(200);
      expect(
        orgTags.body.data.map((t: { attributes: { name: string; 'instance-count': number } }) => [
          t.attributes.name,
          t.attributes['instance-count'],
        ]),
      ).to.deep.equal([
        ['bar', 1],
        ['foo', 1],
      ]);
    });

    it('organization tags: list with q, delete by id, put a tag on workspaces (TestOrganizationTagsList, Delete, AddWorkspace)', async () => {
      const o = await createOrg();
      const w = await createWorkspace(o);
      const names = Array.from({ length: 10 }, (_, i) => `tag${i}`);
      expect(
        (await api('POST', `/workspaces/${w.id}/relationships/tags`, { token: o.owner.token, body: tags(...names) }))
          .status,
      ).to.equal(204);
      const list = (q = '') => api('GET', `/organizations/${o.name}/tags${q}`, { token: o.owner.token });
      const all = await list();
      expect(all.body.data).to.have.length(10);
      for (const t of all.body.data) {
        expect(t.attributes['instance-count']).to.be.at.least(1);
        expect(t.relationships.organization.data).to.deep.equal({ type: 'organizations', id: o.name });
      }
      const paged = await list(
        `?page%5Bnumber%5D=1&page%5Bsize%5D=5&filter%5Bexclude%5D%5Btaggable%5D%5Bid%5D=${all.body.data[0].id}`,
      );
      expect(paged.body.data).to.have.length(5);
      const byName = await list(`?page%5Bnumber%5D=1&page%5Bsize%5D=5&q=${all.body.data[0].attributes.name}`);
      expect(byName.body.data.map((t: { attributes: { name: string } }) => t.attributes.name)).to.deep.equal([
        all.body.data[0].attributes.name,
      ]);

      const other1 = await createWorkspace(o);
      const other2 = await createWorkspace(o);
      const tagId = all.body.data[0].id;
      const added = await api('POST', `/tags/${tagId}/relationships/workspaces`, {
        token: o.owner.token,
        body: {
          data: [
            { type: 'workspaces', id: other1.id },
            { type: 'workspaces', id: other2.id },
          ],
        },
      });
      expect(added.status, added.text).to.equal(204);
      for (const id of [other1.id, other2.id]) {
        const theirs = await api('GET', `/workspaces/${id}/relationships/tags`, { token: o.owner.token });
        expect(theirs.body.data[0].id).to.equal(tagId);
      }
      // a workspace of another organization is refused, nothing written
      const stranger = await createWorkspace(org);
      expect(
        (
          await api('POST', `/tags/${tagId}/relationships/workspaces`, {
            token: o.owner.token,
            body: { data: [{ type: 'workspaces', id: stranger.id }] },
          })
        ).status,
      ).to.equal(422);
      expect(
        (await api('GET', `/workspaces/${stranger.id}/relationships/tags`, { token: org.owner.token })).body.data,
      ).to.deep.equal([]);

      const doomed = all.body.data.slice(0, 5).map((t: { id: string }) => ({ type: 'tags', id: t.id }));
      const deleted = await api('DELETE', `/organizations/${o.name}/tags`, {
        token: o.owner.token,
        body: { data: doomed },
      });
      expect(deleted.status, deleted.text).to.equal(204);
      expect((await list()).body.data).to.have.length(5);
      expect(
        (await api('GET', `/workspaces/${other1.id}/relationships/tags`, { token: o.owner.token })).body.data,
      ).to.deep.equal([]);
    });

    it('remote state consumers are listed as whole workspaces, only those the caller may see (TestWorkspaces_AddRemoteStateConsumers)', async () => {
      const o = await createOrg();
      const producer = await createWorkspace(o, { 'global-remote-state': false });
      const made = [];
      for (let i = 0; i < 2; i++) {
        const res = await api('POST', `/organizations/${o.name}/workspaces`, {
          token: o.owner.token,
          body: doc('workspaces', { name: uniq('consumer') }),
        });
        made.push(res.body.data);
      }
      const path = `/workspaces/${producer.id}/relationships/remote-state-consumers`;
      const add = await api('POST', path, {
        token: o.owner.token,
        body: { data: made.map((w) => ({ type: 'workspaces', id: w.id })) },
      });
      expect(add.status, add.text).to.equal(204);
      const listed = await api('GET', path, { token: o.owner.token });
      expect(listed.status, listed.text).to.equal(200);
      expect(listed.body.data).to.have.deep.members(made);
      expect(listed.body.meta.pagination['total-count']).to.equal(2);
      // A member who reads the producer but none of the consumers sees no consumer.
      const reader = await memberWithAccess(o, producer.id, 'read');
      const theirs = await api('GET', path, { token: reader.token });
      expect(theirs.status, theirs.text).to.equal(200);
      expect(theirs.body.data).to.deep.equal([]);
    });

    it('safe-delete: deletes an idle workspace, refuses a locked one or one whose state manages resources (TestWorkspacesSafeDelete, TestWorkspacesSafeDeleteByID, TestStateVersionsRead)', async () => {
      const o = await createOrg();
      const t = o.owner.token;
      const byName = (name: string) => `/organizations/${o.name}/workspaces/${name}/actions/safe-delete`;
      const idle = await createWorkspace(o);
      expect((await api('POST', byName(idle.name), { token: t })).status).to.equal(204);
      expect((await api('GET', `/workspaces/${idle.id}`, { token: t })).status).to.equal(404);
      const idle2 = await createWorkspace(o);
      expect((await api('POST', `/workspaces/${idle2.id}/actions/safe-delete`, { token: t })).status).to.equal(204);

      const locked = await createWorkspace(o);
      expect((await api('POST', `/workspaces/${locked.id}/actions/lock`, { token: t, body: {} })).status).to.equal(200);
      const refusedLocked = await api('POST', `/workspaces/${locked.id}/actions/safe-delete`, { token: t });
      expectError(refusedLocked, 409, /locked/);

      // A state with a managed resource: not safe (and the words do not say "locked").
      const full = await createWorkspace(o);
      const state = Buffer.from(
        JSON.stringify({
          version: 4,
          terraform_version: '1.11.4',
          serial: 1,
          lineage: 'l-1',
          outputs: {},
          resources: [
            {
              mode: 'managed',
              type: 'terraform_data',
              name: 'a',
              provider: 'provider["terraform.io/builtin/terraform"]',
              instances: [{ schema_version: 0, attributes: { id: 'x' } }],
            },
          ],
        }),
      );
      expect((await api('POST', `/workspaces/${full.id}/actions/lock`, { token: t, body: {} })).status).to.equal(200);
      const sv = await api('POST', `/workspaces/${full.id}/state-versions`, {
        token: t,
        body: {
          data: {
            type: 'state-versions',
            attributes: {
              serial: 1,
              lineage: 'l-1',
              md5: createHash('md5').update(state).digest('hex'),
              state: state.toString('base64'),
            },
          },
        },
      });
      expect(sv.status, sv.text).to.equal(201);
      // TestStateVersionsRead: resources processed, with the count of resources under management.
      const read = await api('GET', `/state-versions/${sv.body.data.id}`, { token: t });
      expect(read.body.data.attributes).to.include({
        'resources-processed': true,
        'billable-rum-count': 1,
        'state-version': 4,
        'terraform-version': '1.11.4',
      });
      expect((await api('POST', `/workspaces/${full.id}/actions/unlock`, { token: t, body: {} })).status).to.equal(200);
      const refusedFull = await api('POST', byName(full.name), { token: t });
      expectError(refusedFull, 409, /not safe to delete/);
      expect(refusedFull.text).to.not.match(/locked/);
      expect((await api('GET', `/workspaces/${full.id}`, { token: t })).status).to.equal(200);

      // Members without admin access get 404 and nothing is deleted.
      const writer = await memberWithAccess(o, full.id, 'write');
      const victim = await createWorkspace(o);
      await memberWithAccess(o, victim.id, 'write');
      expect(
        (await api('POST', `/workspaces/${full.id}/actions/safe-delete`, { token: writer.token })).status,
      ).to.equal(404);
      expect(
        (
          await api('POST', `/organizations/${o.name}/workspaces/${victim.name}/actions/safe-delete`, {
            token: writer.token,
          })
        ).status,
      ).to.equal(404);
      expect((await api('GET', `/workspaces/${victim.id}`, { token: t })).status).to.equal(200);
    });

    it("include=outputs: the current state's outputs, sensitive values withheld (TestWorkspacesReadWithOptions)", async () => {
      const o = await createOrg();
      const t = o.owner.token;
      const w = await createWorkspace(o);
      const state = Buffer.from(
        JSON.stringify({
          version: 4,
          terraform_version: '1.11.4',
          serial: 1,
          lineage: 'l-out',
          resources: [],
          outputs: {
            greeting: { value: 'hello', type: 'string' },
            secret: { value: 'hunter2', type: 'string', sensitive: true },
            list: { value: [1, 2], type: ['tuple', ['number', 'number']] },
          },
        }),
      );
      expect((await api('POST', `/workspaces/${w.id}/actions/lock`, { token: t, body: {} })).status).to.equal(200);
      const sv = await api('POST', `/workspaces/${w.id}/state-versions`, {
        token: t,
        body: {
          data: {
            type: 'state-versions',
            attributes: {
              serial: 1,
              lineage: 'l-out',
              md5: createHash('md5').update(state).digest('hex'),
              state: state.toString('base64'),
            },
          },
        },
      });
      expect(sv.status, sv.text).to.equal(201);
      expect((await api('POST', `/workspaces/${w.id}/actions/unlock`, { token: t, body: {} })).status).to.equal(200);
      const svOutputs = (await api('GET', `/state-versions/${sv.body.data.id}/outputs`, { token: t })).body.data;
      const reader = await memberWithAccess(o, w.id, 'read');
      for (const token of [t, reader.token]) {
        const res = await api('GET', `/organizations/${o.name}/workspaces/${w.name}?include=outputs`, { token });
        expect(res.status, res.text).to.equal(200);
        expect(res.body.data.relationships.outputs.data.map((x: { id: string }) => x.id)).to.have.members(
          svOutputs.map((x: { id: string }) => x.id),
        );
        const included = res.body.included as {
          type: string;
          attributes: { name: string; sensitive: boolean; 'output-type': string; value: unknown };
        }[];
        expect(included).to.have.length(svOutputs.length);
        for (const out of svOutputs) {
          const mine = included.find((x) => x.attributes.name === out.attributes.name)!;
          expect(mine.type).to.equal('workspace-outputs');
          expect(mine.attributes.sensitive).to.equal(out.attributes.sensitive);
          expect(mine.attributes['output-type']).to.equal(out.attributes.type);
        }
        expect(included.find((x) => x.attributes.name === 'greeting')!.attributes.value).to.equal('hello');
        expect(included.find((x) => x.attributes.name === 'secret')!.attributes.value).to.equal(null);
      }
      // Without the include, no outputs relationship and nothing included.
      const plain = await api('GET', `/workspaces/${w.id}`, { token: t });
      expect(plain.body.data.relationships.outputs).to.equal(undefined);
      expect(plain.body.included).to.equal(undefined);
    });

    it('refuses tag changes to members without admin access and tag reads to outsiders (404, nothing changed)', async () => {
      const w = await createWorkspace(org);
      const writer = await memberWithAccess(org, w.id, 'write');
      const outsider = await createOrg();
      const res = await api('POST', `/workspaces/${w.id}/relationships/tags`, {
        token: writer.token,
        body: tags('sneaky'),
      });
      expect(res.status, res.text).to.equal(404);
      expect(
        (await api('DELETE', `/workspaces/${w.id}/relationships/tags`, { token: writer.token, body: tags('sneaky') }))
          .status,
      ).to.equal(404);
      expect((await api('GET', `/workspaces/${w.id}/relationships/tags`, { token: writer.token })).status).to.equal(
        200,
      );
      expect(
        (await api('GET', `/workspaces/${w.id}/relationships/tags`, { token: outsider.owner.token })).status,
      ).to.equal(404);
      expect((await api('GET', `/organizations/${org.name}/tags`, { token: outsider.owner.token })).status).to.equal(
        404,
      );
      // A tag id of another organization is not attachable.
      const theirs = await createWorkspace(outsider);
      await api('POST', `/workspaces/${theirs.id}/relationships/tags`, {
        token: outsider.owner.token,
        body: tags('theirs'),
      });
      const theirId = (await api('GET', `/workspaces/${theirs.id}/relationships/tags`, { token: outsider.owner.token }))
        .body.data[0].id;
      expect(
        (
          await api('POST', `/workspaces/${w.id}/relationships/tags`, {
            token: org.owner.token,
            body: { data: [{ type: 'tags', id: theirId }] },
          })
        ).status,
      ).to.equal(422);
      expect(await tagNames(w.name)).to.deep.equal([]);
    });

    it('setting-overwrites: inherit the organization default, or keep a mode of its own (TestWorkspacesCreate, TestWorkspacesUpdateWithDefaultExecutionMode)', async () => {
      const o = await createOrg();
      expect(
        (
          await api('PATCH', `/organizations/${o.name}`, {
            token: o.owner.token,
            body: doc('organizations', { 'default-execution-mode': 'local' }),
          })
        ).status,
      ).to.equal(200);
      const create = (attrs: Record<string, unknown>) =>
        api('POST', `/organizations/${o.name}/workspaces`, {
          token: o.owner.token,
          body: doc('workspaces', { name: uniq('ws'), ...attrs }),
        });

      const inherits = await create({ 'setting-overwrites': { 'execution-mode': false } });
      expect(inherits.status, inherits.text).to.equal(201);
      expect(inherits.body.data.attributes['execution-mode']).to.equal('local');
      expect(inherits.body.data.attributes['setting-overwrites']).to.deep.equal({
        'execution-mode': false,
        'agent-pool': false,
      });

      const own = await create({
        'execution-mode': 'remote',
        'setting-overwrites': { 'execution-mode': true, 'agent-pool': true },
      });
      expect(own.body.data.attributes['execution-mode']).to.equal('remote');
      expect(own.body.data.attributes['setting-overwrites']).to.deep.equal({
        'execution-mode': true,
        'agent-pool': true,
      });
      const explicit = await create({ 'execution-mode': 'remote' });
      expect(explicit.body.data.attributes['setting-overwrites']['execution-mode']).to.equal(true);

      // A new organization default reaches the inheriting workspace only.
      expect(
        (
          await api('PATCH', `/organizations/${o.name}`, {
            token: o.owner.token,
            body: doc('organizations', { 'default-execution-mode': 'remote' }),
          })
        ).status,
      ).to.equal(200);
      const read = async (id: string) =>
        (await api('GET', `/workspaces/${id}`, { token: o.owner.token })).body.data.attributes;
      expect((await read(inherits.body.data.id))['execution-mode']).to.equal('remote');
      expect(
        (
          await api('PATCH', `/organizations/${o.name}`, {
            token: o.owner.token,
            body: doc('organizations', { 'default-execution-mode': 'local' }),
          })
        ).status,
      ).to.equal(200);
      expect((await read(own.body.data.id))['execution-mode']).to.equal('remote');

      // Update: a mode of its own, then back to the default.
      const byName = (name: string) => `/organizations/${o.name}/workspaces/${name}`;
      const ownName = own.body.data.attributes.name;
      const back = await api('PATCH', byName(ownName), {
        token: o.owner.token,
        body: doc('workspaces', { 'setting-overwrites': { 'execution-mode': false, 'agent-pool': false } }),
      });
      expect(back.status, back.text).to.equal(200);
      expect(back.body.data.attributes['execution-mode']).to.equal('local');
      expect(back.body.data.attributes['setting-overwrites']['execution-mode']).to.equal(false);
      const mine = await api('PATCH', byName(ownName), {
        token: o.owner.token,
        body: doc('workspaces', { 'execution-mode': 'remote' }),
      });
      expect(mine.body.data.attributes).to.include({ 'execution-mode': 'remote' });
      expect(mine.body.data.attributes['setting-overwrites']['execution-mode']).to.equal(true);
    });
  });

  describe('runs: terraform-version of plan-only runs, and comments', () => {
    terraformWorkers(['run-pipeline']);
    let w: { id: string; name: string };
    let cvId: string;
    before(async () => {
      w = await createWorkspace(org);
      cvId = await uploadConfig(w.id, org.owner.token, CONFIG);
    });

    it('with terraform version and plan only: refused without plan-only, stored and returned with it (TestRunsCreate)', async () => {
      const refused = await api('POST', '/runs', {
        token: org.owner.token,
        body: runBody(w.id, { 'terraform-version': '1.0.0' }),
      });
      expectError(refused, 422, /plan-only/);
      const res = await api('POST', '/runs', {
        token: org.owner.token,
        body: runBody(w.id, { 'terraform-version': '1.0.0', 'plan-only': true }),
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.attributes).to.include({ 'plan-only': true, 'terraform-version': '1.0.0' });
      // Only the installed Terraform runs here: the run errors and says why.
      const run = await waitForRun(res.body.data.id, org.owner.token, ['errored', 'planned_and_finished'], 90_000);
      expect(run.attributes.status).to.equal('errored');
      expect(run.attributes['terraform-version']).to.equal('1.0.0');
      expect(run.attributes['error-message']).to.match(
        /Terraform 1\.0\.0 was requested.*only Terraform \d+\.\d+\.\d+ is installed/,
      );
    });

    it('a plan-only run asking for the installed version plans with it', async () => {
      const version = (
        JSON.parse(execFileSync('terraform', ['version', '-json'], { encoding: 'utf8' })) as {
          terraform_version: string;
        }
      ).terraform_version;
      const res = await api('POST', '/runs', {
        token: org.owner.token,
        body: runBody(w.id, { 'terraform-version': version, 'plan-only': true }, cvId),
      });
      expect(res.status, res.text).to.equal(201);
      const run = await waitForRun(res.body.data.id, org.owner.token, ['errored', 'planned_and_finished'], 90_000);
      expect(run.attributes.status).to.equal('planned_and_finished');
      expect(run.attributes['terraform-version']).to.equal(version);
    });

    it('comments: create, list and read (TestCommentsList_RunDependent), an apply comment recorded (TestRunsApply)', async () => {
      const runId = await startRun(w.id, org.owner.token, {}, cvId);
      const empty = await api('GET', `/runs/${runId}/comments`, { token: org.owner.token });
      expect(empty.status, empty.text).to.equal(200);
      expect(empty.body.data).to.deep.equal([]);
      const post = (body: string) =>
        api('POST', `/runs/${runId}/comments`, {
          token: org.owner.token,
          body: doc('comments', { body }, { run: { data: null } }),
        });
      for (const body of ['1st comment test', '2nd comment test']) {
        const res = await post(body);
        expect(res.status, res.text).to.equal(201);
        expect(res.body.data.type).to.equal('comments');
        expect(res.body.data.attributes.body).to.equal(body);
      }
      const listed = await api('GET', `/runs/${runId}/comments`, { token: org.owner.token });
      expect(listed.body.data.map((c: { attributes: { body: string } }) => c.attributes.body)).to.deep.equal([
        '1st comment test',
        '2nd comment test',
      ]);
      expectError(await post(''), 422);

      await waitForRun(runId, org.owner.token, ['planned'], 90_000);
      const applied = await api('POST', `/runs/${runId}/actions/apply`, {
        token: org.owner.token,
        body: { comment: 'Hello, Earl' },
      });
      expect(applied.status, applied.text).to.equal(202);
      const run = await api('GET', `/runs/${runId}`, { token: org.owner.token });
      // TestRunsConfirmedBy: the user who applied it.
      expect(run.body.data.relationships['confirmed-by'].data).to.deep.equal({ type: 'users', id: org.owner.id });
      const ids = run.body.data.relationships.comments.data;
      expect(ids).to.have.length(3);
      const last = await api('GET', `/comments/${ids[2].id}`, { token: org.owner.token });
      expect(last.status, last.text).to.equal(200);
      expect(last.body.data.attributes.body).to.equal('Hello, Earl');
      await waitForRun(runId, org.owner.token, ['applied', 'errored'], 90_000);
      // TestWorkspacesReadWithHistory: the workspace counts its runs and the resources its state manages.
      const history = await api('GET', `/organizations/${org.name}/workspaces/${w.name}`, { token: org.owner.token });
      const runsNow = await api('GET', `/workspaces/${w.id}/runs?page%5Bsize%5D=100`, { token: org.owner.token });
      expect(history.body.data.attributes['runs-count']).to.equal(runsNow.body.meta.pagination['total-count']);
      expect(history.body.data.attributes['resource-count']).to.equal(1);
    });

    it('a new run names its run events; an unconfirmed one has no confirmed-by (TestRunsRunEvents, TestRunsConfirmedBy)', async () => {
      const res = await api('POST', '/runs', {
        token: org.owner.token,
        body: runBody(w.id, { 'plan-only': true }, cvId),
      });
      expect(res.status, res.text).to.equal(201);
      const events = res.body.data.relationships['run-events'];
      expect(events.data.length).to.be.at.least(1);
      expect(events.data[0].type).to.equal('run-events');
      expect(events.links.related).to.equal(`/api/v2/runs/${res.body.data.id}/run-events`);
      const listed = await api('GET', `/runs/${res.body.data.id}/run-events`, { token: org.owner.token });
      expect(listed.body.data.map((e: { id: string }) => e.id)).to.include.members(
        events.data.map((e: { id: string }) => e.id),
      );
      expect(res.body.data.relationships['confirmed-by'].data).to.equal(null);
      await waitForRun(res.body.data.id, org.owner.token, ['planned_and_finished', 'errored'], 90_000);
    });

    /** A new workspace with a run waiting for confirmation and a second one pending behind it. */
    async function plannedAndPending() {
      const pw = await createWorkspace(org);
      const pcv = await uploadConfig(pw.id, org.owner.token, CONFIG);
      const planned = await startRun(pw.id, org.owner.token, {}, pcv);
      await waitForRun(planned, org.owner.token, ['planned'], 90_000);
      return { ws: pw, planned, waiting: await startRun(pw.id, org.owner.token, {}, pcv) };
    }

    it('lists runs narrowed by status, source, operation, user and commit (TestRunsListQueryParams)', async () => {
      const { ws: lw, planned, waiting } = await plannedAndPending();
      const list = async (q: string) => {
        const res = await api('GET', `/workspaces/${lw.id}/runs?include=workspace&${q}`, { token: org.owner.token });
        expect(res.status, res.text).to.equal(200);
        return res.body.data.map((r: { id: string }) => r.id);
      };
      expect(await list('filter%5Bstatus%5D=pending')).to.deep.equal([waiting]);
      expect(await list('filter%5Bsource%5D=tfe-api')).to.have.members([planned, waiting]);
      expect(await list('filter%5Boperation%5D=plan_only')).to.deep.equal([]);
      expect(await list('filter%5Boperation%5D=save_plan')).to.deep.equal([]);
      expect(await list('filter%5Boperation%5D=plan_and_apply')).to.have.members([planned, waiting]);
      expect(await list(`search%5Buser%5D=${uniq('nobody')}&search%5Bcommit%5D=${uniq('sha')}`)).to.deep.equal([]);
      expect(await list(`search%5Buser%5D=${org.owner.username}`)).to.have.members([planned, waiting]);
      for (const id of [waiting, planned])
        await api('POST', `/runs/${id}/actions/discard`, { token: org.owner.token, body: {} });
      await api('POST', `/runs/${waiting}/actions/cancel`, { token: org.owner.token, body: {} });
    });

    it('a pending run canceled at once shows canceled-at and when force-cancel would be available (TestRunsCanceledAt, TestRunsForceCancel)', async () => {
      const { planned: first, waiting: second } = await plannedAndPending();
      const before = await api('GET', `/runs/${second}`, { token: org.owner.token });
      expect(before.body.data.attributes.status).to.equal('pending');
      expect(before.body.data.attributes['canceled-at']).to.equal(null);
      expect(before.body.data.attributes.actions['is-force-cancelable']).to.equal(false);
      expect(before.body.data.attributes.permissions['can-force-cancel']).to.equal(true);
      expect(
        (await api('POST', `/runs/${second}/actions/cancel`, { token: org.owner.token, body: {} })).status,
      ).to.equal(202);
      const after = (await api('GET', `/runs/${second}`, { token: org.owner.token })).body.data.attributes;
      expect(after.status).to.equal('canceled');
      expect(after['canceled-at']).to.be.a('string');
      expect(Date.parse(after['force-cancel-available-at'])).to.be.greaterThan(Date.now());
      expect(after.actions['is-force-cancelable']).to.equal(false);
      await api('POST', `/runs/${first}/actions/discard`, { token: org.owner.token, body: {} });
    });

    it('a discard comment is recorded; a run with none has no comments', async () => {
      // A configuration that changes what the earlier apply made, so the plan waits for a decision.
      const changed = await uploadConfig(w.id, org.owner.token, {
        'main.tf': 'resource "terraform_data" "a" { input = "y" }\n',
      });
      const runId = await startRun(w.id, org.owner.token, {}, changed);
      await waitForRun(runId, org.owner.token, ['planned'], 90_000);
      expect(
        (
          await api('POST', `/runs/${runId}/actions/discard`, {
            token: org.owner.token,
            body: { comment: 'not today' },
          })
        ).status,
      ).to.equal(202);
      const listed = await api('GET', `/runs/${runId}/comments`, { token: org.owner.token });
      expect(listed.body.data.map((c: { attributes: { body: string } }) => c.attributes.body)).to.deep.equal([
        'not today',
      ]);
      const quiet = await startRun(w.id, org.owner.token, { 'plan-only': true }, cvId);
      await waitForRun(quiet, org.owner.token, ['planned_and_finished', 'errored'], 90_000);
      expect(
        (await api('GET', `/runs/${quiet}`, { token: org.owner.token })).body.data.relationships.comments.data,
      ).to.deep.equal([]);
    });

    it('refuses comments to callers who cannot see the run (404), nothing written', async () => {
      const runId = await startRun(w.id, org.owner.token, { 'plan-only': true }, cvId);
      const mine = await api('POST', `/runs/${runId}/comments`, {
        token: org.owner.token,
        body: doc('comments', { body: 'private' }),
      });
      expect(mine.status, mine.text).to.equal(201);
      const outsider = await createOrg();
      const stranger = outsider.owner.token;
      expect((await api('GET', `/comments/${mine.body.data.id}`, { token: stranger })).status).to.equal(404);
      expect((await api('GET', `/runs/${runId}/comments`, { token: stranger })).status).to.equal(404);
      expect(
        (await api('POST', `/runs/${runId}/comments`, { token: stranger, body: doc('comments', { body: 'spam' }) }))
          .status,
      ).to.equal(404);
      expect((await api('GET', `/runs/${runId}/comments`, { token: org.owner.token })).body.data).to.have.length(1);
      expect((await api('GET', '/comments/wsc-doesnotexist', { token: org.owner.token })).status).to.equal(404);
      await waitForRun(runId, org.owner.token, ['planned_and_finished', 'errored'], 90_000);
    });
  });
});
