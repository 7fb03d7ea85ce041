import { expect } from 'chai';
import { harness, flushQueueKeys, freePort } from '../helpers/harness.js';
import { createOrg, createUser, joinOrg } from '../helpers/fixtures.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import {
  signalOnOutput,
  spawnWeb,
  spawnWorkers,
  waitFor,
  workersReady,
  type WorkerProcess,
} from '../helpers/processes.js';
import { reconcile } from '../../shared/sweep/reconciler.js';
import { jobs } from '../../shared/platform/queues.js';

/** The invitation mail row written for a membership. */
async function mailFor(membershipId: string) {
  return harness().rt.db('mail_messages').where({ kind: 'invitation', ref_id: membershipId }).first();
}

const deliveredTo = (sink: SmtpSink, email: string) => sink.messages.filter((m) => m.to.includes(email)).length;

describe('durable work: outbox rows, reconciler and worker processes', function () {
  this.timeout(60_000);
  let sink: SmtpSink;
  const running: WorkerProcess[] = [];
  const start = (queues: string[]) => {
    const w = spawnWorkers(queues, { SMTP_URL: sink.url });
    running.push(w);
    return w;
  };

  beforeEach(async () => {
    sink = await startSmtpSink({ delayMs: 20 });
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((w) => w.stop()));
    await sink.close();
    await flushQueueKeys(harness());
  });

  it('restores work after the BullMQ keys are flushed and completes it exactly once', async () => {
    const h = harness();
    const org = await createOrg();
    const invitee = await createUser();
    const membershipId = await joinOrg(org, invitee, false);
    const mail = await mailFor(membershipId);
    expect(mail.status).to.equal('pending');
    expect(await h.rt.queues['notification-delivery'].getJob(jobs.mailDelivery(mail.id).jobId)).to.not.equal(undefined);

    expect(await flushQueueKeys(h)).to.be.greaterThan(0);
    expect(await h.rt.queues['notification-delivery'].getJob(jobs.mailDelivery(mail.id).jobId)).to.equal(undefined);

    const worker = start(['notification-delivery', 'deadline-expiry']);
    await waitFor(
      async () => (await mailFor(membershipId)).status === 'sent',
      'the mail to be sent after the boot reconcile',
    );
    await waitFor(() => deliveredTo(sink, invitee.email) === 1, 'the sink to receive the mail');

    const again = await reconcile(h.rt.db, h.rt.queues, h.rt.logger);
    expect(again.mail).to.equal(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(deliveredTo(sink, invitee.email)).to.equal(1);
    const row = await mailFor(membershipId);
    expect(row.attempts).to.equal(1);
    expect(row.sent_by).to.match(/:\d+$/);
    expect(await worker.stop()).to.equal(0);
  });

  it('takes over work whose worker died mid-delivery once its lease has expired', async () => {
    const h = harness();
    const org = await createOrg();
    const invitee = await createUser();
    const membershipId = await joinOrg(org, invitee, false);
    await flushQueueKeys(h);
    // The state a worker killed while sending leaves behind: claimed, lease running out, no job in Redis.
    await h.rt
      .db('mail_messages')
      .where({ ref_id: membershipId })
      .update({ status: 'sending', attempts: 1, lease_until: h.rt.db.raw(`now() - interval '1 second'`) });

    start(['notification-delivery', 'deadline-expiry']);
    await waitFor(async () => (await mailFor(membershipId)).status === 'sent', 'the stuck mail to be taken over');
    expect(deliveredTo(sink, invitee.email)).to.equal(1);
    expect((await mailFor(membershipId)).attempts).to.equal(2);
  });

  it('shares the load between two worker processes without processing anything twice', async () => {
    const h = harness();
    const a = start(['notification-delivery']);
    const b = start(['notification-delivery']);
    await Promise.all([workersReady(a), workersReady(b)]);

    const org = await createOrg();
    const invitees = await Promise.all(Array.from({ length: 24 }, () => createUser()));
    const memberships = await Promise.all(invitees.map((u) => joinOrg(org, u, false)));
    const rows = () => h.rt.db('mail_messages').whereIn('ref_id', memberships);
    await waitFor(async () => (await rows()).every((r) => r.status === 'sent'), 'all 24 mails to be sent', 30_000);

    for (const u of invitees) expect(deliveredTo(sink, u.email), u.email).to.equal(1);
    const sent = await rows();
    expect(sent.map((r) => r.attempts)).to.deep.equal(Array(24).fill(1));
    expect(new Set(sent.map((r) => r.sent_by)).size).to.equal(2);
  });

  it('shuts down cleanly on SIGTERM', async () => {
    const w = start(['notification-delivery', 'deadline-expiry']);
    await workersReady(w);
    expect(await w.stop('SIGTERM')).to.equal(0);
    expect(w.output()).to.include('shutting down');
  });

  it('shuts down cleanly on a SIGTERM sent the moment it says it started, as an orchestrator may', async () => {
    const w = start(['notification-delivery', 'deadline-expiry']);
    await signalOnOutput(w, '"workers started"');
    expect(await w.exited, w.output()).to.equal(0);
    expect(w.output()).to.include('shutting down');
  });

  it('a web process, too, shuts down cleanly on a SIGTERM sent the moment it says it listens', async () => {
    const web = spawnWeb({ PORT: String(await freePort()) });
    running.push(web);
    await signalOnOutput(web, '"web listening"');
    expect(await web.exited, web.output()).to.equal(0);
    expect(web.output()).to.include('shutting down');
  });

  it('refuses unknown queues', async () => {
    const unknown = start(['no-such-queue']);
    expect(await unknown.exited).to.equal(2);
  });
});
