import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { api, doc, type ApiResponse } from '../helpers/api.js';
import { createOrg, createWorkspace, uniq, type TestUser } from '../helpers/fixtures.js';
import { startRun, terraformWorkers, uploadConfig, waitForRun } from '../helpers/terraform.js';

const CONFIG = `
variable "plain" { type = string }
variable "list" { type = list(string) }
variable "from_env" { type = string }
variable "secret" {
  type      = string
  sensitive = true
}
variable "shadowed" { type = string }
variable "forced" { type = string }
variable "set_only" { type = string }

output "plain" { value = var.plain }
output "list" { value = var.list }
output "from_env" { value = var.from_env }
output "shadowed" { value = var.shadowed }
output "forced" { value = var.forced }
output "set_only" { value = var.set_only }
output "secret" {
  value     = var.secret
  sensitive = true
}
output "secret_hash" { value = nonsensitive(sha256(var.secret)) }
`;

describe('runs receive workspace and variable set variables', function () {
  this.timeout(180_000);
  terraformWorkers(['run-pipeline']);

  let org: { name: string; owner: TestUser };
  let token: string;
  /** Every API answer the test read, to look for the sensitive value in. */
  const seen: ApiResponse[] = [];
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await api(method, path, { token, ...(body === undefined ? {} : { body }) });
    seen.push(res);
    expect(res.status, `${method} ${path}: ${res.text}`).to.be.within(200, 299);
    return res.body;
  };

  before(async () => {
    org = await createOrg();
    token = org.owner.token;
  });

  it('gives Terraform the values that win by precedence, env variables in its environment, and never logs a sensitive value', async () => {
    const secret = `hunter2-${uniq('s')}`;
    const ws = await createWorkspace(org, { 'auto-apply': true });
    const wsVar = (key: string, value: string, extra: Record<string, unknown> = {}) =>
      call('POST', `/workspaces/${ws.id}/vars`, doc('vars', { key, value, category: 'terraform', ...extra }));
    const tricky = 'he said "hi" to ${var.x} and %{ if true }\\n';
    await wsVar('plain', tricky);
    await wsVar('list', '["a", "b"]', { hcl: true });
    await wsVar('secret', secret, { sensitive: true });
    await wsVar('shadowed', 'workspace');
    await wsVar('forced', 'workspace');
    await call(
      'POST',
      `/workspaces/${ws.id}/vars`,
      doc('vars', { key: 'TF_VAR_from_env', value: 'from the environment', category: 'env' }),
    );

    const setVar = (set: string, key: string, value: string) =>
      call('POST', `/varsets/${set}/relationships/vars`, doc('vars', { key, value, category: 'terraform' }));
    // Applied to the workspace: loses to the workspace's own variable, beats the global set.
    const applied = (
      await call(
        'POST',
        `/organizations/${org.name}/varsets`,
        doc('varsets', { name: 'z-applied' }, { workspaces: { data: [{ type: 'workspaces', id: ws.id }] } }),
      )
    ).data.id;
    await setVar(applied, 'shadowed', 'applied set');
    await setVar(applied, 'set_only', 'applied set');
    const global = (
      await call('POST', `/organizations/${org.name}/varsets`, doc('varsets', { name: 'a-global', global: true }))
    ).data.id;
    await setVar(global, 'set_only', 'global set');
    await setVar(global, 'shadowed', 'global set');
    // A priority set beats the workspace.
    const priority = (
      await call(
        'POST',
        `/organizations/${org.name}/varsets`,
        doc('varsets', { name: 'p', priority: true }, { workspaces: { data: [{ type: 'workspaces', id: ws.id }] } }),
      )
    ).data.id;
    await setVar(priority, 'forced', 'priority set');

    await uploadConfig(ws.id, token, { 'main.tf': CONFIG });
    const runId = await startRun(ws.id, token);
    const run = await waitForRun(runId, token, ['applied', 'errored', 'planned_and_finished', 'canceled'], 150_000);
    const withLogs = await call('GET', `/runs/${runId}?include=plan,apply`);
    const logs = await Promise.all(
      withLogs.included.map(async (r: { attributes: Record<string, string> }) => {
        const res = await fetch(`${r.attributes['log-read-url']}?limit=1048576&offset=0`);
        return res.text();
      }),
    );
    expect(run.attributes.status, logs.join('\n----\n')).to.equal('applied');

    const outputs = Object.fromEntries(
      (await call('GET', `/workspaces/${ws.id}/current-state-version-outputs`)).data.map(
        (o: { attributes: { name: string; value: unknown; sensitive: boolean } }) => [o.attributes.name, o.attributes],
      ),
    );
    expect(outputs.plain.value).to.equal(tricky);
    expect(outputs.list.value).to.deep.equal(['a', 'b']);
    expect(outputs.from_env.value).to.equal('from the environment');
    expect(outputs.shadowed.value).to.equal('workspace');
    expect(outputs.forced.value).to.equal('priority set');
    expect(outputs.set_only.value).to.equal('applied set');
    expect(outputs.secret).to.include({ sensitive: true, value: null });
    expect(outputs.secret_hash.value).to.equal(createHash('sha256').update(secret).digest('hex'));

    // The logs name the variables given, never a sensitive value.
    const [planLog] = logs;
    expect(planLog).to.include('Variables (names only):');
    expect(planLog).to.match(/secret \(workspace\)/);
    expect(planLog).to.match(/forced \(priority variable set\)/);
    expect(planLog).to.match(/TF_VAR_from_env \(workspace\)/);
    for (const log of logs) expect(log).to.not.include(secret);
    for (const res of seen) expect(res.text).to.not.include(secret);
  });
});
