import { expect } from 'chai';
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { dropDatabase } from '../../shared/platform/db.js';
import { api } from '../helpers/api.js';
import { waitFor } from '../helpers/processes.js';
import { flushQueueKeys, freePort, harness } from '../helpers/harness.js';
import { terraformAvailable } from '../helpers/terraform.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const WALKTHROUGH = fileURLToPath(new URL('../../../docs/walkthrough.sh', import.meta.url));
const BUILD = fileURLToPath(new URL('../../../bin/build.mjs', import.meta.url));
/** What "starts in seconds" means for a built checkout, on CI's 2-core machine. */
const START_BUDGET_MS = 15_000;

/** The parent of a process, from /proc (null once it is gone). */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** The descendant of `ancestor` whose command line includes `text` (the service under npm and bash). */
function descendantRunning(ancestor: number, text: string): number | null {
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      continue;
    }
    if (!cmdline.includes(text)) continue;
    for (let at = parentOf(pid), hops = 0; at && at > 1 && hops < 16; at = parentOf(at), hops++)
      if (at === ancestor) return pid;
  }
  return null;
}

describe('the README quick start, as written, against `npm start`', function () {
  this.timeout(300_000);

  before(async function () {
    if (!terraformAvailable()) this.skip();
    // The checkout is built first (as `npm test` has just done), so the start below measures a
    // start of a built checkout, not a build.
    this.timeout(300_000);
    await promisify(execFile)(process.execPath, [BUILD], { cwd: REPO });
  });

  it('starts a built checkout in seconds, then the quick start reaches a remote plan, a console session and a module from the registry', async () => {
    const runId = randomBytes(4).toString('hex');
    const port = await freePort();
    const databaseUrl = `postgres://postgres@127.0.0.1:5432/rls_walk_${runId}`;
    const queuePrefix = `walk-${runId}`;
    // Only what keeps this run apart from others on the machine: its port, database, queues and
    // key. The README's service block generates the site admin token itself.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      QUEUE_PREFIX: queuePrefix,
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
    };
    delete env.SITE_ADMIN_TOKEN;
    const started = Date.now();
    const service = spawn('bash', [WALKTHROUGH, 'service'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    service.stdout.on('data', (d: Buffer) => (output += d.toString()));
    service.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((r) => service.on('exit', (code) => r(code)));
    let steps = '';
    try {
      await waitFor(
        async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200,
        'readyz',
        60_000,
      );
      const startMs = Date.now() - started;
      expect(output, 'a built checkout is not rebuilt').to.not.include('building (');
      expect(startMs, `npm start to ready: ${startMs} ms`).to.be.below(START_BUDGET_MS);
      process.stdout.write(`      npm start of a built checkout: ready after ${startMs} ms\n`);

      const token = /^([0-9a-f]{32})$/m.exec(output)?.[1];
      expect(token, output).to.be.a('string');
      const run = await promisify(execFile)('bash', [WALKTHROUGH, 'steps'], {
        env: {
          PATH: process.env.PATH,
          SITE_ADMIN_TOKEN: token,
          RLS_ADDRESS: `127.0.0.1:${port}`,
          CHECKPOINT_DISABLE: '1',
        },
        maxBuffer: 16 * 1024 * 1024,
      }).catch((err: { stdout?: string; stderr?: string }) => {
        throw new Error(`the quick start failed:\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
      });
      steps = `${run.stdout}${run.stderr}`;

      expect(steps).to.match(/^organization: acme$/m);
      // Step 5: the remote plan, streamed by the CLI from the run worker.
      expect(steps).to.include('Running plan in Terraform Enterprise');
      expect(steps).to.include('Plan: 1 to add, 0 to change, 0 to destroy.');
      expect(steps).to.include(`127.0.0.1:${port}/app/acme/networking/runs/run-`);
      // Step 6: a reset link under BASE_URL, a password set with it, a session that works on the API.
      expect(steps).to.include(`http://127.0.0.1:${port}/app/reset-password?token=`);
      expect(steps).to.match(/^signed in as alice$/m);
      // Step 7: Bull Board for the site admin.
      expect(steps).to.match(/^queues: [1-9]\d*$/m);
      // More with curl.
      expect(steps).to.include('team users: alice');
      expect(steps).to.include('sensitive value returned: null');
      expect(steps).to.include('variables: env:API_SECRET,terraform:region,terraform:zones');
      expect(steps).to.include('state version: serial 1 finalized');
      expect(steps).to.include('outputs: region=eu-west-1');
      expect(steps).to.not.include('s3cret');
      // Private modules: the source the registry prints is BASE_URL's host, and init installs from it.
      expect(steps).to.include(`source: 127.0.0.1:${port}/acme/naming/local`);
      expect(steps).to.include(`Downloading 127.0.0.1:${port}/acme/naming/local 1.0.0 for n...`);
      expect(steps).to.match(/name = "app-web"/);

      // The plan ran on the service: the workspace the CLI created holds a finished speculative run.
      const base = `http://127.0.0.1:${port}/api/v2`;
      const ws = await api('GET', `${base}/organizations/acme/workspaces/networking`, { token });
      expect(ws.status, ws.text).to.equal(200);
      const runs = await api('GET', `${base}/workspaces/${ws.body.data.id}/runs`, { token });
      expect(runs.body.data.map((r: { attributes: { status: string } }) => r.attributes.status)).to.deep.equal([
        'planned_and_finished',
      ]);
    } catch (err) {
      throw new Error(`${String(err)}\n--- quick start output ---\n${steps}\n--- service output ---\n${output}`);
    } finally {
      // SIGTERM to the service itself, as a process manager would send it; npm passes on its exit code.
      const pid = service.pid ? descendantRunning(service.pid, 'dist/bin/all.js') : null;
      if (pid) process.kill(pid, 'SIGTERM');
      else service.kill('SIGTERM');
      expect(await exited, output).to.equal(0);
      await dropDatabase(databaseUrl);
      await flushQueueKeys(harness(), queuePrefix);
    }
  });
});
