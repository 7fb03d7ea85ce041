import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { create as tarCreate } from 'tar';
import { api, doc, expectError } from '../helpers/api.js';
import { harness, startSecondApp } from '../helpers/harness.js';
import { memberWithPermissions } from '../helpers/policy-fixtures.js';
import {
  countRows,
  createCv,
  createOrg,
  createTeam,
  createWorkspace,
  memberWithAccess,
  putArchive,
  tarGz,
  uniq,
} from '../helpers/fixtures.js';
import { startRun, terraformWorkers, uploadConfig, waitForRun } from '../helpers/terraform.js';
import { readWholeLog } from '../helpers/module-tests.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';

describe('authorization and outbound fixes', function () {
  this.timeout(60_000);

  describe('organization and team tokens requested as existing clients send them', () => {
    it('issues an organization token for {"data":{"type":"authentication-token"}}, with expired-at, and for an empty body', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const singular = await api('POST', `/organizations/${org.name}/authentication-token`, {
        token,
        body: { data: { type: 'authentication-token' } },
      });
      expect(singular.status, singular.text).to.equal(201);
      expect(singular.body.data.attributes.token).to.be.a('string');
      const expiring = await api('POST', `/organizations/${org.name}/authentication-token`, {
        token,
        body: { data: { type: 'authentication-token', attributes: { 'expired-at': '2031-01-01T00:00:00.000Z' } } },
      });
      expect(expiring.status, expiring.text).to.equal(201);
      expect(expiring.body.data.attributes['expired-at']).to.equal('2031-01-01T00:00:00.000Z');
      // The newest token works, the one it replaced does not.
      expect(
        (await api('GET', `/organizations/${org.name}`, { token: expiring.body.data.attributes.token })).status,
      ).to.equal(200);
      expect(
        (await api('GET', `/organizations/${org.name}`, { token: singular.body.data.attributes.token })).status,
      ).to.equal(401);
      const empty = await api('POST', `/organizations/${org.name}/authentication-token`, { token });
      expect(empty.status, empty.text).to.equal(201);
      // Any other type is still refused, writing nothing.
      const before = await countRows('authentication_tokens');
      expectError(
        await api('POST', `/organizations/${org.name}/authentication-token`, {
          token,
          body: { data: { type: 'workspaces' } },
        }),
        422,
      );
      expect(await countRows('authentication_tokens')).to.equal(before);
    });

    it('issues a team token for {"data":{"type":"authentication-token"}}', async () => {
      const org = await createOrg();
      const team = await createTeam(org);
      const res = await api('POST', `/teams/${team}/authentication-token`, {
        token: org.owner.token,
        body: { data: { type: 'authentication-token' } },
      });
      expect(res.status, res.text).to.equal(201);
      expect((await api('GET', `/teams/${team}`, { token: res.body.data.attributes.token })).status).to.equal(200);
    });
  });

  it('keeps every change to the owners team for owners: a manage-teams member and an organization token get 404 and change nothing', async () => {
    const org = await createOrg();
    const owners = (
      await api('GET', `/organizations/${org.name}/teams?q=owners`, { token: org.owner.token })
    ).body.data.find((t: { attributes: { name: string } }) => t.attributes.name === 'owners');
    const before = owners.attributes.visibility;
    const flipped = before === 'secret' ? 'organization' : 'secret';
    const manager = await memberWithPermissions(org, { 'manage-teams': true });
    const orgToken = (await api('POST', `/organizations/${org.name}/authentication-token`, { token: org.owner.token }))
      .body.data.attributes.token;
    for (const token of [manager.token, orgToken]) {
      expectError(
        await api('PATCH', `/teams/${owners.id}`, { token, body: doc('teams', { visibility: flipped }) }),
        404,
      );
    }
    expect(
      (await api('GET', `/teams/${owners.id}`, { token: org.owner.token })).body.data.attributes.visibility,
    ).to.equal(before);
    const byOwner = await api('PATCH', `/teams/${owners.id}`, {
      token: org.owner.token,
      body: doc('teams', { visibility: flipped }),
    });
    expect(byOwner.status, byOwner.text).to.equal(200);
    expect(byOwner.body.data.attributes.visibility).to.equal(flipped);
  });

  it('a member with plan access cannot get an appliable configuration version: it is speculative, never current, and queues only a plan-only run', async () => {
    const org = await createOrg();
    const ws = await createWorkspace(org, { 'auto-apply': true });
    const planner = await memberWithAccess(org, ws.id, 'plan');
    const currentBefore = (await api('GET', `/workspaces/${ws.id}`, { token: org.owner.token })).body.data
      .relationships['current-configuration-version'].data;

    const before = await countRows('configuration_versions');
    expectError(
      await api('POST', `/workspaces/${ws.id}/configuration-versions`, {
        token: planner.token,
        body: doc('configuration-versions', { speculative: false }),
      }),
      404,
    );
    expect(await countRows('configuration_versions')).to.equal(before);

    const created = await api('POST', `/workspaces/${ws.id}/configuration-versions`, {
      token: planner.token,
      body: doc('configuration-versions', {}),
    });
    expect(created.status, created.text).to.equal(201);
    expect(created.body.data.attributes.speculative).to.equal(true);
    const put = await putArchive(
      created.body.data.attributes['upload-url'],
      await tarGz({ 'main.tf': 'output "ok" { value = true }\n' }),
    );
    expect(put.status, put.text).to.equal(200);
    const shown = (await api('GET', `/workspaces/${ws.id}`, { token: org.owner.token })).body.data;
    expect(shown.relationships['current-configuration-version'].data).to.deep.equal(currentBefore);
    const runs = (await api('GET', `/workspaces/${ws.id}/runs`, { token: org.owner.token })).body.data;
    expect(runs).to.have.length(1);
    expect(runs[0].attributes['plan-only']).to.equal(true);
    expect(runs[0].attributes.actions['is-confirmable']).to.equal(false);
    await api('POST', `/runs/${runs[0].id}/actions/cancel`, { token: org.owner.token, body: {} });
  });

  describe('archive checks at upload', () => {
    /** A real .tar.gz of a directory holding `files` and symbolic links (name -> target). */
    async function archiveWith(files: Record<string, string>, links: Record<string, string>): Promise<Buffer> {
      const dir = await mkdtemp(join(tmpdir(), 'rls-archive-'));
      try {
        for (const [name, body] of Object.entries(files)) await writeFile(join(dir, name), body);
        for (const [name, target] of Object.entries(links)) await symlink(target, join(dir, name));
        const chunks: Buffer[] = [];
        for await (const c of tarCreate({ gzip: true, cwd: dir, portable: true }, ['.']))
          chunks.push(Buffer.from(c as Buffer));
        return Buffer.concat(chunks);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }

    it('refuses links whose target is absolute or leaves the archive (422, version errored, no run), and keeps links inside it', async () => {
      const org = await createOrg();
      const ws = await createWorkspace(org);
      const main = { 'main.tf': 'output "ok" { value = true }\n' };
      for (const target of ['/etc/passwd', '../../etc/passwd', 'sub/../../x']) {
        const cv = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': true });
        const put = await putArchive(cv.uploadUrl, await archiveWith(main, { evil: target }));
        expect(put.status, put.text).to.equal(422);
        expect(put.text).to.match(/link leaves the archive/);
        expect(
          (await api('GET', `/configuration-versions/${cv.id}`, { token: org.owner.token })).body.data.attributes
            .status,
        ).to.equal('errored');
      }
      expect((await api('GET', `/workspaces/${ws.id}/runs`, { token: org.owner.token })).body.data).to.have.length(0);
      const inside = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false });
      expect(
        (await putArchive(inside.uploadUrl, await archiveWith(main, { 'alias.tf.txt': 'main.tf' }))).status,
      ).to.equal(200);
    });

    it('refuses an archive with more entries than MAX_ARCHIVE_ENTRIES (422)', async () => {
      const app = await startSecondApp({ MAX_ARCHIVE_ENTRIES: '20' });
      try {
        const org = await createOrg();
        const ws = await createWorkspace(org);
        const files: Record<string, string> = { 'main.tf': 'output "ok" { value = true }\n' };
        for (let i = 0; i < 30; i++) files[`empty-${i}.txt`] = '';
        const cv = await createCv(ws.id, org.owner.token, { 'auto-queue-runs': false });
        const put = await putArchive(cv.uploadUrl, await tarGz(files), app.baseUrl);
        expect(put.status, put.text).to.equal(422);
        expect(put.text).to.match(/more than 20 entries/);
      } finally {
        await app.close();
      }
    });
  });

  describe('with a run-pipeline worker', () => {
    terraformWorkers(['run-pipeline']);

    it('readers (read and plan access: read-outputs) get no state download and no sensitive output value; writers get both', async () => {
      const org = await createOrg();
      const token = org.owner.token;
      const ws = await createWorkspace(org, { 'auto-apply': true });
      const [reader, planner, writer] = [
        await memberWithAccess(org, ws.id, 'read'),
        await memberWithAccess(org, ws.id, 'plan'),
        await memberWithAccess(org, ws.id, 'write'),
      ];
      const secret = `hush-${uniq('s')}`;
      await uploadConfig(ws.id, token, {
        'main.tf': `output "plain" { value = "visible" }\noutput "secret" {\n  value     = "${secret}"\n  sensitive = true\n}\n`,
      });
      expect(
        (await waitForRun(await startRun(ws.id, token), token, ['applied', 'errored'])).attributes.status,
      ).to.equal('applied');

      for (const [who, expectFull] of [
        [reader, false],
        [planner, false],
        [writer, true],
      ] as const) {
        const sv = await api('GET', `/workspaces/${ws.id}/current-state-version?include=outputs`, { token: who.token });
        expect(sv.status, sv.text).to.equal(200);
        expect(sv.body.data.attributes['hosted-state-download-url'] === null, 'download URL').to.equal(!expectFull);
        const byName = Object.fromEntries(
          sv.body.included.map((o: { id: string; attributes: { name: string; value: unknown } }) => [
            o.attributes.name,
            o,
          ]),
        );
        expect(byName.plain.attributes.value).to.equal('visible');
        expect(byName.secret.attributes.value).to.equal(null);
        const one = await api('GET', `/state-version-outputs/${byName.secret.id}`, { token: who.token });
        expect(one.status, one.text).to.equal(200);
        expect(one.body.data.attributes.value).to.equal(expectFull ? secret : null);
        if (!expectFull) expect(sv.text + one.text).not.to.include(secret);
      }
    });

    it("are sealed at rest and answered as keys only, to every reader; the run's Terraform alone gets the values", async () => {
      const org = await createOrg();
      const ws = await createWorkspace(org);
      const reader = await memberWithAccess(org, ws.id, 'read');
      await uploadConfig(ws.id, org.owner.token, {
        'main.tf': 'variable "size" {}\noutput "size" { value = var.size }\n',
      });
      const secret = `s3cret-${uniq('v')}`;
      const runId = await startRun(ws.id, org.owner.token, {
        'plan-only': true,
        variables: [{ key: 'size', value: `"${secret}"` }],
      });
      for (const token of [org.owner.token, reader.token]) {
        const shown = await api('GET', `/runs/${runId}`, { token });
        expect(shown.body.data.attributes.variables).to.deep.equal([{ key: 'size' }]);
        expect(shown.text).not.to.include(secret);
      }
      const row = await harness().rt.db('runs').where({ id: runId }).first('variables', 'variables_sealed');
      expect(JSON.stringify(row)).not.to.include(secret);
      expect(row.variables_sealed).to.be.a('string');
      const run = await waitForRun(runId, org.owner.token, ['planned_and_finished', 'errored']);
      expect(run.attributes.status).to.equal('planned_and_finished');
      const plan = (await api('GET', `/runs/${runId}?include=plan`, { token: org.owner.token })).body.included[0];
      expect(await readWholeLog(plan.attributes['log-read-url'])).to.include(secret);
    });
  });

  describe('outbound destinations (a verification worker with the default, empty allow-list)', () => {
    let worker: WorkerProcess;
    before(async () => {
      worker = spawnWorkers(['verification'], { OUTBOUND_ALLOWED_CIDRS: '' });
      await workersReady(worker);
    });
    after(async () => {
      await worker?.stop();
    });

    const create = (wsId: string, token: string, url: string) =>
      api('POST', `/workspaces/${wsId}/notification-configurations`, {
        token,
        body: doc('notification-configuration', {
          'destination-type': 'generic',
          enabled: true,
          name: uniq('dest'),
          url,
          triggers: ['run:created'],
        }),
      });

    it('says "destination not allowed" alike for a refused address and an unresolvable name, never the address a name resolved to, never URL credentials', async () => {
      const org = await createOrg();
      const ws = await createWorkspace(org);
      const before = await countRows('notification_configurations');
      const answers = [];
      for (const url of ['http://localhost:9/hook', 'http://no-such-host.invalid/hook']) {
        const res = await create(ws.id, org.owner.token, url);
        expectError(res, 400, /destination not allowed/);
        answers.push(res.text);
      }
      for (const url of ['http://alice:s3cr3t-word@localhost:9/hook', 'http://alice:s3cr3t-word@example.com/hook']) {
        const res = await create(ws.id, org.owner.token, url);
        expectError(res, 400, /credentials .* are not supported/);
        answers.push(res.text);
      }
      for (const text of answers) expect(text).not.to.match(/127\.0\.0\.1|::1|ENOTFOUND|s3cr3t|alice/);
      expect(await countRows('notification_configurations')).to.equal(before);
      const errors = (await harness().rt.db('verifications').pluck('error')) as (string | null)[];
      for (const e of errors) expect(e ?? '').not.to.match(/s3cr3t|127\.0\.0\.1 of/);
    });

    it('says what to set when a notification configuration or a run task names a loopback or private address: OUTBOUND_ALLOWED_CIDRS', async () => {
      const org = await createOrg();
      const ws = await createWorkspace(org);
      const [notifications, tasks] = [await countRows('notification_configurations'), await countRows('tasks')];
      for (const url of ['http://127.0.0.1:9/hook', 'http://10.1.2.3/hook']) {
        expectError(
          await create(ws.id, org.owner.token, url),
          400,
          /destination not allowed: .*OUTBOUND_ALLOWED_CIDRS \(comma-separated CIDRs/,
        );
        const task = await api('POST', `/organizations/${org.name}/tasks`, {
          token: org.owner.token,
          body: doc('tasks', { name: uniq('task'), url, category: 'task' }),
        });
        expectError(task, 422, /destination not allowed: .*OUTBOUND_ALLOWED_CIDRS \(comma-separated CIDRs/);
        expect(task.body.errors[0].source).to.deep.equal({ pointer: '/data/attributes/url' });
      }
      expect([await countRows('notification_configurations'), await countRows('tasks')]).to.deep.equal([
        notifications,
        tasks,
      ]);
    });

    it('refuses IPv4-compatible and other non-global IPv6 addresses', async () => {
      const org = await createOrg();
      const ws = await createWorkspace(org);
      const before = await countRows('notification_configurations');
      for (const url of [
        'http://[::127.0.0.1]:9/hook',
        'http://[::7f00:1]:9/hook',
        'http://[fd00::1]/hook',
        'http://[2002:7f00:1::1]/hook',
        'http://[::]/hook',
      ]) {
        expectError(await create(ws.id, org.owner.token, url), 400, /destination not allowed/);
      }
      expect(await countRows('notification_configurations')).to.equal(before);
    });
  });
});
