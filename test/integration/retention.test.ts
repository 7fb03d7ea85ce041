import { expect } from 'chai';
import { api, doc } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { waitFor } from '../helpers/processes.js';
import { terraformWorkers, waitForRun } from '../helpers/terraform.js';
import { notifiedWorkspace, startReceiver, type NotificationReceiver } from '../helpers/notification-receiver.js';
import { pruneOldRecords } from '../../shared/retention/prune.js';

const DAY_MS = 86_400_000;

describe("retention: the maintenance job prunes finished runs' logs and events and settled deliveries", function () {
  this.timeout(120_000);
  let receiver: NotificationReceiver;
  terraformWorkers(['run-pipeline', 'notification-delivery', 'verification']);

  before(async () => {
    receiver = await startReceiver(null);
  });

  after(async () => {
    await receiver?.close();
  });

  it('keeps what is within RETENTION_DAYS, and past it removes logs, events, deliveries and attempts but not the run', async () => {
    const h = harness();
    const { token, ws, cv } = await notifiedWorkspace(receiver.url, ['run:created', 'run:planning'], null);
    const run = await api('POST', '/runs', {
      token,
      body: doc(
        'runs',
        {},
        {
          workspace: { data: { type: 'workspaces', id: ws.id } },
          'configuration-version': { data: { type: 'configuration-versions', id: cv } },
        },
      ),
    });
    expect(run.status, run.text).to.equal(201);
    const runId = run.body.data.id as string;
    await waitForRun(runId, token, ['planned']);
    expect((await api('POST', `/runs/${runId}/actions/discard`, { token, body: {} })).status).to.equal(202);
    const done = await waitForRun(runId, token, ['discarded']);
    await waitFor(() => receiver.received.filter((r) => r.body.run_id === runId).length === 2, 'both notifications');
    await waitFor(
      async () =>
        (await h.rt.db('notification_deliveries').where({ run_id: runId, status: 'delivered' }).count({ n: '*' }))[0]
          .n === 2,
      'both deliveries settled',
    );
    const planId = done.relationships.plan.data.id as string;
    const counts = async () => {
      const [plan] = await h.rt.db('plans').where({ id: planId }).select('log_id');
      const deliveries = (await h.rt.db('notification_deliveries').where({ run_id: runId }).pluck('id')) as string[];
      return {
        planLog: plan.log_id as string | null,
        events: Number((await h.rt.db('run_events').where({ run_id: runId }).count({ n: '*' }))[0].n),
        deliveries: deliveries.length,
        attempts: Number(
          (await h.rt.db('notification_delivery_attempts').whereIn('delivery_id', deliveries).count({ n: '*' }))[0].n,
        ),
      };
    };
    const before = await counts();
    expect(before.planLog).to.be.a('string');
    expect(before.events).to.be.at.least(3);
    expect(before).to.include({ deliveries: 2, attempts: 2 });

    // Within retention (the run ended moments ago): nothing of it goes.
    await pruneOldRecords(h.rt, 1);
    expect(await counts()).to.deep.equal(before);

    // Two days on, past a retention of one day: its logs, events, deliveries and their attempts go.
    const pruned = await pruneOldRecords(h.rt, 1, new Date(Date.now() + 2 * DAY_MS));
    expect(pruned.runLogs).to.be.at.least(1);
    expect(pruned.runEvents).to.be.at.least(before.events);
    expect(pruned.deliveries).to.be.at.least(2);
    expect(await counts()).to.deep.equal({ planLog: null, events: 0, deliveries: 0, attempts: 0 });
    expect(Number((await h.rt.db('log_chunks').where({ log_id: before.planLog }).count({ n: '*' }))[0].n)).to.equal(0);

    // The run and its plan are still served.
    const shown = await api('GET', `/runs/${runId}`, { token });
    expect(shown.status).to.equal(200);
    expect(shown.body.data.attributes.status).to.equal('discarded');
    expect((await api('GET', `/plans/${planId}`, { token })).status).to.equal(200);
  });
});
