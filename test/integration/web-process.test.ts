import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, harness } from '../helpers/harness.js';
import { httpsCall, selfSignedCertificate, startHttpsApp, type HttpsApp } from '../helpers/https-app.js';
import { spawnWeb, waitFor } from '../helpers/processes.js';

/*
 * The web process as an operator starts it: serving https itself, refusing a configuration it
 * cannot run with at start-up (exit 1, a message naming the variable), and serving the console
 * from wherever it is installed.
 */

/** The built service (dist/), whose parts are copied elsewhere to start from another path. */
const DIST = fileURLToPath(new URL('../..', import.meta.url));
const REPO = resolve(DIST, '..');

/** Starts `bin/web.js` with `env` over the test run's environment; resolves with its exit code and output once it stopped by itself. */
async function refusedStart(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const web = spawnWeb({ PORT: String(await freePort()), ...env });
  const code = await Promise.race([web.exited, new Promise<'running'>((r) => setTimeout(() => r('running'), 20_000))]);
  if (code === 'running') {
    await web.stop();
    throw new Error(`the web process started: ${web.output()}`);
  }
  return { code, output: web.output() };
}

/** A plain-http GET of an https port: the answer's status, or the error the connection ended with. */
const plainHttpStatus = (port: number) =>
  new Promise<number | string>((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/api/v2/ping' }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? String(err)));
    req.end();
  });

describe('the web process', function () {
  this.timeout(60_000);

  describe('serving https itself (TLS_CERT_FILE, TLS_KEY_FILE)', () => {
    let app: HttpsApp;
    before(async () => {
      app = await startHttpsApp();
    });
    after(async () => {
      await app?.close();
    });

    it('answers the API and the console over TLS with the configured certificate, and no plain http on its port', async () => {
      const ping = await httpsCall(app, 'GET', '/api/v2/ping');
      expect(ping.status, ping.text).to.equal(204);
      const me = await httpsCall(app, 'GET', '/api/v2/account/details', {
        headers: { Authorization: `Bearer ${harness().adminToken}` },
      });
      expect(me.status, me.text).to.equal(200);
      expect(me.body.data.attributes.username).to.equal('admin');
      const page = await httpsCall(app, 'GET', '/app/', { headers: { Accept: 'text/html' } });
      expect(page.status).to.equal(200);
      expect(page.text).to.include('<div id="root">');
      // A client that does not trust the certificate is refused by TLS itself.
      const untrusted = await fetch(`${app.baseUrl}/api/v2/ping`).then(
        () => 'answered',
        (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? 'failed',
      );
      expect(untrusted).to.match(/SELF_SIGNED|DEPTH_ZERO|UNABLE_TO_VERIFY|CERT/);
      const port = Number(new URL(app.baseUrl).port);
      expect(await plainHttpStatus(port)).to.not.equal(204);
    });
  });

  describe('refusing to start', () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'rls-start-'));
    });
    after(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('with only one of TLS_CERT_FILE and TLS_KEY_FILE', async () => {
      const { certFile, keyFile } = await selfSignedCertificate(dir);
      for (const env of [{ TLS_CERT_FILE: certFile }, { TLS_KEY_FILE: keyFile }]) {
        const { code, output } = await refusedStart(env);
        expect(code, output).to.equal(1);
        expect(output).to.include('TLS_CERT_FILE and TLS_KEY_FILE go together: set both (https) or neither (http)');
      }
    });

    it('with a TLS file it cannot read, or files that hold no certificate and key', async () => {
      const { certFile, keyFile } = await selfSignedCertificate(dir);
      const missing = join(dir, 'no-such-key.pem');
      const unreadable = await refusedStart({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: missing });
      expect(unreadable.code, unreadable.output).to.equal(1);
      expect(unreadable.output).to.include(`web failed to start: TLS_KEY_FILE: cannot read ${missing} (ENOENT)`);
      const junk = join(dir, 'junk.pem');
      await writeFile(junk, 'not a certificate\n');
      const garbled = await refusedStart({ TLS_CERT_FILE: junk, TLS_KEY_FILE: keyFile });
      expect(garbled.code, garbled.output).to.equal(1);
      expect(garbled.output).to.include(
        'web failed to start: TLS_CERT_FILE/TLS_KEY_FILE: not a usable certificate and key',
      );
    });

    it('with a SITE_ADMIN_TOKEN shorter than 16 characters, naming the variable and the minimum', async () => {
      const { code, output } = await refusedStart({ SITE_ADMIN_TOKEN: 'x'.repeat(15) });
      expect(code, output).to.equal(1);
      expect(output).to.include('SITE_ADMIN_TOKEN must NOT have fewer than 16 characters');
      expect(output).to.not.include('x'.repeat(15));
    });
  });

  describe('installed under a path with a dot segment (~/.local/...)', () => {
    let root: string;
    after(async () => {
      if (root) await rm(root, { recursive: true, force: true });
    });

    it('serves the console page, its assets and the site icon', async () => {
      root = await mkdtemp(join(tmpdir(), 'rls-install-'));
      const app = join(root, '.local', 'app');
      // The built service as an install has it: its compiled code and console, package.json (the module type), node_modules.
      for (const part of ['bin', 'server', 'shared', 'workers', 'console'])
        await cp(join(DIST, part), join(app, 'dist', part), { recursive: true });
      await cp(join(REPO, 'package.json'), join(app, 'package.json'));
      await symlink(join(REPO, 'node_modules'), join(app, 'node_modules'));
      const port = await freePort();
      const proc = spawn(process.execPath, [join(app, 'dist', 'bin', 'web.js')], {
        cwd: app,
        env: { ...harness().childEnv, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      proc.stdout.on('data', (d: Buffer) => (output += d.toString()));
      proc.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
      try {
        await waitFor(
          () => output.includes('"web listening"'),
          () => `the web process to listen: ${output}`,
          30_000,
        );
        const base = `http://127.0.0.1:${port}`;
        const page = await fetch(`${base}/app/organizations`, { headers: { Accept: 'text/html' } });
        const html = await page.text();
        expect(page.status, html).to.equal(200);
        expect(html).to.include('<div id="root">');
        const asset = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)?.[1];
        expect(asset, html).to.be.a('string');
        const script = await fetch(`${base}${asset}`);
        expect(script.status).to.equal(200);
        expect(script.headers.get('content-type')).to.match(/javascript/);
        expect((await fetch(`${base}/favicon.ico`)).status).to.equal(200);
      } finally {
        proc.kill('SIGTERM');
        await exited;
      }
    });
  });
});
