import { expect } from 'chai';
import { api, doc } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { createOrg, createWorkspace } from '../helpers/fixtures.js';
import { waitFor } from '../helpers/processes.js';
import { startRun, uploadConfig, waitForRun, terraformWorkers } from '../helpers/terraform.js';
import { startReceiver, type NotificationReceiver } from '../helpers/notification-receiver.js';
import { insertStateVersion, parseState } from '../../shared/state/repo.js';

const CONFIG = `resource "terraform_data" "greeting" { input = "hello" }
check "greeting" {
  assert {
    condition     = terraform_data.greeting.output == "hello"
    error_message = "the greeting changed"
  }
}
`;

const RESULT_KEYS = [
  'all_checks_succeeded',
  'checks_errored',
  'checks_failed',
  'checks_passed',
  'checks_unknown',
  'created_at',
  'drifted',
  'id',
  'resources_drifted',
  'resources_undrifted',
  'succeeded',
  'url',
];

describe('notifications: health assessments', function () {
  this.timeout(120_000);
  let receiver: NotificationReceiver;
  terraformWorkers(['run-pipeline', 'notification-delivery', 'deadline-expiry', 'verification'], {
    RECONCILE_INTERVAL_MS: '1000',
    ASSESSMENT_INTERVAL_SECONDS: '3',
  });

  before(async () => {
    receiver = await startReceiver('a55ess');
  });

  after(async () => {
    await receiver?.close();
  });

  it('assesses on schedule, stores results, and fires assessment:drifted and assessment:check_failure after the state changes out of band', async () => {
    const h = harness();
    const org = await createOrg();
    const token = org.owner.token;
    const ws = await createWorkspace(org);
    await uploadConfig(ws.id, token, { 'main.tf': CONFIG });
    const runId = await startRun(ws.id, token, { 'auto-apply': true });
    await waitForRun(runId, token, ['applied']);
    expect((await api('GET', `/workspaces/${ws.id}/current-assessment-result`, { token })).status).to.equal(404);

    const nc = await api('POST', `/workspaces/${ws.id}/notification-configurations`, {
      token,
      body: doc('notification-configuration', {
        'destination-type': 'generic',
        enabled: true,
        name: 'health',
        token: 'a55ess',
        url: receiver.url,
        triggers: ['assessment:drifted', 'assessment:check_failure', 'assessment:failed'],
      }),
    });
    expect(nc.status, nc.text).to.equal(201);
    expect(
      (await api('PATCH', `/workspaces/${ws.id}`, { token, body: doc('workspaces', { 'assessments-enabled': true }) }))
        .status,
    ).to.equal(200);

    const first = await waitFor(
      async () => {
        const r = await api('GET', `/workspaces/${ws.id}/current-assessment-result`, { token });
        return r.status === 200 ? r.body.data : null;
      },
      'a first assessment result',
      30_000,
    );
    expect(first.attributes).to.include({
      succeeded: true,
      drifted: false,
      'checks-passed': 1,
      'checks-failed': 0,
      'resources-undrifted': 1,
    });

    /** Writes a new current state with the resource's attributes changed, as if it changed behind Terraform's back. */
    const tamper = async (attributes: Record<string, unknown>) => {
      const current = await h.rt.db('workspaces').where({ id: ws.id }).first('current_state_version_id');
      const sv = await h.rt.db('state_versions').where({ id: current.current_state_version_id }).first();
      const raw = JSON.parse(
        ((await (await h.rt.store.get(sv.object_id))!.toArray()) as Buffer[]).map((b) => b.toString()).join(''),
      );
      raw.serial += 1;
      Object.assign(raw.resources[0].instances[0].attributes, attributes);
      const bytes = Buffer.from(JSON.stringify(raw));
      await h.rt.db.transaction(async (tx) => {
        const obj = await h.rt.store.put(tx, bytes, { contentType: 'application/json' });
        await insertStateVersion(tx, h.config.encryptionKey, {
          workspaceId: ws.id,
          runId: null,
          objectId: obj.id,
          size: bytes.length,
          state: parseState(bytes),
        });
      });
    };
    // The output alone changes: the configuration still matches, but the check now fails.
    await tamper({ output: { value: 'bye', type: 'string' } });
    const mine = () => receiver.received.filter((r) => r.body.details?.workspace_id === ws.id);
    await waitFor(
      () => mine().some((r) => r.body.trigger === 'assessment:check_failure'),
      'the check failure notification',
      45_000,
    );
    const n = mine().find((r) => r.body.trigger === 'assessment:check_failure')!;
    expect(n.signatureValid).to.equal(true);
    expect(n.body).to.include({ payload_version: 2, trigger_scope: 'assessment' });
    expect(Object.keys(n.body.details.new_assessment_result).sort()).to.deep.equal(RESULT_KEYS);
    expect(n.body.details.new_assessment_result).to.include({
      succeeded: true,
      checks_failed: 1,
      all_checks_succeeded: false,
    });
    expect(n.body.details.prior_assessment_result).to.include({ checks_failed: 0, checks_passed: 1 });
    expect(n.body.details).to.include({ workspace_name: ws.name, organization_name: org.name });

    // The input changes too: the configuration no longer matches the state, which is drift.
    await tamper({ input: { value: 'bye', type: 'string' } });
    await waitFor(() => mine().some((r) => r.body.trigger === 'assessment:drifted'), 'the drift notification', 45_000);
    const drift = mine().find((r) => r.body.trigger === 'assessment:drifted')!;
    expect(drift.signatureValid).to.equal(true);
    expect(drift.body.message).to.equal('Drift detected');
    expect(drift.body.details.new_assessment_result).to.include({
      drifted: true,
      resources_drifted: 1,
      resources_undrifted: 0,
    });
    expect(drift.body.details.prior_assessment_result).to.include({ drifted: false, resources_undrifted: 1 });
  });
});
