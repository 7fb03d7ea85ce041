import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api } from '../helpers/api.js';
import { createOrg, uniq } from '../helpers/fixtures.js';
import { givePassword } from '../helpers/console.js';
import { startHttpsApp, httpsCall, type HttpsApp } from '../helpers/https-app.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from '../helpers/processes.js';
import { terraform, terraformAvailable } from '../helpers/terraform.js';

/*
 * `terraform login` with the real CLI. Service discovery needs HTTPS, so the web process serves
 * https itself (TLS_CERT_FILE, TLS_KEY_FILE) with a self-signed certificate that the CLI trusts
 * through SSL_CERT_FILE. The CLI's
 * "browser" is a script that writes the URL it is asked to open; the test signs in and gives consent
 * through HTTP as the console's page does (session cookie, X-CSRF-Token), then follows the redirect
 * to the CLI's local port. The token the CLI stores is then used by `terraform plan`.
 */

interface LoginProcess {
  output: () => string;
  exited: Promise<number | null>;
  kill(): void;
}

function startLogin(dir: string, env: NodeJS.ProcessEnv, host: string): LoginProcess {
  const proc = spawn('terraform', ['login', host], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
  // "Do you want to proceed?" — the CLI reads the answer when it asks.
  proc.stdin.end('yes\n');
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { output: () => out, exited, kill: () => void (proc.exitCode === null && proc.kill('SIGKILL')) };
}

describe('terraform login against the service (real CLI, HTTPS, consent through the console API)', function () {
  this.timeout(300_000);
  let app: HttpsApp;
  let dir: string;
  let worker: WorkerProcess | undefined;

  before(async function () {
    if (!terraformAvailable()) this.skip();
    app = await startHttpsApp();
    dir = await mkdtemp(join(tmpdir(), 'rls-login-'));
  });

  after(async () => {
    await worker?.stop();
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /**
   * The CLI's environment: its own HOME (where it stores and reads credentials: no TF_CLI_CONFIG_FILE,
   * which would stop it reading that directory), the test's CA, a "browser" that records the URL.
   */
  async function cliEnv(): Promise<NodeJS.ProcessEnv> {
    const bin = join(dir, 'bin');
    await mkdir(bin, { recursive: true });
    // The CLI writes its credentials file there but does not create the directory.
    await mkdir(join(dir, '.terraform.d'), { recursive: true });
    const browser = join(bin, 'xdg-open');
    await writeFile(browser, `#!/bin/sh\nprintf '%s\\n' "$1" > "${join(dir, 'browser-url')}"\n`);
    await chmod(browser, 0o755);
    return {
      PATH: `${bin}:${process.env.PATH}`,
      BROWSER: browser,
      HOME: dir,
      SSL_CERT_FILE: app.certFile,
      CHECKPOINT_DISABLE: '1',
    };
  }

  it('discovery offers login.v1; the CLI gets a token through the consent step and stores it; terraform plan uses it', async () => {
    const org = await createOrg();
    const password = await givePassword(org.owner);
    const env = await cliEnv();

    const discovery = await httpsCall(app, 'GET', '/.well-known/terraform.json');
    expect(discovery.body['login.v1']).to.deep.equal({
      client: 'terraform-cli',
      grant_types: ['authz_code'],
      authz: '/app/oauth/authorize',
      token: '/oauth/token',
      ports: [10000, 10010],
    });

    const login = startLogin(dir, env, app.host);
    try {
      const opened = await waitFor(
        async () => (await readFile(join(dir, 'browser-url'), 'utf8').catch(() => '')).trim(),
        'the CLI to open the browser',
        60_000,
      );
      const url = new URL(opened);
      expect(`${url.origin}${url.pathname}`).to.equal(`${app.baseUrl}/app/oauth/authorize`);
      const q = Object.fromEntries(url.searchParams);
      expect(q).to.include({ client_id: 'terraform-cli', response_type: 'code', code_challenge_method: 'S256' });
      expect(q.redirect_uri).to.match(/^http:\/\/localhost:100(0\d|10)\/login$/);

      // The console page: not signed in yet, consent is refused; sign in, then consent.
      const json = { 'Content-Type': 'application/json', Origin: app.baseUrl };
      const consentBody = JSON.stringify({
        client_id: q.client_id,
        redirect_uri: q.redirect_uri,
        state: q.state,
        code_challenge: q.code_challenge,
        code_challenge_method: q.code_challenge_method,
        response_type: q.response_type,
      });
      expect(
        (await httpsCall(app, 'POST', '/api/console/oauth/authorize', { headers: json, body: consentBody })).status,
      ).to.equal(401);
      const signIn = await httpsCall(app, 'POST', '/api/console/session', {
        headers: json,
        body: JSON.stringify({ username: org.owner.username, password }),
      });
      expect(signIn.status, signIn.text).to.equal(200);
      // Over https the cookies are Secure and __Host- prefixed; the answer names the CSRF cookie.
      expect(signIn.setCookies.every((c) => /; Secure/i.test(c))).to.equal(true);
      const cookies = signIn.setCookies.map((c) => c.split(';')[0]);
      const csrfCookie: string = signIn.body.meta['csrf-cookie'];
      expect(csrfCookie).to.equal('__Host-tfcsrf');
      const csrf = decodeURIComponent(
        cookies.find((c) => c.startsWith(`${csrfCookie}=`))!.slice(csrfCookie.length + 1),
      );
      const consent = await httpsCall(app, 'POST', '/api/console/oauth/authorize', {
        headers: { ...json, Cookie: cookies.join('; '), 'X-CSRF-Token': csrf },
        body: consentBody,
      });
      expect(consent.status, consent.text).to.equal(200);
      const redirect = new URL(consent.body.redirect);
      expect(`${redirect.origin}${redirect.pathname}`).to.equal(q.redirect_uri);
      expect(redirect.searchParams.get('state')).to.equal(q.state);

      // The browser follows the redirect to the CLI, which exchanges the code. The CLI stops its
      // listener as soon as it has the code, and on a busy machine that can close the connection
      // before its answer goes out (a browser would show the same); what counts is the exchange.
      const back = await fetch(redirect).then(
        async (r) => {
          await r.text();
          return r.status;
        },
        () => null,
      );
      if (back !== null) expect(back).to.equal(200);
      const code = await login.exited;
      expect(code, login.output()).to.equal(0);
      expect(login.output(), login.output()).to.include('Terraform has obtained and saved an API token.');
    } finally {
      login.kill();
    }

    const stored = JSON.parse(await readFile(join(dir, '.terraform.d', 'credentials.tfrc.json'), 'utf8'));
    const token: string = stored.credentials[app.host].token;
    expect(token).to.be.a('string');
    const me = await api('GET', '/account/details', { token });
    expect(me.status, me.text).to.equal(200);
    expect(me.body.data.id).to.equal(org.owner.id);
    const listed = await api('GET', `/users/${org.owner.id}/authentication-tokens`, { token });
    expect(listed.body.data.map((t: { attributes: { description: string } }) => t.attributes.description)).to.include(
      'terraform login',
    );

    // terraform plan with the stored credentials (no token anywhere but the CLI's credentials file).
    worker = spawnWorkers(['run-pipeline']);
    await workersReady(worker);
    const ws = uniq('login');
    await writeFile(
      join(dir, 'main.tf'),
      `terraform {\n  cloud {\n    hostname     = "${app.host}"\n    organization = "${org.name}"\n    workspaces { name = "${ws}" }\n  }\n}\nresource "terraform_data" "a" { input = "from terraform login" }\n`,
    );
    const created = await api('POST', `/organizations/${org.name}/workspaces`, {
      token,
      body: { data: { type: 'workspaces', attributes: { name: ws } } },
    });
    expect(created.status, created.text).to.equal(201);
    const init = await terraform(dir, env, ['init', '-input=false', '-no-color']);
    expect(init.code, init.output).to.equal(0);
    const plan = await terraform(dir, env, ['plan', '-input=false', '-no-color']);
    expect(plan.code, plan.output).to.equal(0);
    expect(plan.output).to.include('Plan: 1 to add, 0 to change, 0 to destroy.');
  });
});
