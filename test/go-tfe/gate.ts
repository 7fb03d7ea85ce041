/*
 * The go-tfe gate: starts the built service on a database and queue prefix of its own, makes a
 * user and its token through the site admin, runs go-tfe's compiled integration tests over the
 * areas this service provides, fails on any failure `expected-failures.tsv` does not list, and
 * writes docs/compatibility.md from the run's results.
 *
 *   node dist/test/go-tfe/gate.js [AREA...]     (default: every area in areas.txt beside this file)
 *
 * GO_TFE_DIR names the folder of the compiled suite (default: ../shared/tools/go-tfe beside the
 * repository); OUT the folder for its logs (default: go-tfe-out); ONLY is passed on (a regex of
 * test function names). WRITE_DOC=0 leaves docs/compatibility.md alone.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { policyRuntimeEnv } from '../helpers/policy-runtimes.js';
import { readExpected, writeCompatibilityPage } from './report.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const source = join(repo, 'test/go-tfe');
const suite = resolve(process.env.GO_TFE_DIR ?? join(repo, '../shared/tools/go-tfe'));
const out = resolve(process.env.OUT ?? join(repo, 'go-tfe-out'));
/** Areas whose tests call site-admin endpoints with the token they are given. */
const ADMIN_AREAS = ['admin-opa-version', 'admin-sentinel-version', 'policy-set'];

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

