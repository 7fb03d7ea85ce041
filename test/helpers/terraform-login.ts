import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from './processes.js';
import { CLI_HOST, terraform } from './terraform.js';
import { uniq } from './fixtures.js';

/** A home directory terraform login stored a token in, for the service at `base`. */
export interface LoggedIn {
  dir: string;
  env: NodeJS.ProcessEnv;
  token: string;
  base: string;
  close(): Promise<void>;
}

/**
 * Runs `terraform login` against the service at `base` (its services named in a CLI
 * configuration, as discovery would answer them), hands the consent URL the CLI prints to
 * `consent` (which opens it in a browser and allows it), and returns the token it stored.
 */
export async function terraformLogin(base: string, consent: (url: string) => Promise<void>): Promise<LoggedIn> {
  const dir = await mkdtemp(join(tmpdir(), 'terraform-login-'));
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    TF_CLI_CONFIG_FILE: join(dir, 'cli.tfrc'),
    CHECKPOINT_DISABLE: '1',
    BROWSER: '/bin/false',
  };
  // The host's services on this test's port (the CLI needs https for discovery itself).
  await writeFile(
    env.TF_CLI_CONFIG_FILE,
    `host "${CLI_HOST}" {\n  services = {\n    "tfe.v2" = "${base}/api/v2/"\n    "login.v1" = {\n      client = "terraform-cli"\n      grant_types = ["authz_code"]\n      authz = "${base}/app/oauth/authorize"\n      token = "${base}/oauth/token"\n      ports = [10000, 10010]\n    }\n  }\n}\n`,
  );
  // Where terraform login stores the token (it does not create the directory itself).
  await mkdir(join(dir, '.terraform.d'));
  const login = spawn('terraform', ['login', CLI_HOST], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  try {
    // The answer to "Do you want to proceed?", read when the CLI asks.
    login.stdin.write('yes\n');
    login.stdout.on('data', (d: Buffer) => (output += d.toString()));
    login.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => login.on('exit', (code) => resolve(code)));
    const url = await waitFor(
      () => /Open the following URL[^\n]*\n\s*(http\S+)/.exec(output)?.[1] ?? '',
      "the consent URL in terraform login's output",
      30_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}:\n${output}`);
    });
    await consent(url);
    expect(
      await Promise.race([exited, new Promise((r) => setTimeout(() => r('still waiting'), 30_000))]),
      output,
    ).to.equal(0);
    expect(output).to.match(/Success|Retrieved token/i);
  } catch (err) {
    login.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const stored = JSON.parse(await readFile(join(dir, '.terraform.d', 'credentials.tfrc.json'), 'utf8')) as {
    credentials: Record<string, { token: string }>;
  };
  return {
    dir,
    env,
    token: stored.credentials[CLI_HOST].token,
    base,
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * A remote `terraform plan` in a new workspace of `organization` with the token terraform login
 * stored and nothing else. With TF_CLI_CONFIG_FILE set, terraform reads no other CLI
 * configuration, its credentials file included: the configuration names the stored token itself.
 */
export async function planWithStoredToken(login: LoggedIn, organization: string): Promise<string> {
  await writeFile(
    login.env.TF_CLI_CONFIG_FILE!,
    `host "${CLI_HOST}" {\n  services = { "tfe.v2" = "${login.base}/api/v2/" }\n}\ncredentials "${CLI_HOST}" {\n  token = "${login.token}"\n}\n`,
  );
  await writeFile(
    join(login.dir, 'main.tf'),
    `terraform {\n  cloud {\n    hostname     = "${CLI_HOST}"\n    organization = "${organization}"\n    workspaces { name = "${uniq('login')}" }\n  }\n}\nresource "terraform_data" "a" { input = "x" }\n`,
  );
  const env = { ...login.env, TF_IN_AUTOMATION: '1' };
  const init = await terraform(login.dir, env, ['init', '-input=false', '-no-color']);
  expect(init.code, init.output).to.equal(0);
  const plan = await terraform(login.dir, env, ['plan', '-input=false', '-no-color']);
  expect(plan.code, plan.output).to.equal(0);
  expect(plan.output).to.include('1 to add');
  return plan.output;
}
