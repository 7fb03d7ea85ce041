import { expect } from 'chai';
import { api, expectError, type ApiResponse } from '../helpers/api.js';
import { harness, startSecondApp } from '../helpers/harness.js';
import { currentCvOf, cvRow, db, snapshot, statusOf } from '../helpers/cv.js';
import {
  countRows,
  createCv,
  createOrg,
  createUser,
  createWorkspace,
  putArchive,
  tarGz,
  uniq,
  type TestUser,
  memberWithAccess,
} from '../helpers/fixtures.js';
import { insertCv, insertIngress } from '../../shared/configuration-versions/repo.js';
import { insertPendingRun } from '../../shared/runs/moves.js';
import { collectOldVersions } from '../../shared/configuration-versions/commands.js';
import { signGrant } from '../../server/signed-urls.js';

type Org = { name: string; owner: TestUser };
type Action = 'archive' | 'soft_delete_backing_data' | 'restore_backing_data' | 'permanently_delete_backing_data';

const act = (id: string, action: Action, token: string, base?: string): Promise<ApiResponse> =>
  action === 'archive'
    ? api('POST', `${base ? `${base}/api/v2` : ''}/configuration-versions/${id}/actions/archive`, { token })
    : api('POST', `${base ?? harness().baseUrl}/api/v2/configuration-versions/${id}/actions/${action}`, { token });

/** Expects the action to be refused with `status`, leaving every row as it was. */
async function expectRefused(
  id: string,
  wsId: string,
  action: Action,
  status: number,
  token: string,
  detail?: RegExp,
): Promise<void> {
  const before = await snapshot(id, wsId);
  expectError(await act(id, action, token), status, detail);
  expect(await snapshot(id, wsId), `${action} ${id}`).to.deep.equal(before);
}

/** Follows a download redirect without any Authorization header; returns the bytes served. */
async function followDownload(res: ApiResponse): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  expect(res.status, res.text).to.equal(302);
  const location = res.headers.get('location')!;
  expect(location.startsWith(`${harness().config.uploadUrl}/v1/object/`), location).to.equal(true);
  const got = await fetch(`${harness().baseUrl}${new URL(location).pathname}`);
  return { status: got.status, bytes: Buffer.from(await got.arrayBuffer()), headers: got.headers };
}

