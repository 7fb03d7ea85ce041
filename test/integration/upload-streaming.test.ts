import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { api, doc } from '../helpers/api.js';
import { harness, secondAppForSuite } from '../helpers/harness.js';
import { createCv, createOrg, createWorkspace, onTestServer, putArchive, tarGz, uniq } from '../helpers/fixtures.js';
import { cvRow } from '../helpers/cv.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { streamingPut } from '../helpers/uploads.js';

const PIECE = 64 * 1024;

const objectCount = async () => Number((await harness().rt.db('objects').count<{ n: string }[]>({ n: '*' }))[0].n);
const unfinishedCount = async () =>
  Number((await harness().rt.db('objects').where('sha256', '').count<{ n: string }[]>({ n: '*' }))[0].n);

/** A new pending version in a new organization, and how many objects there were before any upload to it. */
async function pendingVersion() {
  const org = await createOrg();
  const ws = await createWorkspace(org);
  return { cv: await createCv(ws.id, org.owner.token), before: await objectCount() };
}

/** A valid archive of about `mib` MiB that does not compress (random hex). */
const bigArchive = (mib: number) =>
  tarGz({ 'main.tf': 'output "x" { value = 1 }\n', 'blob.txt': randomBytes(mib * 512 * 1024).toString('hex') });

