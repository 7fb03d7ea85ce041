import { expect } from 'chai';
import { waitFor } from '../helpers/processes.js';
import { api, doc } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { createOrg, createWorkspace, type TestUser } from '../helpers/fixtures.js';
import { startRun, terraformWorkers, uploadConfig, waitForRun } from '../helpers/terraform.js';
import { newPhaseToken, revokePhaseToken } from '../../shared/runs/tokens.js';
import { phaseSourcesOf } from '../../shared/runs/repo.js';
import { createDb } from '../../shared/platform/db.js';

const FINAL = ['applied', 'errored', 'planned_and_finished', 'canceled', 'discarded'];

/** A's configuration: a value in an output (and a sensitive one). */
const SOURCE = `
resource "terraform_data" "v" { input = "hello from A" }
output "greeting" { value = terraform_data.v.output }
output "hidden" {
  value     = "not for consumers' logs"
  sensitive = true
}
`;

/** A configuration that reads `source`'s outputs through this service (the `remote` backend) and outputs one of them. */
const consumer = (hostname: string, organization: string, source: string) => `
data "terraform_remote_state" "src" {
  backend = "remote"
  config = {
    hostname     = "${hostname}"
    organization = "${organization}"
    workspaces   = { name = "${source}" }
  }
}
output "from_source" { value = data.terraform_remote_state.src.outputs.greeting }
`;

