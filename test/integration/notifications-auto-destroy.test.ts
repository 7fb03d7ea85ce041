import { expect } from 'chai';
import { api, doc } from '../helpers/api.js';
import { createOrg, createWorkspace } from '../helpers/fixtures.js';
import { waitFor } from '../helpers/processes.js';
import { uploadConfig, waitForRun, terraformWorkers } from '../helpers/terraform.js';
import { startReceiver, type NotificationReceiver } from '../helpers/notification-receiver.js';

const AUTO_DESTROY_KEYS = [
  'details',
  'message',
  'notification_configuration_id',
  'notification_configuration_url',
  'payload_version',
  'trigger',
  'trigger_scope',
];

describe('notifications: auto-destroy reminders and results', function () {
  this.timeout(120_000);
  let receiver: NotificationReceiver;
  terraformWorkers(['run-pipeline', 'notification-delivery', 'deadline-expiry', 'verification'], {
    RECONCILE_INTERVAL_MS: '1000',
  });

  before(async () => {
    receiver = await startReceiver('t0k');
  });

  after(async () => {
    await receiver?.close();
  });

  it('sends the reminder, then at the time queues a destroy run and sends its results', async () => {
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    await uploadConfig(ws.id, token, { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' });
    const nc = await api('POST', `/workspaces/${ws.id}/notification-configurations`, {
      token,
      body: doc('notification-configuration', {
        'destination-type': 'generic',
        enabled: true,
        name: 'destroy-hook',
        token: 't0k',
        url: receiver.url,
        triggers: ['workspace:auto_destro_reminder', 'workspace:auto_destroy_run_results'],
      }),
    });
    expect(nc.status, nc.text).to.equal(201);
    const at = new Date(Date.now() + 4000);
    const patch = await api('PATCH', `/workspaces/${ws.id}`, {
      token,
      body: doc('workspaces', { 'auto-destroy-at': at.toISOString() }),
    });
    expect(patch.status, patch.text).to.equal(200);

    const mine = () => receiver.received.filter((r) => r.body.details?.workspace_name === ws.name);
    await waitFor(
      () => mine().some((r) => r.body.details.trigger_type === 'results'),
      'the results notification',
      30_000,
    );
    const reminders = mine().filter((r) => r.body.details.trigger_type === 'reminder');
    const results = mine().filter((r) => r.body.details.trigger_type === 'results');
    // The time is less than 12 h ahead: both reminder thresholds have passed; each is sent once.
    expect(reminders).to.have.length(2);
    expect(results).to.have.length(1);
    for (const n of mine()) {
      expect(Object.keys(n.body).sort()).to.deep.equal(AUTO_DESTROY_KEYS);
      expect(n.body.payload_version).to.equal(2);
      expect(n.body.trigger_scope).to.equal('workspace');
      expect(n.signatureValid).to.equal(true);
    }
    expect(reminders[0].body.trigger).to.equal('workspace:auto_destro_reminder');
    expect(reminders[0].body.details).to.include({
      auto_destroy_at: at.toISOString(),
      workspace_name: ws.name,
      organization_name: org.name,
    });
    const details = results[0].body.details;
    expect(details.run_external_id).to.match(/^run-/);
    expect(details.run_create_error_message).to.equal('');
    // Nothing was ever applied here, so the destroy plan has no changes and the run finishes after planning.
    const run = await waitForRun(details.run_external_id, token, ['planned_and_finished', 'applied']);
    expect(run.attributes['is-destroy']).to.equal(true);
    const after = await api('GET', `/workspaces/${ws.id}`, { token });
    expect(after.body.data.attributes['auto-destroy-at']).to.equal(null);
  });

  it('reports an auto-destroy run that could not be created, with the reason', async () => {
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    await api('POST', `/workspaces/${ws.id}/notification-configurations`, {
      token,
      body: doc('notification-configuration', {
        'destination-type': 'generic',
        enabled: true,
        name: 'h',
        token: 't0k',
        url: receiver.url,
        triggers: ['workspace:auto_destroy_run_results'],
      }),
    });
    await api('PATCH', `/workspaces/${ws.id}`, {
      token,
      body: doc('workspaces', { 'auto-destroy-at': new Date(Date.now() + 1000).toISOString() }),
    });
    await waitFor(
      () => receiver.received.some((r) => r.body.details?.workspace_name === ws.name),
      'the results notification',
      30_000,
    );
    const [n] = receiver.received.filter((r) => r.body.details?.workspace_name === ws.name);
    expect(n.body.details).to.include({
      run_external_id: '',
      run_status: '',
      run_created_at: '',
      trigger_type: 'results',
    });
    expect(n.body.details.run_create_error_message).to.match(/no configuration version/);
  });
});
