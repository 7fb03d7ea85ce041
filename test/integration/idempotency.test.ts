import { request } from 'node:http';
import { expect } from 'chai';
import { api, doc, expectError } from '../helpers/api.js';
import {
  createCv,
  createOrg,
  createWorkspace,
  memberWithAccess,
  putArchive,
  tarGz,
  uniq,
  type TestUser,
} from '../helpers/fixtures.js';
import { harness } from '../helpers/harness.js';
import { uploadConfig } from '../helpers/terraform.js';

const MAIN_TF = 'output "ok" { value = true }\n';
const runBody = (wsId: string, cvId: string, message = 'queued with a key') =>
  doc(
    'runs',
    { message },
    {
      workspace: { data: { type: 'workspaces', id: wsId } },
      'configuration-version': { data: { type: 'configuration-versions', id: cvId } },
    },
  );
const postRun = (token: string, body: unknown, key?: string) =>
  api('POST', '/runs', { token, body, headers: key ? { 'Idempotency-Key': key } : {} });
const runsOf = async (wsId: string) =>
  Number((await harness().rt.db('runs').where({ workspace_id: wsId }).count<{ n: string }[]>('* as n'))[0].n);

/** Sends POST /runs with `key` and drops the connection `afterMs` after the body went out, never reading the answer. */
function postAndCutOff(token: string, body: unknown, key: string, afterMs: number): Promise<void> {
  const url = new URL(`${harness().baseUrl}/api/v2/runs`);
  const payload = JSON.stringify(body);
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/vnd.api+json',
        'Content-Length': Buffer.byteLength(payload),
        'Idempotency-Key': key,
      },
    });
    req.on('error', () => resolve());
    req.on('response', (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.end(payload, () => setTimeout(() => (req.destroy(), resolve()), afterMs));
  });
}

describe('idempotency keys on run and configuration version creation', function () {
  this.timeout(60_000);
  let org: { name: string; owner: TestUser };
  let token: string;
  let wsId: string;
  let cvId: string;

  beforeEach(async () => {
    org = await createOrg();
    token = org.owner.token;
    wsId = (await createWorkspace(org)).id;
    cvId = await uploadConfig(wsId, token, { 'main.tf': MAIN_TF });
    // Locked, so the runs wait in pending and no worker spends time on them.
    expect((await api('POST', `/workspaces/${wsId}/actions/lock`, { token, body: {} })).status).to.equal(200);
  });

  it('a retry with the same key gets the run the first request made, marked as replayed; without a key each request makes a run', async () => {
    const key = uniq('key');
    const first = await postRun(token, runBody(wsId, cvId), key);
    expect(first.status, first.text).to.equal(201);
    expect(first.headers.get('idempotent-replayed')).to.equal(null);
    const again = await postRun(token, runBody(wsId, cvId), key);
    expect(again.status, again.text).to.equal(201);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body.data.id).to.equal(first.body.data.id);
    expect(again.body.data.attributes.message).to.equal('queued with a key');
    expect(await runsOf(wsId)).to.equal(1);

    // Clients that send no key keep today's behaviour.
    for (const _ of [1, 2]) expect((await postRun(token, runBody(wsId, cvId))).status).to.equal(201);
    expect(await runsOf(wsId)).to.equal(3);
  });

  it('requests cut off in flight and retried with their key make exactly one run each', async () => {
    const keys = Array.from({ length: 12 }, (_, i) => `${uniq('cut')}-${i}`);
    for (const [i, key] of keys.entries()) await postAndCutOff(token, runBody(wsId, cvId, key), key, i % 4);
    const ids = new Set<string>();
    let replayed = 0;
    for (const key of keys) {
      const retry = await postRun(token, runBody(wsId, cvId, key), key);
      expect(retry.status, retry.text).to.equal(201);
      expect(retry.body.data.attributes.message).to.equal(key);
      ids.add(retry.body.data.id);
      if (retry.headers.get('idempotent-replayed') === 'true') replayed++;
    }
    expect(ids.size).to.equal(keys.length);
    // Some of the cut-off requests had committed their run: those retries found it.
    expect(replayed).to.be.at.least(1);
    expect(await runsOf(wsId)).to.equal(keys.length);
  });

  it('concurrent requests with one key make one run, and all of them answer with it', async () => {
    const key = uniq('together');
    const answers = await Promise.all(Array.from({ length: 8 }, () => postRun(token, runBody(wsId, cvId), key)));
    for (const a of answers) expect(a.status, a.text).to.equal(201);
    expect(new Set(answers.map((a) => a.body.data.id)).size).to.equal(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true').length).to.equal(7);
    expect(await runsOf(wsId)).to.equal(1);
  });

  it('a key reused for another request is refused with 422 and writes nothing; a bad key is refused with 400', async () => {
    const key = uniq('reuse');
    expect((await postRun(token, runBody(wsId, cvId, 'first'), key)).status).to.equal(201);
    expectError(await postRun(token, runBody(wsId, cvId, 'second'), key), 422, /different request/);
    expectError(await postRun(token, runBody(wsId, cvId), 'x'.repeat(256)), 400, /Idempotency-Key/);
    expectError(await postRun(token, runBody(wsId, cvId), 'has space'), 400, /Idempotency-Key/);
    expect(await runsOf(wsId)).to.equal(1);
  });

  it("a key belongs to its sender: another user's request with the same key makes a run of its own and learns nothing of the first", async () => {
    const key = uniq('shared');
    const other = await memberWithAccess(org, wsId, 'write');
    const mine = await postRun(token, runBody(wsId, cvId), key);
    const theirs = await postRun(other.token, runBody(wsId, cvId), key);
    expect([mine.status, theirs.status]).to.deep.equal([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).to.equal(null);
    expect(theirs.body.data.id).to.not.equal(mine.body.data.id);
    expect(await runsOf(wsId)).to.equal(2);
  });

  it('a configuration version created twice with one key is one version, whose upload URL still works', async () => {
    const key = uniq('cv');
    const create = () =>
      api('POST', `/workspaces/${wsId}/configuration-versions`, {
        token,
        body: doc('configuration-versions', { 'auto-queue-runs': false }),
        headers: { 'Idempotency-Key': key },
      });
    const before = Number(
      (
        await harness().rt.db('configuration_versions').where({ workspace_id: wsId }).count<{ n: string }[]>('* as n')
      )[0].n,
    );
    const [first, again] = [await create(), await create()];
    expect([first.status, again.status]).to.deep.equal([201, 201]);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body.data.id).to.equal(first.body.data.id);
    const put = await putArchive(again.body.data.attributes['upload-url'], await tarGz({ 'main.tf': MAIN_TF }));
    expect(put.status, put.text).to.equal(200);
    const after = Number(
      (
        await harness().rt.db('configuration_versions').where({ workspace_id: wsId }).count<{ n: string }[]>('* as n')
      )[0].n,
    );
    expect(after).to.equal(before + 1);
    // The same version through the ordinary helper's path: a different request (no key) is a new one.
    const plain = await createCv(wsId, token, { 'auto-queue-runs': false });
    expect(plain.id).to.not.equal(first.body.data.id);
  });
});
