import { expect } from 'chai';
import { createHash, randomUUID } from 'node:crypto';
import { api, doc, expectError, type ApiResponse } from '../helpers/api.js';
import {
  createCv,
  createOrg,
  createWorkspace,
  memberWithAccess,
  onTestServer,
  putArchive,
  tarGz,
} from '../helpers/fixtures.js';
import { freePort, harness, startSecondApp } from '../helpers/harness.js';
import { scrapeMetrics, total } from '../helpers/metrics.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';

type Org = Awaited<ReturnType<typeof createOrg>>;

const DELETE_OLDERS = 'data-retention-policy-delete-olders';
const DONT_DELETES = 'data-retention-policy-dont-deletes';
const deleteOlder = (days: number) => doc(DELETE_OLDERS, { 'delete-older-than-n-days': days });
// What go-tfe sends for a dont-delete policy: a type and nothing else.
const DONT_DELETE = { data: { type: DONT_DELETES } };

const policyPath = (holder: string) => `${holder}/relationships/data-retention-policy`;
const setPolicy = (holder: string, token: string, body: unknown, method = 'POST') =>
  api(method, policyPath(holder), { token, body });
const readPolicy = (holder: string, token: string) => api('GET', policyPath(holder), { token });

/** The relationships by which an organization or a workspace document names its policy. */
const namedPolicy = (res: ApiResponse) => {
  expect(res.status, res.text).to.equal(200);
  const rel = res.body.data.relationships;
  expect(rel['data-retention-policy-choice']).to.deep.equal(rel['data-retention-policy']);
  return rel['data-retention-policy'].data as { type: string; id: string } | null;
};

