import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { api, doc } from '../helpers/api.js';
import { createOrg, createUser, joinOrg, uniq, type TestUser } from '../helpers/fixtures.js';
import { harness } from '../helpers/harness.js';
import { givePassword, signIn } from '../helpers/console.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import {
  startRun,
  startSlowStateServer,
  slowPlanConfig,
  terraformAvailable,
  uploadConfig,
  waitForRun,
  type SlowStateServer,
} from '../helpers/terraform.js';
import { policyRuntimeEnv, sentinelPolicy } from '../helpers/policy-runtimes.js';
import { planWithStoredToken, terraformLogin } from '../helpers/terraform-login.js';
import { createPolicy, createPolicySet, linkages, uploadCode } from '../helpers/policy-fixtures.js';
import { attachTask, createTask } from '../helpers/run-task-fixtures.js';
import {
  answerThenCallBack,
  outcome,
  startTaskIntegration,
  type SentCallback,
  type TaskIntegration,
} from '../helpers/run-task-integration.js';
import { startReceiver, type NotificationReceiver } from '../helpers/notification-receiver.js';
import { createModule, createTestRun, uploadTestConfig, waitForTestRun } from '../helpers/module-tests.js';
import {
  checkAccessibility,
  checkFitsWidth,
  checkAtEveryWidth,
  chromiumAvailable,
  landed,
  openBrowser,
  type ConsoleBrowser,
} from '../helpers/browser.js';

/** A module with one passing and one failing `terraform test` run. */
const MODULE_WITH_TESTS = {
  'main.tf':
    'variable "name" {\n  type    = string\n  default = "nobody"\n}\nresource "terraform_data" "greeting" { input = "hello ${var.name}" }\noutput "greeting" { value = terraform_data.greeting.output }\n',
  'tests/greeting.tftest.hcl':
    'run "passes" {\n  assert {\n    condition     = output.greeting == "hello nobody"\n    error_message = "unexpected greeting ${output.greeting}"\n  }\n}\nrun "fails" {\n  assert {\n    condition     = output.greeting == "hello somebody else"\n    error_message = "unexpected greeting ${output.greeting}"\n  }\n}\n',
};

const RUN_TRIGGERS = [
  'run:created',
  'run:planning',
  'run:needs_attention',
  'run:applying',
  'run:completed',
  'run:errored',
];

/** Waits until the log labeled `label` shows `text`. */
const logShows = (page: Page, label: string, text: string, timeoutMs = 30_000) =>
  waitFor(
    async () => ((await page.getByLabel(label).textContent()) ?? '').includes(text),
    `${label} to show "${text}"`,
    timeoutMs,
  );

/** The path and query of a URL the service handed out, on the test's own origin. */
const onService = (url: string) => {
  const u = new URL(url);
  return `${harness().baseUrl}${u.pathname}${u.search}`;
};

