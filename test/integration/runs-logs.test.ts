import { expect } from 'chai';
import { api, expectError } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { createOrg, createWorkspace, type TestUser } from '../helpers/fixtures.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startRun, terraformAvailable, uploadConfig, waitForRun } from '../helpers/terraform.js';
import { signGrant } from '../../server/signed-urls.js';

const WORKER_ENV = { RUN_LEASE_SECONDS: '3', RECONCILE_INTERVAL_MS: '1000', FORCE_CANCEL_COOLOFF_SECONDS: '1' };
const MAIN_TF =
  'resource "terraform_data" "a" {\n  input = "x"\n}\n\noutput "o" {\n  value = terraform_data.a.output\n}\n';
const STX = 0x02;
const ETX = 0x03;

/** One read as go-tfe's log reader makes it: no Authorization header, raw bytes. */
async function read(url: string, offset: number, limit: number): Promise<{ status: number; body: Buffer }> {
  const res = await fetch(`${url}?limit=${limit}&offset=${offset}`);
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

/**
 * Follows a log from offset 0 with `limit`-byte reads, as a client streaming it while the run
 * executes: an empty read means nothing new yet; the log is complete when ETX arrives.
 */
async function follow(
  url: string,
  limit: number,
  timeoutMs = 90_000,
): Promise<{ data: Buffer; sizes: number[]; emptyReads: number }> {
  const parts: Buffer[] = [];
  const sizes: number[] = [];
  let offset = 0;
  let emptyReads = 0;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await read(url, offset, limit);
    if (status !== 200) throw new Error(`log read at offset ${offset} answered ${status}`);
    if (body.length) {
      parts.push(body);
      sizes.push(body.length);
      offset += body.length;
      if (body[body.length - 1] === ETX) return { data: Buffer.concat(parts), sizes, emptyReads };
    } else {
      emptyReads++;
      if (Date.now() > deadline) throw new Error(`log not finished after ${offset} bytes`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** The token part of a log URL, and the grant inside it. */
function tokenOf(url: string): { token: string; grant: { kind: string; id: string; exp: number } } {
  const token = new URL(url).pathname.split('/').pop()!;
  return { token, grant: JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) };
}

describe('runs: plan and apply logs through pre-signed URLs', function () {
  this.timeout(120_000);
  let worker: WorkerProcess;
  let owner: TestUser;
  let planUrl: string;
  let applyUrl: string;
  let planId: string;
  let streamed: { data: Buffer; sizes: number[]; emptyReads: number };
  let fullPlan: Buffer;
  let fullApply: Buffer;

  before(async function () {
    if (!terraformAvailable()) this.skip();
    this.timeout(120_000);
    worker = spawnWorkers(['run-pipeline', 'deadline-expiry'], WORKER_ENV);
    await workersReady(worker);
    const org = await createOrg();
    owner = org.owner;
    const ws = await createWorkspace(org);
    await uploadConfig(ws.id, owner.token, { 'main.tf': MAIN_TF });
    const runId = await startRun(ws.id, owner.token, { 'auto-apply': true });
    const run = await api('GET', `/runs/${runId}?include=plan,apply`, { token: owner.token });
    expect(run.status, run.text).to.equal(200);
    const plan = run.body.included.find((r: { type: string }) => r.type === 'plans');
    const apply = run.body.included.find((r: { type: string }) => r.type === 'applies');
    planId = plan.id;
    planUrl = plan.attributes['log-read-url'];
    applyUrl = apply.attributes['log-read-url'];
    // Start reading at once, while the run is still pending or planning.
    streamed = await follow(planUrl, 7);
    const done = await waitForRun(runId, owner.token, ['applied', 'errored', 'canceled'], 90_000);
    expect(done.attributes.status).to.equal('applied');
    fullPlan = (await read(planUrl, 0, 1024 * 1024)).body;
    fullApply = (await read(applyUrl, 0, 1024 * 1024)).body;
  });

  after(async () => {
    await worker?.stop();
  });

  it('hands out log-read-urls on the API base URL, under /v1/logs/', () => {
    for (const url of [planUrl, applyUrl]) {
      expect(url.startsWith(`${harness().baseUrl}/v1/logs/`), url).to.equal(true);
      expect(tokenOf(url).grant.kind).to.equal('log');
    }
    expect(tokenOf(planUrl).grant.id).to.not.equal(tokenOf(applyUrl).grant.id);
  });

  it('rebuilds exactly the complete plan log from 7-byte reads at increasing offsets, streamed while the run executed', async () => {
    expect(streamed.data.equals(fullPlan)).to.equal(true);
    expect(streamed.emptyReads, 'the reader caught up with the writer at least once').to.be.above(0);
    expect(streamed.sizes.every((n) => n >= 1 && n <= 7)).to.equal(true);
    expect(streamed.sizes.reduce((a, b) => a + b, 0)).to.equal(fullPlan.length);
    // Read again once finished: every read but the last is a full 7 bytes.
    const again = await follow(planUrl, 7, 10_000);
    expect(again.data.equals(fullPlan)).to.equal(true);
    expect(again.emptyReads).to.equal(0);
    const rest = fullPlan.length % 7;
    expect(again.sizes).to.deep.equal([...Array(Math.floor(fullPlan.length / 7)).fill(7), ...(rest ? [rest] : [])]);
    expect(fullPlan[0]).to.equal(STX);
    expect(fullPlan[fullPlan.length - 1]).to.equal(ETX);
    expect(fullPlan.indexOf(STX, 1)).to.equal(-1);
    expect(fullPlan.indexOf(ETX)).to.equal(fullPlan.length - 1);
    const text = fullPlan.toString('utf8');
    expect(text).to.include('Plan: 1 to add, 0 to change, 0 to destroy.');
    expect(text).to.include('terraform_data.a will be created');
  });

  it('returns the exact byte range asked for, and an empty 200 at or past the end', async () => {
    const middle = await read(planUrl, 3, 10);
    expect(middle.status).to.equal(200);
    expect(middle.body.equals(fullPlan.subarray(3, 13))).to.equal(true);
    const tail = await read(planUrl, fullPlan.length - 2, 100);
    expect(tail.body.equals(fullPlan.subarray(fullPlan.length - 2))).to.equal(true);
    for (const offset of [fullPlan.length, fullPlan.length + 1, fullPlan.length + 10_000]) {
      const past = await read(planUrl, offset, 7);
      expect(past.status, `offset ${offset}`).to.equal(200);
      expect(past.body.length, `offset ${offset}`).to.equal(0);
    }
  });

  it('needs no token, and ignores an Authorization header that is not valid', async () => {
    const plain = await fetch(`${planUrl}?limit=65536&offset=0`);
    expect(plain.status).to.equal(200);
    expect(Buffer.from(await plain.arrayBuffer()).equals(fullPlan)).to.equal(true);
    const withBadToken = await fetch(`${planUrl}?limit=65536&offset=0`, {
      headers: { Authorization: 'Bearer not-a-token' },
    });
    expect(withBadToken.status).to.equal(200);
    expect(Buffer.from(await withBadToken.arrayBuffer()).equals(fullPlan)).to.equal(true);
  });

  it('refuses a tampered log URL with 403 and sends no log bytes', async () => {
    const { token, grant } = tokenOf(planUrl);
    const [body, mac] = token.split('.');
    const flipped = `${mac.slice(0, 5)}${mac[5] === 'A' ? 'B' : 'A'}${mac.slice(6)}`;
    const otherId = Buffer.from(JSON.stringify({ ...grant, id: tokenOf(applyUrl).grant.id })).toString('base64url');
    const longer = Buffer.from(JSON.stringify({ ...grant, exp: grant.exp + 86_400 })).toString('base64url');
    for (const bad of [`${body}.${flipped}`, `${otherId}.${mac}`, `${longer}.${mac}`]) {
      const res = await fetch(`${harness().baseUrl}/v1/logs/${bad}?limit=65536&offset=0`);
      const text = await res.text();
      expect(res.status, bad).to.equal(403);
      expect(text).to.not.include('Terraform v');
      expect(JSON.parse(text).errors[0].status).to.equal('403');
    }
  });

  it('refuses an expired log URL with 403', async () => {
    const { grant } = tokenOf(planUrl);
    const expired = signGrant(harness().config.encryptionKey, {
      kind: 'log',
      id: grant.id,
      exp: Math.floor(Date.now() / 1000) - 60,
    });
    const res = await fetch(`${harness().baseUrl}/v1/logs/${expired}?limit=65536&offset=0`);
    const text = await res.text();
    expect(res.status).to.equal(403);
    expect(JSON.parse(text).errors[0].detail).to.match(/expired/);
    // The same grant with a future expiry is honoured: only the expiry made the difference.
    const fresh = signGrant(harness().config.encryptionKey, {
      kind: 'log',
      id: grant.id,
      exp: Math.floor(Date.now() / 1000) + 60,
    });
    const ok = await read(`${harness().baseUrl}/v1/logs/${fresh}`, 0, 65536);
    expect(ok.status).to.equal(200);
    expect(ok.body.equals(fullPlan)).to.equal(true);
  });

  it('answers 404 for a signed grant of another kind, an unknown log and a token that is not one', async () => {
    const { grant } = tokenOf(planUrl);
    const exp = Math.floor(Date.now() / 1000) + 60;
    const key = harness().config.encryptionKey;
    const tokens = [
      signGrant(key, { kind: 'object', id: grant.id, exp }),
      signGrant(key, { kind: 'log', id: 'log-doesnotexist', exp }),
      'garbage',
    ];
    for (const token of tokens) {
      const res = await fetch(`${harness().baseUrl}/v1/logs/${token}?limit=10&offset=0`);
      expect(res.status, token).to.equal(404);
    }
  });

  it('starts the apply log, after STX, with the three preamble lines the CLI skips', () => {
    expect(fullApply[0]).to.equal(STX);
    expect(fullApply[fullApply.length - 1]).to.equal(ETX);
    const lines = fullApply
      .subarray(1, fullApply.length - 1)
      .toString('utf8')
      .split('\n');
    expect(lines[0]).to.equal('Terraform v1.11.4');
    expect(lines[1]).to.match(/^on [a-z0-9]+_[a-z0-9]+$/);
    expect(lines[2]).to.equal('Initializing plugins and modules...');
    expect(lines.slice(3).join('\n')).to.include('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect(lines.slice(3).join('\n')).to.not.include('Initializing plugins and modules...');
  });

  it('starts the plan log with the same preamble', () => {
    const lines = fullPlan.subarray(1).toString('utf8').split('\n');
    expect(lines.slice(0, 3).map((l, i) => (i === 1 ? l.replace(/^on \S+$/, 'on PLATFORM') : l))).to.deep.equal([
      'Terraform v1.11.4',
      'on PLATFORM',
      'Initializing plugins and modules...',
    ]);
  });

  it('shows the plan resource with the same log URL it was read from', async () => {
    const res = await api('GET', `/plans/${planId}`, { token: owner.token });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data.attributes.status).to.equal('finished');
    const url = res.body.data.attributes['log-read-url'];
    expect(tokenOf(url).grant.id).to.equal(tokenOf(planUrl).grant.id);
    expect((await read(url, 0, 1024 * 1024)).body.equals(fullPlan)).to.equal(true);
    expectError(await api('GET', `/plans/${planId}`, { token: null }), 401);
  });
});