async function call(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ data: { id: string; attributes: Record<string, unknown> } }> {
  const res = await fetch(`${base}/api/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

async function main(): Promise<number> {
  if (!existsSync(join(suite, 'run.sh')))
    throw new Error(`go-tfe's compiled suite is not at ${suite} (set GO_TFE_DIR)`);
  const areas =
    process.argv.slice(2).length > 0
      ? process.argv.slice(2)
      : (await readFile(join(source, 'areas.txt'), 'utf8')).split(/\s+/).filter(Boolean);
  const id = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const database = `rls_gotfe_${id}`;
  const adminDb = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await adminDb.connect();
  await adminDb.query(`create database ${database}`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const adminToken = randomBytes(24).toString('hex');
  const runtimes = await policyRuntimeEnv();
  await mkdir(out, { recursive: true });
  const service = spawn(process.execPath, [join(repo, 'dist/bin/all.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      BASE_URL: base,
      DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
      QUEUE_PREFIX: `rls_gotfe_${id}`,
      SITE_ADMIN_TOKEN: adminToken,
      OUTBOUND_ALLOWED_CIDRS: '127.0.0.1/32',
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      // The suite creates hundreds of organizations, workspaces and configuration versions in minutes.
      RATE_LIMIT_PER_SECOND: '0',
      RATE_LIMIT_CONFIGURATION_VERSIONS_PER_MINUTE: '0',
      RATE_LIMIT_VERIFICATIONS_PER_HOST_PER_MINUTE: '0',
      MAX_CONCURRENT_VERIFICATIONS_PER_HOST: '0',
      RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '0',
      RATE_LIMIT_INVITATIONS_PER_MINUTE: '0',
      RATE_LIMIT_INVITATIONS_PER_HOUR: '0',
      // One token from one address runs the whole suite, some of it in parallel.
      MAX_CONCURRENT_UPLOADS_PER_USER: '0',
      MAX_CONCURRENT_UPLOADS_PER_ADDRESS: '0',
      RECONCILE_INTERVAL_MS: '5000',
      LOG_LEVEL: process.env.GATE_LOG_LEVEL ?? 'warn',
      ...runtimes,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let serviceLog = '';
  service.stdout.on('data', (d: Buffer) => (serviceLog += d.toString()));
  service.stderr.on('data', (d: Buffer) => (serviceLog += d.toString()));
  const stop = async () => {
    if (service.exitCode === null) {
      service.kill('SIGTERM');
      await new Promise((r) => service.once('exit', r));
    }
    await writeFile(join(out, 'service.log'), serviceLog).catch(() => undefined);
    await adminDb.query(`drop database if exists ${database} with (force)`).catch(() => undefined);
    await adminDb.end();
  };
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (service.exitCode !== null) throw new Error(`the service exited: ${serviceLog}`);
      const ok = await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`the service was not ready in 60 s: ${serviceLog}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const user = await call(base, adminToken, 'POST', '/admin/users', {
      data: { type: 'users', attributes: { username: 'gotfe', email: 'gotfe@example.com' } },
    });
    const token = await call(base, adminToken, 'POST', `/users/${user.data.id}/authentication-tokens`, {
      data: { type: 'authentication-tokens' },
    });
    const expect = join(source, 'expected-failures.tsv');
    const started = Date.now();
    // go-tfe's site-admin tests (and the policy set tests, which register tool versions first) send
    // their requests with TFE_TOKEN: those areas run with the site admin's token, the rest as a user.
    const asAdmin = areas.filter((a) => ADMIN_AREAS.includes(a));
    const asUser = areas.filter((a) => !ADMIN_AREAS.includes(a));
    const runs: { areas: string[]; token: string; dir: string }[] = [
      { areas: asUser, token: String(token.data.attributes.token), dir: join(out, 'user') },
      { areas: asAdmin, token: adminToken, dir: join(out, 'admin') },
    ].filter((r) => r.areas.length > 0);
    let code = 0;
    for (const run of runs) {
      code |= await new Promise<number>((done) => {
        const child = spawn('bash', [join(suite, 'run.sh'), ...run.areas], {
          env: {
            ...process.env,
            TFE_ADDRESS: base,
            TFE_TOKEN: run.token,
            ADMIN_TOKEN: adminToken,
            // go-tfe's VCS connection tests skip without a GitHub token. The service stores a token
            // without asking GitHub (it is used when a repository is connected), so any text serves.
            OAUTH_CLIENT_GITHUB_TOKEN: process.env.OAUTH_CLIENT_GITHUB_TOKEN ?? 'ghp_unverified_test_token',
            // The repository the VCS-connected workspaces name; creating them does not reach GitHub.
            GITHUB_POLICY_SET_IDENTIFIER: process.env.GITHUB_POLICY_SET_IDENTIFIER ?? 'example-org/example-repo',
            GITHUB_REGISTRY_MODULE_IDENTIFIER:
              process.env.GITHUB_REGISTRY_MODULE_IDENTIFIER ?? 'example-org/terraform-random-module',
            OUT: run.dir,
            EXPECT: expect,
            PATH: runtimes.SENTINEL_PATH.includes('/')
              ? `${dirname(runtimes.SENTINEL_PATH)}:${process.env.PATH}`
              : process.env.PATH,
          },
          stdio: ['ignore', 'inherit', 'inherit'],
        });
        child.on('exit', (c) => done(c ?? 1));
      });
    }
    const results = (await Promise.all(runs.map((r) => readFile(join(r.dir, 'results.tsv'), 'utf8')))).join('');
    await writeFile(join(out, 'results.tsv'), results);
    // The last line counts as failed only the failures the list does not expect (what fails CI).
    const rows = results
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t'));
    const listed = await readExpected(expect);
    const count = (o: string) => rows.filter((r) => r[2] === o).length;
    const unexpected = rows.filter((r) => r[2] === 'FAIL' && !listed.has(r[1]!)).length;
    process.stdout.write(
      `go-tfe: ${count('FAIL') - unexpected} failures expected, with their reasons, in test/go-tfe/expected-failures.tsv\n`,
    );
    process.stdout.write(`go-tfe: ${count('PASS')} passed, ${unexpected} failed, ${count('SKIP')} skipped\n`);
    const seconds = Math.round((Date.now() - started) / 1000);
    if (process.env.WRITE_DOC !== '0') {
      await writeCompatibilityPage({
        results: join(out, 'results.tsv'),
        expect,
        areas,
        seconds,
        page: join(repo, 'docs/compatibility.md'),
      });
    }
    return code;
  } finally {
    await stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`go-tfe gate: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
