import { expect } from 'chai';
import { api, doc, expectError, type ApiResponse } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import {
  countRows,
  createOrg,
  createUser,
  createWorkspace,
  joinOrg,
  uniq,
  type TestUser,
} from '../helpers/fixtures.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startRun, terraformAvailable, uploadConfig, waitForRun } from '../helpers/terraform.js';
import {
  startScriptedReceiver,
  type ScriptedReceiver,
  type ScriptedRequest,
} from '../helpers/notification-receiver.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';

const QUEUES = ['run-pipeline', 'notification-delivery', 'deadline-expiry', 'verification'];
const CONFIG = { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' };
const TABLES = ['notification_configurations', 'notification_configuration_users', 'notification_deliveries'];

const counts = async () =>
  Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await countRows(t)] as const)));

async function refused(call: () => Promise<ApiResponse>, status: number, detail?: RegExp): Promise<void> {
  const before = await counts();
  expectError(await call(), status, detail);
  expect(await counts()).to.deep.equal(before);
}

/** Answers like a Slack incoming webhook: 400 `no_text` unless the JSON body carries a text. */
const slackLike = (req: ScriptedRequest) =>
  typeof req.body.text === 'string' && req.body.text ? { status: 200, body: 'ok' } : { status: 400, body: 'no_text' };

/** Answers like a Teams incoming webhook for MessageCards: 400 unless it is a card with a summary or text. */
const teamsLike = (req: ScriptedRequest) =>
  req.body['@type'] === 'MessageCard' && (req.body.summary || req.body.text)
    ? { status: 200, body: '1' }
    : { status: 400, body: 'Summary or Text is required.' };

/** The decoded text part of a plain-text mail as the SMTP sink received it (quoted-printable soft breaks undone). */
const mailText = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

