import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { api, doc } from '../helpers/api.js';
import {
  createOrg,
  createTeam,
  createUser,
  createWorkspace,
  memberWithAccess,
  tarGz,
  uniq,
  type TestUser,
} from '../helpers/fixtures.js';
import { startReceiver, type NotificationReceiver } from '../helpers/notification-receiver.js';
import { harness } from '../helpers/harness.js';
import { givePassword } from '../helpers/console.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { startRun, terraformAvailable, uploadConfig, waitForRun } from '../helpers/terraform.js';
import { policyRuntimeEnv, regoPolicy } from '../helpers/policy-runtimes.js';
import { createPolicy, createPolicySet, linkages, uploadCode } from '../helpers/policy-fixtures.js';
import { attachTask, createTask } from '../helpers/run-task-fixtures.js';
import {
  answerThenCallBack,
  outcome,
  startTaskIntegration,
  type SentCallback,
  type TaskIntegration,
} from '../helpers/run-task-integration.js';
import { checkAtEveryWidth, chromiumAvailable, landed, openBrowser, type ConsoleBrowser } from '../helpers/browser.js';

/** A configuration whose one resource takes a sensitive variable, so the plan has a value to hide. */
const CONFIG = {
  'main.tf': [
    'variable "secret" {\n  type      = string\n  sensitive = true\n}',
    'variable "greeting" {\n  type    = string\n  default = "hello"\n}',
    'resource "terraform_data" "hidden" { input = var.secret }',
    'resource "terraform_data" "plain" { input = var.greeting }',
    'output "greeting" { value = terraform_data.plain.output }',
  ].join('\n'),
};

const SECRET = `s3cr3t-${Math.random().toString(36).slice(2)}`;

/** An outcome body an integration wrote: a heading and a link render; a script link and an image do not. */
const MARKDOWN = [
  '## Finding details',
  '',
  'Read [the guide](https://docs.example.test/guide) first.',
  '',
  'Then [run this](javascript:window.__owned=1) to fix it.',
  '',
  '<img src="x" onerror="window.__owned=2">',
].join('\n');

