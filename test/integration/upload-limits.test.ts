import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { api, doc, expectError, readResponse } from '../helpers/api.js';
import { freePort, harness, secondAppForSuite } from '../helpers/harness.js';
import {
  countRows,
  createCv,
  createOrg,
  createUser,
  createWorkspace,
  onTestServer,
  tarGz,
  uniq,
  type TestUser,
} from '../helpers/fixtures.js';
import { cvRow } from '../helpers/cv.js';
import { logLines, spawnWeb, waitFor, webReady, type WorkerProcess } from '../helpers/processes.js';
import { streamingPut } from '../helpers/uploads.js';

const objectCount = () => countRows('objects');
const unfinishedCount = async () =>
  Number((await harness().rt.db('objects').where('sha256', '').count<{ n: string }[]>({ n: '*' }))[0].n);

/** A client address of its own for each caller (the test is the trusted proxy that names it in X-Forwarded-For). */
const address = (net: '203.0.113' | '198.51.100' | '192.0.2') => `${net}.${1 + (randomBytes(1)[0] % 250)}`;
const from = (client: string) => ({ 'X-Forwarded-For': client });

/** PUTs an archive to a signed upload URL, as the terraform CLI does, from `client` through the proxy. */
async function putFrom(url: string, body: Buffer, base: string, client: string) {
  const res = await fetch(await onTestServer(url, base), {
    method: 'PUT',
    headers: { 'Content-Type': 'application/octet-stream', ...from(client) },
    body: new Uint8Array(body),
  });
  return readResponse(res);
}

/** A pending configuration version of a new workspace in `org`. */
async function pendingCv(org: { name: string; owner: TestUser }) {
  const ws = await createWorkspace(org);
  return createCv(ws.id, org.owner.token);
}

/**
 * Starts a slow upload (its first bytes only) to `url` at `base` from `client`, and waits until it
 * is either taken in (an unfinished object appears) or refused (an answer while the body is still
 * open).
 */