describe('notifications: Slack, Microsoft Teams and email destinations', function () {
  this.timeout(120_000);
  let worker: WorkerProcess;
  let sink: SmtpSink;
  const receivers: ScriptedReceiver[] = [];
  const runs: { id: string; token: string }[] = [];

  before(async function () {
    if (!terraformAvailable()) this.skip();
    sink = await startSmtpSink();
    worker = spawnWorkers(QUEUES, { SMTP_URL: sink.url, RECONCILE_INTERVAL_MS: '2000' });
    await workersReady(worker);
  });

  after(async () => {
    for (const r of runs.splice(0)) await api('POST', `/runs/${r.id}/actions/discard`, { token: r.token, body: {} });
    await worker?.stop();
    await Promise.all(receivers.map((r) => r.close()));
    await sink?.close();
  });

  async function receiver(answer: (req: ScriptedRequest) => { status: number; body: string }) {
    const r = await startScriptedReceiver(null, answer);
    receivers.push(r);
    return r;
  }

  const create = (
    wsId: string,
    token: string,
    attrs: Record<string, unknown>,
    relationships?: Record<string, unknown>,
  ) =>
    api('POST', `/workspaces/${wsId}/notification-configurations`, {
      token,
      body: doc(
        'notification-configuration',
        { enabled: true, name: uniq('dest'), triggers: ['run:created', 'run:planning'], ...attrs },
        relationships,
      ),
    });

  async function runIn(ws: { id: string }, token: string) {
    await uploadConfig(ws.id, token, CONFIG);
    const id = await startRun(ws.id, token, { message: 'chat about me' });
    runs.push({ id, token });
    return id;
  }

  it('posts Slack and Teams webhook messages, unsigned, for each trigger (and verifies them in those formats)', async () => {
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    const slack = await receiver(slackLike);
    const teams = await receiver(teamsLike);
    // A token on a chat destination is never used to sign.
    const s = await create(ws.id, token, { 'destination-type': 'slack', url: slack.url, token: 'unused-secret' });
    expect(s.status, s.text).to.equal(201);
    expect(s.body.data.attributes['delivery-responses'][0]).to.include({
      code: '200',
      successful: true,
      url: slack.url,
    });
    const t = await create(ws.id, token, { 'destination-type': 'microsoft-teams', url: teams.url });
    expect(t.status, t.text).to.equal(201);
    expect(t.body.data.attributes['delivery-responses'][0]).to.include({
      code: '200',
      successful: true,
      url: teams.url,
    });

    const runId = await runIn(ws, token);
    const forRun = (rx: ScriptedReceiver) => rx.received.filter((r) => JSON.stringify(r.body).includes(runId));
    await waitFor(() => forRun(slack).length >= 2 && forRun(teams).length >= 2, 'two chat messages each');
    await waitForRun(runId, token, ['planned']);
    await new Promise((r) => setTimeout(r, 1000));

    const slackMsgs = forRun(slack);
    expect(slackMsgs).to.have.length(2);
    for (const m of slackMsgs) {
      expect(m.headers['content-type']).to.match(/^application\/json/);
      expect(m.body.text).to.be.a('string').and.include(runId);
      expect(m.body.blocks).to.be.an('array').that.is.not.empty;
      for (const b of m.body.blocks) expect(b.type).to.be.a('string');
      expect(m.body).to.not.have.property('payload_version');
      expect(m.headers).to.not.have.property('x-svc-notification-signature');
      expect(m.headers).to.not.have.property('x-tfe-notification-signature');
    }
    expect(slackMsgs.map((m) => m.body.text).join('\n'))
      .to.include('Run Created')
      .and.include('Run Planning');

    const teamsMsgs = forRun(teams);
    expect(teamsMsgs).to.have.length(2);
    for (const m of teamsMsgs) {
      expect(m.body['@type']).to.equal('MessageCard');
      expect(m.body['@context']).to.be.a('string');
      expect(m.body.summary).to.be.a('string').and.not.equal('');
      expect(m.body.text).to.be.a('string').and.include(runId);
      expect(m.body.potentialAction[0].targets[0].uri).to.include(runId);
      expect(m.headers).to.not.have.property('x-svc-notification-signature');
      expect(m.headers).to.not.have.property('x-tfe-notification-signature');
    }
    const rows = await harness().rt.db('notification_deliveries').where({ run_id: runId });
    expect(rows).to.have.length(4);
    expect(rows.every((r) => r.status === 'delivered')).to.equal(true);
  });

  it('mails each configured organization member once per trigger over SMTP', async () => {
    const org = await createOrg();
    const token = org.owner.token;
    const member = await createUser();
    await joinOrg(org, member);
    const ws = await createWorkspace(org);
    const verificationsBefore = await countRows('verifications');
    const c = await create(
      ws.id,
      token,
      { 'destination-type': 'email', triggers: ['run:created'] },
      {
        users: {
          data: [
            { type: 'users', id: org.owner.id },
            { type: 'users', id: member.id },
          ],
        },
      },
    );
    expect(c.status, c.text).to.equal(201);
    expect(await countRows('verifications')).to.equal(verificationsBefore);
    const userIds = (res: ApiResponse) =>
      res.body.data.relationships.users.data.map((u: { id: string }) => u.id).sort();
    expect(userIds(c)).to.deep.equal([org.owner.id, member.id].sort());
    const shown = await api('GET', `/notification-configurations/${c.body.data.id}`, { token });
    expect(userIds(shown)).to.deep.equal([org.owner.id, member.id].sort());

    const runId = await runIn(ws, token);
    const mailsForRun = () => sink.messages.filter((m) => mailText(m.raw).includes(runId));
    await waitFor(() => mailsForRun().length >= 2, 'a mail to each member');
    await waitForRun(runId, token, ['planned']);
    await new Promise((r) => setTimeout(r, 1000));
    const mails = mailsForRun();
    expect(mails.flatMap((m) => m.to).sort()).to.deep.equal([org.owner.email, member.email].sort());
    for (const m of mails) {
      expect(m.raw).to.match(/^Subject: .*Run Created/m);
      expect(mailText(m.raw)).to.include(ws.name);
    }
    const [delivery] = await harness().rt.db('notification_deliveries').where({ run_id: runId });
    expect(delivery.status).to.equal('delivered');
    const outbox = await harness().rt.db('mail_messages').where({ ref_id: delivery.id });
    expect(outbox.map((m) => m.to_address).sort()).to.deep.equal([org.owner.email, member.email].sort());
    const sent = async () =>
      (await harness().rt.db('mail_messages').where({ ref_id: delivery.id, status: 'sent' })).length === 2;
    await waitFor(sent, 'the outbox rows to be sent');
  });

  it('refuses users who are not organization members, and users on non-email destinations', async () => {
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    const member = await createUser();
    await joinOrg(org, member);
    const stranger = await createUser();
    const invited = await createUser();
    await joinOrg(org, invited, false);
    const users = (...u: TestUser[]) => ({ users: { data: u.map((x) => ({ type: 'users', id: x.id })) } });
    const email = { 'destination-type': 'email', enabled: false, triggers: ['run:created'] };

    await refused(() => create(ws.id, token, email, users(member, stranger)), 422, /member/);
    // An invited (not yet accepted) member is accepted, as in Terraform Cloud (go-tfe-compat-c covers who gets mail).
    expect((await create(ws.id, token, email, users(invited))).status).to.equal(201);
    await refused(
      () => create(ws.id, token, email, { users: { data: [{ type: 'users', id: 'user-doesnotexist' }] } }),
      422,
    );
    const webhooks = [
      ['generic', 'https://example.test/h'],
      ['slack', 'https://example.test/s'],
      ['microsoft-teams', 'https://example.test/t'],
    ];
    for (const [type, url] of webhooks) {
      await refused(
        () => create(ws.id, token, { 'destination-type': type, enabled: false, url }, users(member)),
        422,
        /email/,
      );
    }

    const ok = await create(ws.id, token, email, users(member));
    expect(ok.status, ok.text).to.equal(201);
    await refused(
      () =>
        api('PATCH', `/notification-configurations/${ok.body.data.id}`, {
          token,
          body: doc('notification-configuration', { name: 'x' }, users(stranger)),
        }),
      422,
      /member/,
    );
    const generic = await create(ws.id, token, {
      'destination-type': 'generic',
      enabled: false,
      url: 'https://example.test/h',
    });
    expect(generic.status, generic.text).to.equal(201);
    await refused(
      () =>
        api('PATCH', `/notification-configurations/${generic.body.data.id}`, {
          token,
          body: doc('notification-configuration', {}, users(member)),
        }),
      422,
      /email/,
    );
  });
});