describe('web console (Chromium)', function () {
  this.timeout(300_000);
  let workers: WorkerProcess;
  let browser: ConsoleBrowser;
  let integration: TaskIntegration;
  let receiver: NotificationReceiver;
  let slow: SlowStateServer;
  const sent: SentCallback[] = [];
  let user: TestUser;
  let password: string;
  let orgName: string;

  before(async function () {
    if (!terraformAvailable() || !chromiumAvailable()) this.skip();
    workers = spawnWorkers(
      [
        'run-pipeline',
        'deadline-expiry',
        'run-task-dispatch',
        'notification-delivery',
        'verification',
        'test-run-execution',
      ],
      {
        RECONCILE_INTERVAL_MS: '2000',
        ...(await policyRuntimeEnv()),
      },
    );
    await workersReady(workers);
    integration = await startTaskIntegration(null);
    integration.reply = answerThenCallBack(
      [
        { status: 'running', message: 'scanning' },
        {
          status: 'passed',
          message: '2 findings, none blocking',
          url: 'https://scanner.example.test/report/1',
          outcomes: [
            outcome('SEC-101', {
              description: 'Bucket allows public reads',
              body: 'Set acl to private.',
              url: 'https://scanner.example.test/rules/SEC-101',
              tags: { Severity: [{ label: 'High', level: 'error' }], Status: [{ label: 'Open', level: 'warning' }] },
            }),
            outcome('STYLE-7', {
              description: 'Missing description',
              tags: { Severity: [{ label: 'Low', level: 'info' }] },
            }),
          ],
        },
      ],
      sent,
    );
    receiver = await startReceiver(null);
    slow = await startSlowStateServer(8_000);
    user = await createUser();
    password = await givePassword(user);
    orgName = (await createOrg(user)).name;
    browser = await openBrowser(harness().baseUrl, {
      allow: (u) =>
        u.hostname === 'localhost' && u.pathname === '/login' && Number(u.port) >= 10000 && Number(u.port) <= 10010,
    });
  });

  after(async () => {
    await browser?.close();
    await workers?.stop();
    await integration?.close();
    await receiver?.close();
    await slow?.close();
  });

  afterEach(() => {
    expect(browser.foreign, 'requests to other hosts').to.deep.equal([]);
  });

  it('sends / to the sign-in page, refuses a wrong password in words, and signs in', async () => {
    const { page } = browser;
    await page.goto(`${harness().baseUrl}/`);
    await landed(page, 'Sign in', 'sign-in');
    expect(new URL(page.url()).pathname).to.equal('/app/sign-in');
    await checkAtEveryWidth(page, 'sign-in');

    await page.getByLabel('Username or email').fill(user.username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    // The service's 401 in words (not a status code).
    expect(await page.getByRole('alert').textContent())
      .to.match(/[a-z]+ [a-z]+/i)
      .and.not.match(/^\d+$/);

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await landed(page, 'Organizations', 'organizations');
    await page.getByRole('link', { name: orgName }).waitFor();
    // Not a site admin: no link to the site admin pages.
    expect(await page.getByRole('link', { name: 'Site admin' }).count()).to.equal(0);
    await checkAtEveryWidth(page, 'organizations');
  });

  let wsName: string;
  let wsId: string;

  it('creates a workspace from the workspaces page', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: orgName }).click();
    await landed(page, 'Workspaces', 'workspaces (empty)');
    await page.getByText('No workspaces yet').waitFor();
    wsName = uniq('web');
    await page.getByText('Create a workspace').click();
    await page.getByLabel('Workspace name').fill(wsName);
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await landed(page, wsName, 'workspace');
    await page.getByText('No runs yet').waitFor();
    const found = await api('GET', `/organizations/${orgName}/workspaces/${wsName}`, { token: user.token });
    expect(found.status, found.text).to.equal(200);
    wsId = found.body.data.id;
    expect(found.body.data.attributes['auto-apply']).to.equal(false);

    await page.goto(`${harness().baseUrl}/app/${orgName}/workspaces`);
    await landed(page, 'Workspaces', 'workspaces');
    await page.getByRole('link', { name: wsName }).waitFor();
    await checkAtEveryWidth(page, 'workspaces');
  });

  let runId: string;

  it('follows a run live: plan log while planning, task outcomes with tags, the soft-failed policy check; override, confirm, applied', async () => {
    const { page } = browser;
    const token = user.token;
    // A run task after the plan, a soft-mandatory policy that fails, and a webhook for the run's events.
    const taskId = await createTask(orgName, token, integration.url, { name: 'scanner' });
    await attachTask(wsId, token, taskId, { 'enforcement-level': 'advisory', stages: ['post_plan'] });
    const policy = await createPolicy(orgName, token, {
      name: 'private-buckets',
      kind: 'sentinel',
      'enforcement-level': 'soft-mandatory',
    });
    expect((await uploadCode(policy.id, token, sentinelPolicy(false, 'buckets should be private'))).status).to.equal(
      204,
    );
    const set = await createPolicySet(orgName, token, { kind: 'sentinel', global: true, name: 'baseline' });
    expect(
      (
        await api('POST', `/policy-sets/${set.id}/relationships/policies`, {
          token,
          body: linkages('policies', [policy.id]),
        })
      ).status,
    ).to.equal(204);
    const hook = await api('POST', `/workspaces/${wsId}/notification-configurations`, {
      token,
      body: doc('notification-configuration', {
        'destination-type': 'generic',
        enabled: true,
        name: 'hook',
        url: receiver.url,
        triggers: RUN_TRIGGERS,
      }),
    });
    expect(hook.status, hook.text).to.equal(201);

    const cv = await uploadConfig(wsId, token, { 'main.tf': slowPlanConfig(slow.address) });
    runId = await startRun(wsId, token, { message: 'from the console test' }, cv);

    // The URL form the terraform CLI prints: /app/<org>/<workspace>/runs/<run>.
    await page.goto(`${harness().baseUrl}/app/${orgName}/${wsName}/runs/${runId}`);
    await landed(page, `Run ${runId}`, 'run page');
    const planLog = page.getByLabel('Plan log');
    await logShows(page, 'Plan log', 'terraform_remote_state.slow: Reading', 90_000);
    // The log is there while the plan still waits on the slow state server: it was followed live.
    const during = await api('GET', `/runs/${runId}`, { token });
    expect(during.body.data.attributes.status).to.equal('planning');
    expect(await planLog.getAttribute('data-following')).to.equal('yes');
    await checkAtEveryWidth(page, 'run-planning');

    // The plan ends, the task reports its outcomes, the policy check soft-fails.
    await waitForRun(runId, token, ['policy_override', 'errored'], 120_000);
    await logShows(page, 'Plan log', 'Plan: 1 to add');
    const task = page.getByRole('article', { name: 'Task scanner' });
    await task.getByText('SEC-101', { exact: true }).waitFor();
    await task.getByText('2 findings, none blocking').waitFor();
    const high = task.locator('.tag.level-error');
    expect((await high.textContent())?.replace(/\s+/g, ' ')).to.include('Severity: High');
    expect((await task.locator('.tag.level-warning').textContent())?.replace(/\s+/g, ' ')).to.include('Status: Open');
    expect((await task.locator('.tag.level-info').textContent())?.replace(/\s+/g, ' ')).to.include('Severity: Low');
    // Outcomes are listed by severity: the one with an error tag first.
    expect(await task.locator('.outcome').first().textContent()).to.include('SEC-101');
    await task.getByRole('link', { name: 'More about SEC-101' }).waitFor();
    await task.getByText(/delivery attempt/).waitFor();

    const check = page.getByRole('article', { name: 'Policy check' });
    await check.getByText('soft failed', { exact: true }).waitFor();
    await logShows(page, 'Policy check output', 'buckets should be private');
    await page.getByText(/Status:\s*policy override/).waitFor();
    // Times are shown in the viewer's zone (the browser is set to Asia/Tokyo).
    const time = page.locator('time').first();
    const iso = (await time.getAttribute('datetime'))!;
    expect(await time.textContent()).to.equal(
      new Date(iso).toLocaleString('en-US', { timeZone: 'Asia/Tokyo', dateStyle: 'medium', timeStyle: 'medium' }),
    );
    // Not confirmable before the override: no such button.
    expect(await page.getByRole('button', { name: 'Confirm and apply' }).count()).to.equal(0);
    await checkAccessibility(page, 'run page (policy override)');
    await checkAtEveryWidth(page, 'run-policy-override');
    await page.setViewportSize({ width: 390, height: 844 });
    await checkFitsWidth(page, 'run page at phone width');
    await checkAtEveryWidth(page, 'run-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    await check.getByRole('button', { name: 'Override and continue' }).click();
    await page.getByRole('button', { name: 'Confirm and apply' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm and apply' }).click();
    await page.getByText(/Status:\s*applied/).waitFor({ timeout: 120_000 });
    await logShows(page, 'Apply log', 'Apply complete');
    expect((await api('GET', `/runs/${runId}`, { token })).body.data.attributes.status).to.equal('applied');
    await check.getByText('overridden', { exact: true }).waitFor();
    // A finished run offers no actions.
    for (const name of ['Confirm and apply', 'Discard run', 'Cancel run', 'Force cancel run'])
      expect(await page.getByRole('button', { name }).count(), name).to.equal(0);
    await checkAtEveryWidth(page, 'run-applied');
  });

  it('opens the run from the URLs the service put in the task request and the notification', async () => {
    const { page } = browser;
    const taskRequest = integration.requests.find((r) => r.body.stage === 'post_plan' && r.body.run_id === runId)!;
    expect(taskRequest, 'the task request').to.not.equal(undefined);
    await page.goto(onService(String(taskRequest.body.run_app_url)));
    await landed(page, `Run ${runId}`, 'run page from the task payload');
    await waitFor(() => receiver.received.some((r) => r.body.run_id === runId), 'a notification for the run');
    const note = receiver.received.find((r) => r.body.run_id === runId)!;
    await page.goto(onService(String(note.body.run_url)));
    await landed(page, `Run ${runId}`, 'run page from the notification');
    await page.getByText(/Status:\s*applied/).waitFor();
  });

  it('shows the notification delivery log and resends a delivery', async () => {
    const { page } = browser;
    await page.goto(`${harness().baseUrl}/app/${orgName}/workspaces/${wsName}/notifications`);
    await landed(page, wsName, 'notifications');
    await page.getByRole('heading', { name: /hook/ }).waitFor();
    const resend = page.getByRole('button', { name: `Resend the run:completed delivery of ${runId}` });
    await resend.waitFor();
    await page.getByText('run:completed').first().waitFor();
    await page.getByRole('link', { name: runId }).first().waitFor();
    await checkAtEveryWidth(page, 'workspace-notifications');
    const before = receiver.received.length;
    await resend.click();
    await waitFor(() => receiver.received.length > before, 'the resent delivery to arrive', 30_000);
    const again = receiver.received.at(-1)!.body;
    expect(again.run_id).to.equal(runId);
    expect(again.notifications[0].trigger).to.equal('run:completed');
  });

  it('shows the other pages of the workspace and the organization', async () => {
    const { page } = browser;
    const base = `${harness().baseUrl}/app/${orgName}`;
    const pages: [string, string, string][] = [
      [`/workspaces/${wsName}`, wsName, 'workspace-runs'],
      [`/workspaces/${wsName}/variables`, wsName, 'workspace-variables'],
      [`/workspaces/${wsName}/states`, wsName, 'workspace-states'],
      [`/workspaces/${wsName}/tasks`, wsName, 'workspace-tasks'],
      [`/workspaces/${wsName}/policies`, wsName, 'workspace-policy-sets'],
      [`/workspaces/${wsName}/settings`, wsName, 'workspace-settings'],
      ['/registry', 'Module registry', 'registry'],
      ['/policies', 'Policies', 'policies'],
      ['/teams', 'Teams and members', 'teams'],
    ];
    for (const [path, h1, name] of pages) {
      await page.goto(`${base}${path}`);
      await landed(page, h1, name);
      await checkFitsWidth(page, name);
      await checkAtEveryWidth(page, name);
    }
    // The same pages at a phone's width: nothing wider than the screen (wide tables scroll in their box).
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const [path, h1, name] of pages) {
        await page.goto(`${base}${path}`);
        await landed(page, h1, `${name} (phone)`);
        await checkFitsWidth(page, `${name} (phone)`);
      }
      await checkAtEveryWidth(page, 'teams-phone');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    // A module in the registry: listed; its page shows a test run with its counts, result and output.
    const mod = await createModule({ name: orgName, owner: user });
    await page.goto(`${base}/registry`);
    await page.getByRole('link', { name: mod.name }).click();
    await landed(page, `${orgName}/${mod.name}/${mod.provider}`, 'module');
    await page.getByText('No test runs yet').waitFor();
    const testCv = await uploadTestConfig(mod, user.token, MODULE_WITH_TESTS, { cli: true });
    const testRun = await createTestRun(mod, user.token, testCv);
    await waitForTestRun(mod, user.token, testRun.id, ['finished', 'errored'], 120_000);
    const row = page.getByRole('row').filter({ hasText: testRun.id });
    await row.getByText('1 passed, 1 failed').waitFor({ timeout: 30_000 });
    await row.getByText('failed', { exact: true }).waitFor();
    await row.getByRole('button', { name: `Show output of ${testRun.id}` }).click();
    await logShows(page, `Output of test run ${testRun.id}`, 'unexpected greeting hello nobody');
    // Pass or fail per test, read from the log.
    const results = page.getByRole('list', { name: 'Test results' });
    await results.getByText('run “passes”').waitFor();
    expect((await results.locator('li').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).to.deep.equal([
      'passed tests/greeting.tftest.hcl — run “passes”',
      'failed tests/greeting.tftest.hcl — run “fails”',
    ]);
    await checkAtEveryWidth(page, 'module');
    await page.goto(`${base}/workspaces/${wsName}/tasks`);
    await page.getByRole('cell', { name: 'scanner', exact: true }).waitFor();
    await page.goto(`${base}/workspaces/${wsName}/policies`);
    await page.getByRole('link', { name: 'baseline' }).waitFor();
    await page.goto(`${base}/workspaces/${wsName}/states`);
    await page.getByRole('cell', { name: 'finished' }).or(page.getByText('State versions')).first().waitFor();
    await page.goto(`${base}/workspaces/${wsName}/settings`);
    await page.getByRole('button', { name: 'Lock workspace', exact: true }).click();
    await page.getByRole('button', { name: 'Unlock workspace', exact: true }).waitFor();
    expect((await api('GET', `/workspaces/${wsId}`, { token: user.token })).body.data.attributes.locked).to.equal(true);
    await page.getByRole('button', { name: 'Unlock workspace', exact: true }).click();
    await page.getByRole('button', { name: 'Lock workspace', exact: true }).waitFor();
  });

  it('creates and revokes an API token of ones own', async () => {
    const { page } = browser;
    await page.goto(`${harness().baseUrl}/app/settings/tokens`);
    await landed(page, 'API tokens', 'tokens');
    await page.getByLabel('Description').fill('laptop');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByLabel('New token').textContent())!.trim();
    expect((await api('GET', '/account/details', { token })).status).to.equal(200);
    await checkAtEveryWidth(page, 'tokens');
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Revoke laptop' }).click();
    await waitFor(
      async () => (await api('GET', '/account/details', { token })).status === 401,
      'the token to be revoked',
    );
  });

  it('terraform login: the CLI prints the consent page, the signed-in user allows it, and terraform plan uses the token', async () => {
    const { page } = browser;
    const login = await terraformLogin(harness().baseUrl, async (url) => {
      await page.goto(url);
      await landed(page, 'Authorize Terraform CLI', 'consent');
      await page.getByText(user.username, { exact: true }).first().waitFor();
      await checkAtEveryWidth(page, 'oauth-consent');
      await page.getByRole('button', { name: 'Allow and create token' }).click();
    });
    try {
      const me = await api('GET', '/account/details', { token: login.token });
      expect(me.body.data.attributes.username).to.equal(user.username);
      // A plan in a fresh organization (no policies) with only the credentials terraform login stored.
      const output = await planWithStoredToken(login, (await createOrg(user)).name);
      // The run the CLI started opens in the console at the URL the CLI printed.
      const printed = /(http\S+\/app\/\S+\/runs\/run-\w+)/.exec(output)?.[1];
      expect(printed, output).to.be.a('string');
      await page.goto(onService(printed!));
      await landed(page, /^Run run-/, 'run page from the CLI');
    } finally {
      await login.close();
    }
  });

  it('signs out', async () => {
    const { page } = browser;
    await page.goto(`${harness().baseUrl}/app/organizations`);
    await landed(page, 'Organizations', 'organizations');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await landed(page, 'Sign in', 'signed out');
    await page.goto(`${harness().baseUrl}/app/${orgName}/workspaces`);
    await landed(page, 'Sign in', 'after sign-out');
    expect(new URL(page.url()).searchParams.get('next')).to.equal(`/app/${orgName}/workspaces`);

    // The consent page of terraform login, opened signed out: sign in first, then back to it.
    const consent = `/app/oauth/authorize?client_id=terraform-cli&redirect_uri=${encodeURIComponent('http://localhost:10000/login')}&state=s1&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256&response_type=code`;
    await page.goto(`${harness().baseUrl}${consent}`);
    await landed(page, 'Sign in', 'sign-in before consent');
    await page.getByLabel('Username or email').fill(user.email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await landed(page, 'Authorize Terraform CLI', 'consent after sign-in');
    expect(new URL(page.url()).searchParams.get('state')).to.equal('s1');
  });

  it('site admins list and search users, make a password link, and reach the queue board; others get 404 for the list', async () => {
    const { page } = browser;
    expect((await api('GET', '/admin/users', { token: user.token })).status).to.equal(404);
    const admin = await api('GET', '/account/details');
    const adminPassword = await givePassword({ id: admin.body.data.id });
    await page.goto(`${harness().baseUrl}/app/sign-in`);
    await page.getByLabel('Username or email').fill(admin.body.data.attributes.username);
    await page.getByLabel('Password').fill(adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await landed(page, 'Organizations', 'organizations (site admin)');
    await page.getByRole('link', { name: 'Site admin' }).click();
    await landed(page, 'Site admin', 'site admin');
    await page.getByLabel('Search users by username or email').fill(user.username);
    await page.getByRole('button', { name: 'Search users' }).click();
    await page.getByRole('cell', { name: user.email }).waitFor();
    expect(await page.getByRole('table', { name: 'Users' }).getByRole('row').count()).to.equal(2);
    await page.getByRole('button', { name: `Password link for ${user.username}` }).click();
    const link = (await page.getByLabel(`Password link for ${user.username}`).textContent())!;
    expect(new URL(link).pathname).to.equal('/app/reset-password');
    await page.getByRole('link', { name: 'Open the queue board' }).waitFor();

    // Suspending a user stops their token at once; lifting it restores it.
    const suspect = await createUser();
    await page.getByLabel('Search users by username or email').fill(suspect.username);
    await page.getByRole('button', { name: 'Search users' }).click();
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: `Suspend ${suspect.username}` }).click();
    await page.getByRole('button', { name: `Unsuspend ${suspect.username}` }).waitFor();
    expect((await api('GET', '/account/details', { token: suspect.token })).status).to.equal(401);
    await page.getByRole('button', { name: `Unsuspend ${suspect.username}` }).click();
    await page.getByRole('button', { name: `Suspend ${suspect.username}` }).waitFor();
    expect((await api('GET', '/account/details', { token: suspect.token })).status).to.equal(200);

    await page.getByLabel('Search organizations by name or email').fill(orgName);
    await page.getByRole('button', { name: 'Search organizations' }).click();
    await page.getByRole('table', { name: 'All organizations' }).getByRole('link', { name: orgName }).waitFor();
    await checkAtEveryWidth(page, 'site-admin');

    // The link opens the console's reset page, which sets the password the user then signs in with.
    await page.goto(onService(link));
    await landed(page, 'Reset your password', 'reset password');
    await checkAtEveryWidth(page, 'reset-password');
    const fresh = `new-${uniq('pw')}-long-enough`;
    await page.getByLabel('New password', { exact: true }).fill(fresh);
    await page.getByLabel('New password again').fill(fresh);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is set').waitFor();
    expect((await signIn(user.username, fresh)).csrf).to.be.a('string');
  });

  it('a member without permissions sees no create or invite forms, and a run out of reach as an error in words', async () => {
    const { page } = browser;
    const member = await createUser();
    // Invited, not yet a member: the organizations page offers the invitation.
    await joinOrg({ name: orgName, owner: user }, member, false);
    const memberPassword = await givePassword(member);
    await page.goto(`${harness().baseUrl}/app/sign-in`);
    await page.getByLabel('Username or email').fill(member.username);
    await page.getByLabel('Password').fill(memberPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await landed(page, 'Organizations', 'organizations (invited)');
    await page.getByText('You do not belong to any organization yet').waitFor();
    await checkAtEveryWidth(page, 'organizations-invited');
    await page.getByRole('button', { name: `Accept the invitation to ${orgName}` }).click();
    await page.getByRole('link', { name: orgName }).waitFor();
    expect(await page.getByRole('button', { name: `Accept the invitation to ${orgName}` }).count()).to.equal(0);
    await page.goto(`${harness().baseUrl}/app/${orgName}/workspaces`);
    await landed(page, 'Workspaces', 'workspaces (member)');
    await page.getByText('No workspaces yet').waitFor();
    // Every read of the page answered (the organization's permissions among them) before looking for what is absent.
    await page.waitForLoadState('networkidle');
    expect(await page.getByText('Create a workspace').count()).to.equal(0);
    await page.goto(`${harness().baseUrl}/app/${orgName}/teams`);
    await landed(page, 'Teams and members', 'teams (member)');
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('button', { name: 'Send invitation' }).count()).to.equal(0);
    await page.goto(`${harness().baseUrl}/app/${orgName}/workspaces/${wsName}/runs/${runId}`);
    await landed(page, `Run ${runId}`, 'run out of reach');
    expect(await page.getByRole('alert').textContent()).to.match(/not found|not authorized|no access/i);
    expect(await page.getByRole('button', { name: 'Confirm and apply' }).count()).to.equal(0);
  });
});

