import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { api, doc, expectError, type ApiResponse } from '../helpers/api.js';
import { harness, startSecondApp } from '../helpers/harness.js';
import { currentCvOf, cvRow, db, snapshot, statusOf } from '../helpers/cv.js';
import {
  countRows,
  createCv,
  createOrg,
  createTeam,
  createUser,
  createWorkspace,
  joinOrg,
  putArchive,
  tarGz,
  uniq,
  type TestUser,
} from '../helpers/fixtures.js';
import { insertCv, insertIngress } from '../../shared/configuration-versions/repo.js';
import { readAll } from '../../shared/platform/store/postgres-store.js';
import { signGrant } from '../../server/signed-urls.js';

type Org = { name: string; owner: TestUser };
type Access = 'read' | 'plan' | 'write' | 'admin';

function expectPointer(res: ApiResponse, pointer: string): void {
  const pointers = res.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer);
  expect(pointers, res.text).to.include(pointer);
}

async function grantAccess(org: Org, teamId: string, workspaceId: string, access: Access): Promise<void> {
  const res = await api('POST', '/team-workspaces', {
    token: org.owner.token,
    body: doc(
      'team-workspaces',
      { access },
      {
        workspace: { data: { type: 'workspaces', id: workspaceId } },
        team: { data: { type: 'teams', id: teamId } },
      },
    ),
  });
  expect(res.status, res.text).to.equal(201);
}

/** A fresh member of `org` on a fresh team that has `access` to the workspace. */
async function memberWith(org: Org, workspaceId: string, access: Access): Promise<{ user: TestUser; teamId: string }> {
  const user = await createUser();
  await joinOrg(org, user);
  const teamId = await createTeam(org);
  const add = await api('POST', `/teams/${teamId}/relationships/users`, {
    token: org.owner.token,
    body: { data: [{ type: 'users', id: user.username }] },
  });
  expect(add.status, add.text).to.equal(204);
  await grantAccess(org, teamId, workspaceId, access);
  return { user, teamId };
}

async function teamToken(org: Org, teamId: string): Promise<string> {
  const res = await api('POST', `/teams/${teamId}/authentication-token`, { token: org.owner.token });
  expect(res.status, res.text).to.equal(201);
  return res.body.data.attributes.token;
}

const createReq = (wsId: string, opts: Parameters<typeof api>[2] = {}) =>
  api('POST', `/workspaces/${wsId}/configuration-versions`, opts);

/** Polls GET /configuration-versions/:id as the CLI does (every 500 ms, at most 60 times) until `status`. */
async function pollUntil(id: string, token: string, status: string, base?: string): Promise<ApiResponse> {
  for (let i = 0; i < 60; i++) {
    const res = await api(
      'GET',
      base ? `${base}/api/v2/configuration-versions/${id}` : `/configuration-versions/${id}`,
      { token },
    );
    expect(res.status, res.text).to.equal(200);
    if (res.body.data.attributes.status === status) return res;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`configuration version ${id} never became ${status}`);
}

