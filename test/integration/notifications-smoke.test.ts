import { expect } from 'chai';
import { api, doc } from '../helpers/api.js';
import { createOrg, createWorkspace } from '../helpers/fixtures.js';
import { waitFor } from '../helpers/processes.js';
import { startRun, uploadConfig, waitForRun, terraformWorkers } from '../helpers/terraform.js';
import { startReceiver, type NotificationReceiver } from '../helpers/notification-receiver.js';

const RUN_TRIGGERS = [
  'run:created',
  'run:planning',
  'run:needs_attention',
  'run:applying',
  'run:completed',
  'run:errored',
];

describe('notifications: a generic destination sees each run trigger once, signed', function () {
  this.timeout(120_000);
  let receiver: NotificationReceiver;
  terraformWorkers(['run-pipeline', 'notification-delivery', 'deadline-expiry', 'verification'], {
    RECONCILE_INTERVAL_MS: '2000',
  });

  before(async () => {
    receiver = await startReceiver('n0tify');
  });

  after(async () => {
    await receiver?.close();
  });

  it('verifies on create, then notifies created, planning, needs_attention, applying and completed exactly once', async () => {
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    const created = await api('POST', `/workspaces/${ws.id}/notification-configurations`, {
      token,
      body: doc('notification-configuration', {
        'destination-type': 'generic',
        enabled: true,
        name: 'hook',
        token: 'n0tify',
        url: receiver.url,
        triggers: RUN_TRIGGERS,
      }),
    });
    expect(created.status, created.text).to.equal(201);
    expect(created.body.data.type).to.equal('notification-configurations');
    expect(created.body.data.attributes.token).to.equal(null);
    const [response] = created.body.data.attributes['delivery-responses'];
    expect(response).to.include({ code: '200', successful: true, url: receiver.url });
    expect(receiver.received).to.have.length(1);
    expect(receiver.received[0].signatureValid).to.equal(true);
    expect(receiver.received[0].body.run_id).to.equal(null);

    await uploadConfig(ws.id, token, { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' });
    const runId = await startRun(ws.id, token);
    await waitForRun(runId, token, ['planned']);
    expect((await api('POST', `/runs/${runId}/actions/apply`, { token, body: {} })).status).to.equal(202);
    await waitForRun(runId, token, ['applied']);
    const forRun = () => receiver.received.filter((r) => r.body.run_id === runId);
    await waitFor(() => forRun().length >= 5, 'five run notifications');
    await new Promise((r) => setTimeout(r, 500));
    const triggers = forRun().map((r) => r.body.notifications[0].trigger);
    expect([...triggers].sort()).to.deep.equal([
      'run:applying',
      'run:completed',
      'run:created',
      'run:needs_attention',
      'run:planning',
    ]);
    for (const n of forRun()) {
      expect(n.signatureValid).to.equal(true);
      expect(n.body.payload_version).to.equal(1);
      expect(n.body.notifications).to.have.length(1);
      expect(n.headers['x-svc-delivery-id']).to.match(/^ndel-/);
    }
  });
});