async function startTrickle(url: string, base: string, client: string, first: Buffer) {
  const unfinished = await unfinishedCount();
  const put = streamingPut(await onTestServer(url, base), from(client));
  put.response.catch(() => undefined);
  await put.write(first);
  await waitFor(
    async () => put.answered() || (await unfinishedCount()) > unfinished,
    'the upload to be taken in or refused',
  );
  return put;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const expectCallerCap = (res: { status: number; headers: Record<string, unknown>; body: any }, whose: RegExp) => {
  expect(res.status, JSON.stringify(res.body)).to.equal(429);
  expect(res.headers['retry-after']).to.equal('5');
  expect(res.body.errors[0]).to.include({ status: '429', title: 'too many requests' });
  expect(res.body.errors[0].detail).to.match(whose);
};

describe('upload limits: per user and per client address across web processes, a minimum pace, aborted uploads', function () {
  this.timeout(90_000);
  let archive: Buffer;
  before(async () => {
    archive = await tarGz({ 'main.tf': 'output "x" { value = 1 }\n' });
  });

  describe('one user trickling uploads into four organizations of their own, through two web processes', () => {
    // Two web processes behind one proxy (the test), sharing the database and Redis, with the
    // default caps. No minimum pace here: the trickles stay open for as long as the test holds them.
    const env = {
      TRUST_PROXY: 'loopback',
      UPLOAD_MIN_BYTES_PER_SECOND: '0',
      MAX_CONCURRENT_UPLOADS_PER_USER: '4',
      MAX_CONCURRENT_UPLOADS_PER_ADDRESS: '8',
    };
    const webA = secondAppForSuite(env);
    const webB = secondAppForSuite(env);

    it("holds the user to 4 uploads at once (429 with Retry-After beyond), each organization under its own cap, while other users' uploads in other organizations still succeed", async () => {
      const attacker = await createUser();
      const orgs = await Promise.all([1, 2, 3, 4].map(() => createOrg(attacker)));
      // Sixteen uploads, four per organization: the probe's flood, which took every slot of a web process.
      const versions: { id: string; uploadUrl: string }[] = [];
      for (let i = 0; i < 16; i++) versions.push(await pendingCv(orgs[i % 4]));
      const attackerAddress = address('203.0.113');
      const trickles = [];
      for (let i = 0; i < 16; i++)
        trickles.push(
          await startTrickle(
            versions[i].uploadUrl,
            i % 2 ? webB.baseUrl : webA.baseUrl,
            attackerAddress,
            archive.subarray(0, 10),
          ),
        );

      // The first four were taken in (one per organization, two on each process); the other twelve refused.
      expect(trickles.slice(0, 4).map((t) => t.answered())).to.deep.equal([false, false, false, false]);
      for (const t of trickles.slice(4)) {
        expect(t.answered()).to.equal(true);
        expectCallerCap(await t.response, /too many uploads in progress for this user \(at most 4\)/i);
      }
      for (const v of versions.slice(4))
        expect((await cvRow(v.id)).status, 'a refused version is untouched').to.equal('pending');

      // Other users, in their own organizations and from their own addresses, upload on both processes.
      const others = await Promise.all([1, 2, 3, 4].map(() => createOrg()));
      const answers = await Promise.all(
        others.map(async (org, i) =>
          putFrom(
            (await pendingCv(org)).uploadUrl,
            archive,
            i % 2 ? webB.baseUrl : webA.baseUrl,
            address('198.51.100'),
          ),
        ),
      );
      for (const res of answers) expect(res.status, res.text).to.equal(200);

      // The trickles end (the client gives up); the user's slots are free again, whichever process held them.
      for (const t of trickles.slice(0, 4)) t.abort();
      await waitFor(
        async () => (await putFrom(versions[4].uploadUrl, archive, webB.baseUrl, attackerAddress)).status === 200,
        "the user's slots to be freed",
      );
      expect((await cvRow(versions[4].id)).status).to.equal('uploaded');
    });
  });

  describe('per client address, and signed URLs counted against the user who created the version', () => {
    const web = secondAppForSuite({
      TRUST_PROXY: 'loopback',
      UPLOAD_MIN_BYTES_PER_SECOND: '0',
      MAX_CONCURRENT_UPLOADS_PER_ADDRESS: '2',
      MAX_CONCURRENT_UPLOADS_PER_USER: '1',
    });

    it('refuses a third upload from one address whoever created the versions, not from another address; a second upload of one user is refused from any address', async () => {
      const [one, two, three] = await Promise.all([createOrg(), createOrg(), createOrg()]);
      const shared = address('203.0.113');
      const held = [await startTrickle((await pendingCv(one)).uploadUrl, web.baseUrl, shared, archive.subarray(0, 10))];
      held.push(await startTrickle((await pendingCv(two)).uploadUrl, web.baseUrl, shared, archive.subarray(0, 10)));
      expect(held.map((t) => t.answered())).to.deep.equal([false, false]);

      const third = await pendingCv(three);
      const refused = await startTrickle(third.uploadUrl, web.baseUrl, shared, archive.subarray(0, 10));
      expectCallerCap(await refused.response, /too many uploads in progress from this client address \(at most 2\)/i);
      expect((await cvRow(third.id)).status).to.equal('pending');
      const elsewhere = await putFrom(third.uploadUrl, archive, web.baseUrl, address('198.51.100'));
      expect(elsewhere.status, elsewhere.text).to.equal(200);

      // The upload URL carries no token, yet the upload is the version creator's: their one slot is held.
      const again = await putFrom((await pendingCv(one)).uploadUrl, archive, web.baseUrl, address('192.0.2'));
      expect(again.status, again.text).to.equal(429);
      expect(again.body.errors[0].detail).to.match(/for this user \(at most 1\)/);

      for (const t of held) t.abort();
      await waitFor(
        async () => (await putFrom((await pendingCv(one)).uploadUrl, archive, web.baseUrl, shared)).status === 200,
        'the address and the user to have their slots back',
      );
    });
  });

  describe('a minimum pace (UPLOAD_MIN_BYTES_PER_SECOND=1024, UPLOAD_RATE_GRACE_SECONDS=2)', () => {
    const web = secondAppForSuite({
      UPLOAD_MIN_BYTES_PER_SECOND: '1024',
      UPLOAD_RATE_GRACE_SECONDS: '2',
      MAX_CONCURRENT_UPLOADS_PER_ORGANIZATION: '1',
      MAX_CONCURRENT_UPLOADS_PER_USER: '1',
    });

    it('ends a trickling upload past the grace with 408, stores nothing, and frees its slots; a short pause is not ended', async () => {
      const org = await createOrg();
      const slow = await pendingCv(org);
      const big = await tarGz({
        'main.tf': 'output "x" { value = 1 }\n',
        'blob.txt': randomBytes(256 * 1024).toString('hex'),
      });
      const before = await objectCount();
      const put = streamingPut(await onTestServer(slow.uploadUrl, web.baseUrl));
      put.response.catch(() => undefined);
      const started = Date.now();
      // 16 bytes every 250 ms: 64 bytes a second, far behind the minimum.
      for (let at = 0; !put.answered() && Date.now() - started < 20_000; at += 16) {
        await put.write(big.subarray(at, at + 16)).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 250));
      }
      const res = await put.response;
      const seconds = (Date.now() - started) / 1000;
      expect(res.status, JSON.stringify(res.body)).to.equal(408);
      expect(res.endedFirst).to.equal(false);
      expect(res.headers.connection).to.equal('close');
      expect(res.body.errors[0]).to.include({ status: '408', title: 'request timeout' });
      expect(res.body.errors[0].detail).to.match(
        /slower than 1024 bytes a second for longer than 2 seconds; nothing was stored/,
      );
      expect(seconds, 'ended soon after the grace').to.be.within(1.8, 6);
      expect((await cvRow(slow.id)).status, 'the version can be uploaded again').to.equal('pending');
      await waitFor(async () => (await objectCount()) === before, 'what the slow upload stored to be discarded');

      // The organization's one slot and the user's one slot are free: the same URL now works.
      const paused = streamingPut(await onTestServer(slow.uploadUrl, web.baseUrl));
      await paused.write(big.subarray(0, big.length / 2));
      // A pause shorter than the grace after a good start is allowed.
      await new Promise((r) => setTimeout(r, 1_000));
      await paused.write(big.subarray(big.length / 2));
      paused.end();
      const ok = await paused.response;
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      expect((await cvRow(slow.id)).status).to.equal('uploaded');
    });
  });

  describe('ORGANIZATION_CREATION=site-admins', () => {
    const web = secondAppForSuite({ ORGANIZATION_CREATION: 'site-admins' });
    const create = (base: string, token: string, name: string) =>
      api('POST', `${base}/organizations`, {
        token,
        body: doc('organizations', { name, email: `${name}@example.test` }),
      });
    const mayCreate = async (base: string, token: string) =>
      (await api('GET', `${base}/account/details`, { token })).body.data.attributes.permissions[
        'can-create-organizations'
      ];

    it('refuses a user who is not a site admin (403, nothing created) and lets the site admin create one; account details say which may', async () => {
      const user = await createUser();
      const before = await countRows('organizations');
      const name = uniq('org');
      const refused = await create(web.api, user.token, name);
      expectError(refused, 403, /Only site admins may create organizations/);
      expect(await countRows('organizations')).to.equal(before);
      expect((await api('GET', `/organizations/${name}`)).status).to.equal(404);
      expect(await mayCreate(web.api, user.token)).to.equal(false);

      const byAdmin = await create(web.api, harness().adminToken, name);
      expect(byAdmin.status, byAdmin.text).to.equal(201);
      expect(await mayCreate(web.api, harness().adminToken)).to.equal(true);

      // The default (anyone) lets the same user create one.
      expect(await mayCreate('', user.token)).to.equal(true);
      const own = await create('', user.token, uniq('org'));
      expect(own.status, own.text).to.equal(201);
    });
  });

  describe('an upload the client aborts (a web process of its own, its log read)', () => {
    let web: WorkerProcess;
    let base: string;
    before(async () => {
      const port = await freePort();
      web = spawnWeb({ PORT: String(port), LOG_LEVEL: 'info' });
      await webReady(web);
      base = `http://127.0.0.1:${port}`;
    });
    after(async () => void (await web?.stop()));

    it('logs an aborted upload with its route, organization and bytes received, not a database outage; nothing is stored', async () => {
      const org = await createOrg();
      const cv = await pendingCv(org);
      const big = await tarGz({
        'main.tf': 'output "x" { value = 1 }\n',
        'blob.txt': randomBytes(3 * 512 * 1024).toString('hex'),
      });
      const before = await objectCount();
      const put = streamingPut(await onTestServer(cv.uploadUrl, base));
      put.response.catch(() => undefined);
      const sent = 2 * 1024 * 1024;
      for (let at = 0; at < sent; at += 64 * 1024) await put.write(big.subarray(at, at + 64 * 1024));
      await waitFor(async () => (await objectCount()) > before, 'the upload to start storing');
      put.abort();

      const aborted = () => logLines(web.output()).find((l) => l.message === 'upload aborted');
      const line = (await waitFor(aborted, () => `the aborted upload's log line; output:\n${web.output()}`))!;
      expect(line).to.include({ level: 'warn', method: 'PUT', route: '/v1/object/:token', organization: org.name });
      expect(line.bytes).to.be.a('number').within(1, sent);
      expect(line).to.have.property('requestId').that.is.a('string');
      expect(logLines(web.output()).filter((l) => l.message === 'database unavailable')).to.deep.equal([]);
      const token = new URL(cv.uploadUrl).pathname.split('/').pop()!;
      expect(web.output()).to.not.include(token);

      await waitFor(async () => (await objectCount()) === before, 'what the aborted upload stored to be discarded');
      expect((await cvRow(cv.id)).status).to.equal('pending');
    });
  });
});