/** Lists the member names of a .tar.gz with the system tar. */
async function tarMembers(archive: Buffer): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'cv-list-'));
  try {
    await writeFile(join(dir, 'a.tar.gz'), archive);
    const { stdout } = await promisify(execFile)('tar', ['tzf', join(dir, 'a.tar.gz')]);
    return stdout
      .split('\n')
      .filter(Boolean)
      .map((s) => s.replace(/^\.\//, ''))
      .filter(Boolean);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const MAIN_TF = 'resource "null_resource" "x" {}\n';

describe('configuration versions: create, upload, show and list', () => {
  let org: Org;
  let other: Org;
  let archive: Buffer;

  before(async () => {
    org = await createOrg();
    other = await createOrg();
    archive = await tarGz({ 'main.tf': MAIN_TF, 'modules/a/variables.tf': 'variable "v" {}\n' });
  });

  describe('POST /workspaces/:id/configuration-versions', () => {
    it('creates a pending version with defaults and a signed upload URL', async () => {
      const ws = await createWorkspace(org);
      const before = await countRows('configuration_versions');
      const res = await createReq(ws.id, { token: org.owner.token, body: doc('configuration-versions', {}) });
      expect(res.status, res.text).to.equal(201);
      expect(res.headers.get('content-type')).to.match(/^application\/vnd\.api\+json/);
      const data = res.body.data;
      expect(data.type).to.equal('configuration-versions');
      expect(data.id).to.match(/^cv-/);
      expect(data.attributes).to.include({
        status: 'pending',
        source: 'tfe-api',
        'auto-queue-runs': true,
        speculative: false,
        provisional: false,
      });
      expect(data.attributes.error).to.equal(null);
      expect(data.attributes['error-message']).to.equal(null);
      expect(data.attributes['upload-url']).to.be.a('string');
      expect(
        data.attributes['upload-url'].startsWith(`${harness().config.uploadUrl}/v1/object/`),
        data.attributes['upload-url'],
      ).to.equal(true);
      expect(data.relationships['ingress-attributes'].data).to.equal(null);
      expect(data.relationships.workspace.data).to.deep.equal({ type: 'workspaces', id: ws.id });
      expect(data.links.self).to.equal(`/api/v2/configuration-versions/${data.id}`);
      expect(data.links.download).to.equal(`/api/v2/configuration-versions/${data.id}/download`);
      expect(await countRows('configuration_versions')).to.equal(before + 1);
      const row = await cvRow(data.id);
      expect(row).to.include({
        workspace_id: ws.id,
        status: 'pending',
        source: 'tfe-api',
        auto_queue_runs: true,
        speculative: false,
        provisional: false,
      });
      expect(row.created_by_id).to.equal(org.owner.id);
      expect(row.archive_object_id).to.equal(null);
    });

    it('stores auto-queue-runs, speculative and provisional as given, and accepts the singular type', async () => {
      const ws = await createWorkspace(org);
      for (const type of ['configuration-versions', 'configuration-version']) {
        const res = await createReq(ws.id, {
          token: org.owner.token,
          body: doc(type, { 'auto-queue-runs': false, speculative: true, provisional: true }),
        });
        expect(res.status, res.text).to.equal(201);
        expect(res.body.data.attributes).to.include({ 'auto-queue-runs': false, speculative: true, provisional: true });
        expect(await cvRow(res.body.data.id)).to.include({
          auto_queue_runs: false,
          speculative: true,
          provisional: true,
        });
      }
    });

    it('accepts a request with no body (all defaults)', async () => {
      const ws = await createWorkspace(org);
      const res = await createReq(ws.id, { token: org.owner.token });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.attributes).to.include({
        status: 'pending',
        'auto-queue-runs': true,
        speculative: false,
        provisional: false,
      });
    });

    it('records source terraform for the CLI (X-Terraform-Integration: cloud)', async () => {
      const ws = await createWorkspace(org);
      const res = await createReq(ws.id, {
        token: org.owner.token,
        headers: { 'X-Terraform-Integration': 'cloud' },
        body: doc('configuration-versions', { 'auto-queue-runs': false }),
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.attributes.source).to.equal('terraform');
      expect((await cvRow(res.body.data.id)).source).to.equal('terraform');
    });

    it('answers malformed JSON with 400 and creates nothing', async () => {
      const ws = await createWorkspace(org);
      const before = await snapshot(undefined, ws.id);
      expectError(
        await createReq(ws.id, { token: org.owner.token, raw: '{"data": {"type": "configuration-versions",' }),
        400,
      );
      expect(await snapshot(undefined, ws.id)).to.deep.equal(before);
    });

    it('answers a wrong data.type with 422 pointing at /data/type, creating nothing', async () => {
      const ws = await createWorkspace(org);
      const before = await snapshot(undefined, ws.id);
      const res = await createReq(ws.id, { token: org.owner.token, body: doc('workspaces', {}) });
      expectError(res, 422);
      expectPointer(res, '/data/type');
      expect(await snapshot(undefined, ws.id)).to.deep.equal(before);
    });

    it('answers wrongly typed attributes with 422 naming each attribute, creating nothing', async () => {
      const ws = await createWorkspace(org);
      const before = await snapshot(undefined, ws.id);
      const cases: [Record<string, unknown>, string][] = [
        [{ speculative: 'yes' }, '/data/attributes/speculative'],
        [{ 'auto-queue-runs': 1 }, '/data/attributes/auto-queue-runs'],
        [{ provisional: null }, '/data/attributes/provisional'],
      ];
      for (const [attrs, pointer] of cases) {
        const res = await createReq(ws.id, { token: org.owner.token, body: doc('configuration-versions', attrs) });
        expectError(res, 422);
        expectPointer(res, pointer);
      }
      const noData = await createReq(ws.id, { token: org.owner.token, body: { type: 'configuration-versions' } });
      expectError(noData, 422);
      expectPointer(noData, '/data');
      expect(await snapshot(undefined, ws.id)).to.deep.equal(before);
    });

    it("answers 404 for an unknown workspace and for another organization's workspace", async () => {
      const otherWs = await createWorkspace(other);
      const before = await snapshot();
      expectError(
        await createReq(`ws-${uniq('nope')}`, { token: org.owner.token, body: doc('configuration-versions', {}) }),
        404,
      );
      expectError(
        await createReq(otherWs.id, { token: org.owner.token, body: doc('configuration-versions', {}) }),
        404,
      );
      expect(await snapshot()).to.deep.equal(before);
    });

    it('answers 401 without a token or with a wrong one', async () => {
      const ws = await createWorkspace(org);
      const before = await snapshot();
      expectError(await createReq(ws.id, { token: null, body: doc('configuration-versions', {}) }), 401);
      expectError(await createReq(ws.id, { token: 'not-a-real-token', body: doc('configuration-versions', {}) }), 401);
      expect(await snapshot()).to.deep.equal(before);
    });

    it('refuses organization tokens with 403 and a clear message, creating nothing', async () => {
      const ws = await createWorkspace(org);
      const tok = await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token });
      expect(tok.status, tok.text).to.equal(201);
      const orgToken = tok.body.data.attributes.token;
      const before = await snapshot(undefined, ws.id);
      const res = await createReq(ws.id, { token: orgToken, body: doc('configuration-versions', {}) });
      expectError(res, 403, /organization token/i);
      expect(await snapshot(undefined, ws.id)).to.deep.equal(before);
      // The organization token can still read.
      const list = await api('GET', `/workspaces/${ws.id}/configuration-versions`, { token: orgToken });
      expect(list.status, list.text).to.equal(200);
    });

    it('lets read access list and show but not create (404); plan access creates, by user and by team token', async () => {
      const ws = await createWorkspace(org);
      const existing = await createCv(ws.id, org.owner.token);
      const reader = await memberWith(org, ws.id, 'read');
      const planner = await memberWith(org, ws.id, 'plan');
      const readerTeamToken = await teamToken(org, reader.teamId);
      const plannerTeamToken = await teamToken(org, planner.teamId);

      for (const token of [reader.user.token, readerTeamToken]) {
        const list = await api('GET', `/workspaces/${ws.id}/configuration-versions`, { token });
        expect(list.status, list.text).to.equal(200);
        expect(list.body.data.map((d: { id: string }) => d.id)).to.include(existing.id);
        const show = await api('GET', `/configuration-versions/${existing.id}`, { token });
        expect(show.status, show.text).to.equal(200);
        const before = await snapshot(undefined, ws.id);
        expectError(await createReq(ws.id, { token, body: doc('configuration-versions', {}) }), 404);
        expect(await snapshot(undefined, ws.id)).to.deep.equal(before);
      }

      const byUser = await createReq(ws.id, { token: planner.user.token, body: doc('configuration-versions', {}) });
      expect(byUser.status, byUser.text).to.equal(201);
      expect((await cvRow(byUser.body.data.id)).created_by_id).to.equal(planner.user.id);
      const byTeam = await createReq(ws.id, { token: plannerTeamToken, body: doc('configuration-versions', {}) });
      expect(byTeam.status, byTeam.text).to.equal(201);
      expect((await cvRow(byTeam.body.data.id)).created_by_id).to.equal(null);
    });

    it('hides versions from users outside the organization (404 on list, show and create)', async () => {
      const ws = await createWorkspace(org);
      const cv = await createCv(ws.id, org.owner.token);
      const outsider = await createUser();
      const before = await snapshot(cv.id, ws.id);
      for (const token of [outsider.token, other.owner.token]) {
        expectError(await api('GET', `/workspaces/${ws.id}/configuration-versions`, { token }), 404);
        expectError(await api('GET', `/configuration-versions/${cv.id}`, { token }), 404);
        expectError(await api('GET', `/configuration-versions/${cv.id}/ingress-attributes`, { token }), 404);
        expectError(await createReq(ws.id, { token, body: doc('configuration-versions', {}) }), 404);
      }
      expect(await snapshot(cv.id, ws.id)).to.deep.equal(before);
    });

    it('lets a member with no access to the workspace see nothing (404)', async () => {
      const ws = await createWorkspace(org);
      const cv = await createCv(ws.id, org.owner.token);
      const elsewhere = await createWorkspace(org);
      const member = await memberWith(org, elsewhere.id, 'admin');
      expectError(await api('GET', `/configuration-versions/${cv.id}`, { token: member.user.token }), 404);
      expectError(await api('GET', `/workspaces/${ws.id}/configuration-versions`, { token: member.user.token }), 404);
    });
  });

  describe('PUT {upload_url}', () => {
    it('accepts the archive: 200 {}, uploaded, bytes stored, current version, no run when auto-queue-runs is false', async () => {
      const ws = await createWorkspace(org);
      const cv = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false });
      const runsBefore = await countRows('runs');
      const objectsBefore = await countRows('objects');
      const up = await putArchive(cv.uploadUrl, archive);
      expect(up.status, up.text).to.equal(200);
      expect(up.body).to.deep.equal({});
      const row = await cvRow(cv.id);
      expect(row.status).to.equal('uploaded');
      expect(row.archive_object_id).to.be.a('string');
      expect(row.status_timestamps).to.have.property('finished-at');
      expect(await countRows('objects')).to.equal(objectsBefore + 1);
      const stored = await readAll(harness().rt.store, row.archive_object_id);
      expect(stored && stored.equals(archive)).to.equal(true);
      expect(await currentCvOf(ws.id)).to.equal(cv.id);
      expect(await countRows('runs')).to.equal(runsBefore);
      expect(await db()('runs').where({ configuration_version_id: cv.id })).to.have.length(0);

      const shown = await api('GET', `/configuration-versions/${cv.id}`, { token: org.owner.token });
      expect(shown.status).to.equal(200);
      expect(shown.body.data.attributes.status).to.equal('uploaded');
      expect(shown.body.data.attributes['status-timestamps']).to.have.property('finished-at');
    });

    it('queues exactly one run (at once, the workspace being free) with its created and queue events when auto-queue-runs is omitted', async () => {
      const ws = await createWorkspace(org);
      const cv = await createCv(ws.id, org.owner.token);
      const before = { runs: await countRows('runs'), events: await countRows('run_events') };
      const up = await putArchive(cv.uploadUrl, archive);
      expect(up.status, up.text).to.equal(200);
      const runs = await db()('runs').where({ configuration_version_id: cv.id });
      expect(runs).to.have.length(1);
      expect(runs[0]).to.include({
        status: 'plan_queued',
        source: 'tfe-configuration-version',
        workspace_id: ws.id,
        plan_only: false,
      });
      expect(runs[0].created_by_id).to.equal(org.owner.id);
      const events = await db()('run_events').where({ run_id: runs[0].id }).orderBy('created_at');
      expect(events.map((e) => e.action)).to.deep.equal(['created', 'queue_plan']);
      expect(events[0]).to.include({ to_status: 'pending' });
      expect(events[1]).to.include({ from_status: 'pending', to_status: 'plan_queued' });
      expect(await countRows('runs')).to.equal(before.runs + 1);
      expect(await countRows('run_events')).to.equal(before.events + 2);

      for (const include of ['run', 'run,ingress_attributes', 'ingress-attributes,run']) {
        const shown = await api('GET', `/configuration-versions/${cv.id}?include=${include}`, {
          token: org.owner.token,
        });
        expect(shown.status, shown.text).to.equal(200);
        const runsIncluded = shown.body.included.filter((r: { type: string }) => r.type === 'runs');
        expect(runsIncluded.map((r: { id: string }) => r.id)).to.deep.equal([runs[0].id]);
        expect(runsIncluded[0].relationships['configuration-version'].data).to.deep.equal({
          type: 'configuration-versions',
          id: cv.id,
        });
      }
    });

    it('queues a plan-only run for a speculative version', async () => {
      const ws = await createWorkspace(org);
      const cv = await createCv(ws.id, org.owner.token, { speculative: true });
      expect((await putArchive(cv.uploadUrl, archive)).status).to.equal(200);
      const runs = await db()('runs').where({ configuration_version_id: cv.id });
      expect(runs).to.have.length(1);
      expect(runs[0]).to.include({ status: 'plan_queued', plan_only: true });
    });

    it('does not make a provisional version current; a later non-provisional one becomes current', async () => {
      const ws = await createWorkspace(org);
      const first = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false });
      expect((await putArchive(first.uploadUrl, archive)).status).to.equal(200);
      expect(await currentCvOf(ws.id)).to.equal(first.id);
      const provisional = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false, provisional: true });
      expect((await putArchive(provisional.uploadUrl, archive)).status).to.equal(200);
      expect((await cvRow(provisional.id)).status).to.equal('uploaded');
      expect(await currentCvOf(ws.id)).to.equal(first.id);
      const second = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false });
      expect((await putArchive(second.uploadUrl, archive)).status).to.equal(200);
      expect(await currentCvOf(ws.id)).to.equal(second.id);
    });

    it('accepts a valid tar.gz of an empty directory (what the CLI uploads for destroy)', async () => {
      const ws = await createWorkspace(org);
      const cv = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false });
      const empty = await tarGz({});
      const up = await putArchive(cv.uploadUrl, empty);
      expect(up.status, up.text).to.equal(200);
      expect((await cvRow(cv.id)).status).to.equal('uploaded');
      expect(await currentCvOf(ws.id)).to.equal(cv.id);
    });

    it('refuses a second PUT to the same URL with 403 "already been used" and stores nothing', async () => {
      const ws = await createWorkspace(org);
      const cv = await createCv(ws.id, org.owner.token);
      expect((await putArchive(cv.uploadUrl, archive)).status).to.equal(200);
      const before = await snapshot(cv.id, ws.id);
      const again = await putArchive(cv.uploadUrl, await tarGz({ 'main.tf': 'changed' }));
      expect(again.status, again.text).to.equal(403);
      expect(again.body.errors[0].detail).to.match(/already been used/);
      expect(await snapshot(cv.id, ws.id)).to.deep.equal(before);
      const stored = await readAll(harness().rt.store, (await cvRow(cv.id)).archive_object_id);
      expect(stored && stored.equals(archive)).to.equal(true);
    });

    it('lets only one of two concurrent PUTs to the same URL succeed, storing one archive and one run', async () => {
      const ws = await createWorkspace(org);
      const cv = await createCv(ws.id, org.owner.token);
      const before = { objects: await countRows('objects'), runs: await countRows('runs') };
      const results = await Promise.all([putArchive(cv.uploadUrl, archive), putArchive(cv.uploadUrl, archive)]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 403]);
      expect(await countRows('objects')).to.equal(before.objects + 1);
      expect(await countRows('runs')).to.equal(before.runs + 1);
      expect(await db()('runs').where({ configuration_version_id: cv.id })).to.have.length(1);
      expect((await cvRow(cv.id)).status).to.equal('uploaded');
    });

    it('refuses expired and tampered URLs with 403 and garbage tokens with 404, storing nothing', async () => {
      const ws = await createWorkspace(org);
      const cv = await createCv(ws.id, org.owner.token);
      const key = harness().config.encryptionKey;
      const expired = signGrant(key, { kind: 'cv-upload', id: cv.id, exp: Math.floor(Date.now() / 1000) - 10 });
      const [body, mac] = cv.uploadUrl.split('/v1/object/')[1].split('.');
      const flipped = mac[0] === 'A' ? 'B' : 'A';
      // A grant the server never signed (a later expiry), carrying the genuine signature.
      const forgedGrant = { kind: 'cv-upload', id: cv.id, exp: Math.floor(Date.now() / 1000) + 7200 };
      const forged = Buffer.from(JSON.stringify(forgedGrant)).toString('base64url');
      const wrongKind = signGrant(key, { kind: 'object', id: cv.id, exp: Math.floor(Date.now() / 1000) + 3600 });
      const base = harness().baseUrl;
      const before = await snapshot(cv.id, ws.id);
      const cases: [string, number][] = [
        [`${base}/v1/object/${expired}`, 403],
        [`${base}/v1/object/${body}.${flipped}${mac.slice(1)}`, 403],
        [`${base}/v1/object/${forged}.${mac}`, 403],
        [`${base}/v1/object/garbage`, 404],
        [`${base}/v1/object/${wrongKind}`, 404],
      ];
      for (const [url, status] of cases) {
        const res = await putArchive(url, archive);
        expect(res.status, `${url}: ${res.text}`).to.equal(status);
        expect(res.body.errors[0].status).to.equal(String(status));
      }
      expect(await snapshot(cv.id, ws.id)).to.deep.equal(before);
      expect((await cvRow(cv.id)).status).to.equal('pending');
      // The genuine URL still works afterwards.
      expect((await putArchive(cv.uploadUrl, archive)).status).to.equal(200);
    });

    it('marks the version errored on a corrupt archive (422) and changes nothing else', async () => {
      const valid = archive;
      const corrupt: [string, Buffer][] = [
        ['not gzip', Buffer.from('this is plainly not an archive')],
        ['truncated gzip', valid.subarray(0, Math.floor(valid.length / 2))],
        ['zero bytes', Buffer.alloc(0)],
        [
          'gzip of something that is not a tar',
          gzipSync(Buffer.from('hello, world; not a tar stream at all'.repeat(20))),
        ],
      ];
      for (const [label, bytes] of corrupt) {
        const ws = await createWorkspace(org);
        const previous = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false });
        expect((await putArchive(previous.uploadUrl, valid)).status).to.equal(200);
        const cv = await createCv(ws.id, org.owner.token);
        const before = {
          objects: await countRows('objects'),
          runs: await countRows('runs'),
          events: await countRows('run_events'),
        };
        const res = await putArchive(cv.uploadUrl, bytes);
        expect(res.status, `${label}: ${res.text}`).to.equal(422);
        expect(res.body.errors[0].status).to.equal('422');
        const row = await cvRow(cv.id);
        expect(row.status, label).to.equal('errored');
        expect(row.error_message, label).to.be.a('string').that.is.not.empty;
        expect(row.archive_object_id).to.equal(null);
        expect(row.status_timestamps).to.have.property('errored-at');
        expect(await countRows('objects'), label).to.equal(before.objects);
        expect(await countRows('runs'), label).to.equal(before.runs);
        expect(await countRows('run_events'), label).to.equal(before.events);
        expect(await currentCvOf(ws.id), label).to.equal(previous.id);
        const shown = await api('GET', `/configuration-versions/${cv.id}`, { token: org.owner.token });
        expect(shown.body.data.attributes.status).to.equal('errored');
        expect(shown.body.data.attributes['error-message']).to.equal(row.error_message);
        // The URL is spent: a good archive afterwards is refused and the version stays errored.
        const retry = await putArchive(cv.uploadUrl, valid);
        expect(retry.status, retry.text).to.equal(403);
        expect((await cvRow(cv.id)).status).to.equal('errored');
        expect(await countRows('objects')).to.equal(before.objects);
      }
    });

    it('refuses an archive with a path escaping its directory (422, errored)', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'cv-evil-'));
      let evil: Buffer;
      try {
        await writeFile(join(dir, 'main.tf'), MAIN_TF);
        await promisify(execFile)('tar', [
          'czf',
          join(dir, 'evil.tar.gz'),
          '-C',
          dir,
          '-P',
          '--transform',
          's,^,../,',
          'main.tf',
        ]);
        evil = await readFile(join(dir, 'evil.tar.gz'));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      const ws = await createWorkspace(org);
      const cv = await createCv(ws.id, org.owner.token);
      const before = { objects: await countRows('objects'), runs: await countRows('runs') };
      const res = await putArchive(cv.uploadUrl, evil);
      expect(res.status, res.text).to.equal(422);
      expect((await cvRow(cv.id)).status).to.equal('errored');
      expect((await cvRow(cv.id)).error_message).to.match(/unsafe path/);
      expect(await countRows('objects')).to.equal(before.objects);
      expect(await countRows('runs')).to.equal(before.runs);
      expect(await currentCvOf(ws.id)).to.equal(null);
    });

    it('answers 413 over the size limit and marks the version errored, storing nothing', async () => {
      const app = await startSecondApp({ MAX_ARCHIVE_BYTES: '4096' });
      try {
        const big = await tarGz({ 'main.tf': MAIN_TF, 'data.txt': randomBytes(8192).toString('base64') });
        expect(big.length).to.be.greaterThan(4096);
        const small = await tarGz({ 'main.tf': MAIN_TF });
        expect(small.length).to.be.lessThan(4096);

        const ws = await createWorkspace(org);
        const cv = await createCv(ws.id, org.owner.token);
        const before = { objects: await countRows('objects'), runs: await countRows('runs') };
        const res = await putArchive(cv.uploadUrl, big, app.baseUrl);
        expect(res.status, res.text).to.equal(413);
        const row = await cvRow(cv.id);
        expect(row.status).to.equal('errored');
        expect(row.error_message).to.match(/limit/);
        expect(await countRows('objects')).to.equal(before.objects);
        expect(await countRows('runs')).to.equal(before.runs);
        expect(await currentCvOf(ws.id)).to.equal(null);

        // Without a declared length the limit is enforced while reading.
        const streamed = await createCv(ws.id, org.owner.token);
        const chunks = [big.subarray(0, 2048), big.subarray(2048, 4096), big.subarray(4096)];
        const stream = new ReadableStream<Uint8Array>({
          pull(controller) {
            const next = chunks.shift();
            if (next) controller.enqueue(new Uint8Array(next));
            else controller.close();
          },
        });
        const url = `${app.baseUrl}${new URL(streamed.uploadUrl).pathname}`;
        const init = {
          method: 'PUT',
          headers: { 'Content-Type': 'application/octet-stream' },
          body: stream,
          duplex: 'half',
        };
        const res2 = await fetch(url, init as RequestInit);
        expect(res2.status, await res2.text()).to.equal(413);
        expect(await statusOf(streamed.id)).to.equal('errored');
        expect(await countRows('objects')).to.equal(before.objects);

        // Within the limit, the same process accepts an archive.
        const ok = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false });
        expect((await putArchive(ok.uploadUrl, small, app.baseUrl)).status).to.equal(200);
        expect((await cvRow(ok.id)).status).to.equal('uploaded');
      } finally {
        await app.close();
      }
    });
  });

  describe('GET /configuration-versions/:id and the workspace list', () => {
    it('shows a version without upload-url after creation', async () => {
      const ws = await createWorkspace(org);
      const cv = await createCv(ws.id, org.owner.token);
      const res = await api('GET', `/configuration-versions/${cv.id}`, { token: org.owner.token });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.id).to.equal(cv.id);
      expect(res.body.data.type).to.equal('configuration-versions');
      expect(res.body.data.attributes).to.not.have.property('upload-url');
      expect(res.body.data.attributes.status).to.equal('pending');
      expect(res.body).to.not.have.property('included');
      const list = await api('GET', `/workspaces/${ws.id}/configuration-versions`, { token: org.owner.token });
      expect(list.status).to.equal(200);
      expect(list.body.data).to.have.length(1);
      expect(list.body.data[0].attributes).to.not.have.property('upload-url');
    });

    it('answers 404 for an unknown id', async () => {
      expectError(await api('GET', `/configuration-versions/cv-${uniq('nope')}`, { token: org.owner.token }), 404);
      expectError(
        await api('GET', `/configuration-versions/cv-${uniq('nope')}/ingress-attributes`, { token: org.owner.token }),
        404,
      );
      expectError(
        await api('GET', `/workspaces/ws-${uniq('nope')}/configuration-versions`, { token: org.owner.token }),
        404,
      );
    });

    it('includes ingress attributes of a VCS version (underscore and hyphen) and serves them on their own', async () => {
      const ws = await createWorkspace(org);
      const cv = await insertCv(db(), {
        workspace_id: ws.id,
        source: 'github',
        auto_queue_runs: true,
        speculative: false,
        provisional: false,
        status: 'uploaded',
      });
      const ia = await insertIngress(db(), cv.id, {
        branch: 'main',
        commit_sha: 'abc123',
        commit_message: 'Add things',
        is_pull_request: false,
        on_default_branch: true,
      });
      for (const include of ['ingress_attributes', 'ingress-attributes']) {
        const res = await api('GET', `/configuration-versions/${cv.id}?include=${include}`, { token: org.owner.token });
        expect(res.status, res.text).to.equal(200);
        expect(res.body.data.attributes.source).to.equal('github');
        expect(res.body.data.relationships['ingress-attributes'].data).to.deep.equal({
          type: 'ingress-attributes',
          id: ia.id,
        });
        expect(res.body.included).to.have.length(1);
        expect(res.body.included[0]).to.include({ type: 'ingress-attributes', id: ia.id });
        expect(res.body.included[0].attributes).to.include({
          branch: 'main',
          'commit-sha': 'abc123',
          'commit-message': 'Add things',
          'on-default-branch': true,
        });
      }
      const own = await api('GET', `/configuration-versions/${cv.id}/ingress-attributes`, { token: org.owner.token });
      expect(own.status, own.text).to.equal(200);
      expect(own.body.data).to.include({ type: 'ingress-attributes', id: ia.id });
      expect(own.body.data.attributes['commit-sha']).to.equal('abc123');

      const list = await api('GET', `/workspaces/${ws.id}/configuration-versions?include=ingress_attributes`, {
        token: org.owner.token,
      });
      expect(list.status, list.text).to.equal(200);
      expect(list.body.included.map((r: { id: string }) => r.id)).to.deep.equal([ia.id]);

      const plain = await createCv(ws.id, org.owner.token);
      const none = await api('GET', `/configuration-versions/${plain.id}/ingress-attributes`, {
        token: org.owner.token,
      });
      expect(none.status, none.text).to.equal(200);
      expect(none.body.data).to.equal(null);
    });

    it('answers an unknown include with 400 on show and list', async () => {
      const ws = await createWorkspace(org);
      const cv = await createCv(ws.id, org.owner.token);
      expectError(
        await api('GET', `/configuration-versions/${cv.id}?include=workspace`, { token: org.owner.token }),
        400,
      );
      expectError(
        await api('GET', `/configuration-versions/${cv.id}?include=run,bogus`, { token: org.owner.token }),
        400,
      );
      expectError(
        await api('GET', `/workspaces/${ws.id}/configuration-versions?include=bogus`, { token: org.owner.token }),
        400,
      );
    });

    it('lists with include=run, only versions of that workspace', async () => {
      const ws = await createWorkspace(org);
      const otherWs = await createWorkspace(org);
      const queued = await createCv(ws.id, org.owner.token);
      expect((await putArchive(queued.uploadUrl, archive)).status).to.equal(200);
      const quiet = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false });
      const elsewhere = await createCv(otherWs.id, org.owner.token);
      const res = await api('GET', `/workspaces/${ws.id}/configuration-versions?include=run`, {
        token: org.owner.token,
      });
      expect(res.status, res.text).to.equal(200);
      const ids = res.body.data.map((d: { id: string }) => d.id);
      expect(ids).to.have.members([queued.id, quiet.id]);
      expect(ids).to.not.include(elsewhere.id);
      const runIds = (await db()('runs').where({ configuration_version_id: queued.id })).map((r) => r.id);
      expect(res.body.included.map((r: { id: string }) => r.id)).to.deep.equal(runIds);
    });

    it('paginates with page[number] and page[size] (default 20), newest first, numeric meta', async () => {
      const ws = await createWorkspace(org);
      const ids: string[] = [];
      for (let i = 0; i < 23; i++) ids.push((await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false })).id);
      const path = `/workspaces/${ws.id}/configuration-versions`;

      const first = await api('GET', path, { token: org.owner.token });
      expect(first.status, first.text).to.equal(200);
      expect(first.body.data).to.have.length(20);
      expect(first.body.meta.pagination).to.deep.equal({
        'current-page': 1,
        'page-size': 20,
        'prev-page': null,
        'next-page': 2,
        'total-pages': 2,
        'total-count': 23,
      });
      const second = await api('GET', `${path}?page%5Bnumber%5D=2`, { token: org.owner.token });
      expect(second.status, second.text).to.equal(200);
      expect(second.body.data).to.have.length(3);
      expect(second.body.meta.pagination).to.include({
        'current-page': 2,
        'prev-page': 1,
        'next-page': null,
        'total-count': 23,
      });
      const all = [...first.body.data, ...second.body.data].map((d: { id: string }) => d.id);
      expect(new Set(all).size).to.equal(23);
      expect(all).to.have.members(ids);
      expect(all[0]).to.equal(ids[22]);

      const small = await api('GET', `${path}?page[number]=3&page[size]=5`, { token: org.owner.token });
      expect(small.status, small.text).to.equal(200);
      expect(small.body.data).to.have.length(5);
      expect(small.body.meta.pagination).to.deep.equal({
        'current-page': 3,
        'page-size': 5,
        'prev-page': 2,
        'next-page': 4,
        'total-pages': 5,
        'total-count': 23,
      });
      const beyond = await api('GET', `${path}?page[number]=9&page[size]=5`, { token: org.owner.token });
      expect(beyond.status).to.equal(200);
      expect(beyond.body.data).to.deep.equal([]);
      expectError(await api('GET', `${path}?page[size]=0`, { token: org.owner.token }), 400);
      expectError(await api('GET', `${path}?page[number]=abc`, { token: org.owner.token }), 400);
    });
  });

  describe('the terraform CLI flow (create, upload, poll)', () => {
    it('creates with auto-queue-runs false, PUTs a real tar.gz without a token, polls until uploaded, and serves it back', async () => {
      // A process whose BASE_URL is the test API, so the upload URL is used exactly as handed out.
      const app = await startSecondApp({});
      try {
        const ws = await createWorkspace(org);
        const dir = await mkdtemp(join(tmpdir(), 'cv-cli-'));
        let archiveBytes: Buffer;
        try {
          await writeFile(join(dir, 'main.tf'), MAIN_TF);
          const out = join(tmpdir(), `${uniq('slug')}.tar.gz`);
          await promisify(execFile)('tar', ['czf', out, '-C', dir, '.']);
          archiveBytes = await readFile(out);
          await rm(out, { force: true });
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
        expect(archiveBytes.subarray(0, 2).toString('hex')).to.equal('1f8b');

        const created = await api('POST', `${app.baseUrl}/api/v2/workspaces/${ws.id}/configuration-versions`, {
          token: org.owner.token,
          headers: { 'X-Terraform-Integration': 'cloud' },
          body: {
            data: {
              type: 'configuration-versions',
              attributes: { 'auto-queue-runs': false, provisional: false, speculative: true },
            },
          },
        });
        expect(created.status, created.text).to.equal(201);
        const cvId = created.body.data.id;
        const uploadUrl: string = created.body.data.attributes['upload-url'];
        expect(uploadUrl.startsWith(`${harness().baseUrl}/v1/object/`), uploadUrl).to.equal(true);

        const put = await fetch(uploadUrl, {
          method: 'PUT',
          headers: {
            'Content-Type': 'application/octet-stream',
            Accept: 'application/json, */*',
            'User-Agent': 'go-tfe',
          },
          body: new Uint8Array(archiveBytes),
        });
        expect(put.status).to.be.within(200, 399);
        await put.text();

        const done = await pollUntil(cvId, org.owner.token, 'uploaded', app.baseUrl);
        expect(done.body.data.attributes).to.include({
          status: 'uploaded',
          source: 'terraform',
          speculative: true,
          'auto-queue-runs': false,
        });
        expect(done.body.data.attributes).to.not.have.property('upload-url');
        expect(await db()('runs').where({ configuration_version_id: cvId })).to.have.length(0);
        expect(await currentCvOf(ws.id)).to.equal(cvId);

        const dl = await api('GET', `/configuration-versions/${cvId}/download`, { token: org.owner.token });
        expect(dl.status, dl.text).to.equal(302);
        const location = dl.headers.get('location')!;
        const got = await fetch(`${harness().baseUrl}${new URL(location).pathname}`);
        expect(got.status).to.equal(200);
        const bytes = Buffer.from(await got.arrayBuffer());
        expect(bytes.equals(archiveBytes)).to.equal(true);
        expect(await tarMembers(bytes)).to.include('main.tf');
      } finally {
        await app.close();
      }
    });
  });
});
