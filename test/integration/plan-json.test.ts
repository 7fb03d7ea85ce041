import { expect } from 'chai';
import { api, expectError } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { createOrg, createWorkspace, memberWithAccess, uniq } from '../helpers/fixtures.js';
import { createPolicy, createPolicySet, linkages, uploadCode } from '../helpers/policy-fixtures.js';
import { policyRuntimeEnv, sentinelPolicy } from '../helpers/policy-runtimes.js';
import { readWholeLog } from '../helpers/module-tests.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startRun, terraformAvailable, uploadConfig, waitForRun } from '../helpers/terraform.js';
import { readAll } from '../../shared/platform/store/postgres-store.js';
import { truncationLine } from '../../shared/platform/logs.js';

type Org = Awaited<ReturnType<typeof createOrg>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const SECRET = 'hunter2-do-not-show';

/** A plan whose JSON carries sensitive values: a sensitive variable's value, a resource input and an output made of it. */
const SENSITIVE_TF = `
variable "password" {
  type      = string
  sensitive = true
  default   = "${SECRET}"
}

resource "terraform_data" "db" {
  input = { user = "admin", password = var.password }
}

output "visible" {
  value = "plain-value"
}

output "password" {
  value     = var.password
  sensitive = true
}
`;

/** A plan whose JSON form is larger than `bytes` (an output of that many characters). */
const bigOutputTf = (bytes: number) => `
resource "terraform_data" "a" {
  input = "x"
}

output "big" {
  value = "${'b'.repeat(bytes)}"
}
`;

/**
 * A plan whose JSON form is larger than `bytes`, from a small configuration: an output of that
 * many characters made by Terraform itself (the configuration's files stay a few bytes, so the
 * run's directory grows only with what Terraform writes).
 */
const generatedOutputTf = (bytes: number) => `
resource "terraform_data" "a" {
  input = "x"
}

output "big" {
  value = format("%0${bytes}d", 0)
}
`;

/** A plan whose log is long: `n` resources, each listed in the plan's output. */
const manyResourcesTf = (n: number) => `
resource "terraform_data" "r" {
  count = ${n}
  input = "resource number \${count.index} of a plan with a long log"
}
`;

const FINAL = ['planned', 'planned_and_finished', 'applied', 'errored', 'canceled', 'discarded'];

/** The plan row as stored (the database, not the API: what was stored before any request). */
const planRow = (planId: string) => harness().rt.db('plans').where({ id: planId }).first();

async function planOf(runId: string, token: string): Promise<Doc> {
  const res = await api('GET', `/runs/${runId}?include=plan`, { token });
  expect(res.status, res.text).to.equal(200);
  return res.body.included.find((r: Doc) => r.type === 'plans');
}