describe('configuration versions: archive, download and backing data', () => {
  let org: Org;
  let other: Org;
  let archive: Buffer;

  /** An uploaded, API-created version; provisional (so not current) unless `current`. Auto-queue off unless given. */
  async function uploaded(
    wsId: string,
    opts: { current?: boolean; attrs?: Record<string, unknown> } = {},
  ): Promise<string> {
    const cv = await createCv(wsId, org.owner.token, {
      'auto-queue-runs': false,
      provisional: !opts.current,
      ...opts.attrs,
    });
    const up = await putArchive(cv.uploadUrl, archive);
    expect(up.status, up.text).to.equal(200);
    expect(await statusOf(cv.id)).to.equal('uploaded');
    return cv.id;
  }

  /** A VCS-created version (source github) with ingress attributes, in `status`. */
  async function vcsVersion(
    wsId: string,
    status: 'uploaded' | 'fetching' | 'archived' | 'backing_data_soft_deleted' = 'uploaded',
  ): Promise<string> {
    const cv = await insertCv(db(), {
      workspace_id: wsId,
      source: 'github',
      auto_queue_runs: true,
      speculative: false,
      provisional: false,
      status,
    });
    await insertIngress(db(), cv.id, {
      branch: 'main',
      commit_sha: uniq('sha'),
      is_pull_request: false,
      on_default_branch: true,
    });
    return cv.id;
  }

  async function errored(wsId: string): Promise<string> {
    const cv = await createCv(wsId, org.owner.token, { 'auto-queue-runs': false, provisional: true });
    expect((await putArchive(cv.uploadUrl, Buffer.from('not an archive'))).status).to.equal(422);
    expect(await statusOf(cv.id)).to.equal('errored');
    return cv.id;
  }

  before(async () => {
    org = await createOrg();
    other = await createOrg();
    archive = await tarGz({ 'main.tf': 'resource "null_resource" "x" {}\n' });
  });

  describe('POST /configuration-versions/:id/actions/archive', () => {
    it('archives an uploaded, API-created, non-current version with no runs: 202, no body, archive discarded', async () => {
      const ws = await createWorkspace(org);
      const id = await uploaded(ws.id);
      const objectId = (await cvRow(id)).archive_object_id;
      const objects = await countRows('objects');
      const res = await act(id, 'archive', org.owner.token);
      expect(res.status, res.text).to.equal(202);
      expect(res.text).to.equal('');
      const row = await cvRow(id);
      expect(row.status).to.equal('archived');
      expect(row.archive_object_id).to.equal(null);
      expect(row.status_timestamps).to.have.property('archived-at');
      expect(await db()('objects').where({ id: objectId })).to.have.length(0);
      expect(await db()('object_chunks').where({ object_id: objectId })).to.have.length(0);
      expect(await countRows('objects')).to.equal(objects - 1);
      const shown = await api('GET', `/configuration-versions/${id}`, { token: org.owner.token });
      expect(shown.status).to.equal(200);
      expect(shown.body.data.attributes.status).to.equal('archived');
      expect(shown.body.data.attributes['status-timestamps']).to.have.property('archived-at');
      expectError(await api('GET', `/configuration-versions/${id}/download`, { token: org.owner.token }), 404);
    });

    it('archives a version that is no longer current once a newer one is uploaded', async () => {
      const ws = await createWorkspace(org);
      const first = await uploaded(ws.id, { current: true });
      await expectRefused(first, ws.id, 'archive', 409, org.owner.token, /current/);
      await uploaded(ws.id, { current: true });
      expect((await act(first, 'archive', org.owner.token)).status).to.equal(202);
      expect(await statusOf(first)).to.equal('archived');
    });

    it('ignores the degenerate body go-tfe sends', async () => {
      const ws = await createWorkspace(org);
      const id = await uploaded(ws.id);
      const res = await api('POST', `/configuration-versions/${id}/actions/archive`, {
        token: org.owner.token,
        raw: '{}',
      });
      expect(res.status, res.text).to.equal(202);
      expect(await statusOf(id)).to.equal('archived');
    });

    it('refuses the current version with 409', async () => {
      const ws = await createWorkspace(org);
      const id = await uploaded(ws.id, { current: true });
      expect(await currentCvOf(ws.id)).to.equal(id);
      await expectRefused(id, ws.id, 'archive', 409, org.owner.token, /current/);
    });

    it('refuses a VCS-created version with 409', async () => {
      const ws = await createWorkspace(org);
      const id = await vcsVersion(ws.id);
      await expectRefused(id, ws.id, 'archive', 409, org.owner.token, /VCS/);
    });

    it('refuses a version with a run in progress (409), and archives it once the run is final', async () => {
      const ws = await createWorkspace(org);
      const id = await uploaded(ws.id, { attrs: { 'auto-queue-runs': true } });
      const runs = await db()('runs').where({ configuration_version_id: id });
      expect(runs).to.have.length(1);
      expect(runs[0].status).to.equal('plan_queued');
      await expectRefused(id, ws.id, 'archive', 409, org.owner.token, /runs in progress/);
      for (const status of ['planning', 'cost_estimated', 'policy_checked', 'applying', 'confirmed']) {
        await db()('runs').where({ id: runs[0].id }).update({ status });
        await expectRefused(id, ws.id, 'archive', 409, org.owner.token, /runs in progress/);
      }
      await db()('runs').where({ id: runs[0].id }).update({ status: 'planned_and_finished' });
      expect((await act(id, 'archive', org.owner.token)).status).to.equal(202);
      expect(await statusOf(id)).to.equal('archived');
    });

    it('refuses a version with a run inserted directly in the database that is not final (409)', async () => {
      const ws = await createWorkspace(org);
      const id = await uploaded(ws.id);
      const run = await insertPendingRun(harness().rt.lifecycle.moves(db()), {
        workspace_id: ws.id,
        configuration_version_id: id,
        source: 'tfe-api',
      });
      await db()('runs').where({ id: run.id }).update({ status: 'planned' });
      await expectRefused(id, ws.id, 'archive', 409, org.owner.token);
      await db()('runs').where({ id: run.id }).update({ status: 'errored' });
      expect((await act(id, 'archive', org.owner.token)).status).to.equal(202);
    });

    it('refuses pending, errored, already archived, soft-deleted and permanently deleted versions with 409', async () => {
      const ws = await createWorkspace(org);
      const pending = (await createCv(ws.id, org.owner.token)).id;
      await expectRefused(pending, ws.id, 'archive', 409, org.owner.token, /pending/);
      await expectRefused(await errored(ws.id), ws.id, 'archive', 409, org.owner.token, /errored/);
      const archived = await uploaded(ws.id);
      expect((await act(archived, 'archive', org.owner.token)).status).to.equal(202);
      await expectRefused(archived, ws.id, 'archive', 409, org.owner.token, /archived/);
      const soft = await uploaded(ws.id);
      expect((await act(soft, 'soft_delete_backing_data', org.owner.token)).status).to.equal(200);
      await expectRefused(soft, ws.id, 'archive', 409, org.owner.token);
      expect((await act(soft, 'permanently_delete_backing_data', org.owner.token)).status).to.equal(200);
      await expectRefused(soft, ws.id, 'archive', 409, org.owner.token);
    });

    it('answers 404 for an unknown version, another organization, and a member below write access', async () => {
      const ws = await createWorkspace(org);
      const id = await uploaded(ws.id);
      const planner = await memberWithAccess(org, ws.id, 'plan');
      const outsider = await createUser();
      await expectRefused(`cv-${uniq('nope')}`, ws.id, 'archive', 404, org.owner.token);
      for (const token of [other.owner.token, outsider.token, planner.token])
        await expectRefused(id, ws.id, 'archive', 404, token);
      expect(await statusOf(id)).to.equal('uploaded');
      const writer = await memberWithAccess(org, ws.id, 'write');
      expect((await act(id, 'archive', writer.token)).status).to.equal(202);
    });

    it('lets only one of two concurrent archive requests succeed', async () => {
      const ws = await createWorkspace(org);
      const id = await uploaded(ws.id);
      const objects = await countRows('objects');
      const results = await Promise.all([act(id, 'archive', org.owner.token), act(id, 'archive', org.owner.token)]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([202, 409]);
      expectError(
        results.find((r) => r.status === 409)!,
        409,
      );
      expect(await statusOf(id)).to.equal('archived');
      expect(await countRows('objects')).to.equal(objects - 1);
    });
  });

  describe('downloads', () => {
    it('redirects (302) to a signed URL that serves the exact bytes without a token', async () => {
      const ws = await createWorkspace(org);
      const id = await uploaded(ws.id);
      const got = await followDownload(
        await api('GET', `/configuration-versions/${id}/download`, { token: org.owner.token }),
      );
      expect(got.status).to.equal(200);
      expect(got.bytes.equals(archive)).to.equal(true);
      expect(got.headers.get('content-type')).to.match(/gzip/);
      expect(got.headers.get('content-length')).to.equal(String(archive.length));
      // A member with read access may download too.
      const reader = await memberWithAccess(org, ws.id, 'read');
      const byReader = await followDownload(
        await api('GET', `/configuration-versions/${id}/download`, { token: reader.token }),
      );
      expect(byReader.bytes.equals(archive)).to.equal(true);
    });

    it("serves the run's configuration version at /runs/:id/configuration-version/download", async () => {
      const ws = await createWorkspace(org);
      const id = await uploaded(ws.id, { attrs: { 'auto-queue-runs': true } });
      const [run] = await db()('runs').where({ configuration_version_id: id });
      const got = await followDownload(
        await api('GET', `/runs/${run.id}/configuration-version/download`, { token: org.owner.token }),
      );
      expect(got.status).to.equal(200);
      expect(got.bytes.equals(archive)).to.equal(true);
      expectError(
        await api('GET', `/runs/run-${uniq('nope')}/configuration-version/download`, { token: org.owner.token }),
        404,
      );
      const pending = (await createCv(ws.id, org.owner.token)).id;
      const pendingRun = await insertPendingRun(harness().rt.lifecycle.moves(db()), {
        workspace_id: ws.id,
        configuration_version_id: pending,
        source: 'tfe-api',
      });
      expectError(
        await api('GET', `/runs/${pendingRun.id}/configuration-version/download`, { token: org.owner.token }),
        404,
      );
      expectError(
        await api('GET', `/runs/${run.id}/configuration-version/download`, { token: other.owner.token }),
        404,
      );
      expectError(await api('GET', `/runs/${run.id}/configuration-version/download`, { token: null }), 401);
      // Once the run is final and the version archived, there is nothing left to download.
      await db()('runs').where({ id: run.id }).update({ status: 'planned_and_finished' });
      expect((await act(id, 'archive', org.owner.token)).status).to.equal(202);
      expectError(await api('GET', `/runs/${run.id}/configuration-version/download`, { token: org.owner.token }), 404);
    });

    it('answers 404 when pending, errored, unknown, in another organization, or without access; 401 without a token', async () => {
      const ws = await createWorkspace(org);
      const pending = (await createCv(ws.id, org.owner.token)).id;
      expectError(await api('GET', `/configuration-versions/${pending}/download`, { token: org.owner.token }), 404);
      expectError(
        await api('GET', `/configuration-versions/${await errored(ws.id)}/download`, { token: org.owner.token }),
        404,
      );
      expectError(
        await api('GET', `/configuration-versions/cv-${uniq('nope')}/download`, { token: org.owner.token }),
        404,
      );
      const id = await uploaded(ws.id);
      expectError(await api('GET', `/configuration-versions/${id}/download`, { token: other.owner.token }), 404);
      expectError(
        await api('GET', `/configuration-versions/${id}/download`, { token: (await createUser()).token }),
        404,
      );
      expectError(await api('GET', `/configuration-versions/${id}/download`, { token: null }), 401);
    });

    it('refuses expired, tampered and upload-only object URLs', async () => {
      const ws = await createWorkspace(org);
      const id = await uploaded(ws.id);
      const objectId = (await cvRow(id)).archive_object_id;
      const key = harness().config.encryptionKey;
      const base = harness().baseUrl;
      const later = Math.floor(Date.now() / 1000) + 300;
      const expired = signGrant(key, { kind: 'object', id: objectId, exp: Math.floor(Date.now() / 1000) - 5 });
      const good = signGrant(key, { kind: 'object', id: objectId, exp: later });
      const uploadKind = signGrant(key, { kind: 'cv-upload', id: objectId, exp: later });
      const [body, mac] = good.split('.');
      const cases: [string, number][] = [
        [expired, 403],
        [`${body}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`, 403],
        [uploadKind, 404],
        ['garbage', 404],
      ];
      for (const [token, status] of cases) {
        const res = await fetch(`${base}/v1/object/${token}`);
        expect(res.status, token).to.equal(status);
        await res.text();
      }
      const ok = await fetch(`${base}/v1/object/${good}`);
      expect(ok.status).to.equal(200);
      expect(Buffer.from(await ok.arrayBuffer()).equals(archive)).to.equal(true);
    });
  });

  describe('backing-data actions (self-hosted edition)', () => {
    it('soft-deletes an uploaded, non-current version: 200 no body, unreadable, data kept', async () => {
      const ws = await createWorkspace(org);
      const id = await uploaded(ws.id);
      const objectId = (await cvRow(id)).archive_object_id;
      const objects = await countRows('objects');
      const res = await act(id, 'soft_delete_backing_data', org.owner.token);
      expect(res.status, res.text).to.equal(200);
      expect(res.text).to.equal('');
      const row = await cvRow(id);
      expect(row.status).to.equal('backing_data_soft_deleted');
      expect(row.archive_object_id).to.equal(objectId);
      expect(row.status_timestamps).to.have.property('soft-deleted-at');
      expect(await countRows('objects')).to.equal(objects);
      expectError(await api('GET', `/configuration-versions/${id}`, { token: org.owner.token }), 404);
      expectError(
        await api('GET', `/configuration-versions/${id}/ingress-attributes`, { token: org.owner.token }),
        404,
      );
      expectError(await api('GET', `/configuration-versions/${id}/download`, { token: org.owner.token }), 404);
    });

    it('restores a soft-deleted version to uploaded, readable and downloadable with the same bytes', async () => {
      const ws = await createWorkspace(org);
      const id = await uploaded(ws.id);
      expect((await act(id, 'soft_delete_backing_data', org.owner.token)).status).to.equal(200);
      const res = await act(id, 'restore_backing_data', org.owner.token);
      expect(res.status, res.text).to.equal(200);
      expect(res.text).to.equal('');
      expect(await statusOf(id)).to.equal('uploaded');
      const shown = await api('GET', `/configuration-versions/${id}`, { token: org.owner.token });
      expect(shown.status, shown.text).to.equal(200);
      expect(shown.body.data.attributes.status).to.equal('uploaded');
      const got = await followDownload(
        await api('GET', `/configuration-versions/${id}/download`, { token: org.owner.token }),
      );
      expect(got.bytes.equals(archive)).to.equal(true);
    });

    it('permanently deletes a soft-deleted version: data gone, unreadable, cannot be restored', async () => {
      const ws = await createWorkspace(org);
      const id = await uploaded(ws.id);
      const objectId = (await cvRow(id)).archive_object_id;
      expect((await act(id, 'soft_delete_backing_data', org.owner.token)).status).to.equal(200);
      const res = await act(id, 'permanently_delete_backing_data', org.owner.token);
      expect(res.status, res.text).to.equal(200);
      expect(res.text).to.equal('');
      const row = await cvRow(id);
      expect(row.status).to.equal('backing_data_permanently_deleted');
      expect(row.archive_object_id).to.equal(null);
      expect(row.status_timestamps).to.have.property('permanently-deleted-at');
      expect(await db()('objects').where({ id: objectId })).to.have.length(0);
      expectError(await api('GET', `/configuration-versions/${id}`, { token: org.owner.token }), 404);
      expectError(await api('GET', `/configuration-versions/${id}/download`, { token: org.owner.token }), 404);
      await expectRefused(id, ws.id, 'restore_backing_data', 400, org.owner.token);
      await expectRefused(id, ws.id, 'soft_delete_backing_data', 400, org.owner.token);
      await expectRefused(id, ws.id, 'permanently_delete_backing_data', 400, org.owner.token);
    });

    it('refuses soft delete of the current, a VCS, a pending, an errored, an archived or an already soft-deleted version (400)', async () => {
      const ws = await createWorkspace(org);
      const current = await uploaded(ws.id, { current: true });
      await expectRefused(current, ws.id, 'soft_delete_backing_data', 400, org.owner.token, /current/);
      await expectRefused(
        await vcsVersion(ws.id),
        ws.id,
        'soft_delete_backing_data',
        400,
        org.owner.token,
        /API or CLI/,
      );
      const pending = (await createCv(ws.id, org.owner.token)).id;
      await expectRefused(pending, ws.id, 'soft_delete_backing_data', 400, org.owner.token, /pending/);
      await expectRefused(await errored(ws.id), ws.id, 'soft_delete_backing_data', 400, org.owner.token);
      const archived = await uploaded(ws.id);
      expect((await act(archived, 'archive', org.owner.token)).status).to.equal(202);
      await expectRefused(archived, ws.id, 'soft_delete_backing_data', 400, org.owner.token);
      const soft = await uploaded(ws.id);
      expect((await act(soft, 'soft_delete_backing_data', org.owner.token)).status).to.equal(200);
      await expectRefused(soft, ws.id, 'soft_delete_backing_data', 400, org.owner.token);
    });

    it('refuses permanent delete unless soft-deleted, API-created and not current (400)', async () => {
      const ws = await createWorkspace(org);
      await expectRefused(
        await uploaded(ws.id),
        ws.id,
        'permanently_delete_backing_data',
        400,
        org.owner.token,
        /uploaded/,
      );
      const pending = (await createCv(ws.id, org.owner.token)).id;
      await expectRefused(pending, ws.id, 'permanently_delete_backing_data', 400, org.owner.token);
      const vcsSoft = await vcsVersion(ws.id, 'backing_data_soft_deleted');
      await expectRefused(vcsSoft, ws.id, 'permanently_delete_backing_data', 400, org.owner.token, /API or CLI/);
      // A soft-deleted version that is (somehow) current keeps its data.
      const current = await uploaded(ws.id, { current: true });
      await db()('configuration_versions').where({ id: current }).update({ status: 'backing_data_soft_deleted' });
      await expectRefused(current, ws.id, 'permanently_delete_backing_data', 400, org.owner.token, /current/);
    });

    it('restores from any state with backing data, and refuses when there is none (400)', async () => {
      const ws = await createWorkspace(org);
      const stillUploaded = await uploaded(ws.id);
      expect((await act(stillUploaded, 'restore_backing_data', org.owner.token)).status).to.equal(200);
      expect(await statusOf(stillUploaded)).to.equal('uploaded');
      const archived = await uploaded(ws.id);
      expect((await act(archived, 'archive', org.owner.token)).status).to.equal(202);
      await expectRefused(archived, ws.id, 'restore_backing_data', 400, org.owner.token, /no backing data/);
      await expectRefused(await errored(ws.id), ws.id, 'restore_backing_data', 400, org.owner.token, /no backing data/);
      const pending = (await createCv(ws.id, org.owner.token)).id;
      await expectRefused(pending, ws.id, 'restore_backing_data', 400, org.owner.token, /no backing data/);
      await expectRefused(await vcsVersion(ws.id, 'archived'), ws.id, 'restore_backing_data', 400, org.owner.token);
    });

    it('answers 404 for an unknown version, another organization and a member below admin access', async () => {
      const ws = await createWorkspace(org);
      const id = await uploaded(ws.id);
      const writer = await memberWithAccess(org, ws.id, 'write');
      for (const action of [
        'soft_delete_backing_data',
        'restore_backing_data',
        'permanently_delete_backing_data',
      ] as Action[]) {
        await expectRefused(`cv-${uniq('nope')}`, ws.id, action, 404, org.owner.token);
        for (const token of [other.owner.token, writer.token]) await expectRefused(id, ws.id, action, 404, token);
        await expectRefused(id, ws.id, action, 401, 'not-a-token');
      }
      const admin = await memberWithAccess(org, ws.id, 'admin');
      expect((await act(id, 'soft_delete_backing_data', admin.token)).status).to.equal(200);
    });

    for (const edition of ['free', 'standard']) {
      it(`does not exist in the ${edition} edition (404 for all three, nothing changes)`, async () => {
        const ws = await createWorkspace(org);
        const id = await uploaded(ws.id);
        const soft = await uploaded(ws.id);
        expect((await act(soft, 'soft_delete_backing_data', org.owner.token)).status).to.equal(200);
        const app = await startSecondApp({ EDITION: edition });
        try {
          const shown = await api('GET', `${app.baseUrl}/api/v2/configuration-versions/${id}`, {
            token: org.owner.token,
          });
          expect(shown.status, shown.text).to.equal(200);
          for (const [target, action] of [
            [id, 'soft_delete_backing_data'],
            [soft, 'restore_backing_data'],
            [soft, 'permanently_delete_backing_data'],
          ] as [string, Action][]) {
            const before = await snapshot(target, ws.id);
            expectError(await act(target, action, org.owner.token, app.baseUrl), 404);
            expect(await snapshot(target, ws.id)).to.deep.equal(before);
          }
          // Archive is not edition-specific.
          expect((await act(id, 'archive', org.owner.token, app.baseUrl)).status).to.equal(202);
        } finally {
          await app.close();
        }
        expect(await statusOf(soft)).to.equal('backing_data_soft_deleted');
      });
    }

    it('lets only one of concurrent conflicting actions on one version succeed', async () => {
      const ws = await createWorkspace(org);
      const twice = await uploaded(ws.id);
      const r1 = await Promise.all([
        act(twice, 'soft_delete_backing_data', org.owner.token),
        act(twice, 'soft_delete_backing_data', org.owner.token),
      ]);
      expect(r1.map((r) => r.status).sort()).to.deep.equal([200, 400]);
      expect(await statusOf(twice)).to.equal('backing_data_soft_deleted');

      const raced = await uploaded(ws.id);
      const r2 = await Promise.all([
        act(raced, 'archive', org.owner.token),
        act(raced, 'soft_delete_backing_data', org.owner.token),
      ]);
      const [archiveRes, softRes] = r2;
      expect([archiveRes.status === 202, softRes.status === 200].filter(Boolean)).to.have.length(1);
      if (archiveRes.status === 202) {
        expectError(softRes, 400);
        expect(await statusOf(raced)).to.equal('archived');
      } else {
        expectError(archiveRes, 409);
        expect(await statusOf(raced)).to.equal('backing_data_soft_deleted');
      }

      const fork = await uploaded(ws.id);
      expect((await act(fork, 'soft_delete_backing_data', org.owner.token)).status).to.equal(200);
      const r3 = await Promise.all([
        act(fork, 'restore_backing_data', org.owner.token),
        act(fork, 'permanently_delete_backing_data', org.owner.token),
      ]);
      expect(r3.map((r) => r.status).sort()).to.deep.equal([200, 400]);
      expect(await statusOf(fork)).to.equal(r3[0].status === 200 ? 'uploaded' : 'backing_data_permanently_deleted');
    });
  });

  describe('transition table', () => {
    it('walks every allowed move: (new) -> pending -> uploaded -> soft-deleted -> uploaded -> soft-deleted -> permanently deleted', async () => {
      const ws = await createWorkspace(org);
      const cv = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false, provisional: true });
      expect(cv.body.data.attributes.status).to.equal('pending');
      expect(cv.uploadUrl).to.be.a('string');
      expect((await putArchive(cv.uploadUrl, archive)).status).to.equal(200);
      expect(await statusOf(cv.id)).to.equal('uploaded');
      const steps: [Action, number, string][] = [
        ['soft_delete_backing_data', 200, 'backing_data_soft_deleted'],
        ['restore_backing_data', 200, 'uploaded'],
        ['soft_delete_backing_data', 200, 'backing_data_soft_deleted'],
        ['permanently_delete_backing_data', 200, 'backing_data_permanently_deleted'],
      ];
      for (const [action, status, next] of steps) {
        const res = await act(cv.id, action, org.owner.token);
        expect(res.status, `${action}: ${res.text}`).to.equal(status);
        expect(await statusOf(cv.id)).to.equal(next);
      }
      const other2 = await uploaded(ws.id);
      expect((await act(other2, 'archive', org.owner.token)).status).to.equal(202);
      expect(await statusOf(other2)).to.equal('archived');
    });

    it('keeps fetching and archived VCS-created versions out of the API actions (archive 409, deletes 400)', async () => {
      const ws = await createWorkspace(org);
      for (const status of ['fetching', 'archived'] as const) {
        const id = await vcsVersion(ws.id, status);
        await expectRefused(id, ws.id, 'archive', 409, org.owner.token);
        await expectRefused(id, ws.id, 'soft_delete_backing_data', 400, org.owner.token);
        await expectRefused(id, ws.id, 'permanently_delete_backing_data', 400, org.owner.token);
        expectError(await api('GET', `/configuration-versions/${id}/download`, { token: org.owner.token }), 404);
        const shown = await api('GET', `/configuration-versions/${id}`, { token: org.owner.token });
        expect(shown.body.data.attributes.status).to.equal(status);
      }
    });
  });

  describe('collectOldVersions (maintenance)', () => {
    const backdate = (id: string, days: number) =>
      db()('configuration_versions')
        .where({ id })
        .update({ created_at: db().raw(`now() - (? || ' days')::interval`, [String(days)]) });

    it('archives only old, uploaded, API-created, non-current versions without active runs', async () => {
      const ws = await createWorkspace(org);
      const oldApi = await uploaded(ws.id);
      const cli = await api('POST', `/workspaces/${ws.id}/configuration-versions`, {
        token: org.owner.token,
        headers: { 'X-Terraform-Integration': 'cloud' },
        body: { data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false, provisional: true } } },
      });
      expect(cli.status, cli.text).to.equal(201);
      const oldCli = cli.body.data.id;
      expect((await putArchive(cli.body.data.attributes['upload-url'], archive)).status).to.equal(200);
      expect(await cvRow(oldCli)).to.include({ source: 'terraform', status: 'uploaded' });
      const oldFinishedRun = await uploaded(ws.id, { attrs: { 'auto-queue-runs': true } });
      await db()('runs').where({ configuration_version_id: oldFinishedRun }).update({ status: 'applied' });
      const recent = await uploaded(ws.id);
      const oldActiveRun = await uploaded(ws.id, { attrs: { 'auto-queue-runs': true } });
      const oldVcs = await vcsVersion(ws.id);
      const oldPending = (await createCv(ws.id, org.owner.token)).id;
      const oldErrored = await errored(ws.id);
      const oldCurrent = await uploaded(ws.id, { current: true });
      for (const id of [oldApi, oldCli, oldFinishedRun, oldActiveRun, oldVcs, oldPending, oldErrored, oldCurrent])
        await backdate(id, 40);
      await backdate(recent, 10);

      const archived = await collectOldVersions(harness().rt, 30);
      expect(archived).to.include.members([oldApi, oldCli, oldFinishedRun]);
      for (const id of [recent, oldActiveRun, oldVcs, oldPending, oldErrored, oldCurrent])
        expect(archived).to.not.include(id);
      for (const id of [oldApi, oldCli, oldFinishedRun]) {
        const row = await cvRow(id);
        expect(row.status).to.equal('archived');
        expect(row.archive_object_id).to.equal(null);
      }
      expect(await statusOf(recent)).to.equal('uploaded');
      expect(await statusOf(oldActiveRun)).to.equal('uploaded');
      expect(await statusOf(oldVcs)).to.equal('uploaded');
      expect(await statusOf(oldPending)).to.equal('pending');
      expect(await statusOf(oldErrored)).to.equal('errored');
      expect(await statusOf(oldCurrent)).to.equal('uploaded');
      expect(await currentCvOf(ws.id)).to.equal(oldCurrent);

      const again = await collectOldVersions(harness().rt, 30);
      for (const id of [
        oldApi,
        oldCli,
        oldFinishedRun,
        recent,
        oldActiveRun,
        oldVcs,
        oldPending,
        oldErrored,
        oldCurrent,
      ]) {
        expect(again).to.not.include(id);
      }
      const wider = await collectOldVersions(harness().rt, 5);
      expect(wider).to.include(recent);
      expect(wider).to.not.include(oldActiveRun);
    });
  });
});