describe('web console serving', () => {
  it('redirects / to /app, answers every /app page with the console, and serves assets; a missing asset is 404', async () => {
    const base = harness().baseUrl;
    const root = await fetch(`${base}/`, { redirect: 'manual' });
    expect(root.status).to.equal(302);
    expect(root.headers.get('location')).to.equal('/app');
    for (const path of [
      '/app',
      '/app/sign-in',
      '/app/acme/networking/runs/run-abc',
      '/app/acme/workspaces/networking/runs/run-abc',
    ]) {
      const res = await fetch(`${base}${path}`);
      const html = await res.text();
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('content-type'), path).to.match(/^text\/html/);
      expect(res.headers.get('cache-control'), path).to.equal('no-cache');
      expect(html, path).to.include('<div id="root">');
      const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script, path).to.be.a('string');
      const asset = await fetch(`${base}${script}`);
      expect(asset.status).to.equal(200);
      expect(asset.headers.get('cache-control')).to.include('immutable');
      await asset.arrayBuffer();
    }
    const missing = await fetch(`${base}/app/assets/nothing-here.js`);
    expect(missing.status).to.equal(404);
    await missing.text();
    const post = await fetch(`${base}/app/sign-in`, { method: 'POST' });
    expect(post.status).to.equal(405);
    await post.text();
  });

  it('sends pages with a policy that allows this origin only and forbids framing, and no Referer', async () => {
    const res = await fetch(`${harness().baseUrl}/app/oauth/authorize?client_id=terraform-cli`);
    await res.text();
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).to.include("default-src 'self'");
    expect(csp).to.include("script-src 'self'");
    expect(csp).to.include("frame-ancestors 'none'");
    expect(csp).to.not.match(/https?:|unsafe-inline|unsafe-eval/);
    expect(res.headers.get('x-frame-options')).to.equal('DENY');
    expect(res.headers.get('referrer-policy')).to.equal('no-referrer');
  });
});