describe('plan JSON: stored redacted, streamed, and limited', function () {
  this.timeout(180_000);
  let worker: WorkerProcess | undefined;
  let org: Org;

  /** One run-pipeline worker at a time, each test with its own limits. */
  const startWorker = async (env: Record<string, string> = {}) => {
    await worker?.stop();
    worker = spawnWorkers(['run-pipeline'], env);
    await workersReady(worker);
  };

  /** Uploads `files` to a new workspace, starts a run and waits for it to end its plan. */
  async function planned(
    files: Record<string, string>,
    wanted = 'planned',
  ): Promise<{ runId: string; wsId: string; plan: Doc }> {
    const ws = await createWorkspace(org);
    await uploadConfig(ws.id, org.owner.token, files);
    const runId = await startRun(ws.id, org.owner.token);
    const run = await waitForRun(runId, org.owner.token, FINAL, 120_000);
    const plan = await planOf(runId, org.owner.token);
    if (run.attributes.status !== wanted) {
      const log = await readWholeLog(plan.attributes['log-read-url']);
      expect.fail(`run ${runId} is ${run.attributes.status}, expected ${wanted}\n${log}`);
    }
    return { runId, wsId: ws.id, plan };
  }

  before(async function () {
    if (!terraformAvailable()) this.skip();
    org = await createOrg();
  });
  after(async () => {
    await worker?.stop();
  });

  describe('with the default limits', () => {
    let planId: string;
    let wsId: string;
    let stored: string;

    before(async () => {
      await startWorker();
      const made = await planned({ 'main.tf': SENSITIVE_TF });
      planId = made.plan.id;
      wsId = made.wsId;
    });

    it('stores the redacted JSON plan when the plan finishes, before anyone asks for it', async () => {
      const row = await planRow(planId);
      expect(row.json_object_id).to.be.a('string');
      expect(row.redacted_object_id).to.be.a('string');
      expect(row.redacted_object_id).to.not.equal(row.json_object_id);
      expect(row.json_omitted_bytes).to.equal(null);
      const bytes = await readAll(harness().rt.store, row.redacted_object_id);
      expect(bytes, 'the redacted object exists').to.not.equal(null);
      stored = bytes!.toString('utf8');
      expect(stored).to.not.include(SECRET);
      const full = (await readAll(harness().rt.store, row.json_object_id))!.toString('utf8');
      expect(full, 'the unredacted JSON plan does carry the secret').to.include(SECRET);
    });

    it('serves json-output-redacted to readers as the stored bytes, with every sensitive value removed', async () => {
      const reader = await memberWithAccess(org, wsId, 'read');
      const res = await api('GET', `/plans/${planId}/json-output-redacted`, { token: reader.token });
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.headers.get('content-length')).to.equal(String(Buffer.byteLength(stored)));
      expect(res.text, 'the body is the stored document, byte for byte').to.equal(stored);
      expect(res.text).to.not.include(SECRET);
      const body = res.body;
      expect(body.variables.password.value).to.equal(null);
      expect(body.output_changes.visible.after).to.equal('plain-value');
      expect(body.output_changes.password).to.include({ after: '(sensitive value)', after_sensitive: true });
      const db = body.resource_changes.find((rc: Doc) => rc.address === 'terraform_data.db');
      expect(db.change.after_sensitive).to.deep.include({ input: { password: true } });
      expect(db.change.after.input).to.deep.equal({ user: 'admin', password: '(sensitive value)' });
      expect(body.plan_format_version).to.equal(body.format_version);
      expect(body.provider_schemas).to.have.key('terraform.io/builtin/terraform');

      // The access rules are those of before: the unredacted JSON is for workspace admins only.
      expectError(await api('GET', `/plans/${planId}/json-output`, { token: reader.token }), 404);
      const full = await api('GET', `/plans/${planId}/json-output`, { token: org.owner.token });
      expect(full.status, full.text).to.equal(200);
      expect(full.body.output_changes.password.after).to.equal(SECRET);
      const row = await planRow(planId);
      expect(full.text).to.equal((await readAll(harness().rt.store, row.json_object_id))!.toString('utf8'));
    });

    it('redacts a plan stored without a redacted form once, on the first requests, and stores it', async () => {
      // A plan as stored before the redacted form was made with it: its JSON, no redacted object.
      const db = harness().rt.db;
      const before = await planRow(planId);
      await db('plans').where({ id: planId }).update({ redacted_object_id: null });
      const countRedacted = async () =>
        Number((await db('objects').where('id', 'like', 'planredacted-%').count({ n: '*' }).first())!.n);
      const objectsBefore = await countRedacted();

      const answers = await Promise.all(
        [1, 2, 3].map(() => api('GET', `/plans/${planId}/json-output-redacted`, { token: org.owner.token })),
      );
      for (const res of answers) {
        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.deep.equal(JSON.parse(stored));
      }
      const after = await planRow(planId);
      expect(after.redacted_object_id).to.be.a('string');
      expect(after.redacted_object_id).to.not.equal(before.redacted_object_id);
      expect(await countRedacted(), 'concurrent first requests store one redacted form').to.equal(objectsBefore + 1);
      const again = await api('GET', `/plans/${planId}/json-output-redacted`, { token: org.owner.token });
      expect(again.text).to.equal((await readAll(harness().rt.store, after.redacted_object_id))!.toString('utf8'));
    });
  });

  describe('with a small MAX_PLAN_JSON_BYTES', () => {
    const LIMIT = 4096;

    before(async () => {
      await startWorker({ MAX_PLAN_JSON_BYTES: String(LIMIT), ...(await policyRuntimeEnv()) });
    });

    it('does not store a larger JSON plan; the plan finishes, its log says why, json-output(-redacted) answer 422, and the run applies', async () => {
      const { runId, plan } = await planned({ 'main.tf': bigOutputTf(2 * LIMIT) });
      expect(plan.attributes.status).to.equal('finished');
      expect(plan.attributes['has-changes']).to.equal(true);

      const row = await planRow(plan.id);
      expect(row.json_object_id).to.equal(null);
      expect(row.redacted_object_id).to.equal(null);
      expect(Number(row.json_omitted_bytes)).to.be.greaterThan(LIMIT);

      const log = await readWholeLog(plan.attributes['log-read-url']);
      expect(log).to.include(
        `is ${row.json_omitted_bytes} bytes, more than the limit of ${LIMIT} bytes (MAX_PLAN_JSON_BYTES)`,
      );
      expect(log).to.include('it was not stored');

      for (const path of ['json-output', 'json-output-redacted']) {
        expectError(
          await api('GET', `/plans/${plan.id}/${path}`, { token: org.owner.token }),
          422,
          new RegExp(`at ${row.json_omitted_bytes} bytes it exceeded .*MAX_PLAN_JSON_BYTES`),
        );
      }

      // The saved plan is intact: the run applies.
      const confirm = await api('POST', `/runs/${runId}/actions/apply`, {
        token: org.owner.token,
        body: { comment: 'go' },
      });
      expect(confirm.status, confirm.text).to.equal(202);
      const applied = await waitForRun(runId, org.owner.token, ['applied', 'errored'], 120_000).catch(async (err) => {
        const now = await api('GET', `/runs/${runId}?include=apply`, { token: org.owner.token });
        throw new Error(`${err}: ${now.status} ${now.text}`);
      });
      expect(applied.attributes.status).to.equal('applied');
    });

    it('errors a mandatory policy check of such a plan, saying why: a plan too large to store does not pass policies unchecked', async () => {
      const policyOrg = await createOrg();
      const token = policyOrg.owner.token;
      const pol = await createPolicy(policyOrg.name, token, {
        name: uniq('pol'),
        kind: 'sentinel',
        'enforcement-level': 'hard-mandatory',
      });
      expect((await uploadCode(pol.id, token, sentinelPolicy(true, 'fine'))).status).to.equal(204);
      const set = await createPolicySet(policyOrg.name, token, { kind: 'sentinel', global: true });
      const link = await api('POST', `/policy-sets/${set.id}/relationships/policies`, {
        token,
        body: linkages('policies', [pol.id]),
      });
      expect(link.status, link.text).to.equal(204);
      const ws = await createWorkspace(policyOrg);
      await uploadConfig(ws.id, token, { 'main.tf': bigOutputTf(2 * LIMIT) });
      const runId = await startRun(ws.id, token);
      const run = await waitForRun(runId, token, FINAL, 120_000);
      expect(run.attributes.status).to.equal('errored');
      const checks = await api('GET', `/runs/${runId}/policy-checks`, { token });
      expect(checks.status, checks.text).to.equal(200);
      expect(checks.body.data).to.have.length(1);
      expect(checks.body.data[0].attributes.status).to.equal('errored');
      const out = await api('GET', `/policy-checks/${checks.body.data[0].id}/output`, { token });
      expect(out.text).to.match(/exceeded a size limit \(MAX_PLAN_JSON_BYTES.*and was not stored/);
    });
  });

  describe('with a small RUN_DISK_LIMIT_MB (the largest file a run may write)', () => {
    const LARGEST_FILE = 1048576;

    before(async () => {
      await startWorker({ RUN_DISK_LIMIT_MB: '1' });
    });

    it('treats a JSON plan cut at the file-size limit as too large: the plan finishes, unparsed, its log says why, and json-output(-redacted) answer 422', async () => {
      // The output appears in the JSON plan more than once: well past the limit, while the
      // configuration, the saved plan (compressed) and the log stay outside the directory's limit.
      const { plan } = await planned({ 'main.tf': generatedOutputTf(700_000) });
      expect(plan.attributes.status).to.equal('finished');
      expect(plan.attributes['has-changes']).to.equal(true);

      const row = await planRow(plan.id);
      expect(row.json_object_id).to.equal(null);
      expect(row.redacted_object_id).to.equal(null);
      expect(Number(row.json_omitted_bytes), 'the file stopped at the limit').to.equal(LARGEST_FILE);

      const log = await readWholeLog(plan.attributes['log-read-url']);
      expect(log).to.include(`reached the largest file a run may write (${LARGEST_FILE} bytes, RUN_DISK_LIMIT_MB)`);
      expect(log).to.include('it was not stored');
      expect(log).to.not.match(/Unterminated string|in JSON at position/);

      for (const path of ['json-output', 'json-output-redacted']) {
        expectError(
          await api('GET', `/plans/${plan.id}/${path}`, { token: org.owner.token }),
          422,
          new RegExp(`at ${LARGEST_FILE} bytes it exceeded .*RUN_DISK_LIMIT_MB`),
        );
      }
    });
  });

  describe('with a small MAX_LOG_BYTES', () => {
    const LIMIT = 2048;

    it('cuts a longer plan log at the limit, with a last line saying so; the plan still finishes', async () => {
      await startWorker({ MAX_LOG_BYTES: String(LIMIT) });
      const { plan } = await planned({ 'main.tf': manyResourcesTf(40) });
      expect(plan.attributes.status).to.equal('finished');
      const row = await planRow(plan.id);
      expect(row.json_object_id, 'the plan JSON is not limited by the log limit').to.be.a('string');
      expect(row.resource_additions).to.equal(40);

      const log = await readWholeLog(plan.attributes['log-read-url']);
      const bytes = Buffer.from(log);
      const marker = truncationLine(LIMIT);
      expect(bytes[0]).to.equal(0x02);
      expect(bytes[bytes.length - 1], 'the log is complete (ETX)').to.equal(0x03);
      expect(log.endsWith(`${marker}\x03`), 'the truncation line is the last content').to.equal(true);
      expect(bytes.length).to.equal(LIMIT + Buffer.byteLength(marker) + 1);
      expect(log).to.include('terraform_data.r[0]');
      expect(log, 'what came past the limit was not kept').to.not.include('Plan: 40 to add');
    });
  });
});