describe('data retention policies: the API', function () {
  this.timeout(60_000);
  let org: Org;
  let token: string;

  beforeEach(async () => {
    org = await createOrg();
    token = org.owner.token;
  });

  for (const kind of ['organization', 'workspace'] as const) {
    it(`sets, changes, replaces and removes ${kind === 'organization' ? "an organization's" : "a workspace's"} policy as go-tfe does, and the ${kind} names it`, async () => {
      const holder =
        kind === 'organization' ? `/organizations/${org.name}` : `/workspaces/${(await createWorkspace(org)).id}`;
      const target =
        kind === 'organization'
          ? { type: 'organizations', id: org.name }
          : { type: 'workspaces', id: holder.split('/')[2] };
      expect(namedPolicy(await api('GET', holder, { token }))).to.equal(null);
      expectError(await readPolicy(holder, token), 404);

      const created = await setPolicy(holder, token, deleteOlder(33));
      expect(created.status, created.text).to.equal(201);
      const id = created.body.data.id as string;
      expect(id).to.match(/^drp-[1-9A-HJ-NP-Za-km-z]{16}$/);
      expect(created.body.data).to.deep.equal({
        type: DELETE_OLDERS,
        id,
        attributes: { 'delete-older-than-n-days': 33 },
        relationships: { target: { data: target } },
      });
      expect((await readPolicy(holder, token)).body.data).to.deep.equal(created.body.data);
      expect(namedPolicy(await api('GET', holder, { token }))).to.deep.equal({ type: DELETE_OLDERS, id });

      // The same kind again changes the policy in place: same id, 200.
      const changed = await setPolicy(holder, token, deleteOlder(1));
      expect(changed.status, changed.text).to.equal(200);
      expect(changed.body.data).to.include({ id, type: DELETE_OLDERS });
      expect(changed.body.data.attributes).to.deep.equal({ 'delete-older-than-n-days': 1 });

      // Another kind replaces it with a new policy.
      const kept = await setPolicy(holder, token, DONT_DELETE);
      expect(kept.status, kept.text).to.equal(201);
      expect(kept.body.data).to.deep.include({ type: DONT_DELETES, attributes: {} });
      expect(kept.body.data.id).to.match(/^drp-/).and.not.equal(id);
      expect(namedPolicy(await api('GET', holder, { token }))).to.deep.equal({
        type: DONT_DELETES,
        id: kept.body.data.id,
      });
      expect((await readPolicy(holder, token)).body.data.type).to.equal(DONT_DELETES);

      const removed = await api('DELETE', policyPath(holder), { token });
      expect(removed.status, removed.text).to.equal(204);
      expectError(await readPolicy(holder, token), 404);
      expect(namedPolicy(await api('GET', holder, { token }))).to.equal(null);
      expectError(await api('DELETE', policyPath(holder), { token }), 404);
    });
  }

  it("shows on a workspace only its own policy, not the organization's it follows", async () => {
    const ws = await createWorkspace(org);
    expect((await setPolicy(`/organizations/${org.name}`, token, deleteOlder(30))).status).to.equal(201);
    expect(namedPolicy(await api('GET', `/workspaces/${ws.id}`, { token }))).to.equal(null);
    expectError(await readPolicy(`/workspaces/${ws.id}`, token), 404);
    const listed = await api('GET', `/organizations/${org.name}/workspaces`, { token });
    expect(listed.body.data[0].relationships['data-retention-policy']).to.deep.equal({ data: null });
  });

  it("answers a policy set in the legacy type (PATCH, as go-tfe's deprecated call sends it) in that type, and reads it back as delete-older", async () => {
    const holder = `/organizations/${org.name}`;
    const legacy = await setPolicy(
      holder,
      token,
      doc('data-retention-policies', { 'delete-older-than-n-days': 12 }),
      'PATCH',
    );
    expect(legacy.status, legacy.text).to.equal(201);
    expect(legacy.body.data).to.deep.include({
      type: 'data-retention-policies',
      attributes: { 'delete-older-than-n-days': 12 },
    });
    const read = await readPolicy(holder, token);
    expect(read.body.data).to.deep.include({
      type: DELETE_OLDERS,
      id: legacy.body.data.id,
      attributes: { 'delete-older-than-n-days': 12 },
    });
    // go-tfe reads the organization's relationship, then the policy, to fill its choice type.
    expect(namedPolicy(await api('GET', holder, { token }))).to.deep.equal({
      type: DELETE_OLDERS,
      id: legacy.body.data.id,
    });
  });

  it('refuses a malformed policy with a 422 naming what is wrong, and changes nothing', async () => {
    const ws = await createWorkspace(org);
    const holder = `/workspaces/${ws.id}`;
    expect((await setPolicy(holder, token, deleteOlder(7))).status).to.equal(201);
    const before = (await readPolicy(holder, token)).body;
    const refused: [unknown, RegExp][] = [
      [doc(DELETE_OLDERS, {}), /delete-older-than-n-days is required/],
      [deleteOlder(0), /delete-older-than-n-days/],
      [deleteOlder(2.5), /delete-older-than-n-days/],
      [doc(DELETE_OLDERS, { 'delete-older-than-n-days': '10' }), /delete-older-than-n-days/],
      [deleteOlder(36_501), /delete-older-than-n-days/],
      [doc(DONT_DELETES, { 'delete-older-than-n-days': 10 }), /has no delete-older-than-n-days/],
      [doc('data-retention-policy-delete-everythings', {}), /data\.type must be one of/],
      [{ data: null }, /data/],
    ];
    for (const [body, detail] of refused) {
      const res = await setPolicy(holder, token, body);
      expectError(res, 422, detail);
    }
    expect((await readPolicy(holder, token)).body).to.deep.equal(before);
  });

  it("lets owners change an organization's policy and workspace admins a workspace's; members read them; outsiders get 404 and change nothing", async () => {
    const ws = await createWorkspace(org);
    const orgHolder = `/organizations/${org.name}`;
    const wsHolder = `/workspaces/${ws.id}`;
    expect((await setPolicy(orgHolder, token, deleteOlder(30))).status).to.equal(201);
    expect((await setPolicy(wsHolder, token, DONT_DELETE)).status).to.equal(201);
    const before = { org: (await readPolicy(orgHolder, token)).body, ws: (await readPolicy(wsHolder, token)).body };
    const unchanged = async () =>
      expect({
        org: (await readPolicy(orgHolder, token)).body,
        ws: (await readPolicy(wsHolder, token)).body,
      }).to.deep.equal(before);

    // The owner of another organization tries to shorten this one's retention, and to remove it.
    const outsider = (await createOrg()).owner.token;
    for (const holder of [orgHolder, wsHolder]) {
      expectError(await readPolicy(holder, outsider), 404);
      expectError(await setPolicy(holder, outsider, deleteOlder(1)), 404);
      expectError(await setPolicy(holder, outsider, deleteOlder(1), 'PATCH'), 404);
      expectError(await api('DELETE', policyPath(holder), { token: outsider }), 404);
    }
    expectError(await readPolicy(orgHolder, 'not-a-token'), 401);
    await unchanged();

    // A member with read access reads both and changes neither.
    const reader = await memberWithAccess(org, ws.id, 'read');
    expect((await readPolicy(orgHolder, reader.token)).status).to.equal(200);
    expect((await readPolicy(wsHolder, reader.token)).status).to.equal(200);
    for (const holder of [orgHolder, wsHolder]) {
      expectError(await setPolicy(holder, reader.token, deleteOlder(1)), 404);
      expectError(await api('DELETE', policyPath(holder), { token: reader.token }), 404);
    }
    // A workspace admin changes the workspace's policy, not the organization's.
    const admin = await memberWithAccess(org, ws.id, 'admin');
    expectError(await setPolicy(orgHolder, admin.token, deleteOlder(1)), 404);
    expectError(await api('DELETE', policyPath(orgHolder), { token: admin.token }), 404);
    await unchanged();
    expect((await setPolicy(wsHolder, admin.token, deleteOlder(90))).status).to.equal(201);
    expect((await api('DELETE', policyPath(wsHolder), { token: admin.token })).status).to.equal(204);
  });

  it('does not exist in the standard edition (404, nothing changes)', async () => {
    const ws = await createWorkspace(org);
    expect((await setPolicy(`/workspaces/${ws.id}`, token, deleteOlder(5))).status).to.equal(201);
    const app = await startSecondApp({ EDITION: 'standard' });
    try {
      for (const holder of [`${app.api}/organizations/${org.name}`, `${app.api}/workspaces/${ws.id}`]) {
        expectError(await readPolicy(holder, token), 404);
        expectError(await setPolicy(holder, token, deleteOlder(1)), 404);
        expectError(await api('DELETE', policyPath(holder), { token }), 404);
      }
    } finally {
      await app.close();
    }
    expect((await readPolicy(`/workspaces/${ws.id}`, token)).body.data.attributes).to.deep.equal({
      'delete-older-than-n-days': 5,
    });
  });
});

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const DAY_MS = 86_400_000;