async function signInAs(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${harness().baseUrl}/app/sign-in`);
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Organizations' }).waitFor();
}

const open = (page: Page, path: string) => page.goto(`${harness().baseUrl}/app/${path}`);

describe('console for daily work (Chromium)', function () {
  this.timeout(300_000);
  let workers: WorkerProcess;
  let owner: ConsoleBrowser;
  let reader: ConsoleBrowser;
  let integration: TaskIntegration;
  let receiver: NotificationReceiver;
  const sent: SentCallback[] = [];
  let org: { name: string; owner: TestUser };
  let token: string;
  let ws: { id: string; name: string };
  let readerUser: TestUser;

  before(async function () {
    if (!terraformAvailable() || !chromiumAvailable()) this.skip();
    workers = spawnWorkers(
      ['run-pipeline', 'deadline-expiry', 'run-task-dispatch', 'verification', 'notification-delivery'],
      {
        RECONCILE_INTERVAL_MS: '2000',
        ...(await policyRuntimeEnv()),
      },
    );
    await workersReady(workers);
    integration = await startTaskIntegration(null);
    receiver = await startReceiver(null);
    integration.reply = answerThenCallBack(
      [{ status: 'passed', message: 'one finding', outcomes: [outcome('MD-1', { body: MARKDOWN })] }],
      sent,
    );
    const user = await createUser();
    const password = await givePassword(user);
    org = await createOrg(user);
    token = user.token;
    ws = await createWorkspace(org, { 'auto-apply': false });
    const secret = await api('POST', `/workspaces/${ws.id}/vars`, {
      token,
      body: doc('vars', { key: 'secret', value: SECRET, category: 'terraform', sensitive: true }),
    });
    expect(secret.status, secret.text).to.equal(201);
    await uploadConfig(ws.id, token, CONFIG);
    readerUser = await memberWithAccess(org, ws.id, 'read');
    const readerPassword = await givePassword(readerUser);
    owner = await openBrowser(harness().baseUrl);
    owner.page.on('dialog', (d) => void d.accept());
    await signInAs(owner.page, user.username, password);
    reader = await openBrowser(harness().baseUrl);
    await signInAs(reader.page, readerUser.username, readerPassword);
  });

  after(async () => {
    await owner?.close();
    await reader?.close();
    await workers?.stop();
    await integration?.close();
    await receiver?.close();
  });

  afterEach(() => {
    expect(owner.foreign, 'requests to other hosts').to.deep.equal([]);
    expect(reader.foreign, 'requests to other hosts').to.deep.equal([]);
  });

  let runId: string;

  it('starts a plan-and-apply run from the workspace, lists its resource changes with the secret hidden, and confirms it with a comment', async () => {
    const { page } = owner;
    await open(page, `${org.name}/workspaces/${ws.name}`);
    await landed(page, ws.name, 'workspace');
    await page.getByLabel('Workspace overview').getByText('none yet').waitFor();
    await checkAtEveryWidth(page, 'workspace-runs');

    await page.getByRole('button', { name: 'New run' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start a new run' });
    await dialog.getByLabel('Plan and apply').check();
    await dialog.getByLabel('Message (optional)').fill('first run from the console');
    await checkAtEveryWidth(page, 'new-run-dialog');
    await dialog.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/runs\/run-/);
    runId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('heading', { level: 1, name: `Run ${runId}` }).waitFor();

    // The run was made as the form said: plan and apply, with the message.
    const made = await api('GET', `/runs/${runId}`, { token });
    expect(made.body.data.attributes).to.include({ message: 'first run from the console', 'plan-only': false });
    expect(made.body.data.attributes['is-destroy']).to.equal(false);

    await page.getByRole('button', { name: 'Confirm and apply' }).waitFor({ timeout: 120_000 });
    const changes = page.getByRole('table', { name: 'Resource changes' });
    await changes.getByText('terraform_data.hidden').waitFor();
    const rows = await changes.locator('tbody tr').allTextContents();
    expect(rows.find((r) => r.includes('terraform_data.plain')))
      .to.include('create')
      .and.include('"hello"');
    expect(rows.find((r) => r.includes('terraform_data.hidden'))).to.include('(sensitive value)');
    expect(await page.content(), 'the secret is nowhere on the page').to.not.include(SECRET);
    await landed(page, `Run ${runId}`, 'run awaiting confirmation');
    await checkAtEveryWidth(page, 'run-confirmable');

    await page.getByRole('button', { name: 'Confirm and apply' }).click();
    const confirm = page.getByRole('dialog', { name: `Confirm and apply: ${runId}` });
    await confirm.getByLabel('Comment (optional)').fill('looks right to me');
    await checkAtEveryWidth(page, 'confirm-dialog');
    await confirm.getByRole('button', { name: 'Confirm and apply' }).click();
    await page.locator('.run-status').getByText('applied').waitFor({ timeout: 120_000 });
    await page.getByLabel('Run summary').getByText('applied').waitFor();
    await page
      .locator('.timeline')
      .getByText(/looks right to me/)
      .waitFor();
    await landed(page, `Run ${runId}`, 'run applied');
    await checkAtEveryWidth(page, 'run-applied');
    const comments = await api('GET', `/runs/${runId}/comments`, { token });
    expect(comments.body.data.map((c: { attributes: { body: string } }) => c.attributes.body)).to.include(
      'looks right to me',
    );
  });

  it('lists the workspace with its current run, not a speculative plan made after it', async () => {
    const plan = await startRun(ws.id, token, { 'plan-only': true, message: 'just looking' });
    await waitForRun(plan, token, ['planned_and_finished', 'errored'], 120_000);
    const { page } = owner;
    await open(page, `${org.name}/workspaces`);
    await landed(page, 'Workspaces', 'workspaces');
    await page.getByRole('link', { name: `Current run of ${ws.name}: applied` }).waitFor();
    await checkAtEveryWidth(page, 'workspaces');
  });

  it('downloads the state version the apply wrote', async () => {
    const { page } = owner;
    await open(page, `${org.name}/workspaces/${ws.name}/states`);
    await landed(page, ws.name, 'states');
    await checkAtEveryWidth(page, 'workspace-states');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page
        .getByRole('link', { name: /^Download state version/ })
        .first()
        .click(),
    ]);
    const state = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
      serial: number;
      resources: { type: string; name: string }[];
    };
    expect(state.resources.map((r) => `${r.type}.${r.name}`)).to.have.members([
      'terraform_data.hidden',
      'terraform_data.plain',
    ]);
    const current = await api('GET', `/workspaces/${ws.id}/current-state-version`, { token });
    expect(state.serial).to.equal(current.body.data.attributes.serial);
  });

  it('edits a variable: a new value and a description', async () => {
    const made = await api('POST', `/workspaces/${ws.id}/vars`, {
      token,
      body: doc('vars', { key: 'greeting', value: 'hello', category: 'terraform' }),
    });
    expect(made.status, made.text).to.equal(201);
    const { page } = owner;
    await open(page, `${org.name}/workspaces/${ws.name}/variables`);
    await landed(page, ws.name, 'variables');
    await page.getByRole('button', { name: 'Edit greeting' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit variable greeting' });
    await dialog.getByLabel('Value').fill('good morning');
    await dialog.getByLabel('Description').fill('what the workspace says');
    await checkAtEveryWidth(page, 'edit-variable-dialog');
    await dialog.getByRole('button', { name: 'Save variable' }).click();
    await page.getByRole('table', { name: 'Workspace variables' }).getByText('what the workspace says').waitFor();
    const saved = await api('GET', `/workspaces/${ws.id}/vars/${made.body.data.id}`, { token });
    expect(saved.body.data.attributes).to.include({ value: 'good morning', description: 'what the workspace says' });
    // The sensitive variable kept its value: editing one variable sends only that variable's changes.
    const list = await api('GET', `/workspaces/${ws.id}/vars`, { token });
    expect(list.body.data.find((v: { attributes: { key: string } }) => v.attributes.key === 'secret')).to.exist;
  });

  let setName: string;

  it('creates a variable set, adds a variable, applies it to the workspace and shows it on the Variables tab', async () => {
    const { page } = owner;
    await open(page, `${org.name}/variable-sets`);
    await landed(page, 'Variable sets', 'variable sets');
    await checkAtEveryWidth(page, 'variable-sets');
    setName = uniq('shared');
    await page.getByLabel('Name').fill(setName);
    await page.getByLabel('Description').fill('values every workspace shares');
    await page.getByRole('button', { name: 'Create variable set' }).click();
    await landed(page, setName, 'variable set');

    await page.getByRole('button', { name: 'Add variable' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a variable' });
    await dialog.getByLabel('Key').fill('region');
    await dialog.getByLabel('Value').fill('eu-north-1');
    await dialog.getByLabel('Category').selectOption('env');
    await dialog.getByRole('button', { name: 'Add variable' }).click();
    await page.getByRole('table', { name: 'Variables of the set' }).getByText('eu-north-1').waitFor();

    await page.getByRole('combobox', { name: /^Workspace/ }).selectOption({ label: ws.name });
    await page.getByRole('button', { name: 'Apply to workspace' }).click();
    await page.getByRole('link', { name: ws.name }).waitFor();
    await checkAtEveryWidth(page, 'variable-set');

    await page.getByRole('link', { name: ws.name }).click();
    await landed(page, ws.name, 'variables with a set');
    const sets = page.getByRole('region', { name: 'Variable sets' });
    await sets.getByRole('link', { name: setName }).waitFor();
    await sets
      .getByRole('table', { name: `Variables of ${setName}` })
      .getByText('region')
      .waitFor();
    await checkAtEveryWidth(page, 'workspace-variables');

    const applied = await api('GET', `/workspaces/${ws.id}/varsets`, { token });
    expect(applied.body.data.map((s: { attributes: { name: string } }) => s.attributes.name)).to.deep.equal([setName]);
  });

  it("renders a task outcome's Markdown without its script link or image, and shows the run's OPA policy evaluation", async () => {
    const taskWs = await createWorkspace(org, { 'auto-apply': false });
    const taskId = await createTask(org.name, token, integration.url, { name: 'reviewer' });
    await attachTask(taskWs.id, token, taskId, { 'enforcement-level': 'advisory', stages: ['post_plan'] });
    const query = 'data.terraform.policies.tags.deny';
    const policy = await createPolicy(org.name, token, {
      name: uniq('needs-tags'),
      kind: 'opa',
      query,
      'enforcement-level': 'mandatory',
    });
    expect(
      (await uploadCode(policy.id, token, regoPolicy('terraform.policies.tags', ['every bucket needs tags']))).status,
    ).to.equal(204);
    const set = await createPolicySet(
      org.name,
      token,
      { kind: 'opa', overridable: true, name: uniq('opa-set') },
      {
        workspaces: linkages('workspaces', [taskWs.id]),
      },
    );
    const link = await api('POST', `/policy-sets/${set.id}/relationships/policies`, {
      token,
      body: linkages('policies', [policy.id]),
    });
    expect(link.status, link.text).to.equal(204);
    const cv = await uploadConfig(taskWs.id, token, { 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n' });
    const id = await startRun(taskWs.id, token, {}, cv);
    await waitForRun(id, token, ['post_plan_awaiting_decision', 'errored'], 120_000);

    const { page } = owner;
    await open(page, `${org.name}/workspaces/${taskWs.name}/runs/${id}`);
    await landed(page, `Run ${id}`, 'run with a task and a policy evaluation');
    const body = page.getByLabel('Details of MD-1');
    await body.getByRole('heading', { name: 'Finding details' }).waitFor();
    expect(await body.getByRole('link', { name: 'the guide' }).getAttribute('href')).to.equal(
      'https://docs.example.test/guide',
    );
    // The script link keeps its words but is no link; the image is not there at all.
    await body.getByText('run this').waitFor();
    expect(await body.getByRole('link', { name: 'run this' }).count()).to.equal(0);
    expect(await body.locator('a[href^="javascript"], img, [onerror]').count()).to.equal(0);
    expect(await page.evaluate('window.__owned')).to.equal(undefined);

    const policies = page.getByLabel(`Policies of ${set.attributes.name}`);
    await policies.getByText(policy.attributes.name).waitFor();
    await policies.getByText('every bucket needs tags').waitFor();
    await policies.getByText('failed').waitFor();
    await page.getByRole('button', { name: 'Override and continue past the post-plan stage' }).waitFor();
    await checkAtEveryWidth(page, 'run-tasks-and-policies');
    await page.getByRole('button', { name: 'Override and continue past the post-plan stage' }).click();
    await waitForRun(id, token, ['planned', 'post_plan_completed', 'cost_estimated', 'policy_checked'], 60_000);
  });

  it('creates a notification configuration to a receiver, verifies it and shows the delivery', async () => {
    const { page } = owner;
    await open(page, `${org.name}/workspaces/${ws.name}/notifications`);
    await landed(page, ws.name, 'notifications');
    await page.getByRole('button', { name: 'Create a notification' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a notification' });
    await dialog.getByLabel('Name').fill('team hook');
    await dialog.getByLabel('URL').fill(receiver.url);
    await dialog.getByLabel('Errored').check();
    await checkAtEveryWidth(page, 'new-notification-dialog');
    await dialog.getByRole('button', { name: 'Create notification' }).click();
    await page.getByRole('heading', { name: /team hook/ }).waitFor();
    const before = receiver.received.length;
    await page.getByRole('button', { name: 'Verify team hook' }).click();
    await waitFor(async () => receiver.received.length > before, 'the verification to arrive', 30_000);
    const verified = page.getByLabel('Last verification');
    await verified.getByText('delivered').waitFor();
    expect(await verified.textContent()).to.include('HTTP 200');
    expect(receiver.received.at(-1)!.body.notifications[0].trigger).to.equal('verification');
    await checkAtEveryWidth(page, 'workspace-notifications');
    const configs = await api('GET', `/workspaces/${ws.id}/notification-configurations`, { token });
    expect(configs.body.data[0].attributes).to.include({ name: 'team hook', url: receiver.url, enabled: true });
    expect(configs.body.data[0].attributes.triggers).to.include('run:errored');

    await page.getByRole('button', { name: 'Disable team hook' }).click();
    await page.getByRole('button', { name: 'Enable team hook' }).waitFor();
    const after = await api('GET', `/notification-configurations/${configs.body.data[0].id}`, { token });
    expect(after.body.data.attributes.enabled).to.equal(false);
  });

  it('attaches a run task to the workspace', async () => {
    const name = uniq('scanner');
    await createTask(org.name, token, integration.url, { name });
    const { page } = owner;
    await open(page, `${org.name}/workspaces/${ws.name}/tasks`);
    await landed(page, ws.name, 'run tasks');
    await page.getByRole('button', { name: 'Attach a run task' }).click();
    const dialog = page.getByRole('dialog', { name: 'Attach a run task' });
    await dialog.getByRole('combobox', { name: /^Run task/ }).selectOption({ label: name });
    await dialog.getByRole('combobox', { name: /^Stage/ }).selectOption('pre_apply');
    await dialog.getByRole('combobox', { name: /^Enforcement/ }).selectOption('mandatory');
    await dialog.getByRole('button', { name: 'Attach run task' }).click();
    await page.getByRole('table', { name: 'Attached run tasks' }).getByText(name).waitFor();
    await checkAtEveryWidth(page, 'workspace-tasks');
    const attached = await api('GET', `/workspaces/${ws.id}/tasks`, { token });
    expect(attached.body.data).to.have.length(1);
    expect(attached.body.data[0].attributes).to.include({ 'enforcement-level': 'mandatory' });
    expect(attached.body.data[0].attributes.stages).to.deep.equal(['pre_apply']);
  });

  it('gives a team write access to the workspace', async () => {
    const teamId = await createTeam(org, { name: uniq('platform') });
    const team = await api('GET', `/teams/${teamId}`, { token });
    const teamName: string = team.body.data.attributes.name;
    const { page } = owner;
    await open(page, `${org.name}/workspaces/${ws.name}/access`);
    await landed(page, ws.name, 'team access');
    await page.getByRole('button', { name: 'Add team access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Give a team access' });
    await dialog.getByRole('combobox', { name: /^Team/ }).selectOption({ label: teamName });
    await dialog.getByRole('combobox', { name: /^Access/ }).selectOption('write');
    await dialog.getByRole('button', { name: 'Give access' }).click();
    await page.getByRole('combobox', { name: `Access of ${teamName}` }).waitFor();
    await checkAtEveryWidth(page, 'workspace-team-access');
    const grants = await api('GET', `/team-workspaces?filter[workspace][id]=${ws.id}`, { token });
    const grant = grants.body.data.find(
      (g: { relationships: { team: { data: { id: string } } } }) => g.relationships.team.data.id === teamId,
    );
    expect(grant.attributes.access).to.equal('write');
  });

  it('creates a policy set', async () => {
    const { page } = owner;
    await open(page, `${org.name}/policies`);
    await landed(page, 'Policies', 'policies');
    const name = uniq('guardrails');
    await page.getByLabel('Policy set name').fill(name);
    await page.getByLabel('Policy set description').fill('what every workspace must follow');
    await page.getByRole('combobox', { name: /^Policy framework/ }).selectOption('opa');
    await page.getByLabel('Mandatory failures may be overridden').check();
    await page.getByRole('button', { name: 'Create policy set' }).click();
    await page.getByRole('table', { name: 'Policy sets' }).getByText(name).waitFor();
    await checkAtEveryWidth(page, 'policies');
    const sets = await api('GET', `/organizations/${org.name}/policy-sets?search[name]=${name}`, { token });
    expect(sets.body.data[0].attributes).to.include({ name, kind: 'opa', overridable: true, global: false });
  });

  it('adds a module, publishes a version from an archive, and shows its usage, README, inputs and outputs', async () => {
    const archive = await tarGz({
      'main.tf': [
        'variable "bucket_name" {\n  type        = string\n  description = "Name of the bucket"\n}',
        'variable "versioning" {\n  type    = bool\n  default = true\n}',
        'output "bucket_arn" {\n  value       = "arn:${var.bucket_name}"\n  description = "The bucket ARN"\n}',
      ].join('\n'),
      'README.md': '# Storage bucket\n\nMakes a **bucket** with sane defaults.\n',
    });
    const { page } = owner;
    await open(page, `${org.name}/registry`);
    await landed(page, 'Module registry', 'registry');
    await page.getByLabel('Module name').fill('bucket');
    await page.getByLabel('Provider').fill('aws');
    await page.getByRole('button', { name: 'Add module' }).click();
    await landed(page, `${org.name}/bucket/aws`, 'module');
    await page.getByRole('button', { name: 'Publish a version' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish a module version' });
    await dialog.getByLabel('Version').fill('1.2.0');
    await dialog
      .getByLabel('Module archive (.tar.gz)')
      .setInputFiles({ name: 'bucket.tar.gz', mimeType: 'application/gzip', buffer: archive });
    await dialog.getByRole('button', { name: 'Publish version' }).click();
    const version = page.getByRole('region', { name: 'Version 1.2.0' });
    await version.getByRole('heading', { name: 'Storage bucket' }).waitFor();
    await version.getByLabel('README').getByText('bucket', { exact: true }).waitFor();
    const inputs = await version.getByRole('table', { name: 'Inputs' }).locator('tbody tr').allTextContents();
    expect(inputs.find((r) => r.includes('bucket_name')))
      .to.include('required')
      .and.include('Name of the bucket');
    expect(inputs.find((r) => r.includes('versioning')))
      .to.include('bool')
      .and.include('true');
    await version.getByRole('table', { name: 'Outputs' }).getByText('The bucket ARN').waitFor();
    const usage = await version.getByLabel('Usage').textContent();
    expect(usage).to.include('module "bucket"').and.include('version = "1.2.0"').and.include('bucket_name');
    await checkAtEveryWidth(page, 'module');
  });

  it('a read-only member sees the same pages without the actions they cannot take', async () => {
    const { page } = reader;
    await open(page, `${org.name}/workspaces/${ws.name}`);
    await landed(page, ws.name, 'workspace (read-only)');
    await page.getByLabel('Workspace overview').getByText('Current run').waitFor();
    expect(await page.getByRole('button', { name: 'New run' }).count()).to.equal(0);
    await checkAtEveryWidth(page, 'workspace-read-only');

    await open(page, `${org.name}/workspaces/${ws.name}/variables`);
    await landed(page, ws.name, 'variables (read-only)');
    await page.getByRole('table', { name: 'Workspace variables' }).getByText('greeting').waitFor();
    for (const name of ['Add variable', 'Edit greeting', 'Delete greeting'])
      expect(await page.getByRole('button', { name }).count(), name).to.equal(0);

    await open(page, `${org.name}/workspaces/${ws.name}/settings`);
    await landed(page, ws.name, 'settings (read-only)');
    for (const name of ['Save settings', 'Delete workspace', 'Lock workspace'])
      expect(await page.getByRole('button', { name }).count(), name).to.equal(0);

    await open(page, `${org.name}/workspaces/${ws.name}/runs/${runId}`);
    await landed(page, `Run ${runId}`, 'run (read-only)');
    expect(await page.getByRole('button', { name: /Confirm|Discard|Cancel/ }).count()).to.equal(0);

    await open(page, `${org.name}/variable-sets`);
    await landed(page, 'Variable sets', 'variable sets (read-only)');
    expect(await page.getByRole('button', { name: 'Create variable set' }).count()).to.equal(0);

    await open(page, `${org.name}/workspaces/${ws.name}/notifications`);
    await landed(page, ws.name, 'notifications (read-only)');
    await page.getByText('Only workspace admins see notification configurations.').waitFor();
    expect(await page.getByRole('button', { name: 'Create a notification' }).count()).to.equal(0);

    await open(page, `${org.name}/workspaces/${ws.name}/tasks`);
    await landed(page, ws.name, 'run tasks (read-only)');
    await page.getByRole('table', { name: 'Attached run tasks' }).waitFor();
    expect(await page.getByRole('button', { name: /Attach|Detach/ }).count()).to.equal(0);

    await open(page, `${org.name}/workspaces/${ws.name}/access`);
    await landed(page, ws.name, 'team access (read-only)');
    expect(await page.getByRole('button', { name: /Add team access|Remove/ }).count()).to.equal(0);
    expect(await page.getByRole('combobox').count()).to.equal(0);

    await open(page, `${org.name}/policies`);
    await landed(page, 'Policies', 'policies (read-only)');
    expect(await page.getByRole('button', { name: 'Create policy set' }).count()).to.equal(0);

    await open(page, `${org.name}/registry/${org.name}/bucket/aws`);
    await landed(page, `${org.name}/bucket/aws`, 'module (read-only)');
    await page.getByRole('region', { name: 'Version 1.2.0' }).getByLabel('README').waitFor();
    expect(await page.getByRole('button', { name: 'Publish a version' }).count()).to.equal(0);
    await checkAtEveryWidth(page, 'module-read-only');
  });

  it('deletes a workspace from its settings', async () => {
    const doomed = await createWorkspace(org);
    const { page } = owner;
    await open(page, `${org.name}/workspaces/${doomed.name}/settings`);
    await landed(page, doomed.name, 'settings');
    await checkAtEveryWidth(page, 'workspace-settings');
    await page.getByRole('button', { name: 'Delete workspace' }).click();
    await landed(page, 'Workspaces', 'workspaces after a delete');
    const gone = await api('GET', `/workspaces/${doomed.id}`, { token });
    expect(gone.status).to.equal(404);
  });
});