describe('remote state sharing from runs (terraform_remote_state with the remote backend)', function () {
  this.timeout(300_000);
  terraformWorkers(['run-pipeline']);

  let org: { name: string; owner: TestUser };
  let token: string;
  let hostname: string;
  const none = { id: '', name: '' };
  const ws: Record<'a' | 'b' | 'c', { id: string; name: string }> = { a: none, b: none, c: none };
  let failedRun = '';
  let bRun = '';

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await api(method, path, { token, ...(body === undefined ? {} : { body }) });
    expect(res.status, `${method} ${path}: ${res.text}`).to.be.within(200, 299);
    return res.body;
  };

  /** The plan's and apply's logs of a run, joined. */
  const logsOf = async (runId: string) => {
    const run = await call('GET', `/runs/${runId}?include=plan,apply`);
    const texts = await Promise.all(
      (run.included ?? []).map(async (r: { attributes: Record<string, string> }) =>
        r.attributes['log-read-url']
          ? (await fetch(`${r.attributes['log-read-url']}?limit=1048576&offset=0`)).text()
          : '',
      ),
    );
    return texts.join('\n----\n');
  };

  const runConfig = async (workspace: { id: string }, files: Record<string, string>) => {
    await uploadConfig(workspace.id, token, files);
    const runId = await startRun(workspace.id, token);
    const run = await waitForRun(runId, token, FINAL, 240_000);
    return { runId, status: run.attributes.status as string, logs: await logsOf(runId) };
  };

  const outputsOf = async (workspaceId: string) =>
    Object.fromEntries(
      (await call('GET', `/workspaces/${workspaceId}/current-state-version-outputs`)).data.map(
        (o: { attributes: { name: string; value: unknown } }) => [o.attributes.name, o.attributes.value],
      ),
    );

  /** The run tokens a run's phases had. */
  const runTokens = (runId: string) =>
    harness()
      .rt.db('authentication_tokens')
      .where({ run_id: runId })
      .orderBy('created_at')
      .select('kind', 'description', 'expired_at', 'last_used_at', harness().rt.db.raw('expired_at <= now() as ended'));

  const tokensOnceEnded = async (runId: string) => {
    await waitFor(async () => (await runTokens(runId)).every((t) => t.ended), `the tokens of ${runId} ended`);
    return runTokens(runId);
  };

  before(async () => {
    org = await createOrg();
    token = org.owner.token;
    hostname = new URL(harness().baseUrl).host;
    ws.a = await createWorkspace(org, { 'auto-apply': true });
    ws.b = await createWorkspace(org, { 'auto-apply': true });
    ws.c = await createWorkspace(org, { 'auto-apply': true });
  });

  it('a workspace applies the outputs others will read', async () => {
    const { status, logs } = await runConfig(ws.a, { 'main.tf': SOURCE });
    expect(status, logs).to.equal('applied');
    expect((await outputsOf(ws.a.id)).greeting).to.equal('hello from A');
  });

  it("a run's plan cannot read a workspace that does not share its state with it (not found)", async () => {
    const { runId, status, logs } = await runConfig(ws.b, { 'main.tf': consumer(hostname, org.name, ws.a.name) });
    failedRun = runId;
    expect(status, logs).to.equal('errored');
    // The backend finds no such workspace (404) and its attempt to create one is refused (404).
    expect(logs).to.match(/error loading the remote state: Error creating workspace [^:]+:\s+resource not found/);
    expect(logs).to.not.include('hello from A');
    // The run's token is never written to its log.
    expect(logs).to.not.include('atlasv1');
    // A phase's token ends as the phase is settled, a moment after the run shows its status.
    const tokens = await tokensOnceEnded(runId);
    expect(tokens).to.have.length(1);
    expect(tokens[0]).to.include({ kind: 'run', description: 'plan phase', ended: true });
    expect(tokens[0].last_used_at).to.not.equal(null);
  });

  it('once the source lists the workspace as a remote state consumer, its run reads the outputs; its tokens end with their phases', async () => {
    await call('POST', `/workspaces/${ws.a.id}/relationships/remote-state-consumers`, {
      data: [{ type: 'workspaces', id: ws.b.id }],
    });
    const { runId, status, logs } = await runConfig(ws.b, { 'main.tf': consumer(hostname, org.name, ws.a.name) });
    bRun = runId;
    expect(status, logs).to.equal('applied');
    expect((await outputsOf(ws.b.id)).from_source).to.equal('hello from A');
    expect(logs).to.not.include('atlasv1');
    expect(logs).to.not.include("not for consumers' logs");
    // One token per phase, each ended when its phase did; the plan's was used (an apply of the
    // saved plan does not read data sources again).
    // A phase's token ends as the phase is settled, a moment after the run shows its status.
    const tokens = await tokensOnceEnded(runId);
    expect(tokens.map((t) => t.description)).to.deep.equal(['plan phase', 'apply phase']);
    for (const t of tokens) expect(t).to.include({ kind: 'run', ended: true });
    expect(tokens[0].last_used_at).to.not.equal(null);
  });

  it('with global remote state, any workspace of the organization reads it', async () => {
    // C is not a consumer: refused first, then read once A shares globally.
    const before = await runConfig(ws.c, { 'main.tf': consumer(hostname, org.name, ws.a.name) });
    expect(before.status, before.logs).to.equal('errored');
    await call('PATCH', `/workspaces/${ws.a.id}`, doc('workspaces', { 'global-remote-state': true }));
    const { status, logs } = await runConfig(ws.c, { 'main.tf': consumer(hostname, org.name, ws.a.name) });
    expect(status, logs).to.equal('applied');
    expect((await outputsOf(ws.c.id)).from_source).to.equal('hello from A');
  });

  it('a run token reads only the states it may read and what the remote backend needs, and nothing once revoked', async () => {
    expect(bRun, 'the consumer run of the earlier test').to.not.equal('');
    const h = harness();
    const minted = newPhaseToken(h.rt, bRun, 'plan');
    await minted.insert;
    const as = (method: string, path: string, body?: unknown) =>
      api(method, path, { token: minted.secret, ...(body === undefined ? {} : { body }) });

    // What the remote backend reads: entitlements, the workspace by name, its current state and its download.
    expect((await as('GET', `/organizations/${org.name}/entitlement-set`)).status).to.equal(200);
    const byName = await as('GET', `/organizations/${org.name}/workspaces/${ws.a.name}`);
    expect(byName.status, byName.text).to.equal(200);
    expect(byName.body.data.id).to.equal(ws.a.id);
    expect(
      (await as('GET', `/organizations/${org.name}/workspaces/${ws.b.name}`)).status,
      'its own workspace',
    ).to.equal(200);
    const current = await as('GET', `/workspaces/${ws.a.id}/current-state-version`);
    expect(current.status, current.text).to.equal(200);
    const download = current.body.data.attributes['hosted-state-download-url'] as string;
    expect(download.startsWith(`${h.config.runApiUrl}/`), download).to.equal(true);
    expect(current.body.data.attributes['hosted-state-upload-url'] ?? null).to.equal(null);
    // Fetched here through the API's own address (the tests reach loopback only).
    const state = (await (await fetch(h.baseUrl + download.slice(h.config.runApiUrl.length))).json()) as {
      outputs: Record<string, { value: unknown }>;
    };
    expect(state.outputs.greeting.value).to.equal('hello from A');
    expect((await as('GET', `/workspaces/${ws.a.id}/current-state-version-outputs`)).status).to.equal(200);

    // C has a state but does not share it with B: 404, as for a workspace that does not exist.
    expect((await api('GET', `/workspaces/${ws.c.id}/current-state-version`, { token })).status).to.equal(200);
    expect((await as('GET', `/workspaces/${ws.c.id}/current-state-version`)).status).to.equal(404);
    expect((await as('GET', `/workspaces/${ws.c.id}/current-state-version-outputs`)).status).to.equal(404);
    expect((await as('GET', `/organizations/${org.name}/workspaces/${ws.c.name}`)).status).to.equal(404);
    expect((await as('GET', `/organizations/another-org/entitlement-set`)).status).to.equal(404);
    expect((await as('GET', `/organizations/${org.name}/workspaces/no-such-workspace`)).status).to.equal(404);

    // Everything else is a 404, whatever the workspace.
    const refused: [string, string, unknown?][] = [
      ['GET', '/organizations'],
      ['GET', `/organizations/${org.name}`],
      ['GET', `/organizations/${org.name}/workspaces`],
      ['POST', `/organizations/${org.name}/workspaces`, doc('workspaces', { name: 'made-by-a-run' })],
      ['DELETE', `/organizations/${org.name}/workspaces/${ws.a.name}`],
      ['GET', `/workspaces/${ws.a.id}`],
      ['GET', `/workspaces/${ws.b.id}`],
      ['GET', `/workspaces/${ws.a.id}/state-versions`],
      ['GET', `/state-versions?filter[workspace][name]=${ws.a.name}&filter[organization][name]=${org.name}`],
      ['GET', `/state-versions/${current.body.data.id}`],
      ['POST', `/workspaces/${ws.b.id}/actions/lock`],
      ['POST', `/workspaces/${ws.b.id}/state-versions`, doc('state-versions', { serial: 99, md5: '0'.repeat(32) })],
      ['GET', `/workspaces/${ws.b.id}/vars`],
      ['GET', `/runs/${bRun}`],
      ['GET', `/workspaces/${ws.a.id}/relationships/remote-state-consumers`],
      ['GET', '/account/details'],
    ];
    for (const [method, path, body] of refused) {
      const res = await as(method, path, body);
      expect(res.status, `${method} ${path}: ${res.text}`).to.equal(404);
    }

    // Revoked (its phase ended): not a token any more.
    await revokePhaseToken(h.rt, minted.id);
    expect((await as('GET', `/organizations/${org.name}/entitlement-set`)).status).to.equal(401);
    expect((await as('GET', `/workspaces/${ws.a.id}/current-state-version`)).status).to.equal(401);
    expect(failedRun).to.not.equal('');
  });

  it("the statement that reads a phase's sources writes its token, and leaves its connection committing synchronously", async () => {
    expect(bRun, 'the consumer run of an earlier test').to.not.equal('');
    const h = harness();
    // One connection, so the statement that wrote the token without waiting for the log ran on the connection asked afterwards.
    const one = createDb(h.rt.config.databaseUrl, 1, 16);
    try {
      const minted = newPhaseToken(h.rt, bRun, 'plan');
      const sources = await phaseSourcesOf(one, bRun, minted);
      expect(sources?.workspace_id).to.equal(ws.b.id);
      const as = (path: string) => api('GET', path, { token: minted.secret });
      expect((await as(`/organizations/${org.name}/entitlement-set`)).status).to.equal(200);
      const shown = (await one.raw('show synchronous_commit')) as { rows: { synchronous_commit: string }[] };
      expect(shown.rows[0].synchronous_commit).to.equal('on');
      await revokePhaseToken(h.rt, minted.id);
      expect((await as(`/organizations/${org.name}/entitlement-set`)).status).to.equal(401);
    } finally {
      await one.destroy();
    }
  });
});