/** Makes a version `days` old. Only its age is arranged in the database: the API has no way to create a version in the past. */
async function age(table: 'state_versions' | 'configuration_versions', id: string, days: number): Promise<void> {
  await harness()
    .rt.db(table)
    .where({ id })
    .update({ created_at: new Date(Date.now() - days * DAY_MS) });
}

/** Pushes states 1..n into a workspace through the API (lock, create, unlock); their ids, the last one current. */
async function pushStates(wsId: string, token: string, n: number): Promise<{ id: string; state: Buffer }[]> {
  expect((await api('POST', `/workspaces/${wsId}/actions/lock`, { token, body: {} })).status).to.equal(200);
  const lineage = randomUUID();
  const out: { id: string; state: Buffer }[] = [];
  for (let serial = 1; serial <= n; serial++) {
    const state = Buffer.from(
      JSON.stringify({
        version: 4,
        terraform_version: '1.11.4',
        serial,
        lineage,
        outputs: { n: { value: serial, type: 'number' } },
        resources: [],
      }),
    );
    const res = await api('POST', `/workspaces/${wsId}/state-versions`, {
      token,
      body: doc('state-versions', { serial, lineage, md5: md5(state), state: state.toString('base64') }),
    });
    expect(res.status, res.text).to.equal(201);
    out.push({ id: res.body.data.id, state });
  }
  expect((await api('POST', `/workspaces/${wsId}/actions/unlock`, { token, body: {} })).status).to.equal(200);
  return out;
}

/** An uploaded configuration version that queues no run. */
async function uploadedCv(wsId: string, token: string): Promise<string> {
  const cv = await createCv(wsId, token, { 'auto-queue-runs': false });
  expect((await putArchive(cv.uploadUrl, await tarGz({ 'main.tf': `# ${cv.id}\n` }))).status).to.equal(200);
  return cv.id;
}