describe('uploads stream with bounded memory and limited concurrency', function () {
  this.timeout(60_000);

  describe('checked as the bytes arrive', () => {
    it('refuses bytes that are not gzip at once, while the client is still sending; the version errors and nothing is stored', async () => {
      const { cv, before } = await pendingVersion();
      const put = streamingPut(await onTestServer(cv.uploadUrl));
      await put.write(Buffer.from('this is not an archive'));
      const res = await put.response;
      put.abort();
      expect(res.status).to.equal(422);
      expect(res.endedFirst, 'answered before the body ended').to.equal(false);
      expect(res.body.errors[0].detail).to.match(/not gzip-compressed/);
      expect(res.headers.connection).to.equal('close');
      const row = await cvRow(cv.id);
      expect(row.status).to.equal('errored');
      expect(row.archive_object_id).to.equal(null);
      expect(await objectCount()).to.equal(before);
    });

    it('refuses a corrupt stream at the first bad piece after a valid start, and discards what it had stored', async () => {
      const { cv, before } = await pendingVersion();
      const valid = await bigArchive(3);
      const put = streamingPut(await onTestServer(cv.uploadUrl));
      // Two valid MiB (stored as they come), then bytes that break the deflate stream.
      for (let at = 0; at < 2 * 1024 * 1024; at += PIECE) await put.write(valid.subarray(at, at + PIECE));
      await put.write(Buffer.alloc(PIECE, 0xff));
      const res = await put.response;
      put.abort();
      expect(res.status).to.equal(422);
      expect(res.endedFirst).to.equal(false);
      expect(res.body.errors[0].detail).to.match(/not a valid tar\.gz/);
      expect((await cvRow(cv.id)).status).to.equal('errored');
      expect(await objectCount()).to.equal(before);
    });

    it('a client that drops the connection mid-upload leaves the version pending with nothing stored; the next upload works', async () => {
      const { cv, before } = await pendingVersion();
      const valid = await bigArchive(3);
      const put = streamingPut(await onTestServer(cv.uploadUrl));
      put.response.catch(() => undefined);
      for (let at = 0; at < 2 * 1024 * 1024; at += PIECE) await put.write(valid.subarray(at, at + PIECE));
      await waitFor(async () => (await objectCount()) > before, 'the upload to start storing');
      put.abort();
      await waitFor(async () => (await objectCount()) === before, 'the cut-off upload to be discarded');
      expect((await cvRow(cv.id)).status).to.equal('pending');
      const again = await putArchive(cv.uploadUrl, valid);
      expect(again.status, again.text).to.equal(200);
      const row = await cvRow(cv.id);
      expect(row.status).to.equal('uploaded');
      const stored = await harness().rt.db('objects').where({ id: row.archive_object_id }).first();
      expect(Number(stored.size)).to.equal(valid.length);
    });
  });

  describe('size limit as the bytes arrive (MAX_ARCHIVE_BYTES of 1 MiB)', () => {
    const small = secondAppForSuite({ MAX_ARCHIVE_BYTES: String(1024 * 1024) });

    it('refuses a body without Content-Length once it passes the limit (413), before the client ends; nothing is stored', async () => {
      const { cv, before } = await pendingVersion();
      const valid = await bigArchive(3);
      const put = streamingPut(await onTestServer(cv.uploadUrl, small.baseUrl));
      put.response.catch(() => undefined);
      for (let at = 0; at < valid.length; at += PIECE) {
        const sent = await put.write(valid.subarray(at, at + PIECE)).then(
          () => true,
          () => false,
        );
        if (!sent) break;
        if (at > 1.5 * 1024 * 1024) break;
      }
      const res = await put.response;
      put.abort();
      expect(res.status).to.equal(413);
      expect(res.endedFirst).to.equal(false);
      expect(res.body.errors[0].detail).to.match(/larger than the limit of 1048576 bytes/);
      expect((await cvRow(cv.id)).status).to.equal('errored');
      expect(await objectCount()).to.equal(before);
    });
  });

  describe('concurrent uploads (one per organization, two per process)', () => {
    const capped = secondAppForSuite({ MAX_CONCURRENT_UPLOADS: '2', MAX_CONCURRENT_UPLOADS_PER_ORGANIZATION: '1' });

    it('answers 503 with Retry-After beyond the caps, without touching the refused version; the caps free up when uploads end', async () => {
      const [a, b, c] = await Promise.all([createOrg(), createOrg(), createOrg()]);
      const [wsA, wsB, wsC] = await Promise.all([createWorkspace(a), createWorkspace(b), createWorkspace(c)]);
      const archive = await tarGz({ 'main.tf': 'output "x" { value = 1 }\n' });
      const heldA = await createCv(wsA.id, a.owner.token);
      const secondA = await createCv(wsA.id, a.owner.token);

      // Organization A's slow upload holds its one slot.
      const unfinished = await unfinishedCount();
      const slowA = streamingPut(await onTestServer(heldA.uploadUrl, capped.baseUrl));
      await slowA.write(archive.subarray(0, 10));
      await waitFor(async () => (await unfinishedCount()) > unfinished, 'the slow upload to start');

      const refused = await putArchive(secondA.uploadUrl, archive, capped.baseUrl);
      expect(refused.status, refused.text).to.equal(503);
      expect(refused.body.errors[0].detail).to.match(/this organization has too many uploads in progress/);
      expect((await cvRow(secondA.id)).status).to.equal('pending');

      // Policy code of the same organization waits for the same slots.
      const policy = await api('POST', `/organizations/${a.name}/policies`, {
        token: a.owner.token,
        body: doc('policies', { name: uniq('p'), kind: 'opa', query: 'data.x.allow', 'enforcement-level': 'advisory' }),
      });
      expect(policy.status, policy.text).to.equal(200);
      const code = await fetch(`${capped.api}/policies/${policy.body.data.id}/upload`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${a.owner.token}` },
        body: 'package x\nallow := true\n',
      });
      expect(code.status).to.equal(503);
      expect(code.headers.get('retry-after')).to.equal('5');

      // Another organization still uploads; with a second slow upload the process is full for everyone.
      const okB = await putArchive((await createCv(wsB.id, b.owner.token)).uploadUrl, archive, capped.baseUrl);
      expect(okB.status, okB.text).to.equal(200);
      const slowB = streamingPut(await onTestServer((await createCv(wsB.id, b.owner.token)).uploadUrl, capped.baseUrl));
      await slowB.write(archive.subarray(0, 10));
      await waitFor(async () => (await unfinishedCount()) > unfinished + 1, 'the second slow upload to start');
      const full = await putArchive((await createCv(wsC.id, c.owner.token)).uploadUrl, archive, capped.baseUrl);
      expect(full.status, full.text).to.equal(503);
      expect(full.body.errors[0].detail).to.match(/the service has too many uploads in progress/);

      // The slow uploads finish; the refused ones go through on retry.
      await slowA.write(archive.subarray(10));
      slowA.end();
      await slowB.write(archive.subarray(10));
      slowB.end();
      expect((await slowA.response).status).to.equal(200);
      expect((await slowB.response).status).to.equal(200);
      const retried = await putArchive(secondA.uploadUrl, archive, capped.baseUrl);
      expect(retried.status, retried.text).to.equal(200);
      expect((await cvRow(secondA.id)).status).to.equal('uploaded');
    });
  });

  describe('the sweep', () => {
    let worker: WorkerProcess | undefined;
    after(async () => void (await worker?.stop('SIGKILL')));

    it('removes objects an upload left unfinished (a crash cut it off) an hour ago, and nothing else', async () => {
      const { store, db } = harness().rt;
      const old = await store.create({ prefix: 'archive' });
      await old.write(randomBytes(2 * 1024 * 1024));
      await db('objects')
        .where({ id: old.id })
        .update({ created_at: db.raw(`now() - interval '2 hours'`) });
      const recent = await store.create({ prefix: 'archive' });
      await recent.write(randomBytes(1024));
      const finished = await store.create({ prefix: 'archive' });
      await finished.write(Buffer.from('whole'));
      await finished.finish();
      await db('objects')
        .where({ id: finished.id })
        .update({ created_at: db.raw(`now() - interval '2 hours'`) });

      worker = spawnWorkers(['run-pipeline'], { RECONCILE_INTERVAL_MS: '1000' });
      await workersReady(worker);
      await waitFor(
        async () => !(await db('objects').where({ id: old.id }).first()),
        'the sweep to remove the cut-off object',
      );
      expect(await db('object_chunks').where({ object_id: old.id }).first()).to.equal(undefined);
      expect(await db('objects').where({ id: recent.id }).first()).to.not.equal(undefined);
      expect(await db('objects').where({ id: finished.id }).first()).to.not.equal(undefined);
      await recent.discard();
    });
  });

  it('still refuses an upload to an unknown version with 404', async () => {
    const org = await createOrg();
    const ws = await createWorkspace(org);
    const cv = await createCv(ws.id, org.owner.token);
    await harness().rt.db('configuration_versions').where({ id: cv.id }).del();
    const res = await putArchive(cv.uploadUrl, await tarGz({ 'main.tf': '' }));
    expect(res.status, res.text).to.equal(404);
    expect(res.body.errors[0].detail).to.match(/configuration version not found/);
  });
});
