import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, doc } from '../helpers/api.js';
import { createOrg, uniq } from '../helpers/fixtures.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { CLI_HOST, terraform, terraformAvailable, writeCliConfig } from '../helpers/terraform.js';

/*
 * The terraform CLI's `cloud` block with `workspaces { name, project }`: the workspace is created
 * in that project, and its runs get the variables of the sets applied to the project, by TFE's
 * precedence (a set applied to the workspace beats one applied to its project, which beats a
 * global one).
 */
describe('projects through the terraform CLI (cloud block with a project)', function () {
  this.timeout(300_000);
  let worker: WorkerProcess;
  let dir: string;

  before(async function () {
    if (!terraformAvailable()) this.skip();
    worker = spawnWorkers(['run-pipeline']);
    await workersReady(worker);
    dir = await mkdtemp(join(tmpdir(), 'rls-cli-prj-'));
  });

  after(async () => {
    await worker?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("creates the workspace in the named project, and its runs get the project's variable sets by precedence", async () => {
    const org = await createOrg();
    const token = org.owner.token;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await api(method, path, { token, ...(body === undefined ? {} : { body }) });
      expect(res.status, `${method} ${path}: ${res.text}`).to.be.within(200, 299);
      return res.body;
    };
    const project = (
      await call('POST', `/organizations/${org.name}/projects`, doc('projects', { name: 'platform team' }))
    ).data;
    const setVar = (set: string, key: string, value: string) =>
      call('POST', `/varsets/${set}/relationships/vars`, doc('vars', { key, value, category: 'terraform' }));
    const global = (
      await call('POST', `/organizations/${org.name}/varsets`, doc('varsets', { name: 'a-global', global: true }))
    ).data.id;
    await setVar(global, 'from_project', 'global set');
    await setVar(global, 'from_global', 'global set');
    const projectSet = (
      await call('POST', `/organizations/${org.name}/varsets`, doc('varsets', { name: 'b-project', global: false }))
    ).data.id;
    await call('POST', `/varsets/${projectSet}/relationships/projects`, {
      data: [{ type: 'projects', id: project.id }],
    });
    await setVar(projectSet, 'from_project', 'project set');
    await setVar(projectSet, 'from_workspace', 'project set');

    const workspace = uniq('cli');
    const env = await writeCliConfig(dir, token);
    await writeFile(
      join(dir, 'main.tf'),
      `terraform {
  cloud {
    hostname     = "${CLI_HOST}"
    organization = "${org.name}"
    workspaces {
      name    = "${workspace}"
      project = "${project.attributes.name}"
    }
  }
}
variable "from_project" { type = string }
variable "from_global" { type = string }
variable "from_workspace" { type = string }
output "from_project" { value = var.from_project }
output "from_global" { value = var.from_global }
output "from_workspace" { value = var.from_workspace }
`,
    );
    const init = await terraform(dir, env, ['init', '-input=false', '-no-color']);
    expect(init.code, init.output).to.equal(0);

    const ws = (await call('GET', `/organizations/${org.name}/workspaces/${workspace}`)).data;
    expect(ws.relationships.project.data).to.deep.equal({ type: 'projects', id: project.id });

    // A set applied to the workspace itself beats the project's.
    const wsSet = (
      await call(
        'POST',
        `/organizations/${org.name}/varsets`,
        doc('varsets', { name: 'c-workspace' }, { workspaces: { data: [{ type: 'workspaces', id: ws.id }] } }),
      )
    ).data.id;
    await setVar(wsSet, 'from_workspace', 'workspace set');

    const apply = await terraform(dir, env, ['apply', '-auto-approve', '-input=false', '-no-color']);
    expect(apply.code, apply.output).to.equal(0);
    const output = await terraform(dir, env, ['output', '-json']);
    expect(output.code, output.output).to.equal(0);
    const values = JSON.parse(output.output);
    expect(values.from_project.value).to.equal('project set');
    expect(values.from_global.value).to.equal('global set');
    expect(values.from_workspace.value).to.equal('workspace set');
  });
});
