import { expect } from 'chai';
import { spawn, execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { dropDatabase } from '../../shared/db.js';
import { waitFor } from '../helpers/processes.js';
import { flushQueueKeys, freePort, harness } from '../helpers/harness.js';

const EMBEDDED = fileURLToPath(new URL('../../bin/all.js', import.meta.url));
/** The site admin token the walkthrough is run with (SITE_ADMIN_TOKEN needs 16 characters or more). */
const ADMIN_TOKEN = 'walkthrough-admin-token';


describe('the README walkthrough against the embedded process (npm start)', function () {
  this.timeout(90_000);

  it('creates its database, becomes ready, and the curl walkthrough works as written', async () => {
    const runId = randomBytes(4).toString('hex');
    const port = await freePort();
    const databaseUrl = `postgres://postgres@127.0.0.1:5432/rls_walk_${runId}`;
    const proc = spawn(process.execPath, [EMBEDDED], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        QUEUE_PREFIX: `walk-${runId}`,
        SITE_ADMIN_TOKEN: ADMIN_TOKEN,
        PORT: String(port),
        ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    proc.stdout.on('data', (d: Buffer) => (output += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
    try {
      const started = Date.now();
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200, 'readyz', 60_000);
      expect(Date.now() - started).to.be.below(60_000);

      const { stdout } = await promisify(execFile)('bash', [resolve('docs/walkthrough.sh')], {
        env: { ...process.env, API: `http://127.0.0.1:${port}/api/v2`, ADMIN_TOKEN, SUFFIX: runId },
      });
      expect(stdout).to.match(/^ws-\w{16}$/m);
      expect(stdout).to.include(`team users: alice${runId}`);
      expect(stdout).to.include('team users after removal: 0');
      expect(stdout).to.include('state version: serial 1 finalized');
      expect(stdout).to.include('outputs: region=eu-west-1');
      expect(stdout).to.include('sensitive value returned: null');
      expect(stdout).to.include('variables: env:API_SECRET,terraform:region,terraform:zones');
      expect(stdout).to.not.include('s3cret');
    } catch (err) {
      throw new Error(`${String(err)}\n--- service output ---\n${output}`);
    } finally {
      proc.kill('SIGTERM');
      expect(await exited).to.equal(0);
      await dropDatabase(databaseUrl);
      await flushQueueKeys(harness(), `walk-${runId}`);
    }
  });
});