/** What a client gets of a state version: its status, and whether its download URL (taken before the sweep) still serves the state. */
async function stateAsSeen(
  sv: { id: string; state: Buffer },
  url: string,
  token: string,
): Promise<{ status: string; download: number; same?: boolean }> {
  const shown = await api('GET', `/state-versions/${sv.id}`, { token });
  expect(shown.status, shown.text).to.equal(200);
  const res = await fetch(await onTestServer(url));
  const body = Buffer.from(await res.arrayBuffer());
  return {
    status: shown.body.data.attributes.status,
    download: res.status,
    ...(res.status === 200 ? { same: body.equals(sv.state) } : {}),
  };
}

/** What a client gets of a configuration version: the version (200, or 404 once its data is gone) and its download (302, or 404). */
async function cvAsSeen(id: string, token: string): Promise<{ read: number; download: number }> {
  return {
    read: (await api('GET', `/configuration-versions/${id}`, { token })).status,
    download: (await api('GET', `/configuration-versions/${id}/download`, { token })).status,
  };
}

describe('data retention policies: enforced by the sweep', function () {
  this.timeout(120_000);
  let worker: WorkerProcess | undefined;

  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });

  it("deletes the backing data of versions past the policy in force (the workspace's own first), never the current, recent, in-use or dont-delete ones", async () => {
    const h = harness();
    const org = await createOrg();
    const token = org.owner.token;
    // The organization keeps 30 days. `follows` has no policy of its own; `short` keeps 10 days;
    // `keeps` does not delete. `elsewhere` is in an organization without a policy.
    expect((await setPolicy(`/organizations/${org.name}`, token, deleteOlder(30))).status).to.equal(201);
    const follows = await createWorkspace(org);
    const short = await createWorkspace(org);
    const keeps = await createWorkspace(org);
    expect((await setPolicy(`/workspaces/${short.id}`, token, deleteOlder(10))).status).to.equal(201);
    expect((await setPolicy(`/workspaces/${keeps.id}`, token, DONT_DELETE)).status).to.equal(201);
    const other = await createOrg();
    const elsewhere = await createWorkspace(other);

    const [fOld, fRecent, fCurrent] = await pushStates(follows.id, token, 3);
    const [sOld, sCurrent] = await pushStates(short.id, token, 2);
    const [kOld, kCurrent] = await pushStates(keeps.id, token, 2);
    const [eOld, eCurrent] = await pushStates(elsewhere.id, other.owner.token, 2);
    await age('state_versions', fOld.id, 40);
    await age('state_versions', fRecent.id, 20);
    await age('state_versions', fCurrent.id, 40);
    await age('state_versions', sOld.id, 20);
    await age('state_versions', sCurrent.id, 40);
    for (const sv of [kOld, kCurrent]) await age('state_versions', sv.id, 400);
    for (const sv of [eOld, eCurrent]) await age('state_versions', sv.id, 400);

    // Configuration versions of `follows`: an old one, an old one a queued run uses (no worker runs
    // it), a recent one, and the current one (old too). `keeps` has an old one besides its current.
    const cvOld = await uploadedCv(follows.id, token);
    const cvInUse = await uploadedCv(follows.id, token);
    const run = await api('POST', '/runs', {
      token,
      body: doc(
        'runs',
        {},
        {
          workspace: { data: { type: 'workspaces', id: follows.id } },
          'configuration-version': { data: { type: 'configuration-versions', id: cvInUse } },
        },
      ),
    });
    expect(run.status, run.text).to.equal(201);
    const cvRecent = await uploadedCv(follows.id, token);
    const cvCurrent = await uploadedCv(follows.id, token);
    const cvKept = await uploadedCv(keeps.id, token);
    const cvKeptCurrent = await uploadedCv(keeps.id, token);
    for (const id of [cvOld, cvInUse, cvCurrent, cvKept, cvKeptCurrent]) await age('configuration_versions', id, 45);

    // Download URLs handed out before the sweep (an owner's read carries them).
    const all = [fOld, fRecent, fCurrent, sOld, sCurrent, kOld, kCurrent, eOld, eCurrent];
    const urls = new Map<string, string>();
    for (const sv of all) {
      const owner = [eOld, eCurrent].includes(sv) ? other.owner.token : token;
      urls.set(
        sv.id,
        (await api('GET', `/state-versions/${sv.id}`, { token: owner })).body.data.attributes[
          'hosted-state-download-url'
        ],
      );
    }

    const port = await freePort();
    worker = spawnWorkers(['deadline-expiry'], {
      RECONCILE_INTERVAL_MS: '500',
      DATA_RETENTION_INTERVAL_SECONDS: '1',
      METRICS_PORT: String(port),
    });
    await workersReady(worker);
    await waitFor(
      async () =>
        (await api('GET', `/state-versions/${sOld.id}`, { token })).body.data.attributes.status ===
          'backing_data_permanently_deleted' && (await cvAsSeen(cvOld, token)).read === 404,
      () => `the sweep to delete the old versions' data; worker output:\n${worker!.output()}`,
      30_000,
    );

    const gone = { status: 'backing_data_permanently_deleted', download: 404 };
    const intact = (status = 'finalized') => ({ status, download: 200, same: true });
    const seen = async (sv: { id: string; state: Buffer }) =>
      stateAsSeen(sv, urls.get(sv.id)!, [eOld, eCurrent].includes(sv) ? other.owner.token : token);
    expect(await seen(fOld), "past the organization's 30 days").to.deep.equal(gone);
    expect(await seen(fRecent), "within the organization's 30 days").to.deep.equal(intact());
    expect(await seen(fCurrent), 'current').to.deep.equal(intact());
    expect(await seen(sOld), "past the workspace's own 10 days").to.deep.equal(gone);
    expect(await seen(sCurrent), 'current').to.deep.equal(intact());
    for (const sv of [kOld, kCurrent]) expect(await seen(sv), 'dont-delete').to.deep.equal(intact());
    for (const sv of [eOld, eCurrent]) expect(await seen(sv), 'no policy').to.deep.equal(intact());
    // The deleted version's record stays, without its outputs, as after a permanent delete by hand.
    const deleted = (await api('GET', `/state-versions/${fOld.id}`, { token })).body.data;
    expect(deleted.attributes['hosted-state-download-url']).to.equal(null);
    expect(deleted.relationships.outputs.data).to.deep.equal([]);
    expect((await api('GET', `/workspaces/${follows.id}/current-state-version`, { token })).body.data.id).to.equal(
      fCurrent.id,
    );

    expect(await cvAsSeen(cvOld, token), 'past retention').to.deep.equal({ read: 404, download: 404 });
    for (const [id, why] of [
      [cvInUse, 'a queued run uses it'],
      [cvRecent, 'recent'],
      [cvCurrent, 'current'],
      [cvKept, 'dont-delete'],
      [cvKeptCurrent, 'dont-delete'],
    ]) {
      expect(await cvAsSeen(id, token), why).to.deep.equal({ read: 200, download: 302 });
    }
    expect(
      await h.rt.db('configuration_versions').where({ id: cvOld }).first('status', 'archive_object_id'),
    ).to.deep.equal({ status: 'backing_data_permanently_deleted', archive_object_id: null });

    // What went is logged and counted.
    await waitFor(() => worker!.output().includes('"data retention deleted backing data"'), 'the log line');
    const line = JSON.parse(
      worker
        .output()
        .split('\n')
        .find((l) => l.includes('"data retention deleted backing data"'))!,
    );
    expect(line).to.include({ stateVersions: 2, configurationVersions: 1 });
    expect([...line.stateVersionIds].sort()).to.deep.equal([fOld.id, sOld.id].sort());
    expect(line.configurationVersionIds).to.deep.equal([cvOld]);
    const samples = await scrapeMetrics(`http://127.0.0.1:${port}/metrics`, h.config.metricsToken);
    expect(total(samples, 'rls_data_retention_deletions_total', { kind: 'state_version' })).to.equal(2);
    expect(total(samples, 'rls_data_retention_deletions_total', { kind: 'configuration_version' })).to.equal(1);

    // Once its run is over, the version it used goes at the next pass too.
    const canceled = await api('POST', `/runs/${run.body.data.id}/actions/cancel`, { token, body: {} });
    expect(canceled.status, canceled.text).to.equal(202);
    await waitFor(
      async () => (await cvAsSeen(cvInUse, token)).read === 404,
      () => `the version of the finished run to go; worker output:\n${worker!.output()}`,
      30_000,
    );
  });
});
